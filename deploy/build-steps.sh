#!/usr/bin/env bash
# The Dockerfile's steps as a plain script, for machines without a Docker engine (CI here):
# build the venv from the repository, then answer a question and run the health check
# exactly as the image would, with the store in a scratch folder.
#   deploy/build-steps.sh [PREFIX]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${1:-$(mktemp -d)}"
python3 -m venv "$prefix/venv"
"$prefix/venv/bin/pip" install -q "$repo"
export RULINGS_DATA="$repo/rulings_data" RULINGS_DB="$prefix/data/rulings.sqlite3"
"$prefix/venv/bin/rulings" show "matching commander" --edition 1E
"$prefix/venv/bin/rulings" doctor

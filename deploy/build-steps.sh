#!/usr/bin/env bash
# The Dockerfile's steps as a plain script, for machines without a Docker engine: install the
# locked dependencies, then the package itself (offline, not editable), then answer a question
# from outside the checkout exactly as the image would, with the store in a scratch folder.
# Needs the package index for the locked dependencies.
#   deploy/build-steps.sh [PREFIX]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${1:-$(mktemp -d)}"
python3 -m venv "$prefix/venv"
"$prefix/venv/bin/pip" install -q --require-hashes --no-deps -r "$repo/deploy/requirements.lock"
"$prefix/venv/bin/pip" install -q --no-deps --no-build-isolation --no-index "$repo"
"$prefix/venv/bin/pip" check
mkdir -p "$prefix/data"
cd "$prefix/data"
unset RULINGS_DATA
export RULINGS_DB="$prefix/data/rulings.sqlite3"
"$prefix/venv/bin/rulings" show "matching commander" --edition 1E
"$prefix/venv/bin/rulings" doctor

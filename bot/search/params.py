"""The fitted parameter files beside the search modules (``ranking.json``,
``confidence.json``): read with a warning when missing or damaged, written after a fit."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

log = logging.getLogger(__name__)

Model = TypeVar("Model")


def read(path: Path, parse: Callable[[dict], Model], without: str) -> Model | None:
    """The parameters at ``path``, or None (logged, saying what happens ``without`` them)."""
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError) as exc:
        log.warning("no parameters at %s (%s): %s", path, exc, without)
        return None


def write(data: dict, path: Path) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

"""The fitted parameter files beside the search modules (``ranking.json``,
``confidence.json``): written after a fit, shipped inside the package. The shipped ones are
required: without them the search would rank and decide by a cruder rule than the one the
tests measure, so a missing or damaged file stops the start (:func:`required`)."""

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


class MissingParameters(ValueError):
    """A shipped parameter file is missing or damaged: the install is incomplete."""


def required(path: Path, parse: Callable[[dict], Model]) -> Model:
    """The shipped parameters at ``path``; :class:`MissingParameters` naming it if unreadable."""
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError) as exc:
        raise MissingParameters(
            f"{path}: the fitted search parameters are missing or damaged ({exc}); "
            "reinstall the package (they ship inside it)"
        ) from exc


def write(data: dict, path: Path) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

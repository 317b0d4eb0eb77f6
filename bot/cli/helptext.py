"""The ``--help`` of each subcommand: what it does, then examples to copy."""

from __future__ import annotations

import argparse
from typing import Any


def described(summary: str, *examples: str, details: str = "", notes: str = "") -> dict[str, Any]:
    """Keyword arguments for ``add_parser``: the one-line ``summary`` (the top-level list),
    a description (``details``, else the summary as a sentence) and an epilog of ``examples``
    (each a command line) followed by ``notes``. Layout is kept as written."""
    if not examples:
        raise ValueError(f"{summary!r}: every subcommand shows at least one example")
    sentence = summary[0].upper() + summary[1:]
    epilog = "examples:\n" + "\n".join(f"  {example}" for example in examples)
    if notes:
        epilog += "\n\n" + notes
    return {
        "help": summary,
        "description": details or (sentence if sentence.endswith(".") else sentence + "."),
        "epilog": epilog,
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }

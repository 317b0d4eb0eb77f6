"""Conventions every ``rulings`` subcommand shares: its ``--help`` (what it does, then
examples to copy) and its ``--json`` report (one JSON document on stdout)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot import validate

JSON_HELP = "machine-readable output (JSON), on answers and on misses alike"
REPORT_JSON_HELP = "print what was done as one JSON document on stdout"


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


def emit_json(data: Any) -> None:
    """A command's report as one JSON document on stdout."""
    print(json.dumps(data, ensure_ascii=False, indent=2))


# ------------------------------------------------------------------ argument values
def edition_value(value: str) -> str:
    """``--edition``: 1E or 2E, in any spelling :func:`bot.validate.edition` accepts."""
    try:
        return validate.edition(value)
    except validate.InvalidValue as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def kind_value(value: str) -> str:
    """``--kind``: one of the kinds of source document (:func:`bot.validate.document_kind`)."""
    try:
        return validate.document_kind(value)
    except validate.InvalidValue as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def query_value(value: str) -> str:
    """A query no longer than Discord takes (``bot.validate.MAX_QUERY_CHARS``)."""
    if len(value) > validate.MAX_QUERY_CHARS:
        raise argparse.ArgumentTypeError(
            f"the query is {len(value):,} characters; a query may be "
            f"{validate.MAX_QUERY_CHARS} at most (as on Discord): ask with fewer words"
        )
    return value


def date_value(value: str) -> str:
    """A real calendar date written YYYY-MM-DD."""
    try:
        return validate.iso_date(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def limit_value(value: str) -> int:
    """A count of results or changes: a whole number from 1 to 50."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError("limit must be a whole number") from None
    if not 1 <= number <= 50:
        raise argparse.ArgumentTypeError("limit must be between 1 and 50")
    return number

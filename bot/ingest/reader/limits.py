"""How much one uploaded document may hold and cost to read; past each, a clear refusal.

The bundled documents are far below these (the largest: 230 entries, 200 KB, lines of
3,000 characters); the limits stop a hostile or mistaken upload from costing the bot
minutes of work or hundreds of megabytes.
"""

from __future__ import annotations

import os

MAX_DOCUMENT_BYTES = 8 * 1024 * 1024  # the file as uploaded (a PDF carries fonts and images)
MAX_TEXT_CHARS = 4_000_000  # its text, once decoded
MAX_LINE_CHARS = 20_000  # one line of that text (a table row of a web page, say)
MAX_ENTRIES = 10_000  # entries one document may add
MAX_PDF_PAGES = 2_000


def _setting(value: str | None, default: float) -> float:
    try:
        return float(value) if value else default
    except ValueError:
        return default


def read_seconds() -> float:
    """Wall-clock seconds the worker reading one document may take (RULINGS_READ_SECONDS)."""
    return _setting(os.environ.get("RULINGS_READ_SECONDS"), 60.0)


def read_memory_bytes() -> int:
    """Address space the worker reading one document may use (RULINGS_READ_MEMORY_MB)."""
    return int(_setting(os.environ.get("RULINGS_READ_MEMORY_MB"), 1024.0) * 1024 * 1024)

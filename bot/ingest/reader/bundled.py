"""The bundled shapes, read by the project's own parsers in ``bot.ingest.parsers``.

Each is detected here from the content and then handed, unchanged, to the parser named in
``rulings_data/documents.yaml``; the parsers' entries become :class:`ReadEntry` rows.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseResult, get_parser
from bot.ingest.reader.common import doubt_missed_heads
from bot.ingest.reader.model import Parsed, ReadEntry

UPLOAD = "<upload>"
_CRD_2E_TEXT_ENTRY = re.compile(r"^\*?[a-z][a-z ,/'’()]{1,40}?\s*(?:\s–|–\s)\s*\S")
_CRD_2E_MARKDOWN_ENTRY = re.compile(r"^\*\*(.+?)\*\*\s*[–-]")
_CRD_1E_START = re.compile(r"^RULINGS\s*[–-]\s*General", re.M)


def convert(result: ParseResult, parser: str) -> Parsed:
    entries = [
        ReadEntry(
            title=e.title,
            text=e.text,
            line=e.line,
            kind=e.kind,
            amendments=list(e.amendments),
            marked_new=e.marked_new,
            see_also=list(e.see_also),
            taken_from=e.taken_from,
        )
        for e in result.entries
    ]
    return Parsed(entries=entries, warnings=list(result.warnings), parser=parser)


def _run(parser: str, text: str) -> Parsed:
    return convert(get_parser(parser)(text, UPLOAD), parser)


def _with_text_above_checked(parsed: Parsed, text: str) -> Parsed:
    """``parsed`` (a Current Rulings Document's read) with a doubt naming the lines above its
    first entry that open like entries its parser could not place (a copy of a PDF whose
    columns came out of order: "General" / "abilities – Personnel may have …" above the
    document's title). The preamble a document prints there is no news: no note."""
    if parsed.entries:
        first = min(entry.line for entry in parsed.entries)
        before = [(n, line.strip()) for n, line in enumerate(text.split("\n")[: first - 1], 1)]
        doubt_missed_heads(
            parsed, [(n, line) for n, line in before if line], "before the first entry"
        )
    return parsed


def detect_crd_2e_text(text: str) -> float:
    if "Current Rulings" not in text[:5000]:
        return 0.0
    lines = text.split("\n")
    entries = sum(1 for line in lines if _CRD_2E_TEXT_ENTRY.match(line.strip()))
    return 0.9 if entries >= 5 else 0.0


def parse_crd_2e_text(text: str) -> Parsed:
    return _with_text_above_checked(_run("crd-2e-text", text), text)


def detect_crd_markdown(text: str) -> float:
    if _CRD_1E_START.search(text):
        return 0.97
    lines = text.split("\n")
    bold = sum(1 for line in lines if _CRD_2E_MARKDOWN_ENTRY.match(line.strip()))
    return 0.97 if bold >= 3 else 0.0


def parse_crd_markdown(text: str) -> Parsed:
    """Both editions' Markdown CRDs: the 1E one opens its rulings with "RULINGS – General"."""
    parser = "crd-1e-markdown" if _CRD_1E_START.search(text) else "crd-2e-markdown"
    return _with_text_above_checked(_run(parser, text), text)


def detect_opencards(text: str) -> float:
    lines = {line.strip() for line in text.split("\n")}
    if "TermTaken from" in lines and any(line.startswith("Taken from ") for line in lines):
        return 0.98
    return 0.0


def parse_opencards(text: str) -> Parsed:
    return _run("opencards-terms", text)

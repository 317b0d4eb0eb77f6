"""2E Current Rulings Document in Markdown (the 2011-10-05 CRD).

Shape: ``**term** – text`` entries (``\\*`` inside the bold marks new or changed), headings
(``## General``, ``## Card-Specific``), preamble paragraphs after a heading, and in the
card-specific section ``**Card Title** – Clarification:`` entries. Lists are Markdown
(``1.``, ``  - a.``); they are written in the same canonical form as the other parsers.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParsedEntry, ParseResult, ParseWarning, SourceFormatError
from bot.ingest.parsers.text import (
    CARD_RULING_LABEL,
    amendment_of,
    blocks,
    check_readable,
    clean_title,
    ends_sentence,
    join_paragraphs,
    see_also,
)
from bot.models import KIND_CARD_RULING, KIND_CLARIFICATION, KIND_RULE
from bot.normalize import normalize

_ENTRY = re.compile(r"^\*\*(.+?)\*\*\s*[–-]\s*(.*)$")
_KIND_SUFFIX = re.compile(rf"^({CARD_RULING_LABEL}):?\s*$", re.I)
_NESTED_ITEM = re.compile(r"^\s*-\s+(?=[a-z]\.\s)")  # "  - a. text" -> "a. text"


def _canonical_lines(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        line = _NESTED_ITEM.sub("", line).strip()
        out.append(line)
    return out


def parse(text: str, path: str, known_titles: frozenset[str] = frozenset()) -> ParseResult:
    """Read the Markdown 2E CRD into entries (see the module docstring)."""
    check_readable(text, path)
    result = ParseResult()
    current: ParsedEntry | None = None
    paragraphs: list[str] = []
    card_section = False

    def close() -> None:
        if current is None:
            return
        # A page break in the source split one sentence over two paragraphs; rejoin it.
        merged: list[str] = []
        for paragraph in paragraphs:
            if merged and not ends_sentence(merged[-1]) and paragraph[:1].islower():
                merged[-1] = f"{merged[-1]} {paragraph}"
            else:
                merged.append(paragraph)
        current.text = join_paragraphs(merged)
        current.amendments = [a for a in (amendment_of(p) for p in merged) if a]
        current.see_also = see_also(current.text)
        if not current.text:
            result.warnings.append(
                ParseWarning(current.line, f"entry {current.title!r} has no text")
            )
        result.entries.append(current)

    for line_no, lines in blocks(text):
        first = lines[0]
        if first.startswith("#"):
            close()
            current, paragraphs = None, []
            card_section = "card" in first.lower()
            continue
        match = _ENTRY.match(first)
        if match:
            close()
            title, marked_new = clean_title(match.group(1))
            rest = match.group(2).strip()
            kind = KIND_RULE
            if card_section or _KIND_SUFFIX.match(rest):
                suffix = _KIND_SUFFIX.match(rest)
                kind = KIND_CLARIFICATION if suffix else KIND_CARD_RULING
                if suffix:
                    rest = ""
            elif normalize(title) in known_titles:
                kind = KIND_CARD_RULING
            current = ParsedEntry(
                title=title, text="", line=line_no, kind=kind, marked_new=marked_new
            )
            first_paragraph = "\n".join(_canonical_lines([rest, *lines[1:]])).strip()
            paragraphs = [first_paragraph] if first_paragraph else []
            continue
        if current is None:
            continue  # preamble under a heading: the document's own introduction
        paragraphs.append("\n".join(_canonical_lines(lines)))
    close()
    if not result.entries:
        raise SourceFormatError(path, None, "no '**term** – text' entries found; not a 2E CRD")
    return result

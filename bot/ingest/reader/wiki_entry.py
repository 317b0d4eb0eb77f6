"""``wiki-entry``: a wiki page holding one entry: a title line, then its text.

The weakest shape: it is chosen only when no other fits and the page opens with a short
title line followed by prose.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader.common import entry_of, lines_of, paragraphs, take_cards
from bot.ingest.reader.model import Parsed

_EDIT = re.compile(r"\s*\[edit(?: \| edit source)?\]\s*$")
_TITLE = re.compile(r"^[\w\"“'(][^.!?]{0,79}$")
# Wiki chrome printed around the article, not part of it.
_CHROME = re.compile(
    r"^(?:From .*wiki.*|From [A-Z][\w ]{0,40}|Jump to:? (?:navigation|search).*|Navigation menu|"
    r"Retrieved from .*|"
    r"Categor(?:y|ies):.*|This page was last (?:edited|modified).*|\[edit\]|edit)$",
    re.I,
)


def _rows(text: str) -> list[tuple[int, str]]:
    return [(n, line) for n, line in lines_of(text) if not _CHROME.match(line.strip())]


def detect(text: str) -> float:
    rows = [(n, line.strip()) for n, line in _rows(text) if line.strip()]
    if len(rows) < 2 or not _TITLE.match(rows[0][1]) or len(rows[0][1].split()) > 10:
        return 0.0
    prose = [line for _, line in rows[1:] if len(line.split()) >= 5 and ends_sentence(line)]
    return 0.35 if prose else 0.0


def parse(text: str) -> Parsed:
    result = Parsed()
    rows = _rows(text)
    first = next((i for i, (_, line) in enumerate(rows) if line.strip()), None)
    if first is None:  # a blank page holds no entry
        return result
    number, title = rows[first][0], rows[first][1].strip()
    rest = [(n, _EDIT.sub("", line)) for n, line in rows[first + 1 :]]
    # An infobox and navigation ("a | b | c") before the article's first sentence.
    start = next(
        (i for i, (_, line) in enumerate(rest) if len(line.split()) >= 5 and ends_sentence(line)),
        0,
    )
    skipped = [(n, line.strip()) for n, line in rest[:start] if line.strip()]
    result.ignored(skipped, "text before the article", ": infobox, navigation")
    body, cards = take_cards(rest[start:])
    texts = [p for _, p in paragraphs(body)]
    if not texts:
        result.warnings.append(ParseWarning(number, f"entry {title!r} has no text"))
    result.entries.append(entry_of(title, texts, number, cards))
    return result

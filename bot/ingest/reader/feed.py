"""``rulings-feed``: the committee's 2E rulings feed.

Shape: an optional heading ("Second Edition"), then rulings, each a ``Title YYYY-MM-DD``
line, its text, ``Example:`` paragraphs, and possibly an "Applicable Cards:" line.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.reader import chrome
from bot.ingest.reader.common import (
    cut_fragment,
    entry_of,
    lines_of,
    paragraphs,
    take_cards,
)
from bot.ingest.reader.dates import ISO
from bot.ingest.reader.known import is_known
from bot.ingest.reader.metadata import dating_label
from bot.ingest.reader.model import Parsed

# A page that sets the date apart by its style alone ("Naming a Number<span>2017-06-06</span>")
# copies with no space before it: after a letter or a title's closing sign, none is needed.
_TITLE = re.compile(rf"^(\S.{{0,100}}?)(?:\s++|(?<=[^\W\d]|[)!?'’\"”]))({ISO})\s*+$")
# the same run into its text, where a copy joined the title's line to the text's
_RUN_IN = re.compile(rf"^(\S.{{0,100}}?)\s++({ISO})\s++([A-Z\"“].*)$")
_MAX_RUN_IN_WORDS = 10
# The rulings page's own heading ("Second Edition", "First Edition Rulings", "Rulings")
_HEADING_WORDS = r"(?:(?:First|Second) Edition(?: Rulings)?|Rulings)"
HEADING = re.compile(rf"^{_HEADING_WORDS}$", re.I)
# the page's heading joined to the first title by a copy that joined lines
_HEADING_FIRST = re.compile(rf"^{_HEADING_WORDS}\s+(?=\S)")


def title_match(line: str) -> re.Match[str] | None:
    """``Title YYYY-MM-DD`` (title, date) of a ruling's title line; None for any other line,
    and for a label's date ("Last updated: 2026-09-05")."""
    tail = line.rstrip()[-11:]
    if not _DATE_AT_END.search(tail):
        return None  # most lines of a page: no date at their end, so no title's
    match = _TITLE.match(line)
    return None if match is None or dating_label(match.group(1)) else match


_DATE_AT_END = re.compile(rf"{ISO}$")


def _run_in(line: str) -> re.Match[str] | None:
    """``Title YYYY-MM-DD Text…`` (title, date, the text's start): a ruling's title line
    joined to its text ("Set Up 2016-09-19 When this event's text …"). The title is a few
    words opening in a capital, with no sentence's mark in it, and no label's."""
    match = _RUN_IN.match(line)
    if match is None or dating_label(match.group(1)):
        return None
    title = match.group(1)
    words = title.split()
    if len(words) > _MAX_RUN_IN_WORDS or not title[:1].isupper() or re.search(r"[.!?;:]", title):
        return None
    # one word before a date opens many a sentence ("Effective 2017-01-01 This …"): only a
    # title the project knows is taken so
    return match if len(words) > 1 or is_known(title) else None


def _head(line: str) -> re.Match[str] | None:
    return title_match(line) or _run_in(line)


def detect(text: str) -> float:
    titles = sum(1 for _, line in lines_of(text) if _head(line.strip()))
    if not titles or "|" in text[:2000] and "\t" not in text[:2000]:
        return 0.0 if not titles else 0.4
    return 0.9 if titles >= 2 else 0.7


def parse(text: str) -> Parsed:
    result = Parsed()
    rows = lines_of(text)
    starts = [i for i, (_, line) in enumerate(rows) if _head(line.strip())]
    if not starts:
        return result
    # The page around the list as a browser copies it (the site's footer under the last
    # ruling) is no ruling's text: blanked, and listed by line.
    titles = set(starts)
    removed = [
        (n, line.strip())
        for i, (n, line) in enumerate(rows)
        if i > starts[0] and i not in titles and chrome.kind_of(line)
    ]
    cleared = {n for n, _ in removed}
    rows = [(n, "" if n in cleared else line) for n, line in rows]
    result.ignored(removed, "page chrome among the rulings", ": footer, links")
    before = [(n, line) for n, line in rows[: starts[0]] if line.strip()]
    for number, line in before:
        if not HEADING.match(line.strip()):
            result.warnings.append(
                ParseWarning(number, f"text before the first ruling, ignored: {line[:60]!r}")
            )
    for position, index in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(rows)
        number, raw = rows[index]
        match = _head(raw.strip())
        assert match
        rest = match.group(3) if match.re is _RUN_IN else None  # text run into the title
        body, cards = take_cards(([(number, rest)] if rest else []) + rows[index + 1 : end])
        found = paragraphs(body)
        if position == len(starts) - 1 and (fragment := cut_fragment(found)):
            result.ignored([fragment], "the copy ends in a fragment after the last ruling")
        texts = [p for _, p in found]
        title = match.group(1).strip()
        if position == 0 and not before:
            title = _HEADING_FIRST.sub("", title)  # "Second Edition Naming a Number"
        entry = entry_of(title, texts, number, cards, match.group(2))
        if not entry.text:
            # the list prints some titles with nothing under them (their text folded away):
            # a title is no ruling, so it is listed, not imported empty
            result.warnings.append(
                ParseWarning(number, f"ruling {entry.title!r} has no text on the page: not read")
            )
            continue
        result.entries.append(entry)
    return result

"""``single-ruling-page``: one ruling on its own page.

Shape: the ruling's title (optionally followed by its date), its text and ``Example:``
paragraphs, then "Applicable Cards:" and the cards (on that line or one a line after it).
As a browser copies the committee's page, the site's menu line (and an edition heading)
come first and a copyright footer last: page chrome, set aside with a note, never a title.
A copy cut off before its cards (a page store keeps 2,000 characters) is known by the
site's ruling links or its "Rulings" heading; one that lost its title line is titled by its
one applicable card; the committee's card reviews, in the same shape, are refused by the
labels their paragraphs open with ("Positives:").
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import amendment_of, ends_sentence
from bot.ingest.reader import chrome, spacing
from bot.ingest.reader.common import (
    cut_fragment,
    entry_of,
    lines_of,
    paragraphs,
    take_cards,
    text_line,
)
from bot.ingest.reader.dates import ISO, US_DATE, iso_or_none
from bot.ingest.reader.feed import HEADING
from bot.ingest.reader.feed import title_match as feed_title
from bot.ingest.reader.heads import goes_on_below
from bot.ingest.reader.markdown import heading_level
from bot.ingest.reader.model import Parsed

_CARDS = re.compile(r"^[ \t]*Applicable Cards?:", re.I | re.M)
# The committee's ruling pages link to the list and the printable list of rulings; a
# browser copies those links (run together or a line each) above the ruling's title.
_RULING_LINKS = re.compile(r"(?:List|Print) Rulings[ \t]*$", re.M)
_EXAMPLE = re.compile(r"^[ \t]*Example:", re.M)
_EDITION_RULINGS = re.compile(
    r"^[ \t]*(?:First|Second) Edition[ \t]*\n(?:[ \t]*\n)*[ \t]*Rulings[ \t]*$", re.M
)
# A paragraph opening "Label: …". A ruling's own labels are these; a review's are others
# ("Positives:", "Negatives:", "Extra:" on the committee's card extras pages).
_LABEL = re.compile(r"([A-Z][a-z]{1,15}(?: [A-Za-z]{1,15})?):(?:\s|$)")
_RULING_LABELS = frozenset(
    "example examples note notes erratum errata clarification clarifications applicable cards "
    "applicable card date".split()
) | {"applicable cards", "applicable card"}
_DATE_LINE = re.compile(rf"^(?:Date:\s*)?({ISO}|{US_DATE})$")


def _content(line: str) -> bool:
    """A line of the ruling, not of the page around it."""
    line = line.strip()
    return bool(line) and not HEADING.match(line) and chrome.kind_of(line) is None


def _content_rows(text: str) -> list[bool]:
    """For each line of ``text``, whether it is a line of the ruling: not blank, no heading,
    and not the page's chrome (:func:`chrome.strip`: a footer a wrap carried on too)."""
    kept = chrome.strip(text).text.split("\n")
    return [bool(line.strip()) and not HEADING.match(line.strip()) for line in kept]


def detect(text: str) -> float:
    """Sure for a page with "Applicable Cards:" or the committee's ruling links; a page cut
    off before its cards (a page store keeps 2,000 characters) with only ``Example:``
    paragraphs to show it is a ruling is tried after the general reader found no heads."""
    titles = sum(1 for _, line in lines_of(text) if feed_title(line.strip()))
    if titles > 1:
        return 0.0
    if _CARDS.search(text) or _committees(text):
        return 0.92
    dated = _opening(text)
    if dated is None:
        return 0.0
    return 0.35 if _EXAMPLE.search(text) or dated else 0.0


def _committees(text: str) -> bool:
    """Whether the page carries the committee's ruling links or its "Rulings" heading."""
    head = text[:1000]
    return bool(_RULING_LINKS.search(head) or _EDITION_RULINGS.search(head))


def _review_labels(text: str) -> list[str]:
    """The labels a review opens its paragraphs with, not a ruling's ("Positives:"). A line
    a wrap carried on from the one above opens no paragraph ("… continue to next." /
    "Otherwise: Probe …", a ruling's text as a mail program wraps it)."""
    lines = text.split("\n")
    width = spacing.wrap_width(lines)
    labels = set()
    for before, line in zip(["", *lines], lines, strict=False):
        found = _LABEL.match(line)
        if not found or found.group(1).casefold() in _RULING_LABELS:
            continue
        if not spacing.wrapped_at(before, line, width):
            labels.add(found.group(1))
    return sorted(labels)


def _opening(text: str) -> bool | None:
    """Whether the ruling's title carries a date line, when the page opens with one ruling:
    its first prose follows a short title line (and perhaps a date line), with nothing above
    but short lines (the site's links), not an article's headings and paragraphs; else
    None. Only the lines up to the first prose are looked at (this runs on every upload)."""
    rows: list[str] = []
    for _, line in lines_of(text):
        if _content(line):
            rows.append(line.strip())
            if text_line(rows[-1]):
                break
    else:
        return None  # no prose at all
    if len(rows) == 1:
        return None  # prose first: no title above it
    above = rows[:-1]
    dated = False
    while above and _DATE_LINE.match(above[-1]):
        above.pop()
        dated = True
    if not above or len(above[-1].split()) > 8:
        return None
    if not all(len(line.split()) <= 3 for line in above[:-1]):
        return None
    return dated


def _ends_as_text(line: str) -> bool:
    """Whether ``line`` ends a sentence as no title does: "Abandon Ship!" and "playing an
    affiliation (non-Borg)" end as a sentence may, and are titles. A comma or a semicolon
    ends no title either: the sentence goes on on the next line, wrapped as a mail wraps
    it ("If Away Team/crew meets conditions (2 Computer Skill and Biology),")."""
    if line.rstrip().endswith((",", ";")):
        return True
    return ends_sentence(line) and not line.endswith((")", "!", "?"))


def _opens_text(line: str) -> bool:
    """Whether ``line`` is the ruling's text: a sentence, a long line, or an amendment's
    instruction ("Add the following"), which is short and no title."""
    line = line.strip()
    return amendment_of(line) is not None or len(line.split()) >= 8 or _ends_as_text(line)


def _title_row(rows: list[tuple[int, str]], first: int, last: int, result: Parsed) -> int:
    """The row of the ruling's title: the last line above its text (a date line under the
    title belongs to it). Lines above the title are the page's own links or headings, copied
    run together ("RulingsPrint Rulings"): short ones are noted, anything longer is a doubt."""
    prose = next((i for i in range(first, last + 1) if _opens_text(rows[i][1])), None)
    if prose is None:
        return first
    above = [i for i in range(first, prose) if rows[i][1].strip()]
    while above and _DATE_LINE.match(rows[above[-1]][1].strip()):
        above.pop()
    if len(above) <= 1:
        return first
    title = above[-1]
    skipped = [(rows[i][0], rows[i][1].strip()) for i in above[:-1]]
    if all(len(line.split()) <= 3 for _, line in skipped):
        result.ignored(skipped, "page links above the ruling's title", ": site links")
    else:
        result.warnings.append(
            ParseWarning(
                skipped[0][0],
                f"lines above the ruling's title were set aside ({skipped[0][1][:60]!r}); "
                "check that the title is the line just above the ruling's text",
                doubt=True,
            )
        )
    return title


def parse(text: str) -> Parsed:
    result = Parsed()
    if len(labels := _review_labels(text)) >= 2:
        result.holds_none = (
            "a review or an article in a ruling page's shape (its paragraphs open "
            + ", ".join(f"'{label}:'" for label in labels[:3])
            + ")"
        )
        return result
    rows = [(n, line) for n, line in lines_of(text)]
    if sum(1 for _, line in rows if heading_level(line)) >= 2:
        return result  # a page of Markdown sections holds several entries, not one ruling
    content = _content_rows(text)
    first = next((i for i, kept in enumerate(content) if kept), None)
    if first is None:  # a blank page holds no entry
        return result
    before = [(n, line.strip()) for n, line in rows[:first] if line.strip()]
    result.ignored(before, "page chrome before the ruling", ": site menu, headings")
    last = max(i for i, kept in enumerate(content) if kept)
    after = [(n, line.strip()) for n, line in rows[last + 1 :] if line.strip()]
    result.ignored(after, "page chrome after the ruling", ": footer")
    rows = rows[: last + 1]
    first = _title_row(rows, first, last, result)
    number, raw = rows[first]
    title, date = raw.strip(), None
    if match := feed_title(title):
        title, date = match.group(1).strip(), match.group(2)
    # "Abandon Ship!" is a title; a first line that ends a sentence with a full stop, runs
    # long, or goes on in the line under it (the ruling's first sentence wrapped), is the
    # ruling's text
    below = rows[first + 1][1].strip() if first + 1 < len(rows) else ""
    untitled = len(title) > 100 or _ends_as_text(title) or goes_on_below(title, below)
    body = rows[first + 1 :] if not untitled else rows[first:]
    at = next((i for i, (_, line) in enumerate(body) if _CARDS.match(line.strip())), len(body))
    body, cards = take_cards(body)
    if untitled and len(cards) == 1:
        # A copy that lost the ruling's title line: the one card it applies to names it.
        title = cards[0]
        result.warnings.append(
            ParseWarning(
                number,
                f"the page prints no title above the ruling: titled {title!r}, the one card "
                "under 'Applicable Cards:'",
            )
        )
    elif untitled:
        body = body[1:]
        at -= 1
        result.warnings.append(
            ParseWarning(
                number, f"the first line does not look like a title: {title[:60]!r}", doubt=True
            )
        )
    # The cards close the ruling: what a copy holds after them (a footer cut off mid-word,
    # as a page store keeps it) is the page's, not the ruling's text.
    after = [(n, line.strip()) for n, line in body[at:] if line.strip()]
    result.ignored(after, "text after the applicable cards", ": not the ruling's")
    body = body[:at]
    found = paragraphs(body)
    if found and date is None and (m := _DATE_LINE.match(found[0][1])):
        date = iso_or_none(m.group(1))
        found = found[1:]
    if fragment := cut_fragment(found):
        result.ignored([fragment], "the copy ends in a fragment after the ruling's text")
    texts = [p for _, p in found]
    if not cards and _CARDS.search(text):
        result.warnings.append(ParseWarning(number, "no cards after 'Applicable Cards:'"))
    elif not cards and not _committees(text):
        result.warnings.append(
            ParseWarning(
                number,
                f"read as one ruling titled {title!r} by its form alone (a title, a date or "
                "'Example:' paragraphs; no "
                "'Applicable Cards:' line, none of the committee's ruling links): check that "
                "the page is one ruling and that this is its title",
                doubt=True,
            )
        )
    elif not cards:
        result.warnings.append(
            ParseWarning(number, "no 'Applicable Cards:' line: the copy may end early")
        )
    result.entries.append(entry_of(title, texts, number, cards, date))
    return result

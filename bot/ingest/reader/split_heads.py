"""A moderator's heads inside entries a shape read: each splits its entry where it stands,
and one in text the shape set aside (before its first entry, under a heading between two)
opens an entry there.

A doubt says an entry may hold two ("contains a line that looks like a title … split them:
{line: 35, head: true}"). Reading the page again with the general reader, as for a refused
page, would lose what the page's own shape read (a Decipher list, an FAQ, a card's page):
so where every head a moderator names stands inside an entry of that read, the entry is
split at the line's words and the rest of the read is kept as it was.
"""

from __future__ import annotations

import bisect
import dataclasses
import re

from bot.ingest.parsers import Amendment
from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader.common import amendments_of, paragraphs, title_like
from bot.ingest.reader.general import given_head
from bot.ingest.reader.model import Parsed, ReadEntry

# A line longer than this is no line a moderator names as a head (the reader's lines are
# bounded by the document's size limits; this keeps each words pattern small).
_MAX_HEAD_LINE = 2_000


def split_at_heads(parsed: Parsed, lines: list[str], heads: dict[int, str | None]) -> Parsed | None:
    """``parsed`` with each entry that holds a line of ``heads`` (line number: the title
    given, or None for the line's own) split there, and a head in text the shape set aside
    opening an entry there; None where a head stands on an entry's own head line or on a
    line neither in an entry's text nor set aside: the page is then read with the heads as
    given."""
    starts = [entry.line for entry in parsed.entries]
    if not starts or starts != sorted(starts):
        return None
    inside: dict[int, list[int]] = {}  # entry's index: the heads inside it, in order
    early: list[int] = []  # heads in the text set aside before the first entry
    for number in sorted(heads):
        at = bisect.bisect_right(starts, number) - 1
        if not 0 < number <= len(lines) or at >= 0 and starts[at] == number:
            return None
        if at < 0:
            early.append(number)
            continue
        inside.setdefault(at, []).append(number)
    read = _set_aside_read(early, starts[0], lines, heads)
    if read is None:
        return None
    entries, taken = read  # and the set-aside lines read as entries
    for at, owner in enumerate(parsed.entries):
        cuts, aside = _cuts(owner, inside.get(at, []), lines)
        until = starts[at + 1] if at + 1 < len(starts) else len(lines) + 1
        tail = _set_aside_read(aside, until, lines, heads)
        if cuts is None or tail is None:
            return None
        entries += _split(owner, cuts, lines, heads) + tail[0]
        taken += tail[1]
    # the moderator has answered the doubts raised at the lines named, and on the text
    # set aside that the heads named now read as entries
    warnings = [
        w
        for w in parsed.warnings
        if not (w.doubt and (w.line in heads or any(a <= w.line < b for a, b in taken)))
    ]
    return dataclasses.replace(parsed, entries=entries, warnings=warnings)


def _set_aside_read(
    numbers: list[int], first: int, lines: list[str], heads: dict[int, str | None]
) -> tuple[list[ReadEntry], list[tuple[int, int]]] | None:
    """Entries opened by heads a moderator named in text the shape set aside (before its
    first entry, or after an entry) up to the next entry, at line ``first``, and the lines
    each took: each runs to the next head, or to a heading of its own after a sentence's
    end (the document's title, a section's, an unnamed entry's title line), or to that
    entry ("actions – step 1: initiation –" under a section heading the copy printed
    without a blank line). None where a head's line or the lines under it hold no words."""
    entries: list[ReadEntry] = []
    taken: list[tuple[int, int]] = []
    for at, number in enumerate(numbers):
        until = _heading_below(lines, number, numbers[at + 1] if at + 1 < len(numbers) else first)
        head = given_head(0, number, lines[number - 1].strip(), heads[number])
        body = [(line, lines[line - 1]) for line in range(number + 1, until)]
        texts = [head.rest.strip(), *(text for _, text in paragraphs(body))]
        text = "\n\n".join(part for part in texts if part)
        if not head.title or not text:
            return None
        entries.append(_entry(heads[number] or head.title, text, number, head.marked_new))
        taken.append((number, until))
    return entries, taken


def _heading_below(lines: list[str], number: int, until: int) -> int:
    """The first line after ``number`` and before ``until`` that stands as a heading (a title
    line of its own after a line that ends a sentence), else ``until``."""
    above = lines[number - 1].strip()
    for line in range(number + 1, until):
        text = lines[line - 1].strip()
        if text and ends_sentence(above) and title_like(text, alone=True):
            return line
        above = text or above
    return until


def _cuts(
    owner: ReadEntry, numbers: list[int], lines: list[str]
) -> tuple[list[tuple[int, int, int]] | None, list[int]]:
    """Where the lines ``numbers`` (in order) stand in ``owner``'s text: (line, where its
    words start, where they end) for each; and the heads from the first whose line, and the
    line under it, the text does not hold: lines the shape set aside after the entry ("DS9
    –" read as a section's heading, its text outside any entry). None (with no heads) where
    a line is neither. Each search goes on from the last cut: an entry is scanned once."""
    cuts: list[tuple[int, int, int]] = []
    position, after = 0, owner.line
    for index, number in enumerate(numbers):
        line = lines[number - 1].strip()
        if not line or len(line) > _MAX_HEAD_LINE:
            return None, []
        where = _where(owner.text, position, line, lines[after : number - 1])
        if where is None:
            under = next((text.strip() for text in lines[number:] if text.strip()), "")
            if under and len(under) <= _MAX_HEAD_LINE and _where(owner.text, position, under, []):
                return None, []  # the text goes on under it: no line of that text
            return cuts, numbers[index:]
        cuts.append((number, *where))
        position, after = where[1], number
    return cuts, []


def _split(
    owner: ReadEntry,
    cuts: list[tuple[int, int, int]],
    lines: list[str],
    heads: dict[int, str | None],
) -> list[ReadEntry]:
    """``owner`` cut where ``cuts`` stand, each piece after a cut an entry of its own."""
    if not cuts:
        return [owner]
    kept = owner.text[: cuts[0][1]].rstrip()
    # the editing instructions and references go with the paragraphs that give them ("Borg"
    # / "Replace the first paragraph …" cut from the entry above is Borg's instruction)
    pieces = [
        dataclasses.replace(
            owner,
            text=kept,
            amendments=_amendments(kept),
            see_also=[title for title in owner.see_also if title in kept],
        )
    ]
    for at, (number, _, end) in enumerate(cuts):
        head = given_head(0, number, lines[number - 1].strip(), heads[number])
        until = cuts[at + 1][1] if at + 1 < len(cuts) else len(owner.text)
        rest = owner.text[end:until].strip()
        text = "\n\n".join(part for part in (head.rest.strip(), rest) if part)
        pieces.append(_entry(heads[number] or head.title, text, number, head.marked_new))
    return pieces


def _entry(title: str, text: str, line: int, marked_new: bool) -> ReadEntry:
    return ReadEntry(
        title=title, text=text, line=line, marked_new=marked_new, amendments=_amendments(text)
    )


def _amendments(text: str) -> list[Amendment]:
    return amendments_of(text.split("\n\n"))


# The words of a line searched for: a short lead, so each search costs the text's length
# times a constant (a long pattern of repeated words against a text of them would not).
_LEAD_CHARS = 120


def _where(text: str, start: int, line: str, between: list[str]) -> tuple[int, int] | None:
    """Where ``line``'s words stand in ``text`` from ``start`` (start, end): at the occurrence
    after as many as the lines ``between`` the last head and the line print (a phrase
    repeated); None where the text does not hold them all."""
    lead = _lead(line.split())
    earlier = sum(len(lead.findall(printed)) for printed in between)
    for found in lead.finditer(text, start):
        if not earlier:
            end = _rest_matched(text, found.end(), line, found.group(0))
            return None if end is None else (found.start(), end)
        earlier -= 1
    return None


def _lead(words: list[str]) -> re.Pattern[str]:
    """The first words of a line (up to :data:`_LEAD_CHARS`), literal, with any run of
    spaces between them: no two parts overlap."""
    taken: list[str] = []
    size = 0
    for word in words:
        if taken and size + len(word) > _LEAD_CHARS:
            break
        taken.append(word[:_LEAD_CHARS])
        size += len(taken[-1]) + 1
    return re.compile(r"\s+".join(re.escape(word) for word in taken))


def _rest_matched(text: str, at: int, line: str, lead: str) -> int | None:
    """Where the rest of ``line`` (after the words ``lead`` matched) ends in ``text`` from
    ``at``, spaces aside; None where the text goes on otherwise. One walk: linear."""
    rest = "".join(line.split())[len("".join(lead.split())) :]
    for char in rest:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text) or text[at] != char:
            return None
        at += 1
    return at

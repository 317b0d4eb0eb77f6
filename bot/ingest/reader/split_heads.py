"""A moderator's heads inside entries a shape read: each splits its entry where it stands.

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

from bot.ingest.reader.general import given_head
from bot.ingest.reader.model import Parsed, ReadEntry

# A line longer than this is no line a moderator names as a head (the reader's lines are
# bounded by the document's size limits; this keeps each words pattern small).
_MAX_HEAD_LINE = 2_000


def split_at_heads(parsed: Parsed, lines: list[str], heads: dict[int, str | None]) -> Parsed | None:
    """``parsed`` with each entry that holds a line of ``heads`` (line number: the title
    given, or None for the line's own) split there; None where a head stands on no
    entry's text (before the first entry, on an entry's own head line, on a line whose
    words the entry's text does not hold): the page is then read with the heads as given."""
    starts = [entry.line for entry in parsed.entries]
    if not starts or starts != sorted(starts):
        return None
    inside: dict[int, list[int]] = {}  # entry's index: the heads inside it, in order
    for number in sorted(heads):
        at = bisect.bisect_right(starts, number) - 1
        if at < 0 or starts[at] == number or not 0 < number <= len(lines):
            return None
        inside.setdefault(at, []).append(number)
    entries: list[ReadEntry] = []
    for at, owner in enumerate(parsed.entries):
        pieces = _split(owner, inside.get(at, []), lines, heads)
        if pieces is None:
            return None
        entries += pieces
    # the moderator has answered the doubts raised at the lines named
    warnings = [w for w in parsed.warnings if not (w.doubt and w.line in heads)]
    return dataclasses.replace(parsed, entries=entries, warnings=warnings)


def _split(
    owner: ReadEntry, numbers: list[int], lines: list[str], heads: dict[int, str | None]
) -> list[ReadEntry] | None:
    """``owner`` cut at the lines ``numbers`` (in order), each piece after a cut an entry
    of its own; None where a line's words are not in the owner's text after the last cut.
    Each search goes on from the last cut, so an entry is scanned once whatever the heads."""
    cuts: list[tuple[int, int, int]] = []  # (line, where its words start, where they end)
    position, after = 0, owner.line
    for number in numbers:
        line = lines[number - 1].strip()
        if not line or len(line) > _MAX_HEAD_LINE:
            return None
        where = _where(owner.text, position, line, lines[after : number - 1])
        if where is None:
            return None
        cuts.append((number, *where))
        position, after = where[1], number
    if not cuts:
        return [owner]
    pieces = [dataclasses.replace(owner, text=owner.text[: cuts[0][1]].rstrip())]
    for at, (number, _, end) in enumerate(cuts):
        head = given_head(0, number, lines[number - 1].strip(), heads[number])
        until = cuts[at + 1][1] if at + 1 < len(cuts) else len(owner.text)
        rest = owner.text[end:until].strip()
        text = "\n\n".join(part for part in (head.rest.strip(), rest) if part)
        title = heads[number] or head.title
        pieces.append(ReadEntry(title=title, text=text, line=number, marked_new=head.marked_new))
    return pieces


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

"""``questions``: rulings printed as a question line and its answer, with no markers.

Shape (Decipher's early Current Rulings pages): a preamble that names the page ("The
Current Rulings are periodic rules updates…"), then each ruling as the question it answers,
on a line of its own, and the answer in the lines after it, up to the next question. Each
entry is titled with its question. Only a page that calls itself rulings or an FAQ near its
top is read so, and never one under a byline (an article or a forum post asks questions
too).
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.reader.common import bylined, entry_of, lines_of, paragraphs
from bot.ingest.reader.model import Parsed

_NAMED = re.compile(r"\b(?:current rulings|rulings|faq|frequently asked questions)\b", re.I)
_MAX_WORDS = 40


_FIRST_END = re.compile(r"[.!?]")
# A question or an answer marked as such ("Q:", "A -", "Q."): an FAQ in another form, not
# this shape's unmarked questions
_MARKED = re.compile(r"[QA]\s?[:.\-–—]\s")


def _question(line: str) -> bool:
    """A question line: a capital first, short, its first sentence a question ("Does Frame
    of Mind affect a ship's crew? It does refer to "Away Team."")."""
    line = line.strip()
    first_end = _FIRST_END.search(line)
    return (
        first_end is not None
        and first_end.group() == "?"
        and line[:1].isupper()
        and len(line.split()) <= _MAX_WORDS
        and not _MARKED.match(line)
    )


def _asked(rows: list[tuple[int, str]], index: int) -> tuple[str, int] | None:
    """(the question, its last row) of a question starting at row ``index``: on its line,
    or wrapped onto the next as a mail wraps it ("Can an outpost be "stopped"? Does a
    dilemma stop a ship, or just the" / "crew?"); else None."""
    line = rows[index][1].strip()
    following = rows[index + 1][1].strip() if index + 1 < len(rows) else ""
    if (
        line
        and following
        and line[-1:] not in ".!?:"
        and following.endswith("?")
        and (following[:1].islower() or not _question(line))
        and _question(joined := f"{line} {following}")
    ):
        return joined, index + 1
    return (line, index) if _question(line) else None


def _starts(rows: list[tuple[int, str]]) -> list[tuple[int, str, int]]:
    """(row, question, its last row) of the questions that an answer (a line that asks
    nothing) follows."""
    starts = []
    index = 0
    while index < len(rows) - 1:
        asked = _asked(rows, index)
        if asked is None:
            index += 1
            continue
        question, last = asked
        following = rows[last + 1][1].strip() if last + 1 < len(rows) else ""
        if following and not _question(following) and following[:1].isupper():
            starts.append((index, question, last))
            index = last + 1
        else:
            index += 1
    return starts


def detect(text: str) -> float:
    rows = lines_of(text)
    head = [line.strip() for _, line in rows[:8] if line.strip()]
    if not _NAMED.search(" ".join(head)[:400]) or bylined(head):
        return 0.0
    return 0.45 if len(_starts(rows)) >= 2 else 0.0


def parse(text: str) -> Parsed:
    result = Parsed()
    rows = lines_of(text)
    starts = _starts(rows)
    if len(starts) < 2:
        return result
    before = [(n, line.strip()) for n, line in rows[: starts[0][0]] if line.strip()]
    result.ignored(before, "the page's preamble before the first question")
    for position, (index, question, last) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(rows)
        # an answer's lines are its paragraphs: each printed line is a paragraph of its own,
        # but for lines wrapped to a width (a mail's), which make one
        texts = [text for _, text in paragraphs(rows[last + 1 : end])]
        result.entries.append(entry_of(question, texts, rows[index][0]))
    result.warnings.append(
        ParseWarning(
            rows[starts[0][0]][0],
            f"{len(starts)} rulings titled by the question each answers (the page prints no "
            "other titles)",
        )
    )
    return result

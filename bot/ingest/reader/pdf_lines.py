"""A PDF page's pieces of text as lines: grouped by their height, each line's pieces joined
left to right with the spaces the page draws between them, a paragraph's gap a blank line;
and the parts of a document (its columns, its pages) joined as one text.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader.spacing import room_for_next

SAME_LINE = 2.0  # points: runs this close vertically are one line
# A gap this many times the usual line spacing is a paragraph's: 6 pt of space after a 9 pt
# paragraph is 1.57 times its 10.5 pt spacing; lines inside a paragraph are 1.0 apart.
_PARAGRAPH_GAP = 1.3

# A run's widest plausible width per character, in ems: no letter of a text font is wider.
# A piece that starts further on than this from the piece before it stands apart (a tab
# stop after a bullet, a list's number): a space goes between them, as pypdf's own
# extraction puts one.
_WIDEST_CHARACTER = 1.0

Run = tuple[float, float, str, float]  # x, y, text, the font's size on the page


def grouped(runs: list[Run]) -> list[list[Run]]:
    """Runs top to bottom, those on one line together, each line left to right. Runs that
    start at one place keep the order they were drawn in: a term in bold and the rest of
    its line in the regular font, drawn in one text object, are both reported at the
    line's start (never ordered by their text)."""
    lines: list[list[Run]] = []
    for run in sorted(runs, key=lambda r: (-r[1], r[0])):  # stable: drawing order on ties
        if lines and abs(lines[-1][0][1] - run[1]) <= SAME_LINE:
            lines[-1].append(run)
        else:
            lines.append([run])
    # a line of spaces alone is no line
    lines = [line for line in lines if any(run[2].strip() for run in line)]
    return [sorted(line, key=lambda r: r[0]) for line in lines]


def line_text(line: list[Run]) -> str:
    """A line's pieces left to right, with the spaces it draws: a space between two pieces
    that stand apart (see :data:`_WIDEST_CHARACTER`), none between two that touch (a word
    in bold inside a line, a term and its dash)."""
    pieces = _signs_in_place(line)
    # where the next piece with letters starts, for each piece (one pass from the right)
    following: list[float | None] = []
    upcoming = None
    for x, _, piece, _ in reversed(pieces):
        following.append(upcoming)
        if piece.strip():
            upcoming = x
    following.reverse()
    parts: list[str] = []
    end = None  # where the piece before ends at the furthest
    for (x, _, piece, em), after in zip(pieces, following, strict=True):
        # A space that takes no room before the next piece was guessed by the extraction
        # between two pieces that touch (a word in italics, then its comma): no space drawn.
        if not piece.strip() and (after is None or after - x < SAME_LINE / 4):
            continue
        if end is not None and x > end and parts and parts[-1][-1:] != " " and piece[:1] != " ":
            parts.append(" ")
        parts.append(piece)
        end = x + len(piece) * em * _WIDEST_CHARACTER if em > 0 else None
    return "".join(parts).strip()


def _signs_in_place(line: list[Run]) -> list[Run]:
    """``line`` with a sign drawn after the piece it stands in put back in its place. A
    word processor draws a sign its font lacks (an emoji, a dingbat) from another font
    after the text around it, which it draws leaving a gap ("Reactor Core icon  –", then
    "🏭" at the gap): a piece of signs only, starting inside the piece before, goes in that
    piece's one gap (two spaces). Where there is no gap, or more than one, it stays."""
    out: list[Run] = []
    open_gap = False  # whether the last piece kept has its one gap still open
    for run in line:
        x, y, piece, em = run
        if open_gap and _is_sign(piece) and em > 0:
            px, py, before, pem = out[-1]
            if x < px + len(before) * pem * _WIDEST_CHARACTER:  # inside the piece before
                out[-1] = (px, py, before.replace("  ", f" {piece.strip()} "), pem)
                open_gap = False  # one sign to a gap: each piece is looked at once
                continue
        out.append(run)
        open_gap = piece.count("  ") == 1
    return out


def _is_sign(piece: str) -> bool:
    signs = piece.strip()
    return 0 < len(signs) <= 3 and all(unicodedata.category(c) == "So" for c in signs)


def paragraph_gaps(lines: list[list[Run]]) -> set[int]:
    """The lines (by index) that stand a paragraph's gap below the line above them: well
    over the page's line spacing. That is the smallest spacing a tenth of the gaps share
    (two at least), not the most common: on a page of short paragraphs (a term on its own
    line, an instruction, a one-line ruling) most gaps are paragraphs' gaps."""
    gaps = [a[0][1] - b[0][1] for a, b in zip(lines, lines[1:], strict=False)]
    counts = Counter(round(gap * 4) / 4 for gap in gaps if gap > 0)
    shared = [gap for gap, count in counts.items() if count >= max(2, len(gaps) / 10)]
    if not shared:
        return set()
    usual = min(shared)
    return {index + 1 for index, gap in enumerate(gaps) if gap > _PARAGRAPH_GAP * usual}


def lines_text(runs: list[Run]) -> str:
    """Runs top to bottom, those on one line joined left to right."""
    lines = grouped(runs)
    # A paragraph's gap is a blank line, as a copy of the text keeps it.
    gaps = paragraph_gaps(lines)
    out: list[str] = []
    for index, line in enumerate(lines):
        if index in gaps:
            out.append("")
        out.append(line_text(line))
    return "\n".join(out)


def joined(parts: list[str]) -> str:
    """Columns (or pages) one after the other. A column or page break hides a paragraph's
    gap: where the part before ends a sentence, a term's line (``species –``) or a line
    introducing what follows (``… the following:``), the next most likely opens a
    paragraph (a paragraph that runs on breaks between words, mid-sentence), so a blank
    line stands there, as in a copy of the text."""
    text = before = ""
    for part in (part.strip("\n") for part in parts):
        if text and part:
            text += "\n\n" if _ends_paragraph(before, part) else "\n"
        text += part
        before = part or before
    return text


# A part's last line this much shorter than its longest, by characters, or more: a paragraph
# that runs on fills its lines, and a proportional font's letters differ in width.
_SHORT_LINE = 0.8


def _ends_paragraph(part: str, following: str) -> bool:
    """Whether ``part`` ends its paragraph where the ``following`` part takes up: on a
    sentence's end, a term's line, an introduction to what follows, or a line that broke
    before the following part's first word would have fitted on it (a heading, a paragraph's
    short last line: "Card-Specific" at a column's foot, its note atop the next)."""
    last = part.rstrip().rsplit("\n", 1)[-1]
    if ends_sentence(last) or last.endswith((" –", " —", " -", ":")):
        return True
    width = max(len(line.rstrip()) for line in part.split("\n"))
    return room_for_next(last, following, int(_SHORT_LINE * width))

"""A PDF page's text in reading order: columns read one after the other, running lines left out.

A producer may draw a two-column page row by row across both columns; the text layer then
splices each left line with the right line beside it. The runs' positions tell the columns
apart: when the page's runs fall into a left and a right group with a clear gutter between
them, the page is read as the left column top to bottom, then the right one; three columns
or more (a rulebook's, a guide's) are told by their margins, as many lines starting at each,
evenly spaced across the page, and read left to right the same way. Any other page
keeps pypdf's own extraction (which puts the spaces between a line's pieces), with a blank
line where the lines' positions show a paragraph's gap, as a copy of the text has it.

A word processor also prints a running header and a page number on every page. Left in, they
stand inside the sentence of any entry that runs on to the next column or page, so the lines
at a page's edges that the pages print alike (but for their numbers) are left out, and named
in the preview's notes; the first one that is no page number may still title and date the
document where its body does not.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader.chrome import is_page_number, printed_by_browser
from bot.ingest.reader.known import WHOLE_WORD

_MIN_RUNS = 8  # fewer runs than this: too little to judge columns by
_SAME_LINE = 2.0  # points: runs this close vertically are one line
# A gap this many times the usual line spacing is a paragraph's: 6 pt of space after a 9 pt
# paragraph is 1.57 times its 10.5 pt spacing; lines inside a paragraph are 1.0 apart.
_PARAGRAPH_GAP = 1.3
_EDGE_LINES = 2  # a running header or footer: one of a page's two top or two bottom lines
_DIGITS = re.compile(r"\d+")

# A run's widest plausible width per character, in ems: no letter of a text font is wider.
# A piece that starts further on than this from the piece before it stands apart (a tab
# stop after a bullet, a list's number): a space goes between them, as pypdf's own
# extraction puts one.
_WIDEST_CHARACTER = 1.0
# A move to the right inside a line of text, in thousandths of an em: under this, a
# justified line's or a tracked word's spacing, never a word's gap (a quarter of an em in
# a serif font, a fifth where justification squeezes it). A move to the left (kerning:
# "Vo" and "P." drawn closer, by up to a fifth of an em) never parts two words.
_KERNING = 160

Run = tuple[float, float, str, float]  # x, y, text, the font's size on the page


@dataclass(frozen=True)
class PageRuns:
    """One PDF page's text runs with their positions, and pypdf's own extraction of it."""

    runs: list[Run]
    plain: str  # kept where the page is not set in columns
    width: float | None


def texts_of(read: list[PageRuns]) -> tuple[list[str], list[str]]:
    """Each page's text, column by column where the page is set in two columns, less its
    running header and footer; and those lines, once each, for the reader's note.

    A running header or footer is a line at a page's top or bottom edge that several pages
    (two, and a third of them) print alike but for their numbers ("Current Rulings – Page
    3"), or a page number alone: left in, it splits the sentence of an entry that runs on
    to the next page or column."""
    grouped = [_grouped(page.runs) for page in read]
    running = _running_keys(grouped)
    pages: list[tuple[PageRuns, list[Run], list[str]]] = []  # each page, its runs, its edges
    left_out: dict[str, str] = {}
    for page, lines in zip(read, grouped, strict=True):
        dropped: list[list[Run]] = [
            line for line in _edges(lines) if _page_furniture(_joined(line), running)
        ]
        drop = [_joined(line) for line in dropped]  # top to bottom: the note says them so
        for text in drop:
            left_out.setdefault(running_key(text), text)
        gone = {id(run) for line in dropped for run in line}
        pages.append((page, [run for run in page.runs if id(run) not in gone], drop))
    # A page of a document set in three columns or more whose last columns are empty (its
    # last page) shows too few margins of its own: it is set on another page's.
    found = (_column_margins(runs, page.width) for page, runs, _ in pages if page.width)
    margins = next((margins for margins in found if margins), None)
    texts: list[str] = []
    for page, runs, drop in pages:
        columns = None
        if page.width:
            columns = (
                _many_columns(runs, page.width)
                or (margins and _many_columns(runs, page.width, margins))
                or _two_columns(runs, page.width)
            )
        if columns is None:
            columns = _with_gaps(_without_edges(page.plain, drop), runs)
        texts.append(columns)
    return texts, list(left_out.values())


def _page_furniture(line: str, running: set[str]) -> bool:
    """Whether an edge ``line`` is the page's, no text's: a page number, a running line, or
    what a browser prints at the top and foot of a page it saves (on a page of one too)."""
    spelt = unicodedata.normalize("NFKC", line)  # "ﬁle:///…": a ligature in the address
    return is_page_number(line) or printed_by_browser(spelt) or running_key(line) in running


def read_page(page: Any) -> PageRuns:
    """A pypdf page's runs (where each is drawn) and its plain extraction."""
    _without_kerning(page)
    runs: list[Run] = []

    def visit(text: str, cm: list, tm: list, font: Any, size: Any) -> None:
        # A space drawn on its own is a run too: a word processor draws a justified line
        # word by word, each word and each space a text object of its own, and the words'
        # positions alone do not tell a space from a word's end.
        if text := text.replace("\n", ""):
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            scale = math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1])
            em = float(size or 0) * scale if isinstance(size, int | float) else 0.0
            runs.append((x, y, text, em))

    plain = page.extract_text(visitor_text=visit) or ""
    try:
        width, left = float(page.mediabox.width), float(page.mediabox.left)
    except (TypeError, ValueError, AttributeError):
        return PageRuns(runs, plain, None)
    # positions from the page's left edge: a page box need not start at 0 (a cropped page)
    return PageRuns([(x - left, y, text, em) for x, y, text, em in runs], plain, width)


def _without_kerning(page: Any) -> None:
    """``page`` with its kerning left out of its text: the moves a producer makes between
    two letters (``V`` and ``o`` drawn closer) or to place each glyph. pypdf spells any
    move over half a space, left or right, as a space ("V orn", "AP ."); a word's gap
    drawn as a move (a typesetter's, with no space glyph) moves right, further than
    :data:`_KERNING` even where justification squeezes it. The page's content is parsed
    once, as pypdf would parse it to extract its text, and that extraction reads it as
    changed here."""
    from pypdf.generic import ArrayObject, ContentStream, NameObject

    contents = page.get(NameObject("/Contents"))
    if contents is None:
        return
    stream = ContentStream(contents.get_object(), page.pdf, "bytes")  # text kept as bytes
    for operands, operator in stream.operations:
        if operator == b"TJ" and operands and isinstance(operands[0], ArrayObject):
            operands[0][:] = [part for part in operands[0] if not _is_kerning(part)]
    page[NameObject("/Contents")] = stream


def _is_kerning(part: Any) -> bool:
    # in a TJ array a positive number moves the next glyph to the left
    return isinstance(part, int | float) and part > -_KERNING


def running_key(text: str) -> str:
    """A line as its copies on other pages print it: its numbers are the page's."""
    return _DIGITS.sub("#", " ".join(text.split()))


def _grouped(runs: list[Run]) -> list[list[Run]]:
    """Runs top to bottom, those on one line together, each line left to right. Runs that
    start at one place keep the order they were drawn in: a term in bold and the rest of
    its line in the regular font, drawn in one text object, are both reported at the
    line's start (never ordered by their text)."""
    lines: list[list[Run]] = []
    for run in sorted(runs, key=lambda r: (-r[1], r[0])):  # stable: drawing order on ties
        if lines and abs(lines[-1][0][1] - run[1]) <= _SAME_LINE:
            lines[-1].append(run)
        else:
            lines.append([run])
    # a line of spaces alone is no line
    lines = [line for line in lines if any(run[2].strip() for run in line)]
    return [sorted(line, key=lambda r: r[0]) for line in lines]


def _joined(line: list[Run]) -> str:
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
        if not piece.strip() and (after is None or after - x < _SAME_LINE / 4):
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


def _edges(lines: list[list[Run]]) -> list[list[Run]]:
    """A page's top and bottom lines, :data:`_EDGE_LINES` of each (none on a page too short
    to have a body to set a header apart from)."""
    if len(lines) <= 2 * _EDGE_LINES:
        return []
    return lines[:_EDGE_LINES] + lines[-_EDGE_LINES:]


def _running_keys(pages: list[list[list[Run]]]) -> set[str]:
    """The edge lines (of ``pages``, each its lines) that at least two pages, and a third of
    them, print alike (a book's pages may alternate two headers: each is on half)."""
    if len(pages) < 2:
        return set()
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({running_key(_joined(line)) for line in _edges(lines)})
    return {key for key, count in counts.items() if count >= max(2, len(pages) / 3)}


def _without_edges(plain: str, drop: list[str]) -> str:
    """``plain`` without the dropped lines at its start or end. A plain extraction may run
    a footer on to the body's last line ("… process. - 1 -"): cut there too."""
    text = plain.strip()
    for _ in range(2 * _EDGE_LINES):  # each pass takes one line off one edge, at most
        before = text
        for line in drop:
            if text.startswith(line):
                text = text[len(line) :].lstrip()
            if text.endswith(line):
                text = text[: -len(line)].rstrip()
        if text == before:
            break
    return text


def _two_columns(runs: list[Run], width: float) -> str | None:
    """The page read column by column, where its runs fall into two columns with a gutter
    between them; a heading across both (a centred title above them, a note below) is read
    before or after them. None where the page is not so divided."""
    if len(runs) < _MIN_RUNS or width <= 0:
        return None
    middle = width / 2
    # A gutter: no left-column line starts near the middle; the right column's lines start
    # at one margin right of it (a typesetter's gutter may be 10 pt wide: 5 pt past it).
    left = [r for r in runs if r[0] <= middle * 0.8]
    margin = _margin([r for r in runs if r[0] >= middle])
    if margin is None:
        return None
    right = [r for r in runs if r[0] >= margin - 2]
    if min(len(left), len(right)) < _MIN_RUNS // 2:
        return None
    # A piece in the band on a line that a left-column piece starts is that line's own (a
    # word in bold or italics inside it), not a line starting in the gutter.
    heights = {round(r[1]) for r in left}
    across: list[Run] = []
    for run in (r for r in runs if middle * 0.8 < r[0] < margin - 2):
        on_a_left_line = any(round(run[1]) + d in heights for d in (-2, -1, 0, 1, 2))
        (left if on_a_left_line else across).append(run)
    top = min(max(r[1] for r in left), max(r[1] for r in right))
    bottom = max(min(r[1] for r in left), min(r[1] for r in right))
    above = [r for r in across if r[1] > top + _SAME_LINE]
    below = [r for r in across if r[1] < bottom - _SAME_LINE]
    if len(above) + len(below) < len(across):
        return None  # a line starts in the gutter beside the columns: no two columns
    return joined([_lines(part) for part in (above, left, right, below) if part])


# Three columns or more. Each column's margin is where many of the lines that start near it
# start (a list's items may start at an indent; a word in bold or a justified line's word
# starts anywhere, on a line or two); the last page's last column may hold a few lines
# only. Margins closer than a share of the page's width are one column's (an indent, a
# list's tab stop). The columns share one width: their margins stand evenly spaced, each
# within a share of the spacing, and no piece of a column's line reaches the next margin:
# a piece's width is taken as its letters' at their narrowest on average (a line of text
# averages half an em a letter), so a column's line never seems to, and a word of a line
# that runs across the page, as most do, does.
_MARGIN_SHARE = 0.3
_NARROWEST_COLUMN = 0.15
_UNEVEN = 0.1
_MOST_COLUMNS = 6
_NARROW_LETTER = 0.35  # ems
# The right part of a column, by share of the spacing, where a piece on a line of the column
# is the line's own (a word in bold at its end) and a line's start is none: the gutter.
_GUTTER_FROM = 0.8


def _many_columns(runs: list[Run], width: float, margins: list[float] | None = None) -> str | None:
    """The page read column by column, left to right, where its runs fall into three or
    more columns of one width (:func:`_column_margins`), or into the columns of the
    ``margins`` given (the document's: the page's last columns may be empty); a heading
    above them all is read before them, a line below them all after. None where the page
    is not so divided, or a line starts in a gutter beside the columns."""
    if len(runs) < _MIN_RUNS:
        return None
    given = margins is not None
    margins = margins if given else _column_margins(runs, width)
    if not margins:
        return None
    starting = [[r for r in runs if abs(r[0] - m) <= 2] for m in margins]
    # each column of the page's own holds lines at its margin, and so does the first of
    # the document's (a title page's lines, centred, stand at no margin)
    if any(len(lines) < _MIN_RUNS // 2 for lines in starting[: 1 if given else None]):
        return None
    # A heading above them all stands higher than every column's first line at its margin.
    top = max(max(r[1] for r in lines) for lines in starting if lines) + _SAME_LINE
    spacing = (margins[-1] - margins[0]) / (len(margins) - 1)
    columns: list[list[Run]] = [[] for _ in margins]
    above = [r for r in runs if r[1] > top]
    in_gutters: list[tuple[int, Run]] = []
    for run in (r for r in runs if r[1] <= top):
        column = max((i for i, m in enumerate(margins) if run[0] >= m - 2), default=0)
        if run[0] > margins[column] + _GUTTER_FROM * spacing:
            in_gutters.append((column, run))
        else:
            columns[column].append(run)
    if any(len(column) < _MIN_RUNS // 2 for column in columns if column or not given):
        return None
    filled = [(m, column) for m, column in zip(margins, columns, strict=True) if column]
    if _runs_across([column for _, column in filled], [m for m, _ in filled]):
        return None
    below: list[Run] = []
    heights = [{round(r[1]) for r in column} for column in columns]
    for column, run in in_gutters:
        # a piece in a gutter on a line of the column left of it is that line's own
        on_its_line = any(round(run[1]) + d in heights[column] for d in (-2, -1, 0, 1, 2))
        (columns[column] if on_its_line else below).append(run)
    # a line across the page below them all (a note) is read after them; one starting in a
    # gutter beside them means no columns of one width
    bottom = max(min(r[1] for r in column) for column in columns if column) - _SAME_LINE
    if any(r[1] >= bottom for r in below):
        return None
    return joined([_lines(part) for part in (above, *columns, below) if part])


def _runs_across(columns: list[list[Run]], margins: list[float]) -> bool:
    """Whether a piece of a column's line reaches the next column's margin beside that
    column's text or below it: a line across the page (as a one-column page's lines all
    run, over a table's cells) where no gutter is. A line across the top, above the next
    column (a document's opening paragraph), is read before it, as its column's."""
    for left, right, margin in zip(columns, columns[1:], margins[1:], strict=False):
        top = max(r[1] for r in right) + _SAME_LINE
        for x, y, text, em in left:
            if y <= top and x + len(text.rstrip()) * em * _NARROW_LETTER > margin + 1:
                return True
    return False


def _column_margins(runs: list[Run], width: float) -> list[float] | None:
    """The left margins of three or more columns of one width, left to right: where most of
    the lines that start near them start (:data:`_MARGIN_SHARE`), one to a column, evenly
    spaced and all on the page. None where the runs show no such columns."""
    rows_at: dict[int, set[int]] = {}  # where pieces start: the lines (by height) there
    for x, y, text, _ in runs:
        if text.strip():
            rows_at.setdefault(round(x), set()).add(round(y))
    # the starts within 2 pt of each other are one margin's (lines one under another drift)
    margins: list[tuple[int, set[int]]] = []  # (the leftmost start, the lines starting there)
    for x in sorted(rows_at):
        if margins and x - margins[-1][0] <= 2:
            margins[-1][1].update(rows_at[x])
        else:
            margins.append((x, set(rows_at[x])))
    reach = round(_NARROWEST_COLUMN * width)
    # The lines with a piece starting near each margin (from 2 pt left of it to where the
    # next column may start), counted in one sweep: the window only moves right.
    starts = sorted(rows_at)
    near: Counter[int] = Counter()  # a line: how many of the window's starts it has
    lines_near = added = removed = 0
    kept: list[float] = []
    for x, rows in margins:
        while added < len(starts) and starts[added] < x + reach:
            for row in rows_at[starts[added]]:
                near[row] += 1
                lines_near += near[row] == 1
            added += 1
        while starts[removed] < x - 2:
            for row in rows_at[starts[removed]]:
                near[row] -= 1
                lines_near -= near[row] == 0
            removed += 1
        if len(rows) < _MIN_RUNS // 2 or kept and x - kept[-1] < reach:
            continue  # too few lines, or an indent inside the column before
        # A column's lines start at its margin; a word that a justified line puts there, or
        # a word in bold, starts where other lines have other words.
        if len(rows) >= _MARGIN_SHARE * lines_near:
            kept.append(float(x))
    if not 3 <= len(kept) <= _MOST_COLUMNS:
        return None
    spacing = (kept[-1] - kept[0]) / (len(kept) - 1)
    even = all(abs(x - (kept[0] + i * spacing)) <= _UNEVEN * spacing for i, x in enumerate(kept))
    if not even or kept[-1] + spacing / 2 > width:
        return None
    return kept


def _margin(right: list[Run]) -> float | None:
    """Where the pieces right of the middle start, if they make a column: lines that start
    at one margin, :data:`_MIN_RUNS` / 2 of them at least (its leftmost such start). Words
    in bold or italics at the right end of a one-column page's lines start wherever the
    words before them end."""
    if not right:
        return None
    margins = Counter(round(r[0]) for r in right)
    margin = margins.most_common(1)[0][0]
    near = [x for x in margins if abs(x - margin) <= 2]
    if sum(margins[x] for x in near) < _MIN_RUNS // 2:
        return None
    return min(near)


def _with_gaps(plain: str, runs: list[Run]) -> str:
    """pypdf's own extraction of a page (it puts the spaces between a line's pieces), with a
    blank line where the runs' positions show a paragraph's gap, as a copy of the text has
    it. Only where its lines are the runs' lines, one for one; else as it is. Each line is
    matched with the runs' line of its letters, wherever pypdf put it: a producer may draw a
    line after the text it stands above (a site's heading; a browser its printed date), and
    pypdf puts it after that text. A line whose letters stand in another order than its
    runs' is the runs' line: a glyph from another font (a sign, an icon the text's font
    lacks) is drawn after its line's text, and the extraction puts it where it was drawn
    ("Nebula –◆" for "◆Nebula –")."""
    lines = _grouped(runs)
    printed = [line for line in plain.split("\n") if line.strip()]
    if not lines or len(printed) != len(lines):
        return plain
    drawn = [_joined(line) for line in lines]
    where: dict[str, list[int]] = {}
    for index in reversed(range(len(drawn))):  # popped from the end: top to bottom
        where.setdefault("".join(sorted(_letters(drawn[index]))), []).append(index)
    gaps = _paragraph_gaps(lines)
    out: list[str] = []
    above = -1
    for text in printed:
        same = where.get("".join(sorted(_letters(text))))
        if not same:
            return plain  # other lines: not one for one
        index = same.pop()
        # a line put elsewhere than under the line above it on the page stands apart too
        if out and (index in gaps or index != above + 1):
            out.append("")
        above = index
        out.append(text if _letters(text) == _letters(drawn[index]) else drawn[index])
    return "\n".join(out)


def _letters(line: str) -> str:
    return "".join(line.split())


def _paragraph_gaps(lines: list[list[Run]]) -> set[int]:
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
    word = following.split(maxsplit=1)[0] if following.split() else ""
    return len(last) + 1 + len(word) <= _SHORT_LINE * width


def _lines(runs: list[Run]) -> str:
    """Runs top to bottom, those on one line joined left to right."""
    lines = _grouped(runs)
    # A paragraph's gap is a blank line, as a copy of the text keeps it.
    gaps = _paragraph_gaps(lines)
    out: list[str] = []
    for index, line in enumerate(lines):
        if index in gaps:
            out.append("")
        out.append(_joined(line))
    return "\n".join(out)


# A word broken at a line's end: letters (a hyphenated word's parts), a hyphen, a line
# break, then letters (and the parts hyphenated to them). Linear: a match starts at a
# word's first letter, and its parts are runs of letters between single hyphens.
_BROKEN = re.compile(
    r"(?<![^\W\d_-])([^\W\d_]+(?:-[^\W\d_]+)*)-\n([^\W\d_]+(?:-[^\W\d_]+)*)(\S*)( ?)"
)


def unhyphenated(text: str, known: frozenset[str] = frozenset()) -> str:
    """``text`` with the words broken at a line's end whole again, on the first line. A
    typesetter's break ("at-" over "tempts and …") is "attempts" over "and …" where the
    page elsewhere, or the ``known`` words (in lower case), print the whole word and never
    the word with that hyphen; any other break is at the word's own hyphen ("mirror-" over
    "universe", "non-" over "Borg", as browsers and word processors break lines) and keeps
    it. Left as it was, the line's end became a space inside the word ("mirror- universe")."""
    if "-\n" not in text:
        return text
    words = Counter(word.lower() for word in WHOLE_WORD.findall(text))

    def mend(match: re.Match[str]) -> str:
        head, tail, rest, space = match[1], match[2], match[3], match[4]
        whole, hyphenated = (head + tail).lower(), f"{head}-{tail}".lower()
        # a typesetter's break: what follows is in lower case ("at-" "tempts"), or both
        # parts are in capitals ("CUN-" "NING"), and only the whole word is printed
        broken = tail[0].islower() or (head.isupper() and tail.isupper())
        closed = (words[whole] or whole in known) and not (words[hyphenated] or hyphenated in known)
        word = head + tail if broken and closed else f"{head}-{tail}"
        # the rest of the line stays on its line; a line of the word's end alone is gone
        return f"{word}{rest}\n" if space else f"{word}{rest}"

    return _BROKEN.sub(mend, text)

"""Where a PDF page's columns are, and the page read column by column.

A producer may draw a page set in columns row by row across them; the text layer then
splices each line of a column with the lines beside it. The runs' positions tell the columns
apart: two, a left and a right group with a clear gutter between them; three or more (a
rulebook's, a guide's) by their margins, as many lines starting at each, evenly spaced
across the page. The page is read column by column, left to right, a heading above them
first.
"""

from __future__ import annotations

from collections import Counter

from bot.ingest.reader.pdf_lines import SAME_LINE, Run, joined, lines_text

_MIN_RUNS = 8  # fewer runs than this: too little to judge columns by


def two_columns(runs: list[Run], width: float) -> str | None:
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
    above = [r for r in across if r[1] > top + SAME_LINE]
    below = [r for r in across if r[1] < bottom - SAME_LINE]
    if len(above) + len(below) < len(across):
        return None  # a line starts in the gutter beside the columns: no two columns
    return joined([lines_text(part) for part in (above, left, right, below) if part])


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


def many_columns(runs: list[Run], width: float, margins: list[float] | None = None) -> str | None:
    """The page read column by column, left to right, where its runs fall into three or
    more columns of one width (:func:`column_margins`), or into the columns of the
    ``margins`` given (the document's: the page's last columns may be empty); a heading
    above them all is read before them, a line below them all after. None where the page
    is not so divided, or a line starts in a gutter beside the columns."""
    if len(runs) < _MIN_RUNS:
        return None
    given = margins is not None
    margins = margins if given else column_margins(runs, width)
    if not margins:
        return None
    starting = [[r for r in runs if abs(r[0] - m) <= 2] for m in margins]
    # each column of the page's own holds lines at its margin, and so does the first of
    # the document's (a title page's lines, centred, stand at no margin)
    if any(len(lines) < _MIN_RUNS // 2 for lines in starting[: 1 if given else None]):
        return None
    # A heading above them all stands higher than every column's first line at its margin.
    top = max(max(r[1] for r in lines) for lines in starting if lines) + SAME_LINE
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
    bottom = max(min(r[1] for r in column) for column in columns if column) - SAME_LINE
    if any(r[1] >= bottom for r in below):
        return None
    return joined([lines_text(part) for part in (above, *columns, below) if part])


def _runs_across(columns: list[list[Run]], margins: list[float]) -> bool:
    """Whether a piece of a column's line reaches the next column's margin beside that
    column's text or below it: a line across the page (as a one-column page's lines all
    run, over a table's cells) where no gutter is. A line across the top, above the next
    column (a document's opening paragraph), is read before it, as its column's."""
    for left, right, margin in zip(columns, columns[1:], margins[1:], strict=False):
        top = max(r[1] for r in right) + SAME_LINE
        for x, y, text, em in left:
            if y <= top and x + len(text.rstrip()) * em * _NARROW_LETTER > margin + 1:
                return True
    return False


def column_margins(runs: list[Run], width: float) -> list[float] | None:
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

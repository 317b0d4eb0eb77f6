"""A PDF page's text in reading order when the page is set in two columns.

A producer may draw a two-column page row by row across both columns; the text layer then
splices each left line with the right line beside it. The runs' positions tell the columns
apart: when the page's runs fall into a left and a right group with a clear gutter between
them, the page is read as the left column top to bottom, then the right one. A page that is
not so divided keeps the plain extraction.
"""

from __future__ import annotations

from typing import Any

_MIN_RUNS = 8  # fewer runs than this: too little to judge columns by
_SAME_LINE = 2.0  # points: runs this close vertically are one line


def page_text(page: Any) -> str:
    """The text of a pypdf page, column by column where the page is set in two columns."""
    runs: list[tuple[float, float, str]] = []

    def visit(text: str, cm: list, tm: list, font: Any, size: Any) -> None:
        if text and text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            runs.append((x, y, text.replace("\n", "")))

    plain = page.extract_text(visitor_text=visit) or ""
    try:
        width = float(page.mediabox.width)
    except (TypeError, ValueError, AttributeError):
        return plain
    columns = _two_columns(runs, width)
    return columns if columns is not None else plain


def _two_columns(runs: list[tuple[float, float, str]], width: float) -> str | None:
    if len(runs) < _MIN_RUNS or width <= 0:
        return None
    middle = width / 2
    left = [r for r in runs if r[0] < middle]
    right = [r for r in runs if r[0] >= middle]
    if min(len(left), len(right)) < _MIN_RUNS // 2:
        return None
    # A gutter: no left-column line starts near the middle, no right one starts left of it.
    if max(r[0] for r in left) > middle * 0.8 or min(r[0] for r in right) < middle * 1.02:
        return None
    return "\n".join((_lines(left), _lines(right)))


def _lines(runs: list[tuple[float, float, str]]) -> str:
    """Runs top to bottom, those on one line joined left to right."""
    ordered = sorted(runs, key=lambda r: (-r[1], r[0]))
    lines: list[list[tuple[float, float, str]]] = []
    for run in ordered:
        if lines and abs(lines[-1][0][1] - run[1]) <= _SAME_LINE:
            lines[-1].append(run)
        else:
            lines.append([run])
    # A gap well over the usual line spacing is a paragraph break: a blank line, as a
    # copy of the text keeps it.
    gaps = sorted(a[0][1] - b[0][1] for a, b in zip(lines, lines[1:], strict=False))
    usual = gaps[len(gaps) // 2] if gaps else 0.0
    out: list[str] = []
    for index, line in enumerate(lines):
        if index and usual > 0 and lines[index - 1][0][1] - line[0][1] > 1.6 * usual:
            out.append("")
        out.append("".join(t for _, _, t in sorted(line)).strip())
    return "\n".join(out)

"""``rulings-feed-table``: the rulings feed as a table.

Shape: ``| Title | Date | Text |`` rows (a header row and a ``|---|`` rule are skipped), or
the same three columns separated by tabs. ``<br>`` inside a cell is a line break;
``<br><br>`` a paragraph break. The committee's rulings page sets each ruling's text in the
row below its title and date (``| Title | 2020-08-19 |`` over ``| Text… |  |``); a copy of
it may close each cell with `` |`` and open none (``Title | 2020-08-19 |``).
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader.common import entry_of, lines_of
from bot.ingest.reader.dates import iso_or_none
from bot.ingest.reader.model import Parsed, ReadEntry

_RULE = re.compile(r"^\|?\s*:?-{3,}")
_BR = re.compile(r"\s*<br\s*/?>\s*", re.I)
_PARAGRAPH_BREAK = re.compile(r"(?:\s*<br\s*/?>\s*){2,}")
_HEADER_WORDS = ("title", "date", "ruling", "text")


def _cells(line: str) -> list[str] | None:
    """The cells of a table's row, or None for a line that is no row."""
    stripped = line.strip()
    if "\t" in stripped and not stripped.startswith("|"):
        cells = stripped.split("\t")
    elif stripped.startswith("|") and stripped.count("|") >= 3:
        cells = stripped.strip("|").split("|")
    elif stripped.endswith(" |") and stripped.count("|") >= 2:
        cells = stripped[:-1].split("|")  # each cell closed by " |", none opened
    else:
        return None
    cells = [cell.strip() for cell in cells]
    return cells if len(cells) >= 2 else None


def _date_column(cells: list[str]) -> int | None:
    for index, cell in enumerate(cells[:3]):
        if index and iso_or_none(cell):
            return index
    return None


def _paragraphs(cells: list[str]) -> list[str]:
    joined = " ".join(cell for cell in cells if cell).strip()
    texts = [_BR.sub("\n", p).strip() for p in _PARAGRAPH_BREAK.split(joined)]
    return [p for p in texts if p]


def _cell_lines(lines: list[str]) -> str:
    """A cell copied a line each: a new paragraph after a sentence's end, else (or where the
    line goes on in lower case) the same sentence wrapped."""
    out: list[str] = []
    for line in lines:
        if out:
            new = ends_sentence(out[-1]) and not line[:1].islower()
            out.append("<br><br>" if new else " ")
        out.append(line)
    return "".join(out)


def detect(text: str) -> float:
    rows = (_cells(line) for _, line in lines_of(text))
    if not any(cells and _date_column(cells) for cells in rows):
        return 0.0  # no title's row: most pages, not read further
    # a title's row with no ruling's text in it or under it is a date in some other table
    return 0.95 if any(entry.text for entry in parse(text).entries) else 0.0


class _Table:
    """The rows read so far: the entries, and the lines after the last title's row that
    may be its text (the text set in the row below, a cell's paragraphs a line each)."""

    def __init__(self) -> None:
        self.result = Parsed()
        self.texts: list[str] = []  # the open entry's paragraphs
        self.below = False  # the open entry's text is set in the rows below its title
        self.loose: list[tuple[int, str]] = []  # lines no row closed yet

    @property
    def open(self) -> ReadEntry | None:
        return self.result.entries[-1] if self.result.entries else None

    def title_row(self, number: int, cells: list[str], column: int) -> None:
        self.close()
        title = " ".join(cells[:column]).strip()
        self.texts = _paragraphs(cells[column + 1 :])
        self.below = not self.texts
        self.result.entries.append(entry_of(title, [], number, date=iso_or_none(cells[column])))

    def text_row(self, number: int, line: str, cells: list[str] | None) -> None:
        """A row (``cells``) or a line that is no row, after a title's row."""
        if not self.below:
            self.note(number, line)
        elif cells is None:
            self.loose.append((number, line.strip()))
        else:
            row = " ".join(cell for cell in cells if cell)
            self.texts += _paragraphs([_cell_lines([text for _, text in self.loose] + [row])])
            self.loose = []

    def note(self, number: int, line: str) -> None:
        where = "between rows" if self.result.entries else "before the table"
        self.result.warnings.append(
            ParseWarning(number, f"text {where} that is no ruling, ignored: {line[:60]!r}")
        )

    def close(self) -> None:
        """The open entry done: lines no row closed are its text if it has none (a copy
        that lost the cell's closing bar, or was cut inside it), else the page's."""
        entry = self.open
        if entry is None:
            return
        if self.below and not self.texts:
            self.texts = _paragraphs([_cell_lines([text for _, text in self.loose])])
            self.loose = []
        for number, line in self.loose:
            self.note(number, line)
        self.loose = []
        done = entry_of(entry.title, self.texts, entry.line, date=entry.date)
        self.result.entries[-1] = done
        if not done.text:
            self.result.warnings.append(
                ParseWarning(done.line, f"ruling {done.title!r} has no text", doubt=True)
            )
        self.texts, self.below = [], False


def parse(text: str) -> Parsed:
    table = _Table()
    for number, line in lines_of(text):
        stripped = line.strip()
        if not stripped or _RULE.match(stripped):
            continue
        cells = _cells(line)
        column = _date_column(cells) if cells else None
        if column is not None:
            table.title_row(number, cells, column)
        elif cells and any(cell.lower() in _HEADER_WORDS for cell in cells):
            continue  # the table's header row
        elif table.open is not None:
            table.text_row(number, line, cells)
        else:
            table.note(number, line)
    table.close()
    return table.result

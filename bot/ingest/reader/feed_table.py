"""``rulings-feed-table``: the rulings feed as a table.

Shape: ``| Title | Date | Text |`` rows (a header row and a ``|---|`` rule are skipped), or
the same three columns separated by tabs. ``<br>`` inside a cell is a line break;
``<br><br>`` a paragraph break.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.reader.common import entry_of, lines_of
from bot.ingest.reader.metadata import iso_or_none
from bot.ingest.reader.model import Parsed

_RULE = re.compile(r"^\|?\s*:?-{3,}")
_BR = re.compile(r"\s*<br\s*/?>\s*", re.I)


def _cells(line: str) -> list[str] | None:
    stripped = line.strip()
    if "\t" in stripped and not stripped.startswith("|"):
        cells = [cell.strip() for cell in stripped.split("\t")]
    elif stripped.startswith("|") and stripped.count("|") >= 3:
        cells = [cell.strip() for cell in stripped.strip("|").split("|")]
    else:
        return None
    cells = [cell for cell in cells]
    return cells if len(cells) >= 3 else None


def _date_column(cells: list[str]) -> int | None:
    for index, cell in enumerate(cells[:3]):
        if index and iso_or_none(cell):
            return index
    return None


def detect(text: str) -> float:
    rows = [_cells(line) for _, line in lines_of(text)]
    dated = sum(1 for cells in rows if cells and _date_column(cells))
    return 0.95 if dated else 0.0


def parse(text: str) -> Parsed:
    result = Parsed()
    seen_row = False
    for number, line in lines_of(text):
        if not line.strip() or _RULE.match(line.strip()):
            continue
        cells = _cells(line)
        column = _date_column(cells) if cells else None
        if cells is None or column is None:
            header = cells and any(c.lower() in ("title", "date", "ruling", "text") for c in cells)
            if not header:
                where = "between rows" if seen_row else "before the table"
                result.warnings.append(
                    ParseWarning(number, f"text {where} that is no ruling, ignored: {line[:60]!r}")
                )
            continue
        seen_row = True
        title = " ".join(cells[:column]).strip()
        text_cells = " ".join(cells[column + 1 :]).strip()
        texts = [_BR.sub("\n", p).strip() for p in re.split(r"(?:\s*<br\s*/?>\s*){2,}", text_cells)]
        texts = [p for p in texts if p]
        entry = entry_of(title, texts, number, date=iso_or_none(cells[column]))
        if not entry.text:
            result.warnings.append(ParseWarning(number, f"ruling {title!r} has no text"))
        result.entries.append(entry)
    return result

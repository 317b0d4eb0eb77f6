"""Issue 38: the Current Rulings Document as a real PDF file, set in two columns, reads as
its text does. The PDFs are made here from the bundled 2E CRD text (tests/ingest/pdfmaker.py:
no dependency), drawn as a producer may draw them: column by column, or row by row across
both columns (which splices the columns in a plain text extraction)."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest

from bot.ingest.reader import read_document, read_text
from tests.ingest.pdfmaker import make_pdf

SOURCE = Path(__file__).resolve().parents[2] / "rulings_data" / "sources"
LINES = (SOURCE / "2e-current-rulings-2014-07-07.txt").read_text(encoding="utf-8").split("\n")
PAGE_ROWS = 70
LEFT_X, RIGHT_X, TOP, LEADING = 40.0, 320.0, 760.0, 10.5


def _two_column_pdf(lines: list[str], row_by_row: bool) -> bytes:
    """Pages of two columns of ``PAGE_ROWS`` rows; a blank line is an empty row."""
    pages = []
    per_page = 2 * PAGE_ROWS
    for start in range(0, len(lines), per_page):
        chunk = lines[start : start + per_page]
        left, right = chunk[:PAGE_ROWS], chunk[PAGE_ROWS:]
        runs_left = [(LEFT_X, TOP - i * LEADING, t) for i, t in enumerate(left) if t.strip()]
        runs_right = [(RIGHT_X, TOP - i * LEADING, t) for i, t in enumerate(right) if t.strip()]
        if row_by_row:
            runs = sorted(runs_left + runs_right, key=lambda r: (-r[1], r[0]))
        else:
            runs = runs_left + runs_right
        pages.append(runs)
    return make_pdf(pages)


@pytest.fixture(scope="module")
def text_entries():
    lines = [line.rstrip() for line in LINES[: 4 * PAGE_ROWS]]
    document = read_text("\n".join(lines))
    return lines, [(e.title, " ".join(e.text.split())) for e in document.entries]


@pytest.mark.parametrize("row_by_row", [False, True], ids=["by-column", "row-by-row"])
def test_a_two_column_pdf_reads_as_its_text(text_entries, row_by_row):
    lines, expected = text_entries
    assert len(expected) >= 8
    pdf = _two_column_pdf(lines, row_by_row)
    document = read_document(pdf, "crd.pdf")
    assert document.encoding == "pdf" and document.shape == "crd-2e-text"
    assert [(e.title, " ".join(e.text.split())) for e in document.entries] == expected


def test_row_by_row_drawing_splices_columns_in_a_plain_extraction(text_entries):
    """The case the column reading exists for: without it the columns interleave."""
    lines, _ = text_entries
    reader = pypdf.PdfReader(io.BytesIO(_two_column_pdf(lines, row_by_row=True)))
    plain = reader.pages[0].extract_text()
    first_right = next(t for t in lines[PAGE_ROWS : 2 * PAGE_ROWS] if t.strip()).strip()
    last_left = next(t for t in reversed(lines[:PAGE_ROWS]) if t.strip()).strip()
    # In the plain text the right column begins before the left one ends.
    assert plain.index(first_right) < plain.index(last_left)

"""Issue 38: a rules document printed in three columns or more (a rulebook's, a guide's, a
Current Rulings set narrow) reads as its text does. The made PDFs (tests/ingest/pdfmaker.py)
draw the bundled 2E CRD wrapped to a narrow column, column by column or row by row across
all columns (which splices them in a plain extraction); the real prints are a browser's and a
word processor's (printed/README.md)."""

from __future__ import annotations

import io
import re
import textwrap
from pathlib import Path

import pypdf
import pytest
import yaml

from bot.ingest.reader import read_document, read_text
from bot.ingest.reader.decode import decode
from bot.ingest.reader.pdf_columns import many_columns
from bot.ingest.reader.pdf_lines import joined
from bot.ingest.reader.pdf_pages import read_page
from tests.ingest.pdfmaker import make_pdf
from tests.ingest.test_pdf_columns import _word_by_word, reads_as_the_2014_page

DATA = Path(__file__).resolve().parents[2] / "rulings_data"
PRINTED = Path(__file__).parent / "printed"
SOURCE = (DATA / "sources" / "2e-current-rulings-2014-07-07.txt").read_text(encoding="utf-8")
ROWS, TOP, LEADING = 66, 740.0, 10.5


def _narrow_lines(width: int = 34, paragraphs: int = 60) -> list[str]:
    """The 2E CRD's first ``paragraphs`` wrapped to a narrow column, a blank line between."""
    lines: list[str] = []
    for paragraph in re.split(r"\n\s*\n", SOURCE.strip())[:paragraphs]:
        lines += textwrap.wrap(" ".join(paragraph.split()), width) + [""]
    return lines


def _columns_pdf(lines: list[str], lefts: list[float], row_by_row: bool, size=(612, 792)):
    """Pages of ``len(lefts)`` columns of ``ROWS`` rows each, starting at ``lefts``."""
    pages = []
    per_page = ROWS * len(lefts)
    for start in range(0, len(lines), per_page):
        chunk = lines[start : start + per_page]
        runs = [
            (left, TOP - row * LEADING, text)
            for column, left in enumerate(lefts)
            for row, text in enumerate(chunk[column * ROWS : (column + 1) * ROWS])
            if text.strip()
        ]
        if row_by_row:
            runs.sort(key=lambda run: (-run[1], run[0]))
        pages.append(runs)
    return make_pdf(pages, size=size)


def _entries(document) -> list[tuple[str, str]]:
    return [(e.title, " ".join(e.text.split())) for e in document.entries]


@pytest.mark.parametrize("row_by_row", [False, True], ids=["by-column", "row-by-row"])
@pytest.mark.parametrize(
    ("lefts", "size"),
    [([36.0, 226.0, 416.0], (612, 792)), ([36.0, 225.0, 414.0, 603.0], (792, 612))],
    ids=["three columns", "four columns, landscape"],
)
def test_a_pdf_of_many_columns_reads_as_its_text(lefts, size, row_by_row):
    lines = _narrow_lines()
    expected = _entries(read_text("\n".join(lines)))
    assert len(expected) >= 10
    document = read_document(_columns_pdf(lines, lefts, row_by_row, size), "crd.pdf")
    assert document.shape == "crd-2e-text"
    assert _entries(document) == expected
    assert not any(w.doubt for w in document.warnings)


def test_a_last_page_that_fills_two_of_three_columns_is_set_on_the_other_pages():
    # its own margins are two, so its columns were taken for two halves of the page, the
    # first two columns' lines spliced where it is drawn row by row
    lines = _narrow_lines()[: 3 * ROWS + ROWS + 34]
    expected = _entries(read_text("\n".join(lines)))
    document = read_document(_columns_pdf(lines, [36.0, 226.0, 416.0], True), "crd.pdf")
    assert _entries(document) == expected
    assert not any(w.doubt for w in document.warnings)


def test_a_title_above_three_columns_is_read_before_them():
    lines = _narrow_lines(paragraphs=30)
    runs = [
        (left, TOP - row * LEADING, text)
        for column, left in enumerate([36.0, 226.0, 416.0])
        for row, text in enumerate(lines[column * ROWS : (column + 1) * ROWS])
        if text.strip()
    ]
    runs.sort(key=lambda run: (-run[1], run[0]))  # drawn row by row
    untitled, _, _ = decode(make_pdf([runs]))
    # the title is drawn last, over the middle column, above them all
    titled, _, _ = decode(make_pdf([[*runs, (250.0, TOP + 30, "Current Rulings")]]))
    assert titled.startswith("Current Rulings\n")
    # under it the columns read as the untitled page's, the first whole before the second
    assert titled.split("\n", 1)[1].strip() == untitled.strip()
    assert untitled.index("abilities") < untitled.index(lines[ROWS].strip() or lines[ROWS + 1])


def test_one_column_with_indents_is_no_columns():
    # a list's items and sub-items indented under a paragraph: one column's margins
    lines = []
    for n in range(20):
        lines += [
            (40.0, f"Paragraph {n} opens at the margin and runs on to the end of its line."),
            (58.0, f"- an item {n} indented under it"),
            (76.0, f"- a sub-item {n} indented further"),
        ]
    page = [(x, TOP - row * LEADING, text) for row, (x, text) in enumerate(lines)]
    text, _, _ = decode(make_pdf([page]))
    assert "line.\n- an item 0 indented under it\n- a sub-item 0" in text


def test_a_column_ending_on_a_short_line_ends_its_paragraph():
    # "Card-Specific", a section's heading, at a column's foot and its note atop the next:
    # the line broke where the note's first word would have fitted, so it ended there
    before = "The active player does not finish the rest of\nhis or her turn.\n\nCard-Specific"
    assert joined([before, "Rulings which are card-specific will"]).endswith(
        "Card-Specific\n\nRulings which are card-specific will"
    )
    # a paragraph that runs on fills its column's line: no gap
    running = "The active player does not finish the rest of\nhis or her turn, as the rules say in"
    assert joined([running, "part five."]).endswith("say in\npart five.")


@pytest.mark.parametrize(
    "stem",
    [
        "crd-2e-2014-07-07-three-columns",
        "crd-2e-2014-07-07-word-processor-three-columns",
        "crd-2e-2014-07-07-typeset-three-columns",
    ],
)
def test_a_real_three_column_print_reads_as_the_page_it_was_printed_from(stem):
    # a browser's (column-count: 3), a word processor's (three justified columns, a running
    # header) and a typesetter's (multicol, its columns balanced, a title above them):
    # columns some 165 pt wide, whose lines a plain extraction interleaves
    pdf = reads_as_the_2014_page(stem)
    assert (pdf.metadata.edition, pdf.metadata.date) == ("2E", "2014-07-07")


def test_a_real_three_column_print_of_the_2011_crd_reads_its_card_rulings():
    # its narrow columns wrap a card's title before what the entry is ("Klingon Tea
    # Ceremony –" / "Clarification:"), and its "Card-Specific" heading ends a column
    pdf = read_document((PRINTED / "crd-2e-2011-10-05-three-columns.pdf").read_bytes(), "c.pdf")
    source = yaml_titles("2e-crd-2011-10-05")
    assert [e.title for e in pdf.entries] == source
    tea = next(e for e in pdf.entries if e.title == "Klingon Tea Ceremony")
    assert tea.kind == "clarification"
    assert tea.text.startswith("If a single action downloads multiple cards simultaneously")
    winning = next(e for e in pdf.entries if e.title == "winning the game")
    assert "Card-Specific" not in winning.text


def yaml_titles(name: str) -> list[str]:
    entries = yaml.safe_load((DATA / "entries" / f"{name}.yaml").read_text("utf-8"))["entries"]
    return [entry["title"] for entry in entries]


def test_one_column_drawn_word_by_word_is_no_columns():
    # every line's words start all over the page, some at the same places on a few lines:
    # none is a column's margin, as each line runs on across it
    lines = [line for line in SOURCE.split("\n")[:70] if line.strip()][:60]
    page = [
        run for row, line in enumerate(lines) for run in _word_by_word(40.0, TOP - row * 11, line)
    ]
    (drawn,) = pypdf.PdfReader(io.BytesIO(make_pdf([page]))).pages
    runs = read_page(drawn).runs
    assert len(runs) > 500
    assert many_columns(runs, 612.0) is None


def test_a_table_inside_one_column_is_no_columns():
    # a one-column page's paragraphs run across where a table's cells start: the cells'
    # places are no columns' margins (its rows were read a column of cells at a time, after
    # the paragraphs under the table)
    wide = " ".join(SOURCE.split()[:18])  # one line of the page's measure, one piece
    rows = [(f"Card {n}", f"Type {n}", f"Set {n}") for n in range(1, 9)]
    page = [(40.0, TOP - row * LEADING, wide) for row in range(6)]
    page += [
        (x, TOP - (6 + row) * LEADING, cell)
        for row, cells in enumerate(rows)
        for x, cell in zip((40.0, 230.0, 420.0), cells, strict=True)
    ]
    page += [(40.0, TOP - (14 + row) * LEADING, wide) for row in range(6)]
    (drawn,) = pypdf.PdfReader(io.BytesIO(make_pdf([page]))).pages
    assert many_columns(read_page(drawn).runs, 612.0) is None
    # a paragraph across the top, above the columns, is read first, as the first column's
    opened = [(36.0, TOP + 40, wide, 9.0)] + _three_columns_runs(_narrow_lines(paragraphs=30))
    text = many_columns(opened, 612.0)
    assert text is not None and text.startswith(wide + "\n")


def _three_columns_runs(lines: list[str]) -> list[tuple[float, float, str, float]]:
    return [
        (left, TOP - row * LEADING, text, 9.0)
        for column, left in enumerate([36.0, 226.0, 416.0])
        for row, text in enumerate(lines[column * ROWS : (column + 1) * ROWS])
        if text.strip()
    ]


def test_many_pieces_starting_in_many_places_are_judged_in_linear_time():
    # every place a piece starts is weighed as a margin against the lines starting near
    # it: on a page box 100,000 pt wide (a hostile file's), 80,000 pieces at 20,000
    # places, each window holding all of them, weighed one window at a time took a minute
    import time

    runs = [(float(x), float(row), "w", 9.0) for x in range(20_000) for row in range(4)]
    start = time.process_time()  # CPU time: a busy machine must not fail it
    text = many_columns(runs, 100_000.0)
    assert time.process_time() - start < 5  # 0.2 s here
    assert text is None or text.count("w") == len(runs)  # read in columns, none lost

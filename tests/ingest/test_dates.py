"""Dates in figures as rules pages print them: one pattern finds them, one reading checks
them, for every reader that dates a page."""

from pathlib import Path

import pytest

from bot.ingest.reader import UnreadableDocument, read_document
from bot.ingest.reader.dates import iso_or_none, us_date

CORPUS = Path(__file__).parent / "corpus"
DECIPHER = CORPUS / "1e-decipher-current-rulings-2001-09-24-ag.txt"


@pytest.mark.parametrize(
    ("printed", "read"),
    [
        ("09/24/01", "2001-09-24"),
        ("9/24/2001", "2001-09-24"),
        ("12/7/98", "1998-12-07"),
        ("1/1/90", "1990-01-01"),  # two figures from 90 are the 1990s, the game's first years
        ("1/1/89", "2089-01-01"),
        ("2016-09-19", "2016-09-19"),
        ("02/30/01", None),
        ("31/07/00", None),  # a day first is no date the project can tell
        ("09/24/201", None),
    ],
)
def test_a_printed_date_reads_as_iso_or_as_none(printed, read):
    assert iso_or_none(printed) == read
    if "/" in printed:
        assert us_date(printed) == read


def _with_update_line(printed):
    lines = DECIPHER.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("Rulings Updated"))
    lines[at] = f"Rulings Updated {printed}"
    return "\n".join(lines).encode(), at + 1


@pytest.mark.parametrize("printed", ["09/24/01", "9/24/2001"])
def test_a_decipher_page_is_dated_by_its_update_line(printed):
    content, _ = _with_update_line(printed)
    document = read_document(content, "page.txt")
    assert document.shape == "decipher-current-rulings"
    assert document.metadata.date == "2001-09-24"


@pytest.mark.parametrize("printed", ["02/30/01", "09/24/201"])
def test_an_impossible_update_date_is_reported_with_its_line_not_read_shorter(printed):
    content, line = _with_update_line(printed)
    with pytest.raises(UnreadableDocument) as refused:
        read_document(content, "page.txt")
    assert str(refused.value) == f"page.txt:{line}: date {printed} is not a real date"

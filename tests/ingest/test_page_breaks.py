"""Text copied out of a paginated document (a PDF in a viewer, pdftotext, a page a browser
printed): the lines its page breaks print are no entry's text, and an entry a page break
cuts runs on, as in a PDF read here."""

from pathlib import Path

import pytest

from bot.ingest.reader import read_document
from bot.ingest.reader.page_breaks import unpaginated
from tests.ingest import copies
from tests.ingest.test_reader_viewer_copy import DATA, viewer_copy

INGEST = Path(__file__).parent
FLIP_BOOK = "corpus/1e-glossary-html-yumpu-p22.txt"  # "Dead in Bed – You choose …" cut
CRD = INGEST.parents[1] / "rulings_data" / "sources" / "2e-current-rulings-2014-07-07.txt"


def _entries(text: str, name: str) -> list[tuple[str, str]]:
    return [(e.title, e.text) for e in read_document(text.encode(), name).entries]


def _browser_printed(pages: list[str], title: str) -> str:
    """``pages`` as pdftotext writes a page Chromium printed: its date and the page's title
    at each page's top, its address and the page's number at the foot, a form feed after."""
    stamp, address = "11/29/26, 2:45 AM", f"file:///tmp/{title}.html"
    return "".join(
        f"{stamp}\n\n{title}\n\n{page}\n{address}\n\n{n}/{len(pages)}\n\n\f"
        for n, page in enumerate(pages, 1)
    )


def test_a_browser_print_copied_as_text_reads_as_the_page_it_printed():
    text = (INGEST / FLIP_BOOK).read_text(encoding="utf-8")
    cut = text.index("Dead in Bed – You choose the personnel") + len(
        "Dead in Bed – You choose the personnel<br />\n"
    )
    copy = _browser_printed([text[:cut], text[cut:]], "glossary-p22.txt")
    assert _entries(copy, FLIP_BOOK) == _entries(text, FLIP_BOOK)
    document = read_document(copy.encode(), FLIP_BOOK)
    (note,) = [w for w in document.warnings if "paginated" in w.message]
    assert "11/29/26, 2:45 AM" in note.message and not note.doubt


def test_a_page_of_one_printed_is_not_titled_by_what_the_browser_printed():
    # the committee's ruling page with its menu line first: the title the browser prints
    # above it would otherwise be read as the ruling's
    page = "fresh6/2e-single-ruling-trekcc-419.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    # as a PDF's text is copied, no blank line between its paragraphs
    unspaced = "\n".join(line for line in text.split("\n") if line.strip())
    copy = _browser_printed([unspaced], "The Continuing Committee")
    assert _entries(copy, page) == _entries(unspaced, page) == _entries(text, page)


def test_a_viewer_copy_of_a_crd_loses_its_running_header_and_page_numbers():
    text = CRD.read_text(encoding="utf-8")
    lines = text.split("\n")
    size = 40
    pages = ["\n".join(lines[i : i + size]) for i in range(0, len(lines), size)]
    header = "Second Edition Current Rulings Document"
    copy = "\n".join(
        f"{header}\n{page}\nPage {n} of {len(pages)}" for n, page in enumerate(pages, 1)
    )
    assert len(pages) >= 3
    assert _entries(copy, CRD.name) == _entries(text, CRD.name)


@pytest.mark.parametrize(
    "text",
    [
        # links a ruling gives on lines of their own, and no page's number
        "Dead End – See the thread:\nhttps://www.trekcc.org/forums/1\n\nQ-Flash – See:\n"
        "https://www.trekcc.org/forums/2\n",
        # one page's number: no second break to show the text is paginated
        "Dead End – If you meet conditions, discard dilemma.\n\n1/2\n\nQ-Flash – Seed one.\n",
    ],
)
def test_a_text_that_shows_no_page_breaks_is_left_as_it_is(text):
    assert unpaginated(text) is None


def test_a_card_fields_value_wrapped_in_a_copy_stays_with_the_cards_data():
    # a wiki's card page copied out of its print: no blank lines, each line wrapped at the
    # page's width; the lore's last words ("on the back of the host's neck.") are the
    # card's data, not the ruling under it
    page = "fresh41/1e-card-page-alien-parasites-fandom.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    unspaced = "\n".join(line for line in text.split("\n") if line.strip())
    copy = unspaced.replace("protrusion on the back", "protrusion\non the back").replace(
        "controls ship or facility", "controls ship or\nfacility"
    )
    assert copy.count("\n") == unspaced.count("\n") + 2
    ((title, ruling),) = _entries(copy, page)
    assert (title, ruling) == _entries(text, page)[0]
    assert ruling.startswith("When you encounter this dilemma and fail to meet its conditions")


def test_a_card_fields_value_wrapped_by_a_mail_program_stays_with_the_cards_data():
    # wrapped at 72: the game text's third line opens a sentence ("Then turn resumes.")
    page = "fresh41/1e-card-page-alien-parasites-fandom.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    copy = copies.COPIES["mail-wrapped"](text)
    assert "\nThen turn resumes." in copy
    assert _entries(copy, page) == _entries(text, page)


def test_a_copy_whose_pages_print_nothing_of_their_own_says_what_was_taken_out():
    # pdftotext's copy of a print with no header, footer or number: only its form feeds
    # show the page breaks, and the note named none of its lines ("…own lines ()")
    source = DATA / "sources" / "2e-current-rulings-2014-07-07.txt"
    lines = viewer_copy(source.read_text(encoding="utf-8"), 80).split("\n")
    text = "\f".join("\n".join(lines[at : at + 50]) for at in range(0, len(lines), 50))
    document = read_document(text.encode(), "crd.txt")
    assert len(document.entries) == 23
    (note,) = [w.message for w in document.warnings if "paginated" in w.message]
    assert "()" not in note and "form feed" in note

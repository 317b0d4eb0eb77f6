"""Issue 38: a copy that sets a blank line after every line (double-spaced), as a file whose
line endings were converted twice ("\\r\\r\\n") or a viewer's copy of a printed page does.
Read as it stood, every wrapped line was a paragraph: three Current Rulings pages read an
entry's second half as an entry of its own, with no doubt, and a changelog gave 37
invented entries. Such a copy reads as the page it was made from, at its line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ingest.reader import UnknownShape, read_document, read_text
from bot.ingest.reader.spacing import NOTE, single_spaced

INGEST = Path(__file__).resolve().parent

WRAPPED = [
    "sweep2/1e-decipher-current-rulings-1999-08-30-pqr.txt",
    "fresh16/1e-current-rulings-1999-s-t-starshipexcelsior.txt",
    "fresh105/1e-current-rulings-1999-10-25-decipher-archive.txt",
    "fresh21/1e-decipher-current-rulings-1998-02-13-newsgroup.txt",
]


def _entries(document) -> list[tuple[str, str, int]]:
    return [(entry.title, entry.text, entry.line) for entry in document.entries]


@pytest.mark.parametrize("page", WRAPPED)
def test_a_double_spaced_copy_reads_as_the_page_at_its_line_numbers(page):
    text = (INGEST / page).read_text(encoding="utf-8")
    saved = read_text(text, filename=page)
    doubled = read_text(text.replace("\n", "\n\n"), filename=page)
    assert _entries(doubled) == _entries(saved)
    notes = [w for w in doubled.warnings if w.message == NOTE]
    assert len(notes) == 1 and not notes[0].doubt  # a note to accept, not a doubt
    assert [w.doubt for w in doubled.warnings if w.message != NOTE] == [
        w.doubt for w in saved.warnings
    ]
    assert not any(w.message == NOTE for w in saved.warnings)


def test_line_endings_converted_twice_read_as_the_file():
    page = WRAPPED[0]
    text = (INGEST / page).read_text(encoding="utf-8")
    saved = read_document(text.encode(), page)
    twice = read_document(text.replace("\n", "\r\r\n").encode(), page)
    assert _entries(twice) == _entries(saved)


def test_a_refusal_of_a_double_spaced_copy_says_how_its_lines_are_counted():
    page = "fresh51/1e-crd-news-duplicate-missions-trekcc-424.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    with pytest.raises(UnknownShape) as refused:
        read_text(text.replace("\n", "\n\n"), filename=page)
    assert str(refused.value).endswith(NOTE.capitalize() + ".")
    with pytest.raises(UnknownShape) as saved:
        read_text(text, filename=page)
    assert NOTE.capitalize() not in str(saved.value)


PARAGRAPHS = [f"Term {n} – This is the ruling number {n}, one line long." for n in range(10)]


@pytest.mark.parametrize(
    "page",
    [
        "\n\n".join(PARAGRAPHS),  # a paragraph a line, a blank line between: as typed
        # sections three blank lines apart, and one two apart: typed so, not doubled
        "\n\n\n\n".join(PARAGRAPHS[:6]) + "\n\n\n" + "\n\n\n\n".join(PARAGRAPHS[6:]),
        "\n".join(PARAGRAPHS[:2]) + "\n\n" + "\n\n\n\n".join(PARAGRAPHS[2:]),  # lines together
        "\n\n\n\n".join(PARAGRAPHS[:5]),  # too short to tell
        # a Glossary's lower-case terms, each after a sentence's stop
        "\n\n".join(f"term {n}\n\n{text}" for n, text in enumerate(PARAGRAPHS)),
        # short steps, each over lower-case items: no line wrapped at a paragraph's width
        "\n\n".join(
            f"{n}. Draw Dilemmas\n\na. {text}\n\nb. {text}" for n, text in enumerate(PARAGRAPHS)
        ),
        # items of a list that end on no stop, each opening in capitals
        "\n\n".join(text.rstrip(".") + " and no stop at its end" for text in PARAGRAPHS),
    ],
)
def test_a_page_typed_with_blank_lines_between_its_paragraphs_is_left_as_it_is(page):
    assert single_spaced(page) is None


RULINGS = [
    "Madred – This personnel may add 1 to Interrogation or Torture",
    "only when Madred and the captive are both aboard the same",
    "outpost.",
    "",
    "Magic Carpet Ride – The owner of this artifact must use its game",
    "text immediately upon either player earning or acquiring it.",
    "",
    "",  # a section's two blank lines
    "Mirror Image – This dilemma is encountered by the crew of a ship",
    "that has an opposing ship at the same location, and it stops",
    "that crew if the other ship's crew is larger.",
    "",
]


def test_a_doubled_page_is_undone_to_the_lines_it_was_made_from():
    page = "\n".join(RULINGS)
    assert single_spaced(page.replace("\n", "\n\n")) == page
    # a page of a paragraph a line, its paragraph breaks doubled to three blank lines
    lines = "\n\n".join(" ".join(RULINGS[:3]).split(" – ") * 5)
    assert single_spaced(lines.replace("\n", "\n\n")) == lines

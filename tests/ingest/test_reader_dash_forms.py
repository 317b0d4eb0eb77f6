"""Issue 38, nineteenth pass: how a line's dash and colon are told apart on pages of any
site. A letter page's own heading is the page's, not an entry."""

from __future__ import annotations

from bot.ingest.reader import read_text


def _read(text: str):
    document = read_text(text)
    return [entry.title for entry in document.entries], document


def test_a_letter_pages_own_heading_names_the_document_and_is_no_entry():
    # "Rulebook Glossary - D" over a line of text, above title lines the project knows: it
    # was read as a third entry; it is the page's heading, and says what the document is
    page = (
        "Rulebook Glossary - D\nThe entries of the letter D, as the rulebook prints them.\n\n"
        "Dilemma Resolution\nAdd this paragraph before the Triggers paragraph of this entry.\n\n"
        "Deep Space 9 icon\nA card with this icon is related to the Star Trek: Deep Space Nine "
        "television series.\n"
    )
    titles, document = _read(page)
    assert titles == ["Dilemma Resolution", "Deep Space 9 icon"]
    assert (document.metadata.title, document.metadata.kind) == (
        "Rulebook Glossary - D",
        "glossary",
    )
    assert not [w for w in document.warnings if w.doubt]

"""The Markdown 2E CRD (2011-10-05): general and card-specific entries."""

import pytest

from bot.ingest.parsers import SourceFormatError
from bot.ingest.parsers.crd_2e_markdown import parse

FILE = "2e-current-rulings-2011-10-05.md"

TITLES = [
    "abilities", "attempting missions", "attributes, ship", "cannot / may not",
    "conditional effects", "cost reduction", "dilemmas", "infinite loops", "missions", "own",
    "requirements", "response actions", "selected", "showing your cards", "skills",
    "winning the game", "Klingon Tea Ceremony", "Kira Nerys, Iliana Ghemor",
]  # fmt: skip


@pytest.fixture(scope="module")
def entries(source_text):
    result = parse(source_text(FILE), FILE)
    assert result.warnings == []
    return {e.title: e for e in result.entries}


def test_every_title_in_document_order(source_text):
    assert [e.title for e in parse(source_text(FILE), FILE).entries] == TITLES


@pytest.mark.parametrize("title", ["attributes, ship", "cost reduction"])
def test_escaped_asterisk_marks_new(entries, title):
    assert entries[title].marked_new


def test_card_specific_entries_are_clarifications(entries):
    assert entries["Klingon Tea Ceremony"].kind == "clarification"
    assert entries["Kira Nerys, Iliana Ghemor"].kind == "clarification"
    assert entries["abilities"].kind == "rule"


def test_kira_clarification_exact(entries):
    assert entries["Kira Nerys, Iliana Ghemor"].text == (
        'This personnel\'s ability only allows you to place all downloaded personnel at "a" '
        'headquarters mission to which "they" could be played. If there is no single '
        "headquarters mission where all downloaded personnel could be played, you may not place "
        "any of them at any headquarters mission."
    )


def test_ktc_keeps_its_numbered_scenarios(entries):
    text = entries["Klingon Tea Ceremony"].text
    assert text.startswith(
        "If a single action downloads multiple cards simultaneously, it will trigger KTC."
    )
    assert (
        "\n\n- 1) A card has not yet been downloaded by that player this turn prior to the multi-download.\n"
        in text
    )
    assert text.endswith("In this scenario, all cards downloaded are affected by KTC.")


def test_nested_lettered_steps_are_canonical(entries):
    text = entries["attempting missions"].text
    # "1." then "  - a.": the lettered steps stay nested under their number, as Markdown.
    assert "\n1. Active player (AP) begins a mission attempt\n   a. AP announces" in text
    assert "\n   b. “When . . . begins a mission attempt” triggers process.\n2. Draw" in text
    assert "- a." not in text


def test_page_break_paragraph_is_rejoined(entries):
    assert (
        "but before the personnel is stopped, or after the personnel is stopped."
        in entries["dilemmas"].text
    )


def test_emphasis_kept_as_markdown(entries):
    assert (
        "For example, *I.K.S. Vorn (Ship of Traitors)* reads:" in entries["attributes, ship"].text
    )
    assert entries["winning the game"].text.endswith("*The rest of the entry does not change.*")


def test_no_entries_is_refused():
    with pytest.raises(SourceFormatError, match="notes.md"):
        parse("# Heading\n\nJust prose.\n", "notes.md")

"""The PDF-extracted 2E CRD (2014-07-07): titles, re-flowed text, lists, amendments."""

import pytest

from bot.ingest.parsers import SourceFormatError
from bot.ingest.parsers.crd_2e_text import parse

FILE = "2e-current-rulings-2014-07-07.txt"

TITLES = [
    "abilities", "attempting missions", "attributes, ship", "building a deck", "cannot / may not",
    "conditional effects", "cost reduction", "dilemmas", "equipped with", "exchange",
    "infinite loops", "missions", "naming a card", "not in play", "own", "playing a card",
    "requirements", "response actions", "selected", "showing your cards", "skills", "species",
    "winning the game",
]  # fmt: skip


@pytest.fixture(scope="module")
def entries(source_text):
    result = parse(source_text(FILE), FILE)
    assert result.warnings == []
    return {e.title: e for e in result.entries}


def test_every_title_in_document_order(source_text):
    assert [e.title for e in parse(source_text(FILE), FILE).entries] == TITLES


@pytest.mark.parametrize("title", ["attempting missions", "dilemmas"])
def test_asterisk_marks_new(entries, title):
    assert entries[title].marked_new


def test_unmarked_entry_is_not_new(entries):
    assert not entries["abilities"].marked_new


def test_page_break_inside_a_sentence_is_rejoined(entries):
    # "played at a cost lower than \n\ntheir printed cost" in the source
    assert entries["cost reduction"].text.startswith(
        "Some cards have abilities that enable them to be played at a cost lower than their "
        "printed cost. If this cost reduction"
    )
    assert "I.K.S. Vorn (Ship of Traitors) reads:" in entries["attributes, ship"].text


def test_hyphen_at_line_end_joins_without_space(entries):
    assert "its non-cost-related game text becomes active" in entries["playing a card"].text


@pytest.mark.parametrize(
    ("title", "before"),
    [
        ("infinite loops", "as a result of repeating that series of actions any number of times."),
        ("missions", "not considered to be at any other copy of the mission."),
        (
            "dilemmas",
            "when multiple personnel are affected by a single action during a mission attempt.",
        ),
    ],
)
def test_for_example_after_a_sentence_is_its_own_paragraph(entries, title, before):
    # The line after a finished sentence starts "For example:" with no blank line between.
    assert f"{before}\n\nFor example: " in entries[title].text


def test_for_example_inside_a_line_runs_on(entries):
    assert "unless there is a condition on doing so. For example: Personnel attempting" in (
        entries["requirements"].text
    )


def test_numbered_steps_keep_their_lines(entries):
    text = entries["attempting missions"].text
    assert text.startswith(
        "Below is the timing for mission attempts and response actions involving them.\n\n"
        "1. Active player (AP) begins a mission attempt\n"
        "   a. AP announces where and by what means (normal or game text), showing required "
        "personnel, and announcing the difference between the number of personnel involved in "
        "the attempt and the number of dilemmas underneath the mission.\n"
        '   b. "When . . . begins a mission attempt" triggers process.\n'
        "2. Draw Dilemmas\n"
    )
    # A paragraph between two steps ends the list; the next step and its sub-steps resume it.
    assert (
        "one action at a time.\n\nContinuous effects are simply in effect and are not actions."
        "\n\n4. Overcoming Dilemmas\n   a. After all dilemma actions"
    ) in text


def test_bullets_and_rest_unchanged(entries):
    assert entries["winning the game"].text == (
        "A player wins the game when he or she:\n\n"
        "- has 100 points (or more);\n"
        "- commands at least one completed planet mission; and\n"
        "- commands at least one completed space mission.\n\n"
        "The game ends immediately when all three of these conditions are simultaneously met. "
        "(The active player does not finish the rest of his or her turn.)\n\n"
        "The rest of the entry does not change."
    )
    assert [a.action for a in entries["winning the game"].amendments] == ["rest unchanged"]


def test_supersedes_is_recorded(entries):
    entry = entries["equipped with"]
    assert [a.action for a in entry.amendments] == ["supersedes"]
    assert entry.text.endswith(
        "“equipped with” that equipment.\n\nThis supersedes the existing entry."
    )


def test_title_with_hyphen_and_no_space(entries):
    assert entries["naming a card"].text.startswith("When an ability requires a player to name")


def test_short_entry_exact(entries):
    assert (
        entries["species"].text
        == "When a card becomes a different species, it loses its previous species."
    )


@pytest.mark.parametrize("text", ["", "   \n\n", "just some words\nwith no entries\n"])
def test_malformed_input_is_refused(text):
    with pytest.raises(SourceFormatError) as info:
        parse(text, "broken.txt")
    assert "broken.txt" in str(info.value)


def test_binary_input_names_the_line():
    with pytest.raises(SourceFormatError, match=r"broken.txt:2: binary"):
        parse("abilities – fine.\n\x00\x01", "broken.txt")


def test_a_card_specific_entry_is_read_under_the_cards_title():
    # the 2E CRDs since 2011 end with card-specific rulings, each its card's title and what
    # it is over its text; the Markdown copy bolds the title, a PDF's text does not
    text = (
        "winning the game – A player wins the game when he or she has 100 points.\n"
        "\n"
        "Card-Specific\n"
        "\n"
        "Klingon Tea Ceremony – Clarification:\n"
        "\n"
        "If a single action downloads multiple cards simultaneously, it will trigger KTC.\n"
        "\n"
        "Kira Nerys, Iliana Ghemor – Clarification:\n"
        "\n"
        'This ability only allows you to place them at "a" headquarters mission.\n'
    )
    entries = parse(text, "crd.txt").entries
    assert [e.title for e in entries] == [
        "winning the game",
        "Klingon Tea Ceremony",
        "Kira Nerys, Iliana Ghemor",
    ]
    assert entries[1].kind == "clarification" and entries[0].kind == "rule"
    assert entries[1].text == (
        "If a single action downloads multiple cards simultaneously, it will trigger KTC."
    )


def test_a_sentence_that_names_a_card_before_a_dash_opens_no_entry():
    # the card's line must say what it is ("– Clarification:") and follow a sentence's end
    text = (
        "cost – Some cards cost less.\n"
        "Klingon Tea Ceremony – see above, which explains when a download triggers it.\n"
    )
    assert [e.title for e in parse(text, "crd.txt").entries] == ["cost"]


def test_a_sections_heading_ends_the_entry_above_it_and_its_note_is_set_aside():
    # "Card-Specific" and the note under it were read into the last general entry
    text = (
        "winning the game – A player wins the game when he or she has 100 points.\n"
        "\n"
        "The rest of the entry does not change.\n"
        "\n"
        "Card-Specific\n"
        "\n"
        "Rulings which are card-specific will appear in the CRD for two months.\n"
        "\n"
        "Klingon Tea Ceremony – Clarification:\n"
        "\n"
        "If a single action downloads multiple cards simultaneously, it will trigger KTC.\n"
    )
    result = parse(text, "crd.txt")
    assert [e.title for e in result.entries] == ["winning the game", "Klingon Tea Ceremony"]
    assert result.entries[0].text.endswith("The rest of the entry does not change.")
    (note,) = [w for w in result.warnings if "section heading" in w.message]
    assert note.line == 5 and "Rulings which are card-specific" in note.message

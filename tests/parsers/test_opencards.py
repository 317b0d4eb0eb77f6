"""The openCards 2E terms overview: every term, its source, re-flowed lists, the cross-check."""

import pytest

from bot.ingest.parsers import SourceFormatError
from bot.ingest.parsers.opencards import parse

FILE = "2e-terms-overview-opencards.txt"

TITLES = [
    "abilities", "actoins", "all", "attempting missions", "attributes, ship", "building a deck",
    "cannot", "Commander", "conditional effects", "Consume", "cost reduction", "dilemmas",
    "discarding", "equipped with", "examine", "infinite loops", "lose points", "may not",
    "missions", "modifications", "naming a card", "naming cards", "own", "play and place",
    "playing a card", "remove from the game", "replace", "reveal", "selections", "skills",
    "species", "stopped", "this mission",
]  # fmt: skip
RULEBOOK = {
    "actoins", "all", "Commander", "Consume", "discarding", "equipped with", "examine",
    "lose points", "modifications", "naming cards", "play and place", "remove from the game",
    "replace", "reveal", "selections", "skills", "species", "stopped", "this mission",
}  # fmt: skip


@pytest.fixture(scope="module")
def entries(source_text):
    result = parse(source_text(FILE), FILE)
    assert result.warnings == []
    return {e.title: e for e in result.entries}


def test_all_33_terms_in_order(source_text):
    assert [e.title for e in parse(source_text(FILE), FILE).entries] == TITLES


def test_each_term_keeps_where_it_was_taken_from(entries):
    assert {t for t, e in entries.items() if e.taken_from == "Rulebook"} == RULEBOOK
    assert {e.taken_from for e in entries.values()} == {"Rulebook", "Current-Rulings"}


def test_lose_points_exact(entries):
    assert entries["lose points"].text == (
        "If an effect causes a player to lose points when that player has no points, that player "
        "does not lose any points. If the cost to play a card or perform an action requires the "
        "player to lose points and that player does not have any points, that card cannot be "
        "played or that action cannot be taken."
    )


def test_numbered_list_kept_and_hard_wraps_joined(entries):
    text = entries["modifications"].text
    assert "\n\n1. Choose: Any free choices presented by cards are made." in text
    assert (
        "\n4. Lose: Any effects that completely remove an aspect of a card without regard to amount occur.\n5. Zero:"
        in text
    )
    steps = entries["attempting missions"].text
    assert (
        "a. AP announces where and by what means (normal or game text), showing required personnel, "
        "and announcing the difference between the number of personnel involved in the attempt and "
        "the number of dilemmas underneath the mission.\n   b. "
    ) in steps
    assert "\n2. Draw Dilemmas\n   a. " in steps


def test_the_sites_typos_are_kept(entries):
    assert "actoins" in entries
    assert "return tohe beginning of part 5." in entries["attempting missions"].text


def test_a_term_missing_from_the_page_is_a_warning(source_text):
    text = source_text(FILE).replace("\nthis mission\n", "\nthat mission\n")
    result = parse(text, FILE)
    messages = [w.message for w in result.warnings]
    assert any("'this mission'" in m and "no text" in m for m in messages)
    assert any("that mission" in m for m in messages)


@pytest.mark.parametrize(
    "text", ["", "TermTaken from\nabilitiesRulebook\n", "no table here\nTaken from Rulebook.\n"]
)
def test_malformed_input_is_refused(text):
    with pytest.raises(SourceFormatError, match="opencards.txt"):
        parse(text, "opencards.txt")

"""Issue 38: titles run into their text with no separator, as a copy of a page (or of a
PDF) loses the bold face that set them apart ("Tongo To declare a move for this incident,
…"). Where each title ends is a guess the page confirms only by printing titles the project
knows so: every such entry is a doubt that blocks applying, and none is read alone."""

from __future__ import annotations

import pytest

from bot.ingest.reader import UnknownShape, read_text
from bot.ingest.reader.corrections import apply
from bot.ingest.reader.glued import run_into_text

SUPPLEMENT = """Holodeck rules supplement

Holographic personnel Regardless of their appearance or lore, the true species of all holographic personnel is hologram.

Tongo To declare a move for this incident, you must have a bet to show. There is no winner if nobody bets.

Holo-projectors This card is being reprinted in this expansion with new game text, which replaces the old.
"""


def test_titles_run_into_their_text_are_read_where_known_titles_confirm_them():
    document = read_text(SUPPLEMENT)
    assert [(e.title, e.text.split()[0]) for e in document.entries] == [
        ("Holographic personnel", "Regardless"),
        ("Tongo", "To"),
        ("Holo-projectors", "This"),
    ]
    # where each title ends is a guess: every entry is named in a doubt that blocks applying
    doubted = {w.line for w in document.warnings if w.doubt}
    assert {e.line for e in document.entries} <= doubted


def test_one_known_title_run_into_its_text_is_no_entry():
    # a paragraph that opens with a card's name is most often a sentence about the card
    page = "Tongo To declare a move for this incident, you must have a bet to show. No more.\n"
    with pytest.raises(UnknownShape):
        read_text(page)


@pytest.mark.parametrize(
    "sentence",
    [
        # a name in capitals goes on with the sentence ("Odo keeps"): no sentence's opener
        "Security chief Odo keeps order aboard the station, whatever their appearance",
        # "The" opens a sentence, but "Seen from" ends in a small word: a sentence's words
        "Seen from The other side of the table, a mission's lore reads differently; whatever",
    ],
)
def test_a_sentence_that_opens_with_words_in_capitals_is_no_unknown_title(sentence):
    page = SUPPLEMENT.replace("Holographic personnel Regardless of their appearance", sentence)
    assert [e.title for e in read_text(page).entries] == ["Tongo", "Holo-projectors"]


def test_a_paragraph_in_capitals_run_into_a_sentence_inside_an_entry_is_a_doubt():
    # "Splintering This keyword…": a one-word title the project does not know; where it
    # ends cannot be seen, so the paragraph stays in the entry above and is named
    page = SUPPLEMENT + (
        "\nSplintering This keyword used on personnel is always followed by the name of a ship.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries][-1] == "Holo-projectors"
    assert any(
        "'Splintering This'" in w.message and "{line: 9, head: true}" in w.message
        for w in document.warnings
        if w.doubt
    )


def test_a_longer_title_named_in_a_correction_takes_its_words_from_the_text():
    page = SUPPLEMENT.replace("Holographic personnel Regardless", "Captain Proton cards Several")
    document = read_text(page)
    assert [e.title for e in document.entries][0] == "Captain Proton cards"
    # the moderator reads the title on the page as "Captain Proton cards Several": the word
    # leaves the text, and the doubt on the entry is settled
    fixed = apply(document, [{"line": 3, "title": "Captain Proton cards Several"}])
    entry = fixed.entries[0]
    assert (entry.title, entry.text.split()[:2]) == (
        "Captain Proton cards Several",
        ["of", "their"],
    )
    assert not [w for w in fixed.warnings if w.doubt and w.line == 3]


def test_the_reason_of_a_doubt_is_said_in_full_once_per_page():
    # three doubts of one reason read on a phone: the reason once, then each entry's question
    doubts = [w.message for w in read_text(SUPPLEMENT).warnings if w.doubt]
    assert len(doubts) == 3
    assert sum("a bold title copied as text" in message for message in doubts) == 1
    assert all(
        "{line: " in message and "title: <the whole title>}" in message for message in doubts
    )


# The 1E Glossary and Current Rulings copied without their bold face: titles that end with
# a bracket or a sign, and terms printed in lower case over text in lower case.
GLOSSARY_PLAIN = (
    "persona replacement to exchange missions. (See missions – persona.)\n\n"
    'playing an affiliation (non-Borg) You are "playing [affiliation or faction]" if you have '
    "played or seeded face up any personnel, ship, or facility of that affiliation.\n\n"
    "romantic partner a personnel is the romantic partner of another personnel if the lore "
    "(on either card) both names the other and states that they are romantically involved.\n\n"
    "Sam Lavelle This card has updated lore:\n\n"
    "Typical Starfleet ensign eagerly chasing a promotion.\n\n"
    "scouting location A location where you are scouting. See seed phase.\n"
)


def test_titles_ending_with_a_bracket_or_in_lower_case_run_into_their_text_are_read():
    document = read_text(GLOSSARY_PLAIN)
    assert [(e.title, e.text.split()[0]) for e in document.entries] == [
        ("playing an affiliation (non-Borg)", "You"),
        ("romantic partner", "a"),
        ("Sam Lavelle", "This"),
        ("scouting location", "A"),
    ]
    doubted = {w.line for w in document.warnings if w.doubt}
    assert {e.line for e in document.entries} <= doubted
    # the first line, in lower case, is the tail of the entry cut above: not read as a head
    # even though "persona" is a term the project knows
    assert any(w.line == 1 and "persona replacement" in w.message for w in document.warnings)


def test_a_copy_whose_first_line_is_a_known_term_in_lower_case_over_lower_case_is_its_tail():
    page = (
        "special equipment currently includes Cloaking Device, Energy Dampener and Holodeck, "
        "as each card's lore says.\n\n" + GLOSSARY_PLAIN.split("\n\n", 1)[1]
    )
    titles = [e.title for e in read_text(page).entries]
    assert "special equipment" not in titles and titles[0] == "playing an affiliation (non-Borg)"


def test_an_answers_mark_in_a_bracket_is_no_title_run_into_its_text():
    # "Q)" reads as the card Q with a bracket: an FAQ's marks, another game's answers
    page = "\n\n".join(
        f"Q) If using the {thing}, can a Captain be swapped onto a ship?\n\nA) No. CGuild:"
        for thing in ("Reinforcement Sideboard", "Elite Attack Die", "Command Tokens")
    )
    with pytest.raises(UnknownShape):
        read_text(page)


def test_a_known_title_run_into_a_sentence_that_holds_a_colon_or_opens_a_quote_is_read():
    # the colon inside the text ("There are 3 factions: …") or inside the title ("HQ:
    # Defensive Measures") is no "title: text" head; a quote may open the text's 2nd word
    page = (
        "faction There are 3 factions: Klingon/Cardassian Alliance, Maquis, and Terran "
        "Empire.\n\n"
        "HQ: Defensive Measures Seeds or plays on table. Your personnel with any "
        "Intelligence gain 1 Leadership.\n\n"
        "skills Whenever “all skills” are added to or subtracted from a card, all levels of "
        "those skills are added or subtracted.\n"
    )
    document = read_text(page)
    assert [(e.title, e.text.split()[0]) for e in document.entries] == [
        ("faction", "There"),
        ("HQ: Defensive Measures", "Seeds"),
        ("skills", "Whenever"),
    ]
    doubted = {w.line for w in document.warnings if w.doubt}
    assert {e.line for e in document.entries} <= doubted


def test_an_unknown_colon_head_over_a_sentence_stays_a_colon_head():
    # only a title the project knows, run into its text, takes the line from the colon
    # form: "Tongo Betting rules: …" opens with a known card's name over a sentence's start
    # ("Betting rules: …"), and stays one title
    page = (
        "seed phase: The only actions you may take during the seed phase are seeding.\n\n"
        "Tongo Betting rules: Each player may bet once a turn, at the start of the turn.\n\n"
        "species: When a card becomes a different species, it loses its previous species.\n"
    )
    assert run_into_text("Tongo Betting rules: Each player may bet")[:2] == (
        "Tongo",
        "Betting rules: Each player may bet",
    )
    titles = [e.title for e in read_text(page).entries]
    assert titles == ["seed phase", "Tongo Betting rules", "species"]


def test_the_paragraph_an_entrys_colon_introduces_is_its_text_not_a_missed_head():
    # "This card has updated lore:" over "Typical Starfleet ensign …": the lore quoted, not
    # a title in capitals run into a sentence that the reader failed to confirm
    document = read_text(GLOSSARY_PLAIN)
    lore = next(e for e in document.entries if e.title == "Sam Lavelle")
    assert "Typical Starfleet ensign" in lore.text
    quoted = GLOSSARY_PLAIN.split("\n").index(
        "Typical Starfleet ensign eagerly chasing a promotion."
    )
    assert not any(w.doubt and w.line == quoted + 1 for w in document.warnings)

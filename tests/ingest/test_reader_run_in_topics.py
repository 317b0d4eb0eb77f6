"""Issue 38: Decipher's Current Rulings as an archive copies them, cut from the middle of
the list (no heading, no preamble) and hard-wrapped, with entries run on inside the lines:
card titles in Title Case, topics in lower case (`… encountered). card types - A card …`),
a title whose dash a wrap moved to the next line. Each is an entry; a dash inside a bracket
(`Current Rulings (12/05/01 - full version)`) or a lower-case phrase whose dash opens no
sentence heads none."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ingest.reader import UnknownShape, read_text

FOLDER = Path(__file__).parent

# Made in the form of the 10/25/99 Current Rulings (invented wording; known card titles).
CUT_LIST = (
    "Access Denied\n"
    "- See Ferengi Ingenuity. actions - responding to actions - An Interrupt card may\n"
    "respond to an action only while that action is being carried out, never once the\n"
    'action has ended and play has moved on to the next step of the turn. "any"\n'
    '- When a card says "any" before a name, it means every personnel card that shows\n'
    "the character, whatever its affiliation or the edition of its printing may be.\n"
    "Arbiter of Succession - The two Klingons this interrupt targets may belong to one\n"
    "player. Beware of Q - The objective may replace a dilemma seeded at a mission\n"
    "that is not a planet. card types - A card played as another card type counts as\n"
    "both types for every purpose, including the cards that nullify either of them.\n"
)


def test_a_cut_list_of_run_in_titles_and_lower_case_topics_reads_entry_by_entry():
    document = read_text(CUT_LIST)
    assert document.shape == "decipher-current-rulings"
    assert [e.title for e in document.entries] == [
        "Access Denied",
        "actions - responding to actions",
        '"any"',
        "Arbiter of Succession",
        "Beware of Q",
        "card types",
    ]
    texts = [e.text for e in document.entries]
    assert texts[0] == "See Ferengi Ingenuity."
    assert texts[5].startswith("A card played as another card type")
    assert not any(w.doubt for w in document.warnings)


def test_a_title_in_capitals_whose_dash_a_wrap_moved_is_an_entry_not_a_heading():
    page = CUT_LIST.replace("Access Denied\n", "ACCESS DENIED\n", 1)
    document = read_text(page)
    assert document.entries[0].title == "ACCESS DENIED"
    assert document.entries[0].text == "See Ferengi Ingenuity."


def test_a_dash_inside_a_bracket_heads_no_entry():
    # Decipher's update of 12/05/01 as a forum copied it: its list of documents ends with
    # "Current Rulings (12/05/01 - full version)", just above the first entry
    page = (FOLDER / "fresh7" / "1e-current-rulings-update-2001-12-05-forum-turnier.txt").read_text(
        encoding="utf-8"
    )
    assert "Current Rulings (12/05/01 - full version)" in page
    document = read_text(page)
    assert document.shape == "decipher-current-rulings"
    titles = [e.title for e in document.entries]
    assert titles[:3] == ["assimilation", "Cybernetics", "gender"]
    assert not any(title.count("(") > title.count(")") for title in titles)


def test_a_lower_case_phrase_whose_dash_opens_no_sentence_stays_in_its_entry():
    page = CUT_LIST.replace(
        "both types for every purpose, including the cards that nullify either of them.\n",
        "both types for every purpose. sometimes - but not always - a card names one.\n",
    )
    document = read_text(page)
    assert document.entries[-1].title == "card types"
    assert document.entries[-1].text.endswith("sometimes - but not always - a card names one.")


def test_a_title_marked_as_a_card_opens_an_entry_in_a_hard_wrapped_list():
    # a committee CRD's text as a PDF viewer copies it, cut after an entry's last words
    page = (
        "referring to its own subject, as the entry before it says in full.\n"
        "◆Nebula – Delete the second paragraph of this entry. See actions – step 1:\n"
        "initiation.\n"
        "persona – You may not use persona replacement to exchange missions. (See missions\n"
        "– persona.)\n"
        "romantic partner – a personnel is the romantic partner of another personnel if\n"
        "the lore (on either card) both names the other and states that they are or were\n"
        '"romantically involved". For example, Pel and Quark are romantic partners of one\n'
        "another, but Pel and Deputy Quark are not. See named in lore.\n"
        "seed phase – A player who seeds a card face down may not look at it again until it\n"
        "is revealed, whatever the card that seeded it allows, unless it says otherwise.\n"
    )
    titles = [e.title for e in read_text(page).entries]
    assert titles[:2] == ["◆Nebula", "persona"]
    assert "romantic partner" in titles and "seed phase" in titles


def test_a_known_title_under_a_line_that_ends_no_sentence_is_a_doubt_not_lost():
    # an erratum's text that ends without a full stop, then the next entry's line: read on
    # as the erratum's text (a wrapped cross reference looks the same: "See doorways," /
    # "wormholes – movement through."), but named, for a moderator to split
    page = (
        "the card may infiltrate your opponent's cards if your opponent is playing Romulan\n"
        "and has a treaty in play. The remainder of the entry is unchanged.\n"
        'Liberty – The class has been changed to "Condor Class" and the Staffing to [Maq] [Maq]\n'
        "Lore Returns – When you play this event on a ship, your Rogue Borg take control of\n"
        "that ship. They may move it and initiate battles regardless of staffing or leader\n"
        "requirements. The name in the game text refers to the event itself, not a card.\n"
        "matching commander – A personnel is a matching commander for a ship if either card\n"
        "both names the other in lore and states that the personnel is (or was) the\n"
        "commander or captain of that ship. See named in lore.\n"
        "missions – A mission's point box is printed on it; a card that changes it says so\n"
        "in its own game text, and the change lasts only while that card is in play.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries][:2] == ["Liberty", "matching commander"]
    assert any(
        w.doubt and "'Lore Returns'" in w.message and "{line: 4, head: true}" in w.message
        for w in document.warnings
    )


# Current Rulings copied from a PDF viewer with its line breaks lost, the copy starting
# inside an entry: one line, the tail of an entry, then one known term and its text.
CUT_RUN_ON = (
    "agenda is played (because it must be played face down, and is immune to general use "
    'cards) or activated (because it was not "just played"). A "matching" card is a copy. '
    "matching commander – When specified in the ship's lore, only the named personnel is "
    "the matching commander; another version of the persona with a different name cannot "
    "serve as the matching commander. When specified in the personnel lore, no other "
    "versions of that persona can serve as matching commander for a ship, and a ship must "
    "be specified by name (not by class). Matching commanders are defined only for ships.\n"
)


def test_a_run_on_copy_cut_inside_an_entry_reads_the_one_known_head_inside_it():
    document = read_text(CUT_RUN_ON)
    assert [e.title for e in document.entries] == ["matching commander"]
    assert document.entries[0].text.startswith("When specified in the ship's lore")
    # where the entry ends on a line whose breaks were lost is a moderator's to check
    assert any(
        w.doubt and "line breaks were lost: one entry was found" in w.message
        for w in document.warnings
    )
    # the entry cut above is named, not read
    assert any("agenda is played" in w.message for w in document.warnings)


def test_a_paragraph_that_names_one_known_term_before_a_dash_is_no_cut_copy():
    # the same line opening as a sentence does (a post quoting the ruling) is not a copy
    # cut inside an entry: one known head inside a paragraph opens nothing, whether the
    # paragraph opens the page or follows the post's own words
    paragraph = "The" + CUT_RUN_ON[len("agenda") :]
    for page in (paragraph, "I asked about this at the tournament.\n\n" + paragraph):
        with pytest.raises(UnknownShape):
            read_text(page)


def test_a_run_on_copys_first_words_are_the_tail_of_the_entry_cut_above():
    # the copy starts inside Brilgar's lore: its words up to the next sentence are that
    # entry's tail, no topic in lower case
    line = (
        "security officers serving aboard Deep Space 9. Often served as a bodyguard for "
        "visiting dignitaries and key personnel. Classic Communicator – At the beginning of "
        'this entry, add: "When this Equipment card enters play, you may select which '
        'personnel adds which skill." cloaking device – This special equipment allows a '
        "ship or facility to cloak. See cloaking and phasing. "
        "Continuing Mission – Seed one on table. You may download one card each turn, as "
        "its game text says, and may draw a card when you play a personnel.\n"
    )
    titles = [e.title for e in read_text(line).entries]
    assert titles == ["Classic Communicator", "cloaking device", "Continuing Mission"]


def test_a_known_term_that_ends_a_sentence_opens_no_entry_in_run_on_text():
    # "mirror universe. See Stop First Contact": the copy cut inside a sentence that ends on
    # the term; its full stop is the sentence's, no title's separator
    line = (
        "mirror universe. See Stop First Contact, Hero of the Empire. "
        + "Classic Communicator – At the beginning of this entry, add: a new sentence. " * 4
        + "Continuing Mission – Seed one on table. You may download one card each turn.\n"
    )
    titles = [e.title for e in read_text(line).entries]
    assert "mirror universe." not in titles and "mirror universe" not in titles
    assert titles[-1] == "Continuing Mission"


# The 2E order of modifications as a PDF copy runs it on: a numbered list inside an entry,
# one of whose steps ("Replace") is also a card's title.
STEPS_RUN_ON = (
    "may not – A card that says you may not do something prevents it, whatever other "
    "cards allow. modifications – If multiple effects attempt to replace, modify, or remove "
    "a characteristic of a card, they are applied in the following order: 1. Choose: Any "
    "free choices presented by cards are made. 2. Replace: Any effects that use some form "
    'of the verbs "to replace" or "to become" occur. 3. Modify: Any effects that add, '
    "increase, or reduce an aspect of a card by a specific amount occur. naming a card – "
    "When a card instructs you to name a card, you must name a card title.\n"
)


def test_a_numbered_step_inside_an_entry_opens_no_entry_in_run_on_text():
    document = read_text(STEPS_RUN_ON)
    assert [e.title for e in document.entries] == ["may not", "modifications", "naming a card"]
    assert "2. Replace: Any effects" in document.entries[1].text


def test_a_numbered_documents_own_entries_stay_entries_when_run_on():
    # the numbers open the entries themselves: none stands inside an entry's text
    line = (
        "1. modifications – Effects apply in a fixed order, one category after another, "
        "whichever player controls them and whenever they were played. "
        "2. Replace – This interrupt replaces one card with another one from your hand, "
        "which enters play as the card it replaced did and where that card stood. "
        "3. naming a card – When a card instructs you to name a card, you must name one "
        "card title, and any copy of a card of that title counts as the card named.\n"
    )
    titles = [e.title for e in read_text(line).entries]
    assert titles == ["modifications", "Replace", "naming a card"]

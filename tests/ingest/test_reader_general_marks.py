"""Issue 38, after the ninth and eleventh blind sets: marks of a rules document that hold on
any site. A glossary runs in alphabetical order; a card database's page puts the rulings
after "Rule notes"; an FAQ topic may end in a question mark; an entry's text is a sentence
(a banner or a subtitle is not), and a heading that asks a question opens an article."""

from __future__ import annotations

import textwrap

import pytest

from bot.ingest.reader import UnknownShape, read_text
from bot.ingest.reader.common import title_like
from bot.ingest.reader.head_forms import cites_a_title, title_ok


def _titles(text: str) -> list[str]:
    return [entry.title for entry in read_text(text).entries]


LETTER_PAGE = """Rulebook Glossary - P

pa - pe - pl

{first}
When a player passes a turn, play proceeds to the next player without delay at all.

{second}
A player who plays a card for free pays no cost, but the card still counts as played.

{third}
Each planet's span counts toward the range a ship needs to move along the spaceline.
"""


def test_unknown_title_lines_in_a_glossarys_alphabetical_order_are_entries():
    page = LETTER_PAGE.format(first="passing time", second="playing for free", third="plot span")
    assert _titles(page) == ["passing time", "playing for free", "plot span"]


def test_the_same_title_lines_out_of_order_are_an_articles_headings_and_are_refused():
    page = LETTER_PAGE.format(first="plot span", second="passing time", third="playing for free")
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(page)


# A glossary's section across several letters: four "term: text" entries the project does
# not know, each a rule in the game's words.
ACROSS_LETTERS = """{a}: Your personnel aboard your facility is its commander if the facility's lore names them.
{b}: There are three factions; cards belong to them by the faction icons they print.
{c}: A ship hidden by a nebula may not be targeted by any attack until it leaves the mission.
{d}: When a dilemma is placed in a stack, its owner may look at every card under the mission.
"""
TERMS = ("anchor point", "beacon lock", "cargo transfer", "drift zone")


def test_four_unknown_heads_in_alphabetical_order_across_letters_are_a_glossarys_entries():
    # The order of four heads is one in 24 by chance: it confirms the convention as titles
    # the project knows would, and the page's titles being all unknown is still a doubt
    document = read_text(ACROSS_LETTERS.format(**dict(zip("abcd", TERMS, strict=True))))
    assert [e.title for e in document.entries] == list(TERMS)
    assert document.entries[1].text.startswith("There are three factions")
    assert any(w.doubt and "none of the page's 4 titles" in w.message for w in document.warnings)


def test_the_same_four_heads_out_of_order_are_refused():
    shuffled = dict(zip("abcd", (TERMS[2], TERMS[0], TERMS[3], TERMS[1]), strict=True))
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(ACROSS_LETTERS.format(**shuffled))


def test_three_unknown_heads_in_order_across_letters_confirm_nothing():
    # one in six by chance: an article's three headings run so as often
    page = "\n".join(ACROSS_LETTERS.split("\n")[:3])
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(page.format(**dict(zip("abcd", TERMS, strict=True))))


CARD_PAGE = """|
|
{title} Rare card from The Motion Pictures (2001) The captain of the Enterprise in the film. |
|
Personnel Federation Leadership, Diplomacy, Navigation. |
||
{notes}
||
"""
NOTES = (
    "Rule notes Official Rulings Kirk may be played as a universal personnel only by his "
    "owner. Taken from: Current Rulings (2003) |"
)


@pytest.mark.parametrize(
    "notes",
    [NOTES, NOTES.replace("Rulings Kirk", "Runlings:\u00a0Kirk")],
    ids=["as-saved", "no-break-space-after-the-source"],
)
def test_a_card_databases_page_reads_as_the_rulings_on_its_card(notes):
    document = read_text(CARD_PAGE.format(title="James T. Kirk", notes=notes))
    assert document.shape == "card-page"
    (entry,) = document.entries
    assert entry.title == "James T. Kirk"
    assert entry.text.startswith("Kirk may be played as a universal personnel")
    assert entry.cards == ["James T. Kirk"]
    assert not [w for w in document.warnings if w.doubt]


def test_a_card_page_without_rule_notes_is_refused_as_such_not_read_as_a_glossary():
    with pytest.raises(UnknownShape, match="the page of the card 'James T. Kirk', with no rule"):
        read_text(CARD_PAGE.format(title="James T. Kirk", notes="|"))


def test_a_card_page_for_a_card_the_project_does_not_know_is_read_with_a_doubt():
    document = read_text(CARD_PAGE.format(title="Captain Zefram Nobody", notes=NOTES))
    assert [e.title for e in document.entries] == ["Captain Zefram Nobody"]
    assert any(w.doubt and "knows no card" in w.message for w in document.warnings)


def test_a_card_named_in_prose_does_not_make_an_article_a_card_page():
    article = (
        "Our review\n\nThis is an Uncommon card from First Contact (1997) that every deck "
        "wants. It was never reprinted, and its rule notes are short.\n"
    )
    with pytest.raises(UnknownShape):
        read_text(article)


FAQ = """OUTPOSTS
Q: DOCKING
Q: WHO CONTROLS IT?

Q: DOCKING: Can a ship dock at an opponent's outpost?

A: No, unless a card allows it.

Q: WHO CONTROLS IT?: Who controls an outpost that was commandeered?

A: The player who commandeered it.
"""


def test_an_faq_topic_ending_in_a_question_mark_is_its_own_entry():
    document = read_text(FAQ)
    assert [e.title for e in document.entries] == ["DOCKING", "WHO CONTROLS IT?"]
    assert document.entries[1].text.startswith("Who controls an outpost")


def test_a_question_line_the_faq_reader_cannot_read_is_a_doubt_not_text():
    broken = FAQ.replace("Q: WHO CONTROLS IT?: Who", "Q: who controls it -- Who")
    document = read_text(broken)
    assert [e.title for e in document.entries] == ["DOCKING"]
    assert any(w.doubt and "opens like a question" in w.message for w in document.warnings)


def test_a_document_banner_with_a_dash_is_no_entry():
    banner = (
        "STAR TREK CARD GAME HANDBOOK - BASIC RULES Version 3.1 — March 2021 Last Updated 2 "
        "March 2021\nFile Type:pdf, Size:900Kb\nINTRODUCTION Welcome to a universe of "
        "possibilities, where you will venture into the final frontier and win the game.\n"
    )
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(banner)


def test_a_heading_that_asks_a_question_opens_an_article_not_an_entry():
    article = (
        "Strategie\n\nDilemmastapel - Wie baue ich einen guten Stapel?\n\nViele Spieler "
        "unterschätzen die Wichtigkeit eines ausgewogenen Stapels, denn die Dilemmas werden "
        "direkt als Reaktion gelegt.\n"
    )
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(article)


ANCHORED = """Rulebook Glossary - F

fa - fe

back to top of page fe

{title}
Plays on table. Once each turn, your personnel may report for free to your outpost.
"""


def test_a_letter_pages_anchor_confirms_the_title_line_under_it():
    assert _titles(ANCHORED.format(title="Ferengi Trade Routes")) == ["Ferengi Trade Routes"]


def test_an_anchor_that_does_not_start_as_the_title_confirms_nothing():
    with pytest.raises(UnknownShape):
        read_text(ANCHORED.format(title="Trade Routes Of The Ferengi"))


def test_a_wrapped_paragraphs_last_words_are_no_title_line():
    page = (
        "matching commander – When specified in the ship's lore, only the named personnel is\n"
        "the matching commander of\nJovis.\n\nUnless otherwise specified, a ship can only "
        "have one matching commander at a time.\n\nmissions – Each mission has a point box "
        "and a span that counts toward range.\n"
    )
    assert _titles(page) == ["matching commander", "missions"]


def test_a_word_in_parentheses_is_part_of_a_title_and_a_remark_is_not():
    page = ANCHORED.replace("fe\n\n{title}", "pl\n\n{title}").replace("fa - fe", "pe - pl")
    assert _titles(page.format(title="playing a faction (non-Borg)")) == [
        "playing a faction (non-Borg)"
    ]
    assert _titles(page.format(title="playing a faction (updated by Current Rulings)")) == [
        "playing a faction"
    ]


def test_text_an_entry_introduces_with_the_following_is_not_an_entry():
    page = (
        "BORG - Replace the first paragraph of the Objectives subsection with the following:\n\n"
        "Objectives - [Borg] personnel may never begin or join mission attempts.\n\n"
        "BRILGAR - This card has updated lore and a new point box.\n\n"
        "CLOAKING DEVICE - A ship with this card may cloak during your turn.\n"
    )
    assert _titles(page) == ["BORG", "BRILGAR", "CLOAKING DEVICE"]


def test_a_head_whose_text_starts_with_a_label_on_the_next_line_is_an_entry():
    page = (
        "Madred – This personnel may add 1 to Interrogation or Torture.\n\n"
        "Manheim's Dimensional Door – Example:\n\nTreat this doorway as if it read, whenever "
        "any player has a card in hand matching one just played.\n\n"
        "matching commander – Only the named personnel is the matching commander.\n"
    )
    assert _titles(page) == ["Madred", "Manheim's Dimensional Door", "matching commander"]


def test_a_glossary_title_out_of_its_pages_alphabetical_order_is_a_doubt():
    page = (
        "Borg – The Borg are a collective.\n\nBrilgar – This card has updated lore today.\n\n"
        "Classic Communicator – Plays on your personnel for free.\n\n"
        "Aardvark Rules – A sub-heading of the entry above, in its own form.\n\n"
        "Data – Data is an android personnel.\n"
    )
    document = read_text(page)
    assert "Aardvark Rules" in [e.title for e in document.entries]
    assert any(w.doubt and "alphabetical order" in w.message for w in document.warnings)


FLIPBOOK = "15.12.2012 Views\n\nSHOW MORE\nSHOW LESS\n\n" + "".join(
    f"{line}<br />\n\n"
    for line in (
        "Magic Carpet Ride OCD – The owner",
        "of this artifact must use its game",
        "text at once.",
        "{head}",
        "{next}",
        "as if it read, whenever any player",
        "has a card in hand. A card is a",
        "copy.",
        "matching commander – When specified",
        "in the ship's lore, only the named",
    )
)


def test_a_flipbook_title_whose_line_breaks_after_the_dash_is_an_entry():
    page = FLIPBOOK.replace("{head}", "Manheim's Dimensional Door –").replace("{next}", "Example:")
    assert _titles(page) == [
        "Magic Carpet Ride OCD",
        "Manheim's Dimensional Door",
        "matching commander",
    ]


@pytest.mark.parametrize("title", ["playing an affiliation (non-Borg)", "Mirror Image"])
def test_a_flipbook_title_whose_line_breaks_before_the_dash_is_an_entry(title):
    # the term in brackets ends as a sentence would; known or not, the dash opening the next
    # line makes the line a title
    page = FLIPBOOK.replace("{head}", title).replace("{next}", "– You are playing it if")
    assert _titles(page) == ["Magic Carpet Ride OCD", title, "matching commander"]


def test_a_flipbook_line_of_text_is_no_title_before_a_dashed_aside():
    # "…Diplomacy" / "– or Empathy –": the line before ends no sentence, so no title
    page = (
        FLIPBOOK.replace("text at once.", "text with Diplomacy")
        .replace("{head}", "and Honor")
        .replace("{next}", "– or Empathy – if")
    )
    assert _titles(page) == ["Magic Carpet Ride OCD", "matching commander"]


def test_a_cross_reference_is_no_flipbook_title():
    page = FLIPBOOK.replace("{head}", "See actions – step 1: initiation.").replace(
        "{next}", "Treat this doorway"
    )
    assert _titles(page) == ["Magic Carpet Ride OCD", "matching commander"]


def test_a_glossary_of_another_game_is_refused_for_want_of_the_games_words():
    page = "\n\n".join(
        f"{term} - A {what} found in the space sim, with many a long description here."
        for term, what in [
            ("backup", "secondary copy of something"),
            ("badge", "emblem worn to mark an officer"),
            ("bank", "place for storing items and money"),
            ("battery", "device which boosts power to subsystems"),
            ("battle cloak", "ability that lets ships cloak during combat"),
            ("beam", "way of moving between places at once"),
            ("blaster", "hand weapon that fires energy bolts"),
            ("bridge", "room from which a starship is commanded"),
        ]
    )
    with pytest.raises(UnknownShape, match="does not read as a page of the Star Trek CCG"):
        read_text(page)


def test_a_review_in_a_ruling_pages_shape_is_refused_as_such():
    page = (
        "Second Edition\nThe Weak Will Perish\n\n\nSpecies 8472. Randomly select a personnel.\n\n"
        "Positives: Dual Dilemma. Kills someone.\n\nNegatives: Only takes out one personnel.\n\n"
        "Extra: This is a deceptively good card in most dilemma piles.\n\n"
        "Applicable Cards: The Weak Will Perish; Tragic Turn;\n"
    )
    with pytest.raises(UnknownShape, match="a review or an article in a ruling page's shape"):
        read_text(page)


def test_a_ruling_page_that_lost_its_title_is_titled_by_its_one_card():
    page = (
        "CardlistsList RulingsPrint Rulings\n\nIf Away Team meets conditions, discard dilemma; "
        "mission continues.\n\nOtherwise, the personnel with the most Navigation is captured."
        "\n\nApplicable Cards: Alice;\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Alice"]
    assert document.entries[0].text.startswith("If Away Team meets conditions")
    assert not [w for w in document.warnings if w.doubt]


def test_a_ruling_titled_with_an_exclamation_keeps_its_title():
    page = (
        "CardlistsList RulingsPrint Rulings\n\nAbandon Ship!\n\n\nIf ship is not damaged, "
        "discard dilemma and continue to next.\n\nApplicable Cards: Abandon Ship!;\n"
    )
    assert _titles(page) == ["Abandon Ship!"]


def test_an_articles_labelled_paragraphs_under_a_byline_are_no_entries():
    page = (
        "Rules Update, June\n\nby Jon Carter, Rules Master\n\n3rd June\n\n"
        "Mas'ud: At the beginning of May, the committee was asked about Ceti Eel limits.\n\n"
        "Edo Probe: Way back in March, a conflict was found between two documents.\n\n"
        "Warp Speed format: Format rules are printed on their own sheet, not here.\n"
    )
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(page)


_SPOTLIGHT = (
    "Gowron of Borg\n"
    "{byline}In a parallel universe the Klingon Empire was threatened as never before when its "
    "chancellor was assimilated by the Borg. Used in your deck, he brings great strength and "
    "four skills no drone has, Diplomacy among them, and a bonus to attack and defense.\n"
    "Of course, if your opponent does not come to you, you can hunt them with his special "
    "skill once per game, whatever your current objective, and return to scoring points.\n"
)


@pytest.mark.parametrize("byline", ["by Evan Lorentz", "Posted by Evan Lorentz"])
def test_a_byline_run_into_the_articles_first_sentence_is_still_a_byline(byline):
    # A card spotlight, copied with the line break after its byline lost ("LorentzIn a
    # parallel universe"): an article under a card's name, no ruling of that card
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(_SPOTLIGHT.format(byline=byline))


def test_a_long_first_sentence_opening_with_by_is_no_byline():
    # "By" and a card's name open a rule's sentence: no name with a sentence glued to it, so
    # the one ruling pasted under its card's title is read
    page = _SPOTLIGHT.format(byline="By Gowron's own order, ").replace("In a", "in a", 1)
    assert _titles(page) == ["Gowron of Borg"]


def test_a_hard_wrapped_current_rulings_page_with_heads_run_into_the_text_is_read():
    page = (
        'There are "no opposing ships" if your opponent has no uncloaked ships at any\n'
        "location that is part of the Neutral Zone. See unopposed, cloaked ship. *PERSONA\n"
        "REPLACEMENT - You may not replace the same persona more than once at the start\n"
        "of a turn. POINT AREA - File Mission Report is no longer an example of a bonus\n"
        "point box, as non-Borg objective points are now defined as bonus points here.\n"
        "POINT BOX - A point box on a card may contain a number or a variable such as X\n"
        "or 10X, and a point box is any point box regardless of its contents at all. POST\n"
        "GARRISON - The staffed ships required to maintain the garrison must be decloaked.\n"
    )
    document = read_text(page)
    assert document.shape == "decipher-current-rulings"
    assert [e.title for e in document.entries] == [
        "PERSONA REPLACEMENT",
        "POINT AREA",
        "POINT BOX",
        "POST GARRISON",
    ]
    assert document.entries[0].marked_new


def test_the_last_term_of_a_cut_off_terms_overview_is_kept_and_flagged():
    page = (
        'ST2E - overview "terms"\n\nTermTaken from\nabilitiesCurrent-Rulings\nactoinsRulebook\n\n'
        "abilities\n\nPersonnel may have one or more abilities. Each keyword is an ability.\n"
        "Taken from Current-Rulings.\n\nactoins\n\nNearly everything that occurs during the "
        "game is some kind of action. Players perform act\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["abilities", "actoins"]
    assert document.entries[1].text.startswith("Nearly everything that occurs")
    assert any("copy looks cut off" in w.message for w in document.warnings)


def test_a_table_of_contents_run_into_one_line_holds_no_entries():
    toc = (
        "The Comprehensive Rules Document, current as of 10/23/97. Table of Contents I. Special "
        "Thanks II. Introduction 1. Terminology 2. Timing 3. Skills A. Skills With Inherent "
        "Abilities B. Skill Selection III. Seed Cards 1. Seeding Sequence 2. Missions 3. "
        "Dilemma Resolution 4. Battle 5. Beaming 6. Miscellaneous Rules IV. Individual Card "
        "Entries 1. Outposts 2. Missions A. Planet B. Space 5. Dilemmas A. Major Rakal's "
        "Dilemma Facts B. Planet C. Space D. Either 6. Doorways 7. Events 8. Interrupts 9. "
        "Equipment 10. Personnel A. Holograms B. Federation C. Klingon 11. Ships A. Ship "
        "Equipment B. Federation C. Klingon D. Romulan E. Non-Aligned F. Cardassian G. Ferengi"
    )
    with pytest.raises(UnknownShape):
        read_text(toc)


def test_a_link_preview_with_a_dash_is_no_entry():
    preview = (
        "INTRODUCTION - Starship Excelsior · 2018-05-06 · There are seventeen card types in "
        "the Star Trek card game, and each player builds a deck of them.\n\n47\n"
    )
    with pytest.raises(UnknownShape):
        read_text(preview)


@pytest.mark.parametrize("dash", ["–", "-"])  # as printed, or as a copy straightened it
def test_a_flipbook_head_whose_dash_lost_its_space_is_an_entry(dash):
    page = FLIPBOOK.replace("{head}", f"Manheim's Dimensional Door {dash}Treat this").replace(
        "{next}", "doorway with care."
    )
    if dash == "-":
        page = page.replace(" – ", " - ")
    assert _titles(page) == [
        "Magic Carpet Ride OCD",
        "Manheim's Dimensional Door",
        "matching commander",
    ]


def test_a_known_flipbook_title_opens_an_entry_even_after_a_list_line():
    page = (
        FLIPBOOK.replace("text at once.", "Revised lore: Neutral Zone Region")
        .replace("{head}", "Investigate Time Continuum – To")
        .replace("{next}", "complete this mission, discard it.")
    )
    assert "Investigate Time Continuum" in _titles(page)


def test_a_cross_references_next_item_is_no_flipbook_title():
    page = (
        FLIPBOOK.replace("text at once.", "is discarded also. See doorways,")
        .replace("{head}", "wormholes – movement through.")
        .replace("{next}", "More text of the entry.")
    )
    assert "wormholes" not in _titles(page)


QUESTIONS = """The Current Rulings are periodic rules updates that come directly from real play
situations not currently addressed by the FAQ.
Can an outpost be "stopped"? Does a dilemma stop a ship, or just the crew?
Yes. When the crew on board a ship attempts a space mission and is stopped, so is the ship.
Does Frame of Mind affect a ship's crew? It does refer to "Away Team."
Some "either" dilemmas incorrectly refer to an Away Team. Treat them as either.
"""


def test_rulings_printed_as_questions_and_answers_are_titled_by_their_questions():
    document = read_text(QUESTIONS)
    assert document.shape == "questions"
    assert [e.title for e in document.entries] == [
        'Can an outpost be "stopped"? Does a dilemma stop a ship, or just the crew?',
        'Does Frame of Mind affect a ship\'s crew? It does refer to "Away Team."',
    ]
    assert document.entries[0].text.startswith("Yes. When the crew")


def test_questions_under_a_byline_are_a_post_not_rulings():
    post = QUESTIONS.replace("The Current Rulings", "by Some Player\n\nMy rulings questions")
    with pytest.raises(UnknownShape):
        read_text(post)


def test_a_contents_line_with_a_sub_topic_is_no_faq_question():
    faq = (
        "EVENTS\nQ: ANTI-TIME ANOMALY\nQ: CAPTAIN'S LOG: DETERMINING ELIGIBILITY\nQ: SUPERNOVA\n\n"
        "Q: ANTI-TIME ANOMALY: What does it do?\n\nA: It will kill all Personnel on table.\n\n"
        "Q: SUPERNOVA: Can it be nullified?\n\nA: Only by Kevin Uxbridge.\n"
    )
    assert _titles(faq) == ["ANTI-TIME ANOMALY", "SUPERNOVA"]


def test_a_numbered_part_after_a_title_and_its_dash_belongs_to_the_title():
    page = (
        "(Part 2 of Actions – Sequence of Steps)\n\nActions – Step 2: Responses – After an action "
        "has been initiated and before its results begin, optional responses are allowed.\n"
    )
    assert _titles(page) == ["Actions – Step 2: Responses"]


def test_a_hard_wrapped_current_rulings_title_broken_after_the_section_heading_is_whole():
    page = (
        "RULINGS SABOTAGE\nDRONE - While this personnel's special skill of reducing a ship's\n"
        "RANGE may be used during the opponent's turn, it may not be used during a mission\n"
        "attempt, because this action is not a valid response to any part of it at all. *SCANNER\n"
        "INTERFERENCE -This incident has errata: the last sentence of the card now reads\n"
        "as follows, and the card may be discarded to download Atmospheric Ionization.\n"
        "SCORCHED HAND - You may ask your opponent how many cards he has in his hand at\n"
        "any time during the game, and he must answer you truthfully and at once, always.\n"
        "SEARCH FOR WEAPONS - This mission's special text does not allow you to seed two.\n"
    )
    assert _titles(page) == [
        "SABOTAGE DRONE",
        "SCANNER INTERFERENCE",
        "SCORCHED HAND",
        "SEARCH FOR WEAPONS",
    ]


def test_the_committees_history_of_rule_changes_reads_rule_by_rule():
    page = (
        "Win by scoring 100 points\nThe first player to score 100 points wins.\n"
        "Original | Superseded\nPremiere Rulebook (10 Nov 1994)\nSuperseded by:\n"
        "Game ends if both players deck out\nThe Golden Rule: cards trump rules\n"
        "A card's specific text overrides an otherwise-applicable rule.\nOriginal | Active\n"
        "Premiere Rulebook (10 Nov 1994)\nNon-Aligned is not a true affiliation\n"
        "Since Non-Aligned is not a true affiliation,\nits ships need no matching personnel.\n"
        "Original | Rescin\n"
    )
    document = read_text(page)
    assert document.shape == "rule-history"
    assert [e.title for e in document.entries] == [
        "Win by scoring 100 points",
        "The Golden Rule: cards trump rules",
        "Non-Aligned is not a true affiliation",
    ]
    assert "Game ends if both players deck out" in document.entries[0].text
    assert document.entries[2].text.startswith("Since Non-Aligned is not a true affiliation, its")


def test_a_rules_supplements_sections_run_into_one_line_are_read_with_a_doubt():
    page = (
        "Quick viewing(Text Mode)\n\nNEW RULES Deck Size (the 30/30 Rule) – You are no longer "
        "limited to a 60-card game deck. You may now build a deck of any size, as long as it "
        "has no more than 30 seed cards and no fewer than 30 draw deck cards in it at all. "
        "Taking Turns During Seeding – Choose which player will place the first seed card by "
        "any mutually agreeable method. That player goes first in each segment of the seed "
        "phase and also takes the first turn of the game, as always. Seeding Missions – Unique "
        "missions are no longer duplicatable. During the seed phase, you may not seed a "
        "mission if a copy of it is already on the table, whoever seeded it there first.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == [
        "Deck Size (the 30/30 Rule)",
        "Taking Turns During Seeding",
        "Seeding Missions",
    ]
    assert any(w.doubt and "runs entries together" in w.message for w in document.warnings)


def test_glossary_terms_in_lower_case_run_into_one_line_are_read_with_a_doubt():
    # Text copied from a new Glossary PDF whose line ends were lost: none of these terms is
    # known, and a term may hold small words ("holding the line"); after a sentence's
    # end, prose opens in capitals, a term before its dash need not.
    page = (
        "This document lists the terms of the game in order, as its rules committee wrote "
        "them. borrowing a turn – When a card lets you borrow a turn, take it at once and give "
        "your opponent the next turn in its place. spaceline order – The order of the "
        "missions on a spaceline never changes unless a card says it does, at any time. "
        "holding the line – The first player to hold three missions at once may choose to "
        "end the turn, even in the middle of an attempt.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == [
        "borrowing a turn",
        "spaceline order",
        "holding the line",
    ]
    assert document.entries[1].text.startswith("The order of the missions on a spaceline")
    assert any(w.doubt and "runs entries together" in w.message for w in document.warnings)


def test_a_list_of_short_terms_between_dashes_holds_no_entries():
    # An icon guide's legend run into one line: "equipment event – mission planet – …".
    # A head's text holds a sentence; a word or two up to the next dash is a list's item.
    page = (
        "equipment event interrupt headquarters – mission planet – dilemma/mission space – "
        "dilemma/mission dual – dilemma Alpha quadrant Gamma quadrant Delta quadrant Bajoran "
        "affiliation Borg affiliation Cardassian affiliation Dominion affiliation Federation "
        "affiliation Ferengi affiliation Klingon affiliation command staff skill dot ICON "
        "GUIDE Page cvr2 and more words of the legend that run on for a while in this copy.\n"
    )
    with pytest.raises(UnknownShape):
        read_text(page)


def test_two_title_case_dash_heads_in_running_text_are_not_enough():
    page = (
        "An essay about the game, long enough to be running text that lost its breaks. Deck "
        "Building – You should always build with care and think about your opponent's "
        "choices before the tournament starts at all, and then again after it. Final "
        "Thoughts – Play a lot and have fun, and remember that every game is a lesson in "
        "itself, win or lose, whatever the outcome, for everyone at the table, always. The "
        "rest of the essay goes on about decks, cards and players for a while longer.\n"
    )
    with pytest.raises(UnknownShape):
        read_text(page)


def test_a_cards_title_as_an_articles_section_heading_is_no_entry():
    prose = (
        "Besides cards, basic mechanics had problems as well, and players noticed them in "
        "tournaments across the country during the first years of the game's long life."
    )
    page = (
        f"In the Beginning\n\n{prose}\n\n{prose}\n\nMake It So\n\nDecipher realized that the "
        "complexity of the game was a problem, and set out to write a new edition of it.\n"
    )
    with pytest.raises(UnknownShape):
        read_text(page)
    # the article printed to PDF: its paragraphs wrapped, no line holds a paragraph's words
    wrapped = page.replace(prose, textwrap.fill(prose, 70))
    with pytest.raises(UnknownShape):
        read_text(wrapped)


def test_a_card_page_announcing_an_erratum_and_a_clarification_reads_both():
    page = (
        "Major Rakal\n\nPhysically altered, Deanna Troi was coerced to assume an identity.\n\n"
        "Skills: Tal Shiar, Empathy, Treachery\n\nThis card has an erratum:\n\nErrata on lore "
        "text (missing race and name in bold face).\n\nTaken form Glossary - Version 1.9.2.\n\n"
        "This card has an clarification:\n\nThis personnel retains her Alternate Universe icon."
        "\n\nTaken form Glossary - Version 1.9.2.\n\nThis Card-Review was written by a fan.\n"
    )
    document = read_text(page)
    assert document.shape == "card-page"
    assert [e.title for e in document.entries] == ["Major Rakal", "Major Rakal"]
    assert document.entries[1].text == "This personnel retains her Alternate Universe icon."
    assert not [w for w in document.warnings if w.doubt]


@pytest.mark.parametrize("mark", ["", "❖ "])
def test_a_card_pages_ruling_closed_by_its_own_source_is_read_unannounced(mark):
    # another layout of the same site: the clarification is not announced, but closed by
    # its own source line as the erratum is; the review after the last source is no ruling
    page = (
        f"RR #38: Major Rakal\n\n{mark}Major Rakal\n\nPhysically altered, Deanna Troi was "
        "coerced to assume an identity.\n\nThis card has an erratum:\n\nErrata on lore text."
        "\n\nTaken form Glossary - Version 1.9.2.\n\nThis personnel retains her Alternate "
        "Universe icon.\n\nTaken form Glossary - Version 1.9.2.\n\nThis Card-Review was "
        "written by a fan, who liked the card a great deal.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Major Rakal", "Major Rakal"]
    assert document.entries[1].text == "This personnel retains her Alternate Universe icon."
    assert any("Card-Review" in w.message for w in document.warnings)  # set aside, named


_ANNOUNCED_PAGE = (
    "{first}\n\nMission Mission - Space Space\nRequirements: ENGINEER + Discard one Equipment "
    "card\n\nThis card has an clarification:\n\nOn this mission, the phrase names any ship "
    "and crew.\n\nTaken form Glossary - Version 1.9.2.\n"
)


@pytest.mark.parametrize(
    ("first", "title", "known"),
    [
        # a series' heading over the card's page: the card after the colon
        ("RR #11: Romulan Ambush", "Romulan Ambush", True),
        ("RR #11:\u00a0Romulan Ambush", "Romulan Ambush", True),  # copied with a no-break space
        # the card's title run into its lore: the card before the colon
        ("Dead End: Respond to a distress call from a Pakled ship.", "Dead End", True),
        # a card newer than the card list: read, its title a doubt ("Requirements:", the
        # card's data, is never taken for it)
        ("Zzyzx Sector: Respond to a distress call from a Pakled ship.", "Zzyzx Sector", False),
    ],
)
def test_a_card_pages_title_is_found_beside_a_colon_and_doubted_when_unknown(first, title, known):
    document = read_text(_ANNOUNCED_PAGE.format(first=first))
    assert [e.title for e in document.entries] == [title]
    doubts = [w.message for w in document.warnings if w.doubt]
    assert bool(doubts) is not known
    assert all("knows no card" in message for message in doubts)


def test_each_ruling_of_an_unknown_card_carries_its_own_doubt():
    # a correction names an entry by its line: each entry's title is doubted at its own
    page = (
        "Zzyzx Sector: Respond to a distress call.\n\nThis card has an erratum:\n\n"
        "Revised lore: Adds Nebula.\n\nTaken form Glossary - Version 1.9.5.\n\n"
        "This mission counts as a Nebula for every card.\n\nTaken form Glossary - Version "
        "1.9.5.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Zzyzx Sector", "Zzyzx Sector"]
    doubted = sorted(w.line for w in document.warnings if w.doubt and "knows no card" in w.message)
    assert doubted == [e.line for e in document.entries]


def test_a_card_pages_rule_notes_leave_out_their_sources_label_line():
    page = CARD_PAGE.format(
        title="James T. Kirk",
        notes="Rule notes\n\nOfficial Runlings:\n\nKirk may be played as a universal personnel.",
    )
    (entry,) = read_text(page).entries
    assert entry.text.startswith("Kirk may be played")


@pytest.mark.parametrize("source", ["Major Rakal's Dilemma Facts", "Official Rulings"])
def test_a_card_pages_source_named_on_a_line_of_its_own_is_no_part_of_the_ruling(source):
    page = CARD_PAGE.format(
        title="James T. Kirk",
        notes=f"Rule notes\n\n{source}\n\nKirk may be played as a universal personnel.",
    )
    (entry,) = read_text(page).entries
    assert entry.text.startswith("Kirk may be played")


def test_a_rulings_lists_titles_printed_without_text_are_not_imported_empty():
    page = (
        "Abandon Ship! 2010-06-05\n\nFor this dilemma, you may choose which personnel staff.\n\n"
        "75th Rule of Acquisition 2010-06-05\n1 Tribble 2010-06-05\n30/30 Rule 2010-06-05\n"
        "Your seed deck may contain no more than 30 seed cards.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Abandon Ship!", "30/30 Rule"]
    assert any("'1 Tribble' has no text on the page" in w.message for w in document.warnings)


def test_a_flipbook_preambles_how_to_heading_is_no_entry():
    page = FLIPBOOK.replace("{head}", "How to use the Glossary – This").replace(
        "{next}", "document lists every term."
    )
    assert "How to use the Glossary" not in _titles(page)


def test_a_name_in_parentheses_after_a_title_line_is_part_of_it():
    page = ANCHORED.replace("fe\n\n{title}", "sa\n\n{title}").replace("fa - fe", "sa - sc")
    titles = _titles(page.format(title="Sabotage Drone (Six of Seventeen)"))
    assert titles == ["Sabotage Drone (Six of Seventeen)"]


def test_a_glossary_tables_title_run_into_its_text_ends_at_the_known_title():
    page = (
        "|\n|\nBajoran Raider See report with crew.\n|\n|\n"
        "Bajoran Wormhole Whenever you play or\ndownload this doorway to the Alpha Quadrant, "
        "you must use its text.\n|\n|\nBajoran Shrine Using a disruptor at an adjacent site "
        "destroys the shrine.\n|\n|\n"
    )
    titles = _titles(page)
    assert "Bajoran Wormhole" in titles
    entry = read_text(page).entries[titles.index("Bajoran Wormhole")]
    assert entry.text.startswith("Whenever you play or download this doorway")


def test_a_title_line_ending_in_etc_is_a_title():
    page = ANCHORED.replace("fe\n\n{title}", "ne\n\n{title}").replace("fa - fe", "na - ne")
    page = page.replace(
        "Plays on table. Once each turn, your personnel may report for free to your outpost.",
        "See ties, and the nearest planet's rule for them.",
    )
    assert _titles(page.format(title="nearest planet, etc.")) == ["nearest planet, etc."]


def test_an_article_set_in_one_table_cell_is_refused_not_read_as_a_glossary():
    page = (
        "|\n|\n|\n||\nMajor Rakal's Romulan Review #25: Q Continuum Side Decks (06/21/1997) |\n"
        "|\n|\nAefvadh! The most important, and most confusing, new concept of the expansion "
        "was side decks. Let's attempt to unravel them together in this review. |\n|\n"
    )
    with pytest.raises(UnknownShape, match="an article set in a table"):
        read_text(page)


def test_a_card_page_titled_by_the_browsers_page_title_reads_its_announced_rulings():
    page = (
        "Temporal Rift | openCards\n\nYou are here\n\nTemporal Rift\n\n    Plays on your ship.\n\n"
        "    This card has an erratum:\n\n    This card now has a countdown icon of 2.\n\n"
        "    Taken form Glossary - Version 1.9.5.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Temporal Rift"]


def test_a_hard_wrapped_list_of_significant_rules_changes_reads_item_by_item():
    page = (
        "CURRENT RULINGS 02/13/98\n\nCurrent Rulings are periodic updates to the FAQ.\n\n"
        "SIGNIFICANT RULES CHANGES TO NOTE\n\nSeveral earlier rulings have been changed to "
        "enhance gameplay. For\ndetails, see the following listings:\n\n"
        "BRAINWASH: Now removes all affiliation-based restrictions.\n"
        "DUAL-ICON MISSIONS: Planet dilemmas are not removed during\n"
        "space-location scouting by Borg.\n"
        "EQUIPMENT CARDS, AFFILIATION-SPECIFIC: Affiliation-specific equipment\n"
        "may not be reported for duty or used by other affiliations in any way.\n"
    )
    assert _titles(page) == [
        "BRAINWASH",
        "DUAL-ICON MISSIONS",
        "EQUIPMENT CARDS, AFFILIATION-SPECIFIC",
    ]


def test_rule_notes_on_a_copy_that_lost_the_cards_title_are_refused_not_guessed():
    page = (
        "|\nQ-Card Typ: Dilemma; Points: -5\nImmediately choose whether or not to nullify the "
        "next seed card.\n|\n|\nRule notes\nMajor Rakal's Dilemma Facts\nIf you wish to nullify "
        "it, you must do so before making your choice.\n"
    )
    with pytest.raises(UnknownShape, match="does not name the card"):
        read_text(page)


def test_announced_rulings_on_a_copy_that_lost_the_cards_title_are_refused_with_advice():
    # openCards' other layout, copied from the card's lore: the rulings are announced and
    # closed by their sources, but nothing names the card
    page = (
        "Female subcommander. Captain of the warbird Haakona, on patrol near Iconia.\n\n"
        "Skills: Archaeology, MEDICAL, Music\n\nThis card has an erratum:\n\nChanged "
        '"Warbird" to "warbird" so that she is the matching commander again.\n\n'
        "Taken form Current Rulings 2016-10-03.\n"
    )
    with pytest.raises(UnknownShape, match="does not name the card.*title on a line"):
        read_text(page)
    # as the refusal advises: the card's title on a line of its own at the top
    assert _titles(f"Taris\n\n{page}") == ["Taris"]


def test_a_card_review_credited_to_its_writer_is_an_article():
    page = (
        "On Second Thought: Smuggling a Card In | openCards\n\nYou are here\n\n"
        "    (1) • A History of Collusion\n\n    Event Event\n\n    Plays in your core.\n\n"
        "    A History of Collusion\n\n    This Card-Review article was written by Ross Fertel "
        "and was published first on the committee's site.\n\n    Every month this year, I've "
        "posted a Blog on something related to Second Edition, and this is one of them.\n"
    )
    with pytest.raises(UnknownShape):
        read_text(page)


def test_rule_notes_whose_first_sentence_opens_with_an_acronym_keep_it():
    page = CARD_PAGE.format(
        title="James T. Kirk",
        notes="Rule notes Major Rakal's Dilemma Facts If AT/crew meets conditions, discard it.",
    )
    (entry,) = read_text(page).entries
    assert entry.text.startswith("If AT/crew meets conditions")


def test_an_entry_the_last_sentence_before_it_announces_is_a_doubt():
    page = (
        "abilities – Personnel may have one or more abilities. Each keyword is an ability.\n\n"
        "actions – Nearly everything that occurs during the game is some kind of action. "
        "However, there are also response actions, which can take place on any player's turn.\n\n"
        "Response actions – The game text of a response action always begins with the word "
        "When and has a trigger.\n\n"
        "adapt – A personnel who adapts may do so only once each turn, whatever the card says.\n"
    )
    document = read_text(page)
    assert "Response actions" in [e.title for e in document.entries]
    assert any(w.doubt and "named by the last sentence" in w.message for w in document.warnings)


def test_an_faq_topic_in_quotes_is_read():
    faq = (
        'SHIPS\nQ: TRACTOR BEAMS\nQ: SHIP DAMAGE UPON A "HALF-REPAIRED" SHIP\n\n'
        "Q: TRACTOR BEAMS: What can I do with these?\n\nA: Nothing, unless a card says so.\n\n"
        'Q: SHIP DAMAGE UPON A "HALF-REPAIRED" SHIP: If it gets damaged again, what happens?'
        "\n\nA: It is destroyed.\n"
    )
    assert _titles(faq) == ["TRACTOR BEAMS", 'SHIP DAMAGE UPON A "HALF-REPAIRED" SHIP']


def test_a_title_line_over_the_pages_cut_off_last_words_is_an_entry():
    page = (
        LETTER_PAGE.format(first="passing time", second="playing for free", third="plot span")
        + "\npoints\nSee No"
    )
    assert _titles(page)[-1] == "points"


# A wiki's page for one term: its title line, an image's caption, then paragraphs whose first
# names the term. The project knows no such term, so the head is a doubt to confirm.
TERM_PAGE = """{title}

{caption}

{opening}

A player may hold any number of such cards, but only one may be revealed in each turn.
"""
TERM_OPENING = (
    "Your lantern signal deck is an optional side deck of signal cards, placed face down "
    "beside your draw deck and opened by the doorway that names it."
)


def test_a_wiki_page_for_one_unknown_term_is_one_entry_with_a_doubt():
    page = TERM_PAGE.format(
        title="Lantern Signal Deck", caption="Icon lantern", opening=TERM_OPENING
    )
    document = read_text(page)
    (entry,) = document.entries
    assert (entry.title, entry.line) == ("Lantern Signal Deck", 1)
    assert entry.text.startswith("Your lantern signal deck is an optional side deck")
    assert "Icon lantern" not in entry.text
    assert [w.line for w in document.warnings if w.doubt] == [1]
    assert any("caption" in w.message and w.line == 3 for w in document.warnings)


@pytest.mark.parametrize(
    "title, caption",
    [
        ("Signals at Dawn", "Icon lantern"),  # the opening does not name the title whole
        ("Lantern Signal Deck", "Section I: Scope"),  # a caption that is no image of the term
    ],
)
def test_a_title_line_over_prose_that_does_not_define_it_is_refused(title, caption):
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(TERM_PAGE.format(title=title, caption=caption, opening=TERM_OPENING))


def test_a_heading_over_a_table_is_no_terms_page():
    page = (
        "Lantern Signal Deck\n\n"
        + TERM_OPENING
        + "\n\n"
        + "\n".join(
            f"Dec {day}th, 2018 | Signal list | Lantern Signal Deck {day} |"
            for day in range(10, 16)
        )
        + "\n"
    )
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(page)


def test_a_numbered_card_list_in_a_table_is_no_glossary():
    rows = "\n|\n".join(
        f"{n}. | {card} | Plays on table. Each of your ships is RANGE +{n}. (Captain's Order.)"
        for n, card in enumerate(
            [
                "Captain's Log",
                "Lower Decks",
                "Yellow Alert",
                "Red Alert!",
                "Kevin Uxbridge",
                "Q-Flash",
            ],
            1,
        )
    )
    page = f"| Captain's Order | Game Text\n|\n---|\n{rows}\n|\n"
    with pytest.raises(UnknownShape, match="a table that is no glossary"):
        read_text(page)


def test_an_article_in_table_cells_is_no_glossary():
    paragraph = (
        "The second use of this interrupt gets most of the attention, but all three uses "
        "deserve a close look. First, you can use it against a doorway your opponent played."
    )
    page = f"|\n|\n||\n|\nCard Extra from A Writer (03/31/2000) |\n||\n|\n{paragraph}\n|\n||\n"
    with pytest.raises(UnknownShape, match="a table that is no glossary"):
        read_text(page)


def test_an_icons_title_line_loses_its_images_alt_text():
    page = (
        LETTER_PAGE.replace("Rulebook Glossary - P", "Rulebook Glossary - G")
        .replace("pa - pe - pl", "ga - ge - gl")
        .format(
            first="Gamma Quadrant icon Gamma Quadrant", second="Garak", third="Gaps In Normal Space"
        )
    )
    assert _titles(page) == ["Gamma Quadrant icon", "Garak", "Gaps In Normal Space"]


@pytest.mark.parametrize(
    "title, caption, opening",
    [
        # an encyclopedia's page names its title too, but dates it
        (
            "Lantern Signal Deck",
            "Icon lantern",
            "The Lantern Signal Deck is a fan expansion of the card game, released in 1997 by "
            "a group of players who met at a convention in Ohio.",
        ),
        # openCards' card page copied as text: "Incident Incident" (the type, then its
        # icon's alt text) over the card's game text, which names its type
        (
            "Incident Incident",
            "",
            "Seeds or plays on table. Where your personnel are escorting captives, you may "
            "release them and capture others there, then discard incident.",
        ),
        # a preview article's opening names its title's words too, but asks its reader
        (
            "Lantern Signal Deck",
            "Icon lantern",
            "Your lantern signal deck is a new side deck. But what else do we know about the "
            "lantern signal deck, and how will it change your game? Quite a lot, it turns out.",
        ),
    ],
    ids=["encyclopedia", "type-and-icon", "asks-its-reader"],
)
def test_a_title_line_over_an_opening_that_is_no_definition_is_no_terms_page(
    title, caption, opening
):
    page = TERM_PAGE.format(title=title, caption=caption, opening=opening)
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(page)


def test_a_terms_page_whose_paragraph_its_icons_break_is_read():
    # the wiki's "battle – ship – multiple targets": dashes between the title's words, and
    # a paragraph broken by its icons' alt texts into pieces that end no sentence
    page = (
        "lantern – ship – multiple signals\n\n"
        "Lantern ships are allowed to send multiple signals to two or more ships in the same "
        "turn, one signal to each ship.\n\n"
        "Compute each signal apart. Each player is limited to one lantern for the turn.\n\n"
        "If your lantern ship sends a signal and your current lantern has a\n\n"
        "Icon lantern current\n\n"
        "symbol, use that card for one of those ships and treat that symbol as\n\n"
        "Icon lantern draw\n\n"
        "for each other ship. Place the signals at random.\n\n"
        "Signals sent are not discarded until the end of the turn.\n"
    )
    (entry,) = read_text(page).entries
    assert (entry.title, entry.text[:14]) == ("lantern – ship – multiple signals", "Lantern ships ")


def test_a_terms_page_whose_opening_names_its_last_word_in_the_plural_is_read():
    # "Lantern icon" over "Lantern icons identify …": a four-letter word's plural names it
    opening = (
        "Lantern icons identify personnel who may signal a ship at the same location, as "
        "long as the ship is not cloaked."
    )
    page = TERM_PAGE.format(title="Lantern icon", caption="Icon lantern", opening=opening)
    (entry,) = read_text(page).entries
    assert (entry.title, entry.text[:14]) == ("Lantern icon", "Lantern icons ")


def test_one_title_dash_paragraph_under_a_preambles_prose_is_no_entry():
    preamble = (
        "This document is an official rules supplement for a card game and supplements the "
        "Glossary and Rules as published with the Special Edition set.\n\n"
        "Although rulings and clarifications may be made by staff in various forums, they are "
        "not official unless they are included in an officially published rule document.\n\n"
    )
    lead_in = "Using this document – When a ruling question arises, check this document first.\n"
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(preamble + lead_in)
    assert _titles(lead_in) == ["Using this document"]  # alone, it is a (doubted) entry


def test_a_wiki_headings_edit_mark_and_an_advertisement_label_are_no_part_of_the_page():
    page = "Advertisement\n\n" + TERM_PAGE.format(
        title="Lantern Signal Deck[]", caption="Icon lantern", opening=TERM_OPENING
    )
    (entry,) = read_text(page).entries
    assert entry.title == "Lantern Signal Deck"


def _wrapped(*paragraphs: str) -> str:
    """A page copied from a PDF: the heading, then each paragraph wrapped at 72."""
    lines = [line for p in paragraphs for line in textwrap.wrap(p, 72)]
    return "Second Edition Current Rulings\n\n" + "\n".join(lines) + "\n"


def test_a_new_card_of_a_known_persona_is_a_head_with_a_doubt():
    # A new document rules on new cards: the persona is known, its new subtitle is not.
    document = read_text(
        _wrapped(
            "cost reduction – When a card reduces the cost of a card you play, the cost may "
            "not drop below zero, and any excess reduction is lost at once.",
            "Kira Nerys, Keeper of the Orbs – This personnel's special download may be used "
            "once each turn, and only while she is at a Bajoran planet mission.",
            "spaceline order – The order of the missions on a spaceline never changes unless "
            "a card says that it does, at any time of the game.",
        )
    )
    assert [e.title for e in document.entries] == [
        "cost reduction",
        "Kira Nerys, Keeper of the Orbs",
        "spaceline order",
    ]
    assert document.entries[1].text.startswith("This personnel's special download")
    assert any(
        w.doubt and "'Kira Nerys, Keeper of the Orbs'" in w.message for w in document.warnings
    )


def test_a_new_version_needs_a_known_name_and_a_subtitle_in_title_case():
    assert title_ok("Kira Nerys, Keeper of the Orbs")
    assert not title_ok("Worf, however")  # prose: a name, a comma, a word in lower case
    assert not title_ok("Zorblax Quint, Keeper of the Orbs")  # no persona of that name
    assert not title_ok("Kira Nerys, Keeper. Of the Orbs")  # a sentence inside


WIKI_CARD_PAGE = """0101 Prem (11)

Alien Parasites

Name: Alien Parasites

Type: Dilemma

Set: Premiere

Lore: "Intelligent parasites enter and take control of a humanoid."

Gameplay: Unless INTEGRITY>32, Away Team infected. Then turn resumes.
{ruling}"""


def test_a_wiki_card_page_reads_its_ruling_under_the_cards_title_its_data_set_aside():
    # "Lore:" is also a card's name; under a card's title it is one field of the card's data
    document = read_text(
        WIKI_CARD_PAGE.format(
            ruling="\nWhen you encounter this dilemma and fail to meet its conditions, the "
            "mission attempt ends at once.\n"
        )
    )
    assert [e.title for e in document.entries] == ["Alien Parasites"]
    assert document.entries[0].text.startswith("When you encounter this dilemma")
    assert "Lore" not in document.entries[0].text
    assert not [w for w in document.warnings if w.doubt]
    (data,) = [w for w in document.warnings if "the card's data" in w.message]
    assert "(5 lines)" in data.message


def test_a_wiki_card_page_with_no_ruling_holds_no_entry():
    with pytest.raises(UnknownShape):
        read_text(WIKI_CARD_PAGE.format(ruling=""))


def test_glossary_terms_named_like_card_fields_are_terms_not_card_data():
    # "Shields:", "Skills:", "Span:" are also a card's data labels; a glossary defines each in
    # a sentence, where a card's data gives a word or a number
    page = (
        "Glossary - S\n"
        "Scouting: A scouting attempt lets an Away Team look at a mission's dilemmas first.\n"
        "Seed Phase: The seed phase is the first phase of the game, when each player seeds.\n"
        "Shields: A ship's shields add to its defense in battle, and drop by half when damaged.\n"
        "Skills: A personnel's skills are the words in its skills box, such as Diplomacy.\n"
        "Span: A mission's span is the number of range points a ship spends to move past it.\n"
        "Species: A personnel's species is named in its lore, such as Vulcan or Klingon.\n"
    )
    titles = [e.title for e in read_text(page).entries]
    assert titles == ["Scouting", "Seed Phase", "Shields", "Skills", "Span", "Species"]


CUT_INSIDE_AN_ENTRY = """{tail}

{heading}

the two personnel represented on this card are partners of each other. See named in lore.

special equipment

When a card refers to a ship's "special equipment," this means ship systems expressed as a phrase.

species

In general, a personnel's species can be determined by looking at the card's lore.
"""


def _doubts_before_the_first_entry(page: str) -> list[str]:
    return [
        w.message
        for w in read_text(page).warnings
        if w.doubt and "before the first entry holds a heading" in w.message
    ]


@pytest.mark.parametrize(
    "tail",
    ['any time" or "each turn."', '"at any time" or "each turn."', "(or each turn)."],
    ids=["lower-case", "opening-quote", "opening-bracket"],
)
def test_a_title_line_under_the_tail_of_a_cut_entry_is_a_doubt(tail):
    # The copy starts inside an entry, so the text above the first head read is no
    # preamble: a title line in capitals there, over a paragraph, is the next entry, its
    # title unknown ("Arden and Marek", a dual personnel the project has not seen). A tail
    # may open with a quote or a bracket before its first word in lower case.
    page = CUT_INSIDE_AN_ENTRY.format(tail=tail, heading="Arden and Marek")
    assert _titles(page) == ["special equipment", "species"]
    (doubt,) = _doubts_before_the_first_entry(page)
    assert "'Arden and Marek'" in doubt and "{line: 3, head: true}" in doubt
    # nor is it the document's title: a copy cut inside an entry prints none above it
    assert read_text(page).metadata.title is None


def test_a_title_line_under_a_page_number_in_lower_case_is_left_to_the_page():
    # A page number in lower case ("of 13", a flip-book's) is no entry's tail: the heading
    # under the page's prose may be its own section ("About the Set"), as a preamble's are
    top = "of 13\n\nEvery dilemma, resolved."
    page = CUT_INSIDE_AN_ENTRY.format(tail=top, heading="About The Set")
    assert _titles(page) == ["special equipment", "species"]
    assert _doubts_before_the_first_entry(page) == []


@pytest.mark.parametrize(
    "tail",
    [
        "actions – step 1: initiation.",
        # "See battle – affiliation restrictions, …" cut after its "See": a list of titles
        "battle – affiliation restrictions, infiltration icon, playing an affiliation (non-Borg).",
    ],
)
@pytest.mark.parametrize("numbered", [False, True])
def test_a_known_title_and_a_full_stop_at_a_cut_copys_top_heads_nothing(numbered, tail):
    # "(See actions – step 1: initiation.)" cut after its "(See": the tail names an entry
    # and opens none, neither as "actions – …" nor as a title line of its own
    number = iter(range(41, 50)) if numbered else None
    heads = [
        "persona – You may not use persona replacement to exchange missions.",
        "romantic partner – A personnel is the romantic partner of another if the lore says so.",
        "Sam Lavelle – This card has updated lore, as the other printings have it.",
    ]
    items = [f"{next(number)}. {head}" if numbered else head for head in heads]
    page = "\n\n".join([tail, *items]) + "\n"
    assert _titles(page) == ["persona", "romantic partner", "Sam Lavelle"]


def test_a_list_of_titles_with_an_unknown_one_is_no_cross_reference():
    # an entry may be titled and worded so, where one item is no title the project knows
    assert cites_a_title("infiltration icon, playing an affiliation (non-Borg).")
    assert not cites_a_title("infiltration icon, a ship of the line.")
    assert not cites_a_title("infiltration icon and more, to be sure")


@pytest.mark.parametrize(
    ("first", "doubted"),
    [
        ('"some additional notes" - Your cards', True),  # a reference's tail, cut above
        ('"stopped" – A card that is', False),  # a quoted term the project knows
        ("stopped – A card that is", False),
    ],
)
def test_a_quoted_unknown_title_opening_a_flipbook_page_is_a_doubt(first, doubted):
    # A flip-book page starts inside an entry: its first line may end a cross reference
    # ('…to the section "some additional notes"') that reads like a quoted term's head.
    page = (
        FLIPBOOK.replace("Magic Carpet Ride OCD – The owner", first)
        .replace("{head}", "aboard your ship when it becomes")
        .replace("{next}", '"unstopped" is also "unstopped."')
    )
    document = read_text(page)
    assert document.entries[0].title == first.split(" – ")[0].split(" - ")[0]
    warned = [w for w in document.warnings if w.doubt and "quoted phrase" in w.message]
    assert bool(warned) is doubted


def _first_entry_doubts(page: str) -> list[str]:
    document = read_text(page)
    first = document.entries[0]
    return [w.message for w in document.warnings if w.doubt and w.line == first.line]


def _doubted_over(top: str, *entries: str) -> bool:
    """Whether ``top``, the first entry of a page over ``entries``, is doubted at its line."""
    return bool(_first_entry_doubts("\n\n".join([top, *entries]) + "\n"))


@pytest.mark.parametrize(
    ("top", "doubted"),
    [
        # the end of 'Add the following bullet point to the section "some additional notes"'
        ('"some additional notes" - Your cards aboard your ship are also "unstopped".', True),
        ('"THE COLON RULE" - A heading in capitals, quoted, is no reference\'s tail.', False),
    ],
)
def test_a_first_entry_titled_by_an_unknown_quoted_phrase_is_a_doubt_in_any_shape(top, doubted):
    assert (
        _doubted_over(
            top,
            "time location – Replace this entry with the following: A card type representing "
            "a location in the past or future.",
            "Sam Lavelle – This card has updated lore, as the other printings have it.",
        )
        is doubted
    )


@pytest.mark.parametrize(
    ("top", "doubted"),
    [
        # a keyword quoted as an example in "commander"'s entry, the copy cut just above it
        (
            "commander: U.S.S. Enterprise-E. As with all keywords, there are no special rules "
            "associated with this relationship.",
            True,
        ),
        ("commander: A keyword that names a ship. Your personnel may command it.", False),
    ],
)
def test_a_first_entry_whose_text_is_a_known_title_alone_is_a_doubt(top, doubted):
    assert (
        _doubted_over(
            top,
            "conditional effects: If game text has a conditional, what follows is subject to it.",
            "cost reduction: Some cards reduce the cost of the cards you play by a number.",
        )
        is doubted
    )


@pytest.mark.parametrize(
    ("top", "doubted"),
    [
        # a cross reference's titles, the copy cut after its "See", wrapped as a flip-book's
        # narrow column wraps them: one line alone is no list ending a sentence
        (
            "battle – affiliation restrictions,\ninfiltration icon, playing an\naffiliation (non-Borg).",
            True,
        ),
        # a term whose text is a sentence that names titles is an entry
        ("battle – Both ships, infiltration icon holders and\nplayers may fire (non-Borg).", False),
    ],
)
def test_a_first_entry_that_is_a_cross_references_titles_is_a_doubt(top, doubted):
    entries = (
        "Going to the Top – Plays if you have two personnel together on a facility. "
        "Download a compatible personnel with Leadership x2 to them.",
        "HQ: Defensive Measures – Seeds or plays on table. Your personnel with any "
        "Intelligence gain 1 Leadership.",
    )
    page = "\n\n".join([top, *entries]) + "\n"
    assert [e.title for e in read_text(page).entries][:1] == ["battle"]
    assert _doubted_over(top, *entries) is doubted


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        # a wrapped sentence's last words, its end inside a bracket or a quote
        ("Away Team.)", False),
        ('Tamarian for "Commanded by Dathon."', False),
        ("Nor, you may not commandeer that Empok Nor while it is uncontrolled.)", False),
        # the rest of a bracket opened on the line above
        ("Emergency Transporter Armbands, walking between sites), they may carry", False),
        # titles keep their own brackets, quotes and exclamation marks
        ("Borg Use Only icon [BO]", True),
        ("Playing an affiliation (non-Borg)", True),
        ('"Leaving Play"', True),
        ("Abandon Ship!", True),
    ],
)
def test_a_sentences_end_inside_a_bracket_or_a_quote_is_no_heading(line, heading):
    assert (title_like(line, alone=True) == line) is heading


@pytest.mark.parametrize(
    ("caption", "title"),
    [
        # a wiki's term over its icon's caption: the caption is the term's words, set aside
        ("Infiltration icons", "Infiltration icon"),
        # a line naming another term is no caption: it is the head over the text
        ("Borg", "Borg"),
    ],
)
def test_an_images_caption_under_a_title_line_is_set_aside(caption, title):
    page = (
        f"Infiltration icon –\n\n{caption}\n\nYour personnel who has a diamond shaped "
        "infiltration icon may infiltrate your opponent's cards, if your opponent is playing "
        "that affiliation.\n"
    )
    assert _titles(page) == [title]


@pytest.mark.parametrize("space", [" ", "\u00a0"], ids=["space", "no-break-space"])
def test_a_title_that_runs_on_past_its_own_dash_is_read_whole_with_a_doubt(space):
    # the wiki's "Actions – Sequence of Steps – Every action" / "has three steps …": read
    # as "Actions" (with a doubt naming the longer title) while its line was judged alone;
    # judged with the line it wraps into, the whole title, however the copy spaced the
    # dashes, and a doubt, as the project does not know it
    page = (
        "Actions – Sequence of Steps – Every action\nhas three steps that must occur in "
        "order:\n1. Initiation (declaring the use of a card).\n2. Optional responses "
        "(attempts to cancel or modify the action).\n3. Results (gameplay consequences).\n"
    ).replace(" – ", f"{space}– ")
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Actions – Sequence of Steps"]
    assert document.entries[0].text.startswith("Every action has three steps")
    assert any(w.doubt and w.line == 1 for w in document.warnings)


def test_a_cards_field_at_a_cut_copys_top_is_a_doubt():
    # A copy cut inside "Sam Lavelle: This card has updated lore:" opens with the quoted
    # lore ("lore: Typical Starfleet ensign …"): "lore" is a Glossary term and a card's
    # field, so over the page's other "term: text" entries it was an entry with no doubt.
    page = (
        "lore: Typical Starfleet ensign eagerly chasing a promotion. Served aboard the U.S.S.\n"
        "Enterprise in 2370. Decent poker player. His grandfather was Canadian.\n\n"
        "seed phase: The only actions you may take during the seed phases are seeding cards.\n\n"
        "Sergey and Helena: the two personnel represented on this dual-personnel card are "
        "romantic partners of each other. See named in lore.\n\n"
        "species: In general, a personnel's species can be determined by looking at the card.\n"
    )
    document = read_text(page)
    lore = next((e for e in document.entries if e.title == "lore"), None)
    if lore is not None:
        assert any(w.doubt and w.line == lore.line for w in document.warnings)
    assert [e.title for e in document.entries if e.title != "lore"] == [
        "seed phase",
        "Sergey and Helena",
        "species",
    ]

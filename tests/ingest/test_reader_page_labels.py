"""Issue 38: what a page prints around its entries is no entry. A date after a label
("Last updated: 2026-09-05") dates the page; a Markdown heading's "###" is no part of its
title; a post's byline ("ann · comment · 2021-08-15") titles no ruling; a review's repeated "LORE:" / "TREK SENSE:" labels head no entries; a table of
values with none of the game's terms and no title of the game is no glossary."""

from __future__ import annotations

import textwrap

import pytest

from bot.ingest.reader import UnknownShape, corrections, read_text
from tests.ingest.synthetic import titles_unknown

COVERAGE_NOTES = """# Engine coverage
Last updated: 2026-09-05
Owners: the two of us who keep the engine's tables in step with the rules, and nobody else.

| Topic | Code? | Notes |
|---|---|---|
| actions | partial | response windows are thin |
| nullify | done | card by card |
"""


@pytest.mark.parametrize(
    "label", ["Last updated:", "**Last updated:**", "TABLE OF CONTENTS: UPDATED", "Posted"]
)
def test_a_date_after_a_label_dates_the_page_and_titles_no_ruling(label):
    # Read as a rulings feed, the label was a ruling's title and the page its text
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(COVERAGE_NOTES.replace("Last updated:", label))


THREAD = """Stunning leader was refused at the cave entrance
ann · description · 2021-08-15
He battled me at the entrance and stunning leader was not allowed to be played.

bo · comment · 2021-08-15
That is the implied target rule: no character of ability above 2 was in the battle.

ann · comment · 2021-08-16
Thanks, sorry about the mess.
"""


@pytest.mark.parametrize("separator", [" · ", " | "])
def test_a_posts_byline_before_its_date_titles_no_ruling(separator):
    # An issue tracker's or forum's "author · comment · date" lines were read as the
    # committee's feed, its authors the rulings' titles
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(THREAD.replace(" · ", separator))


def test_a_rulings_title_before_its_date_is_still_read():
    page = (
        "Naming a Number 2017-06-06\n"
        "When a player names a number, he or she must choose zero or a positive integer.\n"
    )
    assert [(e.title, e.date) for e in read_text(page).entries] == [
        ("Naming a Number", "2017-06-06")
    ]


MARKDOWN_GLOSSARY = """# Glossary

### matching commander
A personnel is a matching commander for a ship when the ship lists that personnel as its commander.

### Q-Flash
When a Q-Flash is encountered, the crew or Away Team faces cards from the Q-Continuum side deck.

### Red Alert!
While in play, you may report any number of ships and personnel for free each turn.
"""


def test_a_markdown_headings_marks_are_no_part_of_its_title():
    document = read_text(MARKDOWN_GLOSSARY)
    assert [e.title for e in document.entries] == ["matching commander", "Q-Flash", "Red Alert!"]


def test_a_markdown_heading_printing_a_dash_is_no_title_and_text():
    page = MARKDOWN_GLOSSARY.replace("# Glossary", "# STCCG 1E - Glossary coverage")
    document = read_text(page)
    assert [e.title for e in document.entries] == ["matching commander", "Q-Flash", "Red Alert!"]


def test_a_markdown_documents_title_over_its_sections_is_no_entry():
    # "# Current Rulings" names a kind of rules document the project knows; over "###"
    # sections it is the document's title, as an HTML page's <h1> is
    page = "# Current Rulings\n\nThe rulings below are in force.\n\n" + MARKDOWN_GLOSSARY[12:]
    document = read_text(page)
    assert [e.title for e in document.entries] == ["matching commander", "Q-Flash", "Red Alert!"]


def test_a_markdown_section_set_aside_before_the_first_entry_is_a_doubt():
    # A heading its author marked, whose title the reader cannot confirm (a comma in an
    # unknown title), is named as a possibly missed entry, never left in a note
    page = MARKDOWN_GLOSSARY.replace(
        "### matching commander",
        "### ships, docked\nA docked ship may not move or attack until it undocks.\n\n"
        "### matching commander",
    )
    document = read_text(page)
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert "'ships, docked'" in doubt.message and "{line: 3, head: true}" in doubt.message
    # a heading in lower case is no entry's tail cut above: the note must not say so
    assert not [w for w in document.warnings if "starts inside an entry" in w.message]


CARD_REVIEWS = """Card reviews: Deep Space Nine

#5-Aamin Marritza, Personnel, Cardassian
-CIVILIAN, Honor x2, Computer Skill, Archaeology

PICTURE: Smug and arrogant, an adequate picture, though the purple does not suit him.

LORE: Pretty standard. His entire story is there, including a big spoiler. A 3.

TREK SENSE: Aside from the Archeology, everything fits the character on the show. A 4.5.

STOCKABILITY: A useful addition to any Cardassian deck, with a nice selection of skills. A 3.5.

TOTAL: 14 (70%) A nice card gamewise, but all the trimmings aren't there.

#11-Access Relay Station, Mission, planet, Gamma quadrant

PICTURE: Planet missions are all pretty much the same, a big ball of color with shadows.

LORE: Lore on missions is also naturally sparse. Here, it describes the mission well. A 3.
"""


def test_a_reviews_repeated_labels_head_no_entries():
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(CARD_REVIEWS)


SHIP_REVIEW = """Klingon troops cleaning up after a battle at Earth sent back word of a new ship:
Queen's Borg Cube
Range 9 Weapons 24 Shields 24
The ship's advantages:
Once More Unto The Breach: Of course, the first thing a player notices about this card is \
its startling Weapons and Shields, and few ships in the game can stand against it in battle.
Doors Once Closed Will Open Again: Its Range is not only useful for catching a ship, for a \
Range of 9 also lets it move along the spaceline to any mission in a hurry, past every card.
Just Staff Me, You Borg Player: Although its staffing can seem daunting, the Borg have more \
ways than anyone else to get their personnel aboard, and this card gives them one more.
"""


@pytest.mark.parametrize("space", [" ", "\u00a0"])
def test_a_card_named_by_one_of_a_reviews_paragraph_labels_heads_no_entry(space):
    # A ship's review opens each paragraph with a label; one label is a card's title (Once
    # More Unto The Breach), the others are phrases. The card's is one more label, and the
    # reviewed card's name above them no ruling's title: read, each was an invented entry
    # (doubted). A copy may put a no-break space after the labels' colons.
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(SHIP_REVIEW.replace(": ", ":" + space))


def test_a_reviews_labels_are_told_on_a_page_wrapped_to_its_width():
    # The review printed to PDF: each labelled paragraph wraps, and a label's line holds a
    # few words of its paragraph only ("Just Staff Me, You Borg Player: Although its")
    wrapped = "\n".join(textwrap.fill(line, 60) for line in SHIP_REVIEW.split("\n"))
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(wrapped)


def test_a_known_head_beside_one_labelled_paragraph_stays_a_doubt():
    # One other label is too little to tell a review's labels: what is read is doubted
    page = SHIP_REVIEW.rsplit("Just Staff Me", 1)[0]
    document = read_text(page)
    assert document.entries
    doubted = {w.line for w in document.warnings if w.doubt}
    assert {e.line for e in document.entries} <= doubted


PRIZE_TABLE = """League Rules

| Position | Prizes |
|---|---|
| 1st | 60 boosters, 4 tengwar, 3 foil rares |
| 2nd | 55 boosters, 3 tengwar, 2 foil rares |
| 3rd | 50 boosters, 2 tengwar, 1 foil rare |
| 4th | 45 boosters, 1 tengwar |
| 5th-8th | 40 boosters and a playmat signed by the artist of the set |
| 9th-16th | 20 boosters and a playmat of the last season's championship |
| 17th-32nd | 10 boosters and a sleeve of the league's season |
"""


def test_a_table_of_values_without_the_games_terms_is_no_glossary():
    with pytest.raises(UnknownShape, match="another game's or subject's glossary"):
        read_text(PRIZE_TABLE)


def test_a_known_title_holding_a_colon_runs_past_it_in_the_colon_form():
    page = (
        "Going to the Top: You may play this objective on any mission, then report here.\n\n"
        "HQ: Defensive Measures: While in play, your headquarters may not be attacked.\n\n"
        "infiltration icon: A personnel with this icon may infiltrate opponent's ships.\n"
    )
    titles = [e.title for e in read_text(page).entries]
    assert "HQ: Defensive Measures" in titles and "HQ" not in titles


def test_a_known_title_before_a_colon_and_text_in_lower_case_heads_its_entry():
    # "couple: a personnel …" opens its text in lower case, as the 1E Glossary prints it: it
    # was left inside the entry above it with a doubt; a term the project knows heads its
    # own entry (tests/ingest/test_reader_dash_forms.py)
    page = (
        "corresponding: A personnel corresponds to a ship when the ship's lore names him.\n\n"
        "couple: a personnel and their romantic partner, when both are present together.\n\n"
        "Deep Space 9 icon: Cards with this icon are related to the station and its crew.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["corresponding", "couple", "Deep Space 9 icon"]
    assert document.entries[1].text.startswith("a personnel and their romantic partner")
    assert not [w for w in document.warnings if w.doubt]


def test_a_glossary_term_set_aside_between_sentences_is_a_doubt():
    # The tail of an entry cut above, then a lower-case term the project does not know on a
    # line of its own with its text, then known entries: the term was listed as part of the
    # tail above; it is named by its line as a possibly missed entry
    page = (
        "requirements change at any point during part 5, return to the beginning of it.\n\n"
        "warp wake, ship\n\n"
        "The warp wake of a ship is public knowledge, and so are its modifiers in play.\n\n"
        "matching commander\n\n"
        "A personnel is a matching commander for a ship when the ship lists that personnel.\n\n"
        "Q-Flash\n\n"
        "When a Q-Flash is encountered, the crew faces cards from the Q-Continuum side deck.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["matching commander", "Q-Flash"]
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert "'warp wake, ship'" in doubt.message and "{line: 3, head: true}" in doubt.message


def test_a_two_column_table_copied_with_tabs_is_read_as_terms():
    # A browser copies an HTML table's rows as "cell<tab>cell"
    page = (
        "Rulebook Glossary - M\n"
        "matching commander\tA personnel is a matching commander for a ship when the ship "
        "lists that personnel.\n"
        "mis-seeds\tIf you and your opponent each seed a copy of the same card under one "
        "mission, each has its normal effect.\n"
    )
    assert [e.title for e in read_text(page).entries] == ["matching commander", "mis-seeds"]


def test_a_deck_list_copied_with_tabs_is_no_table_of_terms():
    # "count<tab>card": a count is no term
    page = (
        "My deck\n"
        "1\tBeverly Crusher, Principled Physician\n"
        "2\tWilliam T. Riker, Smooth Advocate\n"
        "2\tCommon Ground\n"
        "3\tLegacy\n"
    )
    with pytest.raises(UnknownShape):
        read_text(page)


def _page(top: str, terms: list[tuple[str, str]]) -> str:
    preamble = "This page explains the terms of the game for every player and every judge."
    return f"{top}\n\n{preamble}\n\n" + "".join(f"{t}\n\n{x}\n\n" for t, x in terms)


KNOWN_TERMS = [
    ("matching commander", "A personnel is a matching commander for a ship that lists him."),
    ("Q-Flash", "When a Q-Flash is encountered, the crew faces the Q-Continuum side deck."),
]
NEW_TERMS = [
    ("abduction", "To abduct a personnel is to capture him with a card that says so."),
    ("absorb", "A ship that absorbs a weapon takes no damage from it, as its text says."),
    ("acquire", "To acquire an artifact is to take it into your hand when a mission is solved."),
    ("activate", "To activate a card is to begin to use its game text during your turn."),
]


def test_a_pages_own_title_over_its_preamble_is_never_an_undoubted_entry():
    # "Rules" over the page's preamble, then title lines the project knows: the page's title
    # may be read as an entry, but never at the confidence of a known title
    document = read_text(_page("Rules", KNOWN_TERMS))
    rules = [e for e in document.entries if e.title == "Rules"]
    doubted = {w.line for w in document.warnings if w.doubt}
    assert all(e.line in doubted for e in rules)
    assert [e.title for e in document.entries][-2:] == ["matching commander", "Q-Flash"]


def test_a_pages_own_title_does_not_break_a_glossarys_alphabetical_order():
    # Terms the project does not know, confirmed by their alphabetical order, under the
    # page's own title, which is out of that order
    document = read_text(_page("Rules Glossary", NEW_TERMS))
    assert [e.title for e in document.entries] == [t for t, _ in NEW_TERMS]


def test_an_articles_headings_opening_with_the_are_no_letter_page():
    # "The Basics", "The Bad", "The Star Trek…" share a first letter only through "The"
    page = _page(
        "For Those Who Want To Play It",
        [
            ("The Bad", "Requires very little in the way of strategy, and little makes sense."),
            ("The Basics", "The company once tried to compete with an even lamer card set."),
            ("The Star Trek Set", "The set included 304 cards, with commons and rares in it."),
        ],
    )
    with pytest.raises(UnknownShape):
        read_text(page)


WIKI_ENTRY = """Star Trek CCG 1E Wiki
Explore

in: Glossary

Outpost – An outpost is a facility that you may seed at a mission of a matching affiliation. Personnel and ships report to it.[1]

Outposts may be nullified by some cards, and a destroyed outpost is discarded.

References
1. ↑ Current Rulings, 3 November 2014

Categories: Glossary | Facilities
Community content is available under CC-BY-SA unless otherwise noted.
Star Trek and all related marks are trademarks of CBS Studios Inc.
"""


def test_a_wikis_references_and_licence_are_no_part_of_its_entry():
    (entry,) = read_text(WIKI_ENTRY).entries
    assert entry.title == "Outpost"
    assert entry.text.endswith("a destroyed outpost is discarded.")


def test_a_letter_index_in_decipher_print_is_no_entry():
    # "A - B C - D …" is the page's letter index, not an entry "A" with text "B C - D …"
    page = (
        "Current Rulings\n\n"
        "A - B C - D E - F G - H I - J K - L M - N - O P - Q - R S T - U - V W - X - Y - Z\n\n"
        "Q-FLASH - When a Q-Flash is encountered, the crew or Away Team faces the side deck.\n\n"
        "RED ALERT - While in play, you may report any number of ships and personnel.\n\n"
        "REVERSE TIME - The mission attempt is undone, and the crew returns where it began.\n"
    )
    document = read_text(page)
    assert document.shape == "decipher-current-rulings"
    assert [e.title for e in document.entries] == ["Q-FLASH", "RED ALERT", "REVERSE TIME"]


def test_a_card_quoted_with_reads_is_no_title():
    # "Julian Bashir (Rebel Captain) reads: “…”" leads into a quotation of the card's text
    page = (
        "cost reduction: Some cards have abilities that let them be played for less than "
        "their cost.\n\n"
        "Julian Bashir (Rebel Captain) reads: “When you play this personnel, you may reduce "
        "its cost by 2.”\n\n"
        "dilemmas: A dilemma is a card your opponent places under a mission for you to face.\n\n"
        "matching commander: A personnel is a matching commander for a ship that lists him.\n"
    )
    titles = [e.title for e in read_text(page).entries]
    assert titles == ["cost reduction", "dilemmas", "matching commander"]


def test_an_amendments_instruction_is_text_under_its_title_line():
    # A Current Rulings entry amends the Glossary: "scouting location / Add the following /
    # You may only …": the instruction is the entry's text, not a title of its own
    page = (
        "matching commander\n\nA personnel is a matching commander for a ship that lists him.\n\n"
        "scouting location\n\nAdd the following\n\n"
        "You may only scout a location that has a point box.\n\n"
        "Q-Flash\n\nWhen a Q-Flash is encountered, the crew faces the Q-Continuum side deck.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == [
        "matching commander",
        "scouting location",
        "Q-Flash",
    ]
    assert document.entries[1].text.startswith("Add the following")


def test_a_markdown_page_of_sections_is_no_single_ruling_page():
    # Its sections' titles withheld from the reader, a Markdown page is refused, never read
    # as one ruling titled by its "# Current Rulings" line
    page = (
        "# Current Rulings\n\n"
        "#### warp wake, ship\n\nExample:\n\nA ship at warp leaves a wake, and its opponent may "
        "follow it.\n\n"
        "#### tractor hold, ship\n\nA ship in a tractor hold may not move until it is let go.\n"
    )
    with pytest.raises(UnknownShape):
        read_text(page)


def test_a_flipbook_title_after_a_line_ending_in_no_sentence_is_a_doubt():
    # "Liberty – … the Staffing to / [Maq] [Maq] / Lore Returns – When you play …": the
    # line before the unknown title ends in no sentence, yet the title-case head is named
    lines = (
        "Liberty – The class has been changed to",
        '"Condor Class" and the Staffing to',
        "[Maq] [Maq]",
        "Lore Bounces – When you play this event",
        "on a ship, your Rogue Borg take control",
        "of that ship.",
        "matching commander – When specified",
        "in the ship's lore, only the named",
        "personnel is the matching commander.",
    )
    page = "15.12.2012 Views\n\nSHOW MORE\nSHOW LESS\n\n" + "".join(
        f"{line}<br />\n\n" for line in lines
    )
    document = read_text(page)
    titles = [e.title for e in document.entries]
    doubts = [w for w in document.warnings if w.doubt and "Lore Bounces" in w.message]
    # an unknown title after no sentence's end: named by a doubt, not read as an entry
    assert doubts and "Lore Bounces" not in titles


def test_a_lone_known_head_opening_a_page_of_other_heads_is_doubted():
    # A page cut inside an entry starts "commander: U.S.S. Enterprise-E. …" (a line of that
    # entry's text) above entries printed as title lines: no one-ruling paste, a doubt
    page = (
        "commander: U.S.S. Enterprise-E. As with all keywords, there are no special rules "
        "for this relationship.\n\n"
        "conditional effects\n\nIf game text has a conditional, any text beginning with also "
        "that follows is subject to it.\n\n"
        "cost reduction\n\nSome cards have abilities that let them be played for less than "
        "their cost.\n"
    )
    document = read_text(page)
    doubted = {w.line for w in document.warnings if w.doubt}
    assert all(e.line in doubted for e in document.entries if e.title == "commander")
    assert [e.title for e in document.entries][-2:] == ["conditional effects", "cost reduction"]


def test_numbered_entries_under_a_cut_entrys_tail_are_read_and_the_tail_doubted():
    # A page cut inside an entry ("lore: Typical Starfleet ensign …") above a numbered list
    # of entries: the items were named by a doubt, unread, while "scouting location: Add the
    # following" was taken for a list's short value; read as the entries they are, the
    # known "lore" above them is no one-ruling paste but a line of the entry cut above
    page = (
        "lore: Typical Starfleet ensign eagerly chasing a promotion. Served aboard the "
        "Enterprise.\n\n"
        "21) scouting location: Add the following\n\n"
        "You may only scout a location that has a point box.\n\n"
        "23) seed phase: The only actions you may take during the seed phases are seeding "
        "cards.\n"
    )
    document = read_text(page)
    titles = [e.title for e in document.entries]
    assert titles[-2:] == ["scouting location", "seed phase"]
    doubted = {w.line for w in document.warnings if w.doubt}
    assert all(e.line in doubted for e in document.entries if e.title == "lore")


def test_a_lower_case_heading_inside_an_entrys_text_is_a_doubt():
    # openCards' glossary with the terms unknown (a new document's): "faction" on a line of
    # its own after a sentence, over its text, was read as the text of the entry above,
    # undoubted
    page = (
        "header\nheaderhomehomehomestrategyrulescardsheader\n     \ncards\n   \n\n"
        "Rulebook Glossary - F\n\nRulebook Glossary\n\n \n\n"
        + " - ".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        + " - top\n\n \n\nfa - fe\n\n \n\nback to top of page fa\n\n"
        "facility commander\nYour personnel aboard your facility is the facility commander if "
        "either the facility lore or the personnel lore states that the personnel is or was the "
        "commander of the facility. See DS9.\n\n"
        "Most facility commanders may be easily determined directly from the facility and/or "
        "personnel lore, following the rules given above. Two need clarification:\n\n"
        '- Dukat (DS9) "Desires to regain command of Terok Nor." He is the former commander of '
        "Terok Nor.\n\n \n\n"
        "faction\nThere are 3 factions: Klingon/Cardassian Alliance, Maquis, and Terran Empire. "
        "Factions are not affiliations, even though they may sometimes be referred to in a "
        "similar manner.\n\n \n\nback to top of page fe\n\n"
        "Ferengi Military Operations\nPlays on table. Once each turn, your personnel (except "
        "V.I.P. or CIVILIAN) may report (for free) to your outpost.\n"
    )
    titles = ["facility commander", "faction", "Ferengi Military Operations"]
    with titles_unknown(titles):
        document = read_text(page)
    read = [e.title for e in document.entries]
    line = page.split("\n").index("faction") + 1
    named = [
        w for w in document.warnings if w.doubt and w.line == line and "'faction'" in w.message
    ]
    assert "faction" in read or named


DECIPHER_PAGE = """Rulings Updated: 03/26/01

RULINGS

actions – step 1: initiation.

PERSONA - You may not use persona replacement to exchange missions. (See missions – persona.)

REACTOR CORE ICON - A card with this icon is related to the Star Trek: Deep Space Nine television series. It has no built in gameplay function.

ROMANTIC PARTNER - A personnel is the romantic partner of another personnel if the lore (on either card) names the other and states that they are or were "romantically involved".

SAM LAVELLE - This personnel may not be used as a leader.
"""


def test_the_odd_title_not_in_capitals_on_a_page_of_capitals_is_a_doubt():
    # A page of Decipher's Current Rulings cut after an entry's "(See actions – step 1:
    # initiation.)": the cross reference's line read as the entry "actions", undoubted
    document = read_text(DECIPHER_PAGE)
    line = DECIPHER_PAGE.split("\n").index("actions – step 1: initiation.") + 1
    read = {e.title: e.line for e in document.entries}
    assert read.get("actions", line) == line
    doubts = [w for w in document.warnings if w.doubt and w.line == line]
    assert "actions" not in read or doubts
    if doubts:  # the way on it names settles it
        assert f"{{line: {line}, drop: true}}" in doubts[0].message
        fixed = corrections.apply(document, [{"line": line, "drop": True}])
        assert "actions" not in [e.title for e in fixed.entries]
        assert not [w for w in fixed.warnings if w.doubt]


def test_a_page_of_capitals_titles_alone_is_not_doubted_for_its_case():
    page = DECIPHER_PAGE.replace("actions – step 1: initiation.\n\n", "")
    assert [e.title for e in read_text(page).entries][:2] == ["PERSONA", "REACTOR CORE ICON"]
    assert not [w for w in read_text(page).warnings if "capitals" in w.message]


COLON_PAGE = """replaced with: See timeline disruption.

stopped: A stopped personnel or ship may not move, attack or be used until it is unstopped.

time location: A card type representing a location in the past or future of the Star Trek universe.

timeline disruption: A card that changes the past may disrupt the timeline; see time location.
"""


def test_a_title_ending_in_a_connective_is_a_doubt_unless_known():
    # A page cut inside "… the entry is replaced with: See timeline disruption." opened with
    # the sentence's end read as the entry "replaced with", undoubted
    document = read_text(COLON_PAGE)
    read = [e.title for e in document.entries]
    assert "replaced with" not in read or any(
        w.doubt and w.line == 1 and "'with'" in w.message for w in document.warnings
    )
    # a term of the game that ends so, known to the project, is read as it is
    known = read_text(COLON_PAGE.replace("replaced with: See", "equipped with: See"))
    assert not [w for w in known.warnings if "'with'" in w.message]


FLIP_BOOK_LINES = [
    "all Borg Away Team and battle",
    "restrictions, and they may not",
    "attempt missions.",
    "Bajoran Wormhole – Whenever you",
    "play or download this doorway to",
    "the Alpha Quadrant, you must",
    "download another copy.",
    "battle – affiliation",
    "restrictions – If a card allows",
    "you to attack a specific",
    "affiliation or faction, then you",
    "may attack it.",
    "Borg – A Borg is a personnel of",
    "the Borg affiliation.",
]


def test_a_title_broken_at_its_own_dash_is_a_doubt_naming_the_longer_title():
    # A flip-book's narrow column breaks "battle – affiliation restrictions – If …" after
    # "affiliation": the entry was read as "battle", its text "affiliation restrictions – If
    # …", undoubted
    page = "15.12.2012 Views\n\nStar Trek™ Customizable Card Game™ GLOSSARY\n\n" + "".join(
        f"{line}<br />\n\n" for line in FLIP_BOOK_LINES
    )
    document = read_text(page)
    line = page.split("\n").index("battle – affiliation<br />") + 1
    read = {e.title: e.line for e in document.entries}
    assert read.get("battle", line) == line
    doubts = [
        w
        for w in document.warnings
        if w.doubt and w.line == line and "'battle – affiliation restrictions'" in w.message
    ]
    assert "battle" not in read or doubts
    if doubts:  # the correction it names gives the title whole and the text without it
        assert f"{{line: {line}, title: battle – affiliation restrictions}}" in doubts[0].message
        fixed = corrections.apply(
            document, [{"line": line, "title": "battle – affiliation restrictions"}]
        )
        entry = next(e for e in fixed.entries if e.line == line)
        assert entry.title == "battle – affiliation restrictions"
        assert entry.text.startswith("If a card allows you to attack")


def test_a_cross_reference_opening_an_entry_is_no_title_run_on():
    page = "Ishka – See skills - using.\n\nObsidian Order – See skills - using.\n\nOdo – See DS9.\n"
    assert not [w for w in read_text(page).warnings if "run on" in w.message]


COLON_GLOSSARY = (
    "may only scout a location that has a point box.\n\n"
    'DS9: References in lore to "DS9" are equivalent to "Deep Space 9."\n\n'
    "seed phase: The only actions you may take during the seed phases are seeding cards and "
    "carrying out game text that takes place immediately upon seeding a card face-up.\n\n"
    "Sergey and Helena: the two personnel represented on this dual-personnel card are romantic "
    "partners of each other. See named in lore.\n\n"
    "special equipment: When a card refers to a ship's special equipment, this means ship "
    "systems expressed as a phrase of just a few words.\n\n"
    "species: In general, a personnel's species can be determined by looking at the card.\n"
)


@pytest.mark.parametrize("missed", ["DS9", "Sergey and Helena"])
def test_a_line_in_the_form_of_a_colon_pages_entries_is_a_doubt(missed):
    # With a new document's titles (unknown), "Sergey and Helena: the two personnel …" (its
    # text in lower case) was read as the text of "seed phase", and "DS9: …" under a cut
    # entry's tail was set aside, both undoubted
    titles = ["DS9", "seed phase", "Sergey and Helena", "special equipment", "species"]
    with titles_unknown(titles):
        document = read_text(COLON_GLOSSARY)
    line = next(
        n for n, text in enumerate(COLON_GLOSSARY.split("\n"), 1) if text.startswith(missed)
    )
    named = [w for w in document.warnings if w.doubt and w.line == line]
    assert missed in [e.title for e in document.entries] or named


def test_a_label_or_an_instruction_in_a_colon_pages_entry_is_no_missed_head():
    sergey = COLON_GLOSSARY.index("Sergey and Helena:")
    page = (
        COLON_GLOSSARY[:sergey]
        + "*For example: you may seed a dilemma under each of your missions.\n\n"
        + "Add the following: a dual-personnel card counts as two personnel.\n\n"
        + COLON_GLOSSARY[COLON_GLOSSARY.index("special equipment:") :]
    )
    document = read_text(page)
    assert not [w for w in document.warnings if "opens as the page's entries do" in w.message]


def test_a_wiki_pages_title_split_at_its_dash_over_its_entry_is_no_entry():
    # The wiki prints the entry's title as the page's heading ("actions – step 1:
    # initiation", then "Edit") above the entry: read as an entry "actions" whose text was
    # "step 1: initiation", undoubted
    page = (
        "Skip to content\n\nStar Trek CCG 1E Wiki\n\nin: Glossary\n\n"
        "actions – step 1: initiation\nEdit\n\n"
        "actions – step 1: initiation – Add the following before the Dilemma encounters "
        "paragraph:\n\nSome actions require a specific card to be played as a cost in order to "
        "resolve. When this is the case, use only the game text of the action.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["actions – step 1: initiation"]
    assert any("page's heading" in w.message for w in document.warnings)


NUMBERED_PAGE = """lore: Representative of Bajoran security officers serving aboard the station.

30) Classic Communicator: At the beginning of this entry, add the sentence below.

32) cloaking and phasing: Your non-mission card may only perform one cloaking action each turn.

34) cloaking device: This special equipment allows a ship or facility to cloak.
"""


def test_numbered_paragraphs_that_open_with_titles_inside_an_entry_are_a_doubt():
    # A page cut inside a card's "lore:" over a numbered list of entries whose titles were
    # withheld: all read as the text of "lore", undoubted
    titles = ["Classic Communicator", "cloaking and phasing", "cloaking device"]
    with titles_unknown(titles):
        document = read_text(NUMBERED_PAGE)
    read = [e.title for e in document.entries]
    line = NUMBERED_PAGE.split("\n").index(NUMBERED_PAGE.split("\n")[2]) + 1
    named = [w for w in document.warnings if w.doubt and w.line == line]
    assert set(titles) <= set(read) or named


def test_numbered_steps_inside_an_entry_are_no_missed_entries():
    page = (
        "actions – An action resolves in three steps:\n\n"
        "1) Initiation: the player announces the action and pays its costs.\n\n"
        "2) Responses: each player may respond, beginning with the opponent.\n"
    )
    assert not [w for w in read_text(page).warnings if "numbered paragraphs" in w.message]


def test_a_colon_inside_a_wrapped_paragraph_is_no_label():
    # A known term's entry, wrapped to a page's width: lines that happen to open with words
    # and a colon inside its sentences ("Klingon Matter reads: …") are no review's labels
    page = (
        "to Get Home), which reads “you may pay the cost of losing 5 points to\n"
        "use an ability on one of your personnel.”\n\n"
        "dilemmas: Some dilemmas cause more than one personnel to be selected,\n"
        "killed, stopped, or placed in a brig as one action, unless they are listed\n"
        "as separate actions. You may use game text only before or after any of\n"
        "these actions, not in the middle of one. For example, A\n"
        "Klingon Matter reads: “Unless you have . . . randomly select a\n"
        "personnel.” Selecting and killing that personnel are two actions, and\n"
        "For example, Pinned Down reads: “Randomly select a personnel to be\n"
        "stopped . . . randomly select a second personnel to be stopped.”\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["dilemmas"]

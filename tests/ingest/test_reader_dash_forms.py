"""Issue 38, nineteenth pass: how a line's dash and colon are told apart on pages of any
site. A known term may open its text in lower case ("couple – a personnel and …"); a dash
before a colon belongs to the title ("missions - persona: Some missions …"); a line that a
wrapped sentence runs onto is no ``words: text`` head; a letter page's own heading is the
page's, not an entry."""

from __future__ import annotations

import pytest

from bot.ingest.reader import UnknownShape, read_text
from bot.ingest.reader.corrections import apply
from bot.ingest.reader.head_forms import inline

WIKI_CHROME = "Star Trek CCG 1E Wiki\nExplore\nMain Page\nAll Pages\nCommunity\n\n"


def _read(text: str):
    document = read_text(text)
    return [entry.title for entry in document.entries], document


@pytest.mark.parametrize("top", ["", WIKI_CHROME])
def test_a_known_term_whose_text_opens_in_lower_case_is_read(top):
    # the 1E Glossary prints some texts in lower case after the dash; a wiki's page of the
    # one term is that line alone
    titles, document = _read(top + "couple – a personnel and their romantic partner.\n")
    assert titles == ["couple"]
    assert document.entries[0].text.startswith("a personnel and their romantic partner")


def test_an_unknown_title_over_text_in_lower_case_alone_is_still_refused():
    # a dash in a sentence's first words ("Day one – we met the …") is prose: only a term
    # the project knows opens an entry so when nothing else on the page confirms the form
    with pytest.raises(UnknownShape):
        read_text(WIKI_CHROME + "Day one of the event – we met the players at nine.\n")


def test_a_dash_before_the_colon_is_part_of_the_title():
    page = (
        "missions - persona: Some missions represent the same location in the Star Trek "
        "universe. Two missions are instances of the same persona if they are copies.\n\n"
        "mission II: Replace the third paragraph of this entry with the following text.\n\n"
        "matching commander: When specified in the ship's lore, only the named personnel is "
        "the matching commander.\n"
    )
    titles, _ = _read(page)
    assert titles == ["missions - persona", "mission II", "matching commander"]


def test_a_line_a_wrapped_sentence_runs_onto_is_no_colon_head():
    # "location text" is a term the project knows, printed where the sentence above wraps
    page = (
        "missions - persona: Some missions represent the same location in the\n"
        "Star Trek universe. Some examples:\n\n"
        "- Deliver Ancient Artifact and Observe Ritual, which both have the\n"
        'location text: "Vulcan", represent the Vulcan persona.\n\n'
        "mission II: Replace the third paragraph of this entry with the following text.\n\n"
        "matching commander: When specified in the ship's lore, only the named personnel is "
        "the matching commander.\n"
    )
    titles, document = _read(page)
    assert titles == ["missions - persona", "mission II", "matching commander"]
    assert 'location text: "Vulcan"' in document.entries[0].text


OPENCARDS_TOP = (
    "header\nheaderhomehomehomestrategyrulescardsheader\n     \ncards\n   \n\n"
    "Rulebook Glossary - A\n\nRulebook Glossary\n\n \n\n"
    "A - B - C - D - E - F - G - H - I - J - K - L - M - N - O - P - Q - R - S - T - U - V - W - X"
    " - Y - Z - top\n\n \n\nab - ac - al - at\n\n \n\nback to top of page ac\n\n"
)


def test_a_title_line_whose_dash_comes_before_a_colon_is_read_and_the_letter_heading_not():
    # "actions – step 1: initiation" is one title (no text in lower case after its dash);
    # read so, the page's two known title lines confirm title lines, and the letter page's
    # own heading above them must not be taken for a third
    page = OPENCARDS_TOP + (
        "actions – step 1: initiation\n"
        "Add the following before the Dilemma encounters paragraph:\n\n"
        "Some actions require a specific card to be played as a cost in order to resolve.\n\n"
        "back to top of page al\n\n"
        "Alien Parasites\n"
        "replace the first sentence of the final paragraph with the following:\n\n"
        "If you take control of your opponent's [Borg] cards, you must follow all Borg Away "
        "Team and battle restrictions.\n"
    )
    titles, document = _read(page)
    assert titles == ["actions – step 1: initiation", "Alien Parasites"]
    assert not [w for w in document.warnings if w.doubt]


def test_a_letter_pages_own_heading_names_the_document_and_is_no_entry():
    # "Rulebook Glossary - D" over a line of text, above title lines the project knows: it
    # was read as a third entry; it is the page's heading, and says what the document is
    page = (
        "Rulebook Glossary - D\nThe entries of the letter D, as the rulebook prints them.\n\n"
        "Dilemma Resolution\nA dilemma is resolved as soon as it is encountered, in the order drawn.\n\n"
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


COLON_PAGE = (
    "corresponding: The corresponding spaceline location for a time location is the "
    "spaceline location in the same quadrant as the time location.\n\n"
    "couple: a personnel and their romantic partner.\n\n"
    "Deep Space 9 icon: A card with this icon is related to the Star Trek: Deep Space Nine "
    "television series.\n\n"
    'Dilemma Resolution: Add this paragraph before "Triggers"\n\n'
    "Multisection Dilemmas: Some dilemmas have more than one section, each with independent "
    "triggers, targets, and/or conditions.\n"
)


def test_a_known_terms_colon_head_over_text_in_lower_case_is_read():
    titles, document = _read(COLON_PAGE)
    assert "couple" in titles
    couple = next(e for e in document.entries if e.title == "couple")
    assert couple.text == "a personnel and their romantic partner."


def test_the_paragraph_an_instruction_to_add_introduces_is_the_entrys_text():
    # "Add this paragraph before …" quotes the paragraph under it, however it opens
    titles, document = _read(COLON_PAGE)
    assert titles == ["corresponding", "couple", "Deep Space 9 icon", "Dilemma Resolution"]
    assert "Multisection Dilemmas: Some dilemmas" in document.entries[-1].text


@pytest.mark.parametrize(
    "line",
    [
        # a wrapped sentence's next line, and a sentence, that open with "by"/"By"
        "by a location cannot affect, and is not affected by, cards at that location.",
        "By rule, a player may declare only one leadership challenge during their turn.",
    ],
)
def test_a_line_opening_with_by_is_no_byline(line):
    # a byline names its author ("by Jon Carter, Rules Master"); read as one, the page was
    # taken for an article and its "term: text" heads dropped
    page = (
        "movement: You may move a card any number of times during your turn. A ship flying\n"
        f"{line}\n\n"
        "movement between quadrants: However, if game text uses the word spaceline, the "
        "movement is restricted to the current spaceline.\n"
    )
    titles, _ = _read(page)
    assert titles == ["movement", "movement between quadrants"]


def test_a_byline_still_makes_the_page_an_article():
    page = (
        "Rules Corner\nby Jon Carter, Rules Master\n\n"
        "movement: You may move a card any number of times during your turn this month.\n\n"
        "movement between quadrants: However, if game text uses the word spaceline, the "
        "movement is restricted to the current spaceline.\n"
    )
    with pytest.raises(UnknownShape):
        read_text(page)


def test_a_numbered_item_of_a_known_term_over_text_in_lower_case_is_an_entry():
    page = (
        "12. corresponding – The corresponding spaceline location for a time location is the "
        "spaceline location in the same quadrant.\n\n"
        "15. couple – a personnel and their romantic partner.\n\n"
        "17. Deep Space 9 icon – A card with this icon is related to the Star Trek: Deep Space "
        "Nine television series.\n"
    )
    titles, document = _read(page)
    assert titles == ["corresponding", "couple", "Deep Space 9 icon"]
    assert document.entries[1].text == "a personnel and their romantic partner."


def test_a_known_title_holding_a_dash_is_one_head_in_text_run_together():
    # PDF text whose line breaks were lost: "battle – affiliation restrictions" is one known
    # title, not "battle" over an entry "affiliation restrictions"
    page = (
        "Alien Parasites – If you take control of your opponent's cards, you must follow all "
        "Borg Away Team and battle restrictions. Bajoran Wormhole – Whenever you play or "
        "download this doorway to the Alpha Quadrant, you must download another copy. "
        "battle – affiliation restrictions – If a card allows you to attack a specific "
        "affiliation, you may attack that affiliation's cards. Borg – Replace the first "
        "paragraph of the Objectives subsection with the following text.\n"
    )
    titles, _ = _read(page)
    assert titles == [
        "Alien Parasites",
        "Bajoran Wormhole",
        "battle – affiliation restrictions",
        "Borg",
    ]


def test_a_known_title_after_an_entry_ending_on_an_icon_code_opens_its_entry():
    # run-on PDF text: an erratum ends on icon codes, no full stop, before the next title
    page = (
        "Alien Parasites – If you take control of your opponent's cards, you must follow all "
        'Borg Away Team and battle restrictions. Liberty – The class is changed to "Condor '
        'Class" and the Staffing to [Maq] [Maq] Lore Returns – When you play this event on a '
        "ship, your Rogue Borg take control of that ship. matching commander – A personnel is "
        "a matching commander for a ship if either card names the other in lore.\n"
    )
    titles, document = _read(page)
    assert titles == ["Alien Parasites", "Liberty", "Lore Returns", "matching commander"]
    assert document.entries[1].text.endswith("[Maq] [Maq]")


def test_an_unknown_title_after_an_icon_code_opens_no_entry():
    # inside a sentence, a bracketed icon may stand before any capitalised words and a dash
    page = (
        "Alien Parasites – If you take control of your opponent's cards, you must follow all "
        "Borg Away Team and battle restrictions. Bajoran Wormhole – Whenever you play this "
        "doorway, you must download another copy. Liberty – Its staffing is [Maq] Pirate Raider "
        "Crews – the ones you control – may move it. matching commander – A personnel is a "
        "matching commander for a ship if either card names the other in lore.\n"
    )
    titles, _ = _read(page)
    assert titles == ["Alien Parasites", "Bajoran Wormhole", "Liberty", "matching commander"]


def test_a_colon_head_whose_text_is_an_instruction_introducing_the_next_line_is_read():
    # "Add the following" is no list item's short value ("Piece 1 TNG Rare"): it introduces
    # the entry's text, on the next line
    page = (
        "romantic partner: A personnel is the romantic partner of another personnel if the "
        "lore of either card names the other.\n\n"
        "scouting location: Add the following\n"
        "You may only scout a location that has a point box.\n\n"
        "seed phase: The only actions you may take during the seed phases are seeding cards.\n"
    )
    titles, document = _read(page)
    assert titles == ["romantic partner", "scouting location", "seed phase"]
    assert "You may only scout a location" in document.entries[1].text


def test_a_known_terms_text_in_lower_case_wrapped_after_a_few_words_is_read():
    page = (
        "seed phase: The only actions you may take during the seed phases are seeding cards.\n\n"
        "Sergey and Helena: the two personnel represented on this dual-personnel\n"
        "card are romantic partners of each other. See named in lore.\n\n"
        "special equipment: When a card refers to a ship's special equipment, this means "
        "ship systems.\n"
    )
    titles, _ = _read(page)
    assert titles == ["seed phase", "Sergey and Helena", "special equipment"]


def test_a_known_terms_colon_over_lower_case_on_a_cut_pages_first_line_is_a_doubt():
    # the page store cut inside the entry above: "…his two species: for example, …" opens
    # the copy; a known term over text in lower case there may be that entry's tail
    page = (
        "species: for example, to download Daniel Kwan, you would need his two\n"
        "species (which are Human and Napean) to not be in play. See humanoid.\n\n"
        "Stop First Contact: This entry is replaced with: See timeline disruption.\n\n"
        "time location: Replace this entry with the following text for the new rules.\n"
    )
    titles, document = _read(page)
    assert titles[-2:] == ["Stop First Contact", "time location"]
    doubted = {w.line for w in document.warnings if w.doubt}
    assert all(e.line in doubted for e in document.entries if e.title == "species")


def test_a_known_terms_colon_over_lower_case_under_a_line_ending_no_sentence_is_its_wrap():
    # the copy opens on a wrapped sentence's line; the next line's "species: for example"
    # goes on with that sentence (a hard wrap), and is no entry of its own, doubted or not
    page = (
        "any Vulcan, Human, or Klingon, including personnel who also have another\n"
        "species: for example, to download Daniel Kwan, you would need his two\n"
        "species (which are Human and Napean) to not be in play. See humanoid.\n\n"
        "Stop First Contact: This entry is replaced with: See timeline disruption.\n\n"
        "time location: Replace this entry with the following text for the new rules.\n"
    )
    titles, _ = _read(page)
    assert titles == ["Stop First Contact", "time location"]


def test_a_doubted_heads_warning_says_how_to_confirm_it():
    # a moderator on a phone reads the doubt and settles it without the README
    document = read_text(WIKI_CHROME + "couple – a personnel and their romantic partner.\n")
    doubt = next(w for w in document.warnings if w.doubt)
    entry = document.entries[0]
    assert f"{{line: {entry.line}, confirm: true}}" in doubt.message
    confirmed = apply(document, [{"line": entry.line, "confirm": True}])
    assert not [w for w in confirmed.warnings if w.doubt]


# A new Glossary's letter page (titles the project does not know yet), copied from its PDF.
NEW_LETTER = (
    "quadrant marker – A mark in a mission's corner that tells its quadrant on the table.\n\n"
    "rally point – a location where your ships may gather before a battle, once a turn.\n\n"
    "reserve deck – The cards set aside before the game that you may draw from later.\n\n"
    "salvage yard – Add the following\n\n"
    "You may only salvage a ship that has been destroyed at this location.\n\n"
    "sector grid – The spaceline as a grid, for formats that place missions in two rows.\n"
)


def test_a_new_terms_text_in_lower_case_in_the_glossarys_order_is_read_with_a_doubt():
    titles, document = _read(NEW_LETTER)
    assert titles == [
        "quadrant marker",
        "rally point",
        "reserve deck",
        "salvage yard",
        "sector grid",
    ]
    # its text in lower case is a weak sign, and the page's titles are all unknown: doubts
    assert any(w.doubt and "'rally point'" in w.message for w in document.warnings)
    salvage = document.entries[3]
    assert salvage.text.startswith("Add the following") and "salvage a ship" in salvage.text


def test_an_unknown_terms_text_in_lower_case_out_of_the_order_stays_text():
    # "zebra stripes – the cards …" between "rally point" and "salvage yard" is out of the
    # page's order: the dash may be a sentence's, and nothing else confirms a head
    page = NEW_LETTER.replace("reserve deck – The cards", "zebra stripes – the cards")
    titles, _ = _read(page)
    assert "zebra stripes" not in titles


def test_a_pdf_copy_without_blank_lines_keeps_the_entry_after_an_instruction():
    # lines hard-wrapped near 100 characters are rejoined into paragraphs: the instruction
    # and its one-line text become one line, which introduces nothing after it
    page = (
        "the U.S.S. Enterprise in 2370. Decent poker player. His grandfather was Canadian.\n"
        "scouting location – Add the following\n"
        "You may only scout a location that has a point box.\n"
        "seed phase – The only actions you may take during the seed phases are seeding cards, "
        "carrying out\n"
        "game text that takes place immediately upon seeding a card face-up, such as "
        "downloading Bajoran\n"
        "Wormhole with Ultimatum or an Emblem card with Disrupt Alliance, and special "
        "downloads. You may not\n"
        'activate a hidden agenda or use "play phase" game text such as effects that suspend '
        "play (except\n"
        'special downloads) or may happen "at any time" or "each turn."\n'
        "Sergey and Helena – the two personnel represented on this dual-personnel card are "
        "romantic partners\n"
        "of each other. See named in lore.\n"
    )
    titles = [e.title for e in read_text(page).entries]
    assert titles == ["scouting location", "seed phase", "Sergey and Helena"]


def test_a_known_terms_text_in_lower_case_on_a_page_without_blank_lines_is_read():
    # typed without blank lines: the term follows a line that ends a sentence (its closing
    # quote and bracket too), as a new paragraph would
    page = (
        "mission II – Replace the third paragraph of this entry with the following:\n"
        "Cards that work with the original mission work with the corresponding Mission II; "
        '("Typhon Expanse" is a correction of a misspelling, as "Beta Stromgen.")\n'
        "named in lore – a personnel or ship card is named in the lore of another card if "
        "the lore refers to that personnel or ship by name.\n"
    )
    titles, _ = _read(page)
    assert titles == ["mission II", "named in lore"]


def test_a_table_rows_first_cell_holding_a_dash_is_no_head_over_lower_case():
    # a table copied with its tabs: the dash belongs to the first cell's title
    row = "rally point - example\tSelect and beam your Away Team to the planet."
    assert inline(row) is None or inline(row)[0] != "rally point"
    assert inline("rally point - example Select and beam your Away Team to the planet.")

"""Issue 38: card pages as moderators copy them. A page copied from below the card's title
(openCards' pages, as a browser selects them from the lore down) still holds the card's game
text; the shipped card lists hold every card's text, so the reader names the card by it,
with a doubt on each entry that a moderator settles, and refuses where the text does not
tell one card from another. A line of a card's game text heads no entry. A rules
document's words quoted on the page ("Quote from Alternate Universe Rulesheet:") are the
card's next ruling."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bot.ingest.cards import load_card_index
from bot.ingest.dataset import default_data_dir
from bot.ingest.reader import UnknownShape, read_text
from bot.ingest.reader.card_text import card_records
from bot.ingest.reader.corrections import apply, parse
from tests.ingest import copies


def _card(title: str) -> str:
    """The shipped 1E game text of ``title``, as a card page prints it (no link braces)."""
    cards = load_card_index(default_data_dir() / "cards" / "1e.yaml")
    text = next(card.text for card in cards if card.title == title)
    return text.replace("{", "").replace("}", "")


def _announced_page(game_text: str, ruling: str) -> str:
    return (
        "Seeded on the spaceline long ago, this card's lore is a sentence or two.\n\n"
        f"Objective Objective\n\n{game_text}\n\nThis card has an clarification:\n\n"
        f"{ruling}\n\nTaken form Glossary - Version 1.9.5.\n"
    )


RULING = (
    "The download must be made at once, when the objective is seeded or played; it may not "
    "be saved for a later turn."
)


def test_an_announced_ruling_is_titled_by_the_card_whose_game_text_the_page_prints():
    page = _announced_page(_card("Assign Mission Specialists"), RULING)
    document = read_text(page)
    (entry,) = document.entries
    assert entry.title == "Assign Mission Specialists"
    assert entry.text.startswith("The download must be made at once")
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert doubt.line == entry.line
    assert "does not print the card's name; line 5 reads as the game text" in doubt.message
    assert f"{{line: {entry.line}, confirm: true}}" in doubt.message
    # the lines set aside above are the card's lore and text: the page prints no title
    assert any(w.message.startswith("the card's lore and data") for w in document.warnings)


def test_a_game_text_wrapped_to_a_printed_pages_width_still_names_its_card():
    # The same page printed to PDF: the card's game text wraps over several lines, none of
    # which reads as the card's text alone, so the page was refused
    text = textwrap.fill(_card("Assign Mission Specialists"), 110)  # four lines
    document = read_text(_announced_page(text, RULING))
    (entry,) = document.entries
    assert entry.title == "Assign Mission Specialists"
    assert entry.text.startswith("The download must be made at once")
    assert any(w.doubt and "reads as the game text" in w.message for w in document.warnings)


def test_confirming_the_card_named_by_its_text_clears_the_doubt():
    document = read_text(_announced_page(_card("Assign Mission Specialists"), RULING))
    line = document.entries[0].line
    fixed = apply(document, parse(f"- {{line: {line}, confirm: true}}\n"))
    assert [e.title for e in fixed.entries] == ["Assign Mission Specialists"]
    assert not any(w.doubt for w in fixed.warnings)
    renamed = apply(document, parse(f"- {{line: {line}, title: Space-Time Portal}}\n"))
    assert [e.title for e in renamed.entries] == ["Space-Time Portal"]


def test_a_game_text_copied_with_small_differences_still_names_its_card():
    # an older wording: a few words changed, one clause dropped
    text = _card("Assign Mission Specialists").replace("up to two different", "two")
    text = text.replace("(personnel whose only skill is a regular skill) ", "")
    document = read_text(_announced_page(text, RULING))
    assert [e.title for e in document.entries] == ["Assign Mission Specialists"]


def test_a_card_field_on_the_first_line_gives_way_to_the_card_the_game_text_names():
    # openCards' page copied from below its title opens with a field of the card's data
    # ("Playable at: Any Nor - Ops Modul."), whose label was guessed as an unknown card's
    # name; the game text under it is Ops's, and the page names Ops
    page = f"Playable at: Any Nor - Ops Modul.\n{_card('Ops')}\n\nThis card has an clarification:\n\n{RULING}\n"
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Ops"]
    assert any(
        w.doubt and "reads as the game text of 'Ops'" in w.message for w in document.warnings
    )
    # a first line's card the project does not know stays the title where the card the
    # game text is closest to is named nowhere on the page
    unknown = page.replace(
        "Playable at: Any Nor - Ops Modul.", "Zorbulon Annex: A station's old heart."
    )
    unknown = unknown.replace("Ops", "the annex")
    assert [e.title for e in read_text(unknown).entries] == ["Zorbulon Annex"]


def test_a_ruling_under_the_game_text_closed_by_its_source_line_is_read_with_a_doubt():
    # openCards' German copy of a card page: the card's name, its game text, then the
    # Glossary's entry on the card with no label, opening with no "This incident", closed
    # by the line naming the Glossary it was taken from
    ruling = (
        "Personnel who have the icon suffer this effect only while the incident is in play, "
        "unless they have the right equipment present."
    )
    page = f"Incident White Deprivation\n\nWhite Deprivation\n\n{_card('White Deprivation')}\n\n{ruling}\n\n"
    document = read_text(page + "Taken form Glossary - Version 1.9.5.\n\nCollector's Info\n")
    (entry,) = document.entries
    assert (entry.title, entry.text) == ("White Deprivation", ruling)
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert "the source line that closes it" in doubt.message
    # without the source line nothing marks the paragraph as a ruling: refused, as before
    with pytest.raises(UnknownShape):
        read_text(page + "Collector's Info\n")


def test_a_field_line_over_the_game_text_wrapped_to_a_printed_pages_width():
    # the Ops page printed to PDF: the field line and the game text in one block, the game
    # text wrapped to the page's width under it
    text = textwrap.fill(_card("Ops"), 110)
    page = f"Playable at: Any Nor - Ops Modul.\n{text}\n\nThis card has an clarification:\n\n{RULING}\n"
    assert [e.title for e in read_text(page).entries] == ["Ops"]


def test_a_text_no_card_prints_is_refused_as_before():
    text = "Plays on table. Each player draws an extra card whenever a moon is full."
    with pytest.raises(UnknownShape, match="does not name the card"):
        read_text(_announced_page(text, RULING))


def test_a_text_several_cards_print_is_refused_unless_the_page_names_one_of_them():
    # the three 1,000 Tribbles cards print the same text: it names none of them
    text = _card("1,000 Tribbles - Bonus")
    with pytest.raises(UnknownShape, match="does not name the card"):
        read_text(_announced_page(text, RULING))
    ruling = "1,000 Tribbles - Rescue may breed from a copy of 100 Tribbles in any discard pile."
    document = read_text(_announced_page(text, ruling))
    assert [e.title for e in document.entries] == ["1,000 Tribbles - Rescue"]
    assert any(w.doubt and "1,000 Tribbles - Rescue" in w.message for w in document.warnings)


def test_rule_notes_under_a_cards_game_text_are_read_under_that_card():
    # the "Rule notes" layout copied from below the card's title line (a Q-card's page)
    page = (
        "|\nQ-Card Typ: Dilemma; Points: -5\n"
        f"{_card('Pla-Net')}\n|\n|\nRule notes\nMajor Rakal's Dilemma Facts\n"
        "If you wish to nullify it, you must do so before making your choice.\n"
    )
    document = read_text(page)
    (entry,) = document.entries
    assert entry.title == "Pla-Net"
    assert entry.text == "If you wish to nullify it, you must do so before making your choice."
    assert any(w.doubt and "game text of 'Pla-Net'" in w.message for w in document.warnings)


INGEST = Path(__file__).parent


@pytest.mark.parametrize(
    "page",
    [
        "fresh136/1e-card-page-prepare-assault-teams-rule-notes-stccgfaq-687.txt",
        "fresh139/1e-card-page-chula-the-abyss-dilemma-facts-rule-notes-stccgfaq-1159.txt",
        "fresh140/1e-card-page-in-the-zone-rule-notes-table-stccgfaq-2072.txt",
        "fresh146/1e-card-page-spacedock-rule-notes-stccgfaq-event-278.txt",
    ],
)
def test_rule_notes_end_at_their_source_line_which_heads_no_entry(page):
    # "Taken from: Rulebook Glossary (08/2002)" names the rulings' source: it was a doubt
    # ("looks like a title") that blocked a right read, and the site's "map" link after it
    # was read as the ruling's last words (the page "looks cut off")
    document = read_text((INGEST / page).read_text(encoding="utf-8"), Path(page).name)
    (entry,) = document.entries
    assert entry.text.endswith("Taken from: Rulebook Glossary (08/2002)")
    assert not [w for w in document.warnings if w.doubt]
    assert not [w for w in document.warnings if "cut off" in w.message]


def test_rulings_of_another_source_after_a_source_line_go_on():
    page = (
        "|\nQ-Card Typ: Dilemma; Points: -5\n"
        f"{_card('Pla-Net')}\n|\n|\nRule notes\nMajor Rakal's Dilemma Facts\n"
        "If you wish to nullify it, you must do so before making your choice.\n"
        "Taken from: Dilemma Resolution Guide\nOfficial Rulings:\n"
        "You may not nullify it once you have chosen.\nTaken from: Rulebook Glossary\nmap\n"
    )
    document = read_text(page)
    (entry,) = document.entries
    assert entry.text.split("\n\n") == [
        "If you wish to nullify it, you must do so before making your choice.",
        "Taken from: Dilemma Resolution Guide",
        "Official Rulings:",
        "You may not nullify it once you have chosen.",
        "Taken from: Rulebook Glossary",
    ]


def _card_2e(title: str) -> str:
    cards = load_card_index(default_data_dir() / "cards" / "2e.yaml")
    text = next(card.text for card in cards if card.title == title)
    return text.replace("{", "").replace("}", "").replace("[Rom]", "Romulan")


def _page_of_2e_card(lines: str) -> str:
    return (
        "Preventative Ritual | openCards\n\nYou are here\n\nPreventative Ritual\n\n"
        f"    Interrupt Interrupt\n{lines}\n"
        '    "How long?"\n    "A matter of hours now."\n\n'
        "    Characteristics: manipulate opponent's deck.\n\n"
        "    This Card-Review article was written by a player and was first published on a "
        "fan site. Everyone knows the trick of scoring points when an opponent's deck is "
        "stacked; this interrupt lets you stack it yourself.\n"
    )


def test_a_line_of_a_cards_game_text_heads_no_entry():
    # a 2E card's page with no rule notes: its text prints a keyword over a dash
    text = _card_2e("Preventative Ritual")
    assert " Order - " in f" {text}"
    first, order = text.split(" Order - ", 1)
    page = _page_of_2e_card(f"    {first}\n    Order - {order}\n")
    with pytest.raises(UnknownShape) as refused:
        read_text(page)
    assert "Order" not in str(refused.value).split("Its first lines:")[1]


def test_a_term_that_opens_a_cards_text_still_heads_its_own_entry():
    # the same head over a rule's own words, not the card's, is read (with its doubt)
    page = _page_of_2e_card(
        "    Order - An order is an action a player may take only during the order phase of "
        "their own turn, unless a card says otherwise.\n"
    )
    assert [e.title for e in read_text(page).entries] == ["Order"]


QUOTED = (
    "Receptacle Stones | openCards\n\nYou are here\n\nReceptacle Stones\n\n"
    "    Artifact Artifact\n\n    Place in hand until played as an Event card on the crew of "
    "an opponent's ship.\n\n    This card has an clarification:\n\n    Apply the dilemma first "
    "to your own ship, then to the opponent's ship.\n\n    Taken form Glossary - Version "
    "1.9.5.\n\n    Receptacle Stones\n\n    This Card-Review article was written by openCards "
    "user Decipher-Games at Jan 2nd, 2008.\n\n    Quote from {source}:\n\n    If this card is "
    "used, the player whose turn it is will be affected first.\n"
)


def test_a_rules_documents_words_quoted_on_a_card_page_are_the_cards_next_ruling():
    document = read_text(QUOTED.format(source="Alternate Universe Rulesheet"))
    assert [e.title for e in document.entries] == ["Receptacle Stones", "Receptacle Stones"]
    quote = document.entries[1]
    assert quote.text == "If this card is used, the player whose turn it is will be affected first."
    assert any(
        not w.doubt and "quotes 'Alternate Universe Rulesheet'" in w.message
        for w in document.warnings
    )
    assert not any(w.doubt for w in document.warnings)


def test_a_quote_of_a_person_on_a_card_page_is_no_ruling():
    document = read_text(QUOTED.format(source="Jaffer"))
    assert [e.title for e in document.entries] == ["Receptacle Stones"]


def test_a_quote_over_several_paragraphs_is_a_doubt_where_it_ends():
    page = QUOTED.format(source="Alternate Universe Rulesheet") + (
        "\n    I always play this with a big dilemma pile, and it never lets me down.\n"
    )
    document = read_text(page)
    quote = document.entries[1]
    assert any(
        w.doubt and w.line == quote.line and "runs over 2 paragraphs" in w.message
        for w in document.warnings
    )


POCKETWATCH = "Samuel Clemens' Pocketwatch"


def _unlabelled_page(after_text: str) -> str:
    # openCards' "RR #26" page: the card's title, lore, data and game text, then its
    # Glossary clarification with no label over it
    return (
        "RR #26: Samuel Clemens' Pocketwatch\n\nSamuel Clemens' Pocketwatch\n\n"
        "This 19th century watch was discovered in a cave along with Data's head.\n\n"
        f"Special icons: Alternate Universe\n\n{_card(POCKETWATCH)}\n\n"
        f"{after_text}\n"
    )


RULE = (
    "This artifact allows you to perform now one action which must happen on your next "
    "turn. It does not allow you to perform an optional action, such as playing a card."
)


def test_a_ruling_under_a_cards_game_text_with_no_label_is_read_with_a_doubt():
    document = read_text(_unlabelled_page(RULE))
    (entry,) = document.entries
    assert entry.title == "Samuel Clemens' Pocketwatch"
    assert entry.text == RULE
    assert any(
        w.doubt and w.line == entry.line and "no label on the page marks" in w.message
        for w in document.warnings
    )


def test_a_ruling_under_the_data_printed_below_the_game_text_is_read_with_a_doubt():
    # openCards' mission page prints the card's characteristics between its game text and
    # the Glossary's clarification ("Characteristics: Alpha Quadrant Mission.")
    page = _unlabelled_page(f"Characteristics: Artifact.\n\n{RULE}")
    (entry,) = read_text(page).entries
    assert (entry.title, entry.text) == (POCKETWATCH, RULE)


def test_a_paragraph_naming_another_card_type_under_the_game_text_is_no_ruling():
    with pytest.raises(UnknownShape):
        read_text(_unlabelled_page(RULE.replace("This artifact", "This doorway")))


def test_a_review_under_a_cards_game_text_is_no_ruling():
    review = "This artifact is one of my favourite cards, and I play it in every deck I own."
    with pytest.raises(UnknownShape):
        read_text(_unlabelled_page(review))


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_the_card_lists_read_as_text_match_the_yaml_parse(edition):
    # the reader reads the shipped lists with a pattern (YAML's parser costs half a second in
    # each upload's worker): it must read every card's title, type and text as YAML does
    path = default_data_dir() / "cards" / f"{edition}.yaml"
    parsed = [(c.title, c.type or "", c.text or "") for c in load_card_index(path)]
    assert card_records(path.read_text(encoding="utf-8")) == parsed


def test_a_2e_card_page_with_its_cost_and_an_erratum_on_the_announcing_line():
    # the 2E card's cost before its name; its text opens with a keyword the project knows as
    # a topic ("Consume: 2."); the erratum printed on the line that announces it
    page = (
        "Tragic Turn, Mark II | openCards\n\nYou are here\n\nTragic Turn, Mark II\n\n"
        "    (3) Tragic Turn\n\n    Dual Dual Dilemma\n\n"
        "    Consume: 2. Place this dilemma on this mission (limit one per mission).\n\n"
        '    This card has an erratum: Game text before errata: "Consume: 2. When a personnel '
        'at this mission is stopped by another dilemma, randomly select one to be stopped."\n\n'
        "    Taken form Current Errata 2015-04-06.\n\n"
        "    Card logging info: Logged by openCards team at Jan 1st, 2008.\n"
    )
    document = read_text(page)
    (entry,) = document.entries
    assert entry.title == "Tragic Turn"
    assert entry.text.startswith('Game text before errata: "Consume: 2.')


@pytest.mark.parametrize(
    ("page", "title"),
    [
        # its erratum and its clarification, under the card's type line
        ("fresh143/1e-card-page-colony-erratum-clarification-opencards-card-499.txt", "Colony"),
        ("fresh142/1e-card-page-the-sheliak-clarification-opencards-card-590.txt", "The Sheliak"),
    ],
)
def test_a_cards_page_of_several_rulings_is_titled_by_the_card_as_a_page_of_one_is(page, title):
    # The Colony page's document was titled "Neutral Neutral icon  Facility Facility -
    # Station" (the card's type line, the heading above its first entry): the title a
    # moderator's preview showed, and the document's id was made of.
    path = Path(__file__).parent / page
    document = read_text(path.read_text(encoding="utf-8"), path.name)
    assert {e.title for e in document.entries} == {title}
    assert document.metadata.title == title


def test_a_cards_name_ending_the_lores_wrapped_sentence_titles_no_page():
    # Hippocratic Oath's page, its title line lost, copied with its lines wrapped and no
    # blank lines (a PDF viewer's copy): the lore's sentence ends on another card's name
    # ("…addiction to the drug" / "Ketracel-White."), and the page was read as that
    # card's, with no doubt
    page = (
        Path(__file__).parent
        / "fresh37"
        / "1e-card-page-hippocratic-oath-no-title-opencards-node.txt"
    )
    copy = copies.COPIES["viewer-copied"](page.read_text(encoding="utf-8"))
    assert "\nKetracel-White.\n" in copy
    try:
        titles = [entry.title for entry in read_text(copy).entries]
    except UnknownShape:
        titles = []
    assert not {"Ketracel-White.", "Ketracel-White"} & set(titles)

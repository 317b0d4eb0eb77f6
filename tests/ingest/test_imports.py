"""The import preview (bot/answers/imports.py): the same enrichment as bundled imports, the
metadata rules, and the word diff. Previews write nothing, so the session's store serves."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.answers.imports import first_words, word_diff
from bot.answers.moderation import ModerationError

CORPUS = Path(__file__).parent / "corpus"


def test_imported_entries_get_card_mentions_kinds_and_cross_references(rulings):
    content = (CORPUS / "1e-glossary-html-yumpu-p22.txt").read_bytes()
    preview = rulings.preview_import(content, "p22.txt", edition="1E")
    entries = {e["title"]: e for e in preview.entries}
    dathon = entries["Dathon"]
    assert dathon["kind"] == "card ruling"  # titled with a 1E card's name
    cards = {m["name"]: m["card_ids"] for m in dathon["mentions"] if m["type"] == "card"}
    assert cards["Shaka, When the Walls Fell"] == ["1e-shaka-when-the-walls-fell"]
    assert {"type": "term", "name": "the matching commander", "topic": "1e-matching-commander"} in (
        dathon["mentions"]
    )
    assert entries["deactivated"]["kind"] == "rule"
    assert entries["deactivated"]["see_also"] == [
        {"title": "holographic personnel and equipment", "topic": None}
    ]
    assert preview.document["kind"] == "glossary" and preview.document["date"] is None
    assert preview.document["title"] == "Star Trek™ Customizable Card Game™ GLOSSARY"


def test_applicable_cards_become_mentions(rulings):
    page = (
        "Bynars' Weapon\n\n"
        "Bynars' Weapon can be used on a ship that is not in combat.\n\n"
        "Applicable Cards:\nBynars' Weapon\nNot A Card At All\n"
    )
    preview = rulings.preview_import(page.encode(), "ruling.txt", edition="2E")
    (entry,) = preview.entries
    assert preview.document["shape"] == "single-ruling-page"
    names = {m["name"]: m["card_ids"] for m in entry["mentions"]}
    assert names["Not A Card At All"] == []  # listed, so kept, though no card has that name
    assert "Bynars' Weapon" in names


def test_a_printed_edition_wins_over_a_contradicting_option(rulings):
    content = (CORPUS / "2e-rulings-feed-trekcc-2016-2017.txt").read_bytes()
    preview = rulings.preview_import(content, "feed.txt", edition="1E")
    assert preview.document["edition"] == "2E"
    assert preview.warnings[0] == {
        "line": 0,
        "message": "the document prints edition 2E; 1E as given was not used",
    }


FAQ_CITING_THE_RULEBOOK = (
    "FAQs\n\n"
    "Q: RUNNING OUT -- What happens if you run out of cards to draw?\n\n"
    "A: See page 2 of the Rulebook: the game ends as soon as a draw deck runs out.\n"
)


def test_a_kind_a_word_of_the_text_suggests_yields_to_the_shape_and_the_option(rulings):
    # an FAQ page whose answer cites "the Rulebook" was imported as a rulebook, and a
    # moderator's --kind could not change it ("the document prints kind rulebook")
    content = FAQ_CITING_THE_RULEBOOK.encode()
    preview = rulings.preview_import(content, "faq.txt", edition="1E")
    assert preview.document["shape"] == "faq" and preview.document["kind"] == "faq"
    given = rulings.preview_import(content, "faq.txt", edition="1E", kind="community copy")
    assert given.document["kind"] == "community copy"
    assert not [w for w in given.warnings if "kind" in w["message"]]


def test_a_card_databases_page_is_a_community_copy_of_the_documents_it_quotes(rulings):
    # openCards' Colony page, copied without the site's name, quotes "Taken form Current
    # Rulings 2016-10-03": it was previewed as an official Current Rulings document.
    page = (
        CORPUS.parent
        / "fresh143"
        / "1e-card-page-colony-erratum-clarification-opencards-card-499.txt"
    )
    preview = rulings.preview_import(page.read_bytes(), page.name, edition="1E")
    assert preview.document["kind"] == "community copy"
    assert preview.document["official"] is False
    assert preview.document["title"] == "Colony"
    given = rulings.preview_import(page.read_bytes(), page.name, edition="1E", kind="glossary")
    assert given.document["kind"] == "glossary"  # the moderator's word wins over the shape's


def test_a_kind_the_title_names_wins_over_a_contradicting_option(rulings):
    page = "Current Rulings\n\n" + FAQ_CITING_THE_RULEBOOK
    preview = rulings.preview_import(page.encode(), "faq.txt", edition="1E", kind="faq")
    assert preview.document["kind"] == "current rulings"
    assert {
        "line": 0,
        "message": "the document prints kind current rulings; faq as given was not used",
    } in preview.warnings


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"edition": "3E"}, "Edition must be 1E or 2E."),
        ({"edition": "2E", "date": "2014-13-01"}, "'2014-13-01' is not a real date."),
        ({"edition": "2E", "kind": "newsletter"}, "Document kind must be one of"),
    ],
)
def test_options_are_validated_by_the_one_validator(rulings, options, message):
    page = b"Alien Parasites\n\nA different text about the parasites, long enough.\n"
    with pytest.raises(ModerationError, match=message):
        rulings.preview_import(page, "a.txt", **options)


def test_word_diff_marks_the_words_that_change():
    before = "You may not use this event for a download at the end of your first turn."
    after = "You may not use this event for a card draw at the end of your first turn."
    assert word_diff(before, after) == (
        "You may not use this event for a [-download-] {+card draw+} at the end of your first turn."
    )
    long = " ".join(f"w{n}" for n in range(30))
    assert word_diff(long, long.replace("w15", "x15")) == (
        "… w11 w12 w13 w14 [-w15-] {+x15+} w16 w17 w18 w19 …"
    )
    assert word_diff("one two", "one two three") == "one two {+three+}"
    assert word_diff("same", "same") == "same"


def test_first_words():
    assert first_words("one two three", 2) == "one two …"
    assert first_words("one two", 2) == "one two"

"""Issue 38: a refused page lists every line that opens like an entry, in the forms rules
documents title their entries, so that a new document of titles the project does not know
yet (a new card's ruling, a new term) is a few chosen lines from an import. Listing reads
nothing as an entry: the page stays refused until a moderator names its heads."""

from __future__ import annotations

import pytest

from bot.ingest.reader import UnknownShape, read_document, read_text
from bot.ingest.reader.listing import HEADS_LISTED, HEADS_OFFERED, possible_heads

# Titles no card list or topic holds, each in one of the forms a rules document uses.
NEW_TERMS = """Rules changes, part two

warp bubble
A ship in a warp bubble may not be targeted by other ships this turn.

Quantum Tether: Replace this entry with the following: a tethered ship stays where it is.

12) shroud field: Add the following after the first paragraph: the field ends at dusk.

holo-anchor Replace this entry with the following: an anchor holds one hologram in play.

Gravity Lattice	A lattice is placed on a planet and stays until it is destroyed.
"""


def test_unknown_titles_are_listed_in_every_form_a_rules_document_prints():
    with pytest.raises(UnknownShape) as refused:
        read_text(NEW_TERMS)
    assert refused.value.heads == [
        (3, "warp bubble"),
        (6, "Quantum Tether"),
        (8, "shroud field"),
        (10, "holo-anchor"),
        (12, "Gravity Lattice"),
    ]


def test_named_as_listed_each_entry_is_read_under_its_title():
    with pytest.raises(UnknownShape) as refused:
        read_text(NEW_TERMS)
    document = read_document(NEW_TERMS.encode(), "changes.txt", heads=dict(refused.value.heads))
    assert [(e.title, e.text.split()[0]) for e in document.entries] == [
        ("warp bubble", "A"),
        ("Quantum Tether", "Replace"),
        ("shroud field", "Add"),
        ("holo-anchor", "Replace"),
        ("Gravity Lattice", "A"),
    ]


def test_labels_sentences_and_a_lines_middle_are_not_listed():
    page = (
        "This is an article about the game, written for the club's newsletter.\n\n"
        "Note: this page is a discussion of play, not a rules document at all.\n\n"
        "For example: a player who draws two cards may discard one of them later.\n\n"
        "We played at the regional. It was great, and after it: we went home happy.\n"
        "Everyone went home by eight; later: nobody had anything else to say about it.\n"
    )
    assert possible_heads(page) == []


def test_a_refusal_says_the_first_lines_and_counts_the_rest_which_the_draft_offers():
    terms = "".join(f"Made Term {n}: A made ruling of the term number {n}.\n\n" for n in range(60))
    page = "A page of new terms\n\n" + terms
    with pytest.raises(UnknownShape) as refused:
        read_text(page)
    assert len(refused.value.heads) == HEADS_OFFERED
    message = str(refused.value)
    assert message.count("\n  line ") == HEADS_LISTED
    assert (
        f"… and {HEADS_OFFERED - HEADS_LISTED} more (the corrections draft offers each)" in message
    )


def test_titles_whose_bold_face_was_lost_are_listed_and_come_apart_when_named():
    page = (
        "Rules changes, part three\n\n"
        "stasis lock There are two ways to end a stasis lock on a ship.\n\n"
        "Temporal Drift It is placed on a mission and moves one space each turn.\n\n"
        "Orbital Bazaar Seeds or plays on Earth, as the card says.\n"
    )
    with pytest.raises(UnknownShape) as refused:
        read_text(page)
    # the third names no sentence's opening word after its title: where it ends is not seen
    assert refused.value.heads == [(3, "stasis lock"), (5, "Temporal Drift")]
    document = read_document(page.encode(), "changes.txt", heads=dict(refused.value.heads))
    assert [(e.title, e.text.split(".")[0]) for e in document.entries] == [
        ("stasis lock", "There are two ways to end a stasis lock on a ship"),
        ("Temporal Drift", "It is placed on a mission and moves one space each turn"),
    ]


def test_a_page_of_one_ruling_under_a_title_nobody_knows_lists_its_first_line():
    # The page's first line is listed only where nothing else is: a page's own title above
    # its entries is no entry, but a single ruling's page opens with the ruling's title.
    # The instruction under it is no title run into its text.
    page = (
        "Tethered Shuttlecraft\n\n\n"
        "replace the first sentence of the final paragraph with the following:\n\n"
        "A tethered shuttlecraft moves with its ship and may not be targeted on its own.\n"
    )
    with pytest.raises(UnknownShape) as refused:
        read_text(page)
    assert refused.value.heads == [(1, "Tethered Shuttlecraft")]
    document = read_document(page.encode(), "ruling.txt", heads=dict(refused.value.heads))
    assert [e.title for e in document.entries] == ["Tethered Shuttlecraft"]
    with pytest.raises(UnknownShape) as titled:
        read_text(NEW_TERMS)
    assert (1, "Rules changes, part two") not in titled.value.heads


def test_a_table_rows_first_cell_is_listed_whole_dash_and_all():
    # As a text copy (tabs) and as a saved page's or a Markdown table prints the row.
    rows = (
        "tether field - example\tA tether field is placed beside the ship it holds in orbit.\n\n"
        "| drift beacon - note | A beacon moves one space at the end of each turn. |\n"
    )
    with pytest.raises(UnknownShape) as refused:
        read_text("A table of new terms\n\n" + rows)
    assert refused.value.heads == [(3, "tether field - example"), (5, "drift beacon - note")]
    named = read_document(
        ("A table of new terms\n\n" + rows).encode(), "t.txt", heads=dict(refused.value.heads)
    )
    assert [(e.title, e.text) for e in named.entries] == [
        ("tether field - example", "A tether field is placed beside the ship it holds in orbit."),
        ("drift beacon - note", "A beacon moves one space at the end of each turn."),
    ]

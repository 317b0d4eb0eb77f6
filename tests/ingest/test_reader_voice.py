"""Issue 38: a page in a rulings page's form whose text speaks as "I" (a deck report, a
card review, a top-ten list) is a person's commentary, refused; rulings never say "I",
though an FAQ's questions may."""

from __future__ import annotations

import pytest

from bot.ingest.reader import UnknownShape, read_text

DECK_REPORT = """My Federation Deck for the Regionals

Here is the deck I took to the regionals last weekend, and a few words on each card.

Jean-Luc Picard – He is the heart of the deck, and I always want him out by turn two.

Data – I love his skills, and he never fails to solve a mission when it counts in a game.

Wormhole – The best way along the spaceline for this deck, cheap and fast every turn.

Red Alert – Lets me get everything out fast, which my opponents always hated at the tables.
"""


def test_cards_titled_over_a_players_comments_are_refused_as_commentary():
    # Known card titles, each over a "– text" paragraph: the form of a rulings page, but the
    # text speaks as "I", as rulings never do
    with pytest.raises(UnknownShape, match="speaks in the first person"):
        read_text(DECK_REPORT)


def test_the_same_cards_over_rulings_are_read():
    rulings = (
        DECK_REPORT.replace("He is the heart of the deck, and I always want him out", "He may")
        .replace("I love his skills, and he never fails", "His skills may be used")
        .replace("Lets me get everything out fast, which my opponents", "Allows reporting; players")
    )
    assert [e.title for e in read_text(rulings).entries] == [
        "Jean-Luc Picard",
        "Data",
        "Wormhole",
        "Red Alert",
    ]


def test_an_faqs_questions_may_say_i():
    faq = """Frequently Asked Questions

Q: Red Alert – Can I report my ships and personnel for free while it is in play? A: Yes, you may report them for free.

Q: Data – May I use his skills while he is stopped? A: No. A stopped personnel's skills may not be used.
"""
    assert len(read_text(faq).entries) == 2

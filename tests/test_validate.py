"""The one validator: an edition named in a query's words."""

import pytest

from bot.validate import edition_named_at_edge


@pytest.mark.parametrize(
    ("query", "named", "rest"),
    [
        ("2E building a deck", "2E", "building a deck"),
        ("matching commander in 1E", "1E", "matching commander"),
        ("seed phase (first edition)", "1E", "seed phase"),
        ("Second Edition: cost", "2E", "cost"),
        ("2nd ed. seed phase", "2E", "seed phase"),
        ("KTC 2e", "2E", "KTC"),
    ],
)
def test_an_edition_named_at_a_query_s_start_or_end_is_that_edition(query, named, rest):
    assert edition_named_at_edge(query) == (named, rest)


@pytest.mark.parametrize(
    "query",
    [
        "My crew was stopped by a dilemma. Can I beam another crew over, or is that a 2E thing?",
        "2e-crd-2014-07-07:attempting-missions",  # an entry id, not an edition and words
        "1E vs 2E",  # both named: neither is chosen
        "how do 1E and 2E differ",
        "Kira Nerys 2E card",
    ],
)
def test_an_edition_named_inside_or_both_named_is_left_as_words(query):
    assert edition_named_at_edge(query) == (None, query)

"""The fitted ranking and the confidence's features: signals, the fit, the shipped parameters
(pure, no store)."""

import pytest

from bot.normalize import slugify
from bot.search import confidence, ranking
from bot.search.hits import Target
from bot.search.index import SearchIndex
from bot.search.likeness import misspelt_name
from bot.search.names import MENTION, TITLE
from tests.search.helpers import titled_index_with_passages


def _signals(**overrides):
    values = dict(
        prior=0.5, name=0.5, exact=False, cover=0.5, whole=0.5, support=0.3,
        best_support=0.6, content_words=4, edition_fit=0.0, example=False, via="typo",
    )  # fmt: skip
    values.update(overrides)
    return ranking.signals(**values)


def test_signals_follow_the_declared_order():
    values = _signals(support=0.3, best_support=0.6, via="alias", example=True)
    named = dict(zip(ranking.SIGNALS, values, strict=True))
    assert named["bias"] == 1.0 and named["support_rel"] == 0.5
    assert named["via_alias"] == 1.0 and named["via_typo"] == 0.0 and named["example"] == 1.0
    assert named["both"] == 0.25


def test_the_fit_ranks_the_answering_candidate_first():
    groups = []
    for i in range(30):
        right = _signals(support=0.5 + (i % 5) / 20, best_support=0.8)
        wrong = _signals(support=0.1 + (i % 3) / 20, best_support=0.8, name=0.9)
        groups.append([(right, True), (wrong, False)])
    model = ranking.fit(groups)
    unseen_right = _signals(support=0.55, best_support=0.8)
    unseen_wrong = _signals(support=0.15, best_support=0.8, name=0.9)
    assert model.probability(unseen_right) > model.probability(unseen_wrong)


def test_a_fit_needs_an_answer_among_the_candidates():
    with pytest.raises(ValueError):
        ranking.fit([[(_signals(), False)]])


def test_parameters_round_trip_and_the_shipped_file_names_every_signal(tmp_path):
    model = ranking.Ranker(tuple(float(i) for i in range(len(ranking.SIGNALS))))
    path = tmp_path / "ranking.json"
    ranking.save(model, path)
    assert ranking.load(path) == model
    shipped = ranking.load()
    assert shipped is not None and len(shipped.weights) == len(ranking.SIGNALS)
    assert ranking.load(tmp_path / "missing.json") is None


def _mentioning_index(title: str, mentioned: str, other: str) -> SearchIndex:
    """Two 1E rules found by their titles; the first one's text mentions a card."""
    index = SearchIndex(
        [
            Target(f"1e-{slugify(title)}", "e1", title, "1E", "rule", "CRD", None),
            Target(f"1e-{slugify(other)}", "e2", other, "1E", "rule", "CRD", None),
        ]
    )
    index.catalog.names.add_name(title, 0, TITLE)
    index.catalog.names.add_name(mentioned, 0, MENTION)
    index.catalog.names.add_name(other, 1, TITLE)
    index.catalog.finish()
    return index


def test_a_name_its_text_only_mentions_is_flagged_even_when_matched_in_part():
    # "Alternate Universe Door" is a card the time-location ruling mentions in passing: a
    # question naming it is not about that ruling, and a partial match (labelled "typo")
    # used to hide that the name was only a mention.
    index = _mentioning_index("time location", "Alternate Universe Door", "doorway")
    hits = {h.target.topic: h for h in index.search("Do I need an Alternate Universe Door").hits}
    assert hits["1e-time-location"].mention
    assert not index.search("doorway").hits[0].mention
    named = dict(zip(ranking.SIGNALS, _signals(mention=True), strict=True))
    assert named["mention_name"] == 1.0


def test_a_mentioned_name_matched_loosely_counts_for_less_than_one_matched_as_typed():
    # The missions attempt rule lists the card Assimilate Planet among examples: a query
    # holding part of the name matched that mention like a typo and answered with the rule,
    # as though the name had been typed.
    index = _mentioning_index("missions attempt", "Assimilate Planet", "doorway")

    def mention_score(query: str) -> float:
        hit = next(h for h in index.search(query).hits if h.target.topic == "1e-missions-attempt")
        assert hit.mention and hit.via == ("mentioned" if query == "Assimilate Planet" else "typo")
        return hit.name_score

    typed, loose = mention_score("Assimilate Planet"), mention_score("assimilate")
    assert loose < 0.5 * typed


def test_a_mentioned_name_is_nearly_the_whole_query_only_when_misspelt_as_a_whole():
    # "planet to assimilate" holds Assimilate Planet's words, but is not that card's name,
    # misspelt or not: the mention must not count as (nearly) the name typed.
    index = _mentioning_index("missions attempt", "Assimilate Planet", "doorway")
    exact = confidence.FEATURES.index("exact")

    def nearly(query: str) -> float:
        result = index.search(query)
        assert result.hits[0].target.topic == "1e-missions-attempt" and result.hits[0].mention
        return result.features[exact]

    assert nearly("planet to assimilate") == 0.0
    assert nearly("Assimilate Planit") > 0.0
    assert misspelt_name("assimilate planit", "assimilate planet") > 0.9
    assert misspelt_name("assimilation planet", "assimilate planet") == 0.0


def test_a_mentioned_name_matched_through_a_misspelt_word_is_not_offered():
    # "Mordiuq" is no card a rule mentions: its one word is only alike to Mordock's.
    index = _mentioning_index("missions attempt", "Mordock", "doorway")
    assert [h.target.topic for h in index.search("Mordiuq").hits] == []
    # One slip from the whole name is the name misspelt, and leads to the rule naming it.
    assert index.search("Mordoik").hits[0].target.topic == "1e-missions-attempt"
    assert index.search("Mordock").hits[0].mention  # typed as written, the mention stands
    # Part of a mentioned name typed as written still leads to the rule that mentions it.
    index = _mentioning_index("romantic partner", "Quark, Son of Keldar", "doorway")
    assert index.search("Pel and Quark").hits[0].target.topic == "1e-romantic-partner"


def test_a_title_only_entry_is_never_offered_even_for_its_title():
    # Its text is lost: an answer would be empty (the Glossary's "Mission Debriefing" was a
    # confident one). A rule that mentions the same name is still found by it.
    index = SearchIndex(
        [
            Target("1e-mordock", "e1", "Mordock", "1E", "rule", "Glossary", None, True),
            Target("1e-missions-attempt", "e2", "missions attempt", "1E", "rule", "CRD", None),
        ]
    )
    index.catalog.names.add_name("Mordock", 0, TITLE)
    index.catalog.names.add_name("missions attempt", 1, TITLE)
    index.catalog.names.add_name("Mordock", 1, MENTION)
    index.catalog.finish()
    for query in ("Mordock", "Mordok", "mission attempt mordok rules"):
        assert "1e-mordock" not in [h.target.topic for h in index.search(query).hits], query
    assert index.search("Mordock").hits[0].target.topic == "1e-missions-attempt"


def test_confidence_features_are_given_by_name_in_the_declared_order():
    row = confidence.feature_row(support=0.4, sentences=1.5, via_card=1.0)
    named = dict(zip(confidence.FEATURES, row, strict=True))
    assert named["bias"] == 1.0 and named["support"] == 0.4 and named["sentences"] == 1.5
    assert named["via_card"] == 1.0 and sum(row) == 1.0 + 0.4 + 1.5 + 1.0
    with pytest.raises(ValueError, match="suport"):
        confidence.feature_row(suport=0.4)  # a misspelt name is an error, not a silent 0


def test_an_edition_asked_for_fits_its_answers_wholly_else_the_words_lean():
    assert confidence.edition_fit("2E", "2E", lean=0.9) == 1.0  # 1E-leaning words, 2E asked
    assert confidence.edition_fit("1E", None, lean=0.4) == 0.4
    assert confidence.edition_fit("2E", None, lean=0.4) == -0.4


def test_offers_kept_for_an_evaluation_answer_as_offers_made_anew():
    # `rulings eval` asks every question again under each fold's ranking: the offers are
    # kept meanwhile, and a kept offer ranks as one made anew, however the last was ranked
    texts = {
        "Away Team": "An Away Team is formed by personnel beaming to a planet.",
        "Beam": "Beaming moves personnel between ships, facilities and planets.",
    }
    fresh = titled_index_with_passages(texts)
    kept = titled_index_with_passages(texts)
    kept.remember_offers(True)

    def seen(result):
        return [(h.target.topic, h.score, h.via, h.signals) for h in result.hits]

    query = "beaming personnel to a planet"
    for _ in range(2):  # offered anew, then kept
        for hit in kept.search(query).hits:  # what a caller does with its answers
            hit.score, hit.signals = -1.0, None
    assert seen(kept.search(query)) == seen(fresh.search(query)) != []
    kept.remember_offers(False)
    assert seen(kept.search(query)) == seen(fresh.search(query))

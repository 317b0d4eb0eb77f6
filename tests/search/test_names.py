"""Name matching: misspelt plurals, and a query naming two rulings by their titles."""

from bot.normalize import normalize, unfolded
from bot.search.confidence import TWO_TITLES
from bot.search.index import TITLE, SearchIndex, Target


def test_a_folded_word_unfolds_to_the_plurals_that_fold_to_it():
    assert normalize("species") == "specy"  # plurals fold on both sides of a comparison
    assert "species" in unfolded("specy")
    assert unfolded("mission") == ("mission", "missions")
    assert "boxes" in unfolded("box")
    assert all(normalize(form) == "dilemma" for form in unfolded("dilemma"))


def _index(*titles: str) -> SearchIndex:
    targets = [
        Target(f"1e-{i}", f"1e-{i}", title, "1E", "rule", "Glossary", None)
        for i, title in enumerate(titles)
    ]
    index = SearchIndex(targets)
    for i, title in enumerate(titles):
        index.add_name(title, i, TITLE)
    index.finish()
    return index


def test_a_misspelt_plural_title_is_found_by_its_name():
    index = _index("species", "special equipment")
    # "speceis" is a typo of "species", far from its fold "specy": it was found by no name.
    top = index.search("speceis").hits[0]
    assert top.target.title == "species" and top.via == "typo"


def test_a_query_naming_two_rulings_by_their_whole_titles_is_marked():
    index = _index("Major Rakal", "dilemma resolution", "dilemma", "seed phase")
    two = index.search("Major Rakal's 5-Step guide to Dilemma resolution")
    assert two.features[TWO_TITLES] == 1.0
    # A one-word title alongside is too common to mean a second ruling ("dilemma"), and
    # a title inside the matched name is that name's own word.
    assert index.search("dilemma resolution").features[TWO_TITLES] == 0.0
    assert index.search("Major Rakal and the dilemma").features[TWO_TITLES] == 0.0

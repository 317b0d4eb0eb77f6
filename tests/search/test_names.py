"""Name matching: a misspelt plural is compared with the plural it misspells."""

from bot.normalize import normalize, unfolded
from bot.search.index import TITLE, SearchIndex, Target


def test_a_folded_word_unfolds_to_the_plurals_that_fold_to_it():
    assert normalize("species") == "specy"  # plurals fold on both sides of a comparison
    assert "species" in unfolded("specy")
    assert unfolded("mission") == ("mission", "missions")
    assert "boxes" in unfolded("box")
    assert all(normalize(form) == "dilemma" for form in unfolded("dilemma"))


def test_a_misspelt_plural_title_is_found_by_its_name():
    targets = [
        Target("1e-species", "1e-species", "species", "1E", "rule", "Glossary", None),
        Target("1e-special", "1e-special", "special equipment", "1E", "rule", "Glossary", None),
    ]
    index = SearchIndex(targets)
    for i, target in enumerate(targets):
        index.add_name(target.title, i, TITLE)
    index.finish()
    # "speceis" is a typo of "species", far from its fold "specy": it was found by no name.
    top = index.search("speceis").hits[0]
    assert top.target.topic == "1e-species" and top.via == "typo"

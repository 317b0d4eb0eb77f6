"""Small in-memory indexes for the search tests (no store)."""

from bot.search.index import TITLE, SearchIndex, Target


def titled_index(*titles: str, kind: str = "rule", source: str = "Glossary") -> SearchIndex:
    """An index of 1E targets ``1e-0``, ``1e-1`` ... each found by its title."""
    targets = [
        Target(f"1e-{i}", f"1e-{i}", title, "1E", kind, source, None)
        for i, title in enumerate(titles)
    ]
    index = SearchIndex(targets)
    for i, title in enumerate(titles):
        index.add_name(title, i, TITLE)
    index.finish()
    return index

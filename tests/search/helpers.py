"""Small in-memory indexes for the search tests (no store)."""

from bot.search.index import TITLE, SearchIndex, Target


def titled_index(*titles: str, kind: str = "rule", source: str = "Glossary") -> SearchIndex:
    """An index of 1E targets ``1e-0``, ``1e-1`` ... each found by its title."""
    return index_of(
        [
            Target(f"1e-{i}", f"1e-{i}", title, "1E", kind, source, None)
            for i, title in enumerate(titles)
        ]
    )


def index_of(targets: list[Target]) -> SearchIndex:
    """An index of these targets, each found by its title."""
    index = SearchIndex(targets)
    for i, target in enumerate(targets):
        index.add_name(target.title, i, TITLE)
    index.finish()
    return index

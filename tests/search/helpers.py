"""Small in-memory indexes for the search tests (no store)."""

from bot.search.hits import Target
from bot.search.index import SearchIndex
from bot.search.names import TITLE
from bot.search.passages import build_passage_index


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
        index.catalog.names.add_name(target.title, i, TITLE)
    index.catalog.finish()
    return index


def titled_index_with_passages(texts: dict[str, str]) -> SearchIndex:
    """:func:`titled_index` of these titles (the keys), each topic's text (the values) its
    passages, as the service's index has them."""
    index = titled_index(*texts)
    rows = {
        f"1e-{i}": [{"topic": f"1e-{i}", "id": f"1e-{i}:1", "text": text, "edition": "1E"}]
        for i, text in enumerate(texts.values())
    }
    index.passages = build_passage_index(rows, {f"1e-{i}": t for i, t in enumerate(texts)})
    return index

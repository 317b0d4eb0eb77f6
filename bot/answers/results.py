"""The ``rulings search --json`` shape, shared by every answer that lists search results."""

from __future__ import annotations

from typing import Any

from bot.search.index import SearchResult


def result_json(result: SearchResult) -> dict[str, Any]:
    """The ``rulings search --json`` shape of a search result."""
    return {
        "query": result.query,
        "confident": result.confident,
        "results": [
            {
                "id": h.target.entry,
                "title": h.target.title,
                "edition": h.target.edition,
                "kind": h.target.kind,
                "source": h.target.source,
                "date": h.target.date,
                "score": h.score,
            }
            for h in result.hits
        ],
    }

"""The ``rulings search --json`` shape, shared by every answer that lists search results."""

from __future__ import annotations

from typing import Any

from bot.search.hits import SearchResult, Target


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


def card_suggestion(card: Target) -> dict[str, Any]:
    """A card in the shape of a search result (its id opens the card)."""
    return {
        "id": card.entry,
        "title": card.title,
        "edition": card.edition,
        "kind": card.kind,
        "source": "card text",
        "date": None,
        "score": None,
    }


def passage_to_point_out(answer: dict[str, Any]) -> str | None:
    """The part of a ruling that answers the question, to show before the whole text; None
    when there is none or the rule as shown opens with it anyway (no need to say it twice)."""
    passage = (answer.get("passage") or {}).get("text")
    if not passage:
        return None
    shown = (answer.get("in_force") or {}).get("text") or answer.get("text") or ""
    return None if _flat(shown).startswith(_flat(passage)[:200]) else passage


def _flat(text: str) -> str:
    """Words only: Markdown emphasis and quote marks do not make two texts differ."""
    return " ".join(text.replace("*", "").replace(">", " ").split())

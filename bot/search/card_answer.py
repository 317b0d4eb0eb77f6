"""When a query names a card, the card is the answer.

A query that is a card's name (any of its printed forms, exactly) answers with the card —
its text, its own rulings and the rulings that mention it — unless the query is just as
exactly the title of a ruling that is not about that card: a card title never confidently
becomes a rules term it contains, and a rules term typed exactly stays the rules term.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from bot.normalize import normalize
from bot.search.index import SearchIndex, SearchResult, Target

EXACT_RULING = 0.98  # a ruling's title or alias typed exactly


@dataclass(slots=True)
class CardChoice:
    """The cards a query names exactly, the best first, and the features of that answer."""

    cards: list[Target]
    features: list[float]
    covers: dict[str, set[str]] = field(default_factory=dict)  # card id -> its rulings' topics


def named_cards(card_index: SearchIndex, query: str, edition: str | None) -> list[Target]:
    """The cards whose name, title or printed form is exactly the query."""
    return card_index.exact(query, edition=edition)


def choose(
    query: str,
    edition: str | None,
    rulings: SearchResult,
    cards: list[Target],
    covers: dict[str, set[str]],
    lean: float = 0.0,
) -> CardChoice | None:
    """The card answer for a query, or None when a ruling answers it instead."""
    if not cards:
        return None
    top = rulings.hits[0] if rulings.hits else None
    names = {normalize(c.title) for c in cards}
    if top is not None:
        about_card = normalize(top.target.title) in names or any(
            top.target.topic in covers.get(c.topic, ()) and top.via in ("title", "card name")
            for c in cards
        )
        if about_card:
            return None  # a ruling about this very card answers (with the card attached)
        if top.score >= EXACT_RULING and top.via in ("title", "alias"):
            return None  # the query is a rules term's own title
    # The card whose edition has rulings about it, then the edition the words lean to.
    ordered = sorted(
        cards,
        key=lambda c: (
            not covers.get(c.topic),
            c.edition != ("2E" if lean < 0 else "1E"),
            c.topic,
        ),
    )
    best = ordered[0]
    same_edition = sum(1 for c in ordered[1:] if c.edition == best.edition)
    other_edition = any(c.edition != best.edition for c in ordered[1:])
    words = len(normalize(query).split())
    rival = top.score if top is not None else 0.0
    features = [
        1.0,
        1.0,
        1.0 - rival,
        1.0,
        0.0,
        0.0,
        1.0,
        0.0,
        0.0,
        0.0,
        0.0,
        math.log1p(words),
        1.0,
        math.log1p(same_edition),
        float(other_edition and not edition),
        0.0,
        0.0,
        0.0,
        lean if best.edition == "1E" else -lean,
        1.0,
    ]
    return CardChoice(ordered, features)

"""Each card's rulings (:class:`CardCovers`): the topics about a card (their title names
it) and those whose text mentions it by a resolved card id. Built on first need, once per
generation of the data, then updated for the topics each change touches."""

from __future__ import annotations

import copy
import json
from typing import Any

from bot.search.build import CardNames
from bot.search.index import SearchIndex
from bot.store.build import Store
from bot.store.readers import ThreadReaders


class CardCovers:
    """Card id -> the topics that are its rulings, over one generation's rulings index."""

    def __init__(
        self,
        store: Store | ThreadReaders,
        index: SearchIndex,
        card_names: CardNames,
        held: tuple[dict[str, set[str]], dict[str, set[str]]] | None = None,
    ):
        """``held``: what :meth:`held` gave (a snapshot kept it); else built on first need."""
        self.store = store
        self.index = index
        self.card_names = card_names
        self._covers: dict[str, set[str]] | None = None  # card id -> topics (built on use)
        self._covered_by: dict[str, set[str]] = {}  # topic -> card ids, to update the above
        if held is not None:
            self._covers, self._covered_by = held

    def all(self) -> dict[str, set[str]]:
        """Each card's rulings: the topics about it and those that mention it (built once per
        data, then updated with the topics each change touches)."""
        if self._covers is None:
            covers: dict[str, set[str]] = {}
            covered_by: dict[str, set[str]] = {}
            for target in self.index.catalog.current_targets():
                for card_id in self._cards_about(target):
                    covers.setdefault(card_id, set()).add(target.topic)
                    covered_by.setdefault(target.topic, set()).add(card_id)
            for row in self.store.db.query(
                "SELECT topic, mentions FROM entries WHERE retired = 0 AND rank = 0 "
                "AND mentions LIKE '%card_ids%'"
            ):
                for card_id in _mentioned_cards(row):
                    covers.setdefault(card_id, set()).add(row["topic"])
                    covered_by.setdefault(row["topic"], set()).add(card_id)
            self._covers, self._covered_by = covers, covered_by
        return self._covers

    def held(self) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
        """Every card's rulings and every topic's cards, built now if they were not yet."""
        return self.all(), self._covered_by

    def _cards_about(self, target) -> list[str]:
        card_id = self.card_names.card_id(target.edition, target.title)
        return [card_id] if card_id else []

    def updated(self, store: Store, index: SearchIndex, topics: set[str]) -> CardCovers:
        """The next generation's (over ``index``): the touched topics' cards read again, the
        sets they left copied; this one is left as it was, for the answers reading it."""
        following = copy.copy(self)
        following.index = index
        if self._covers is None:
            return following
        covers, covered_by = dict(self._covers), dict(self._covered_by)
        for topic in topics:
            for card_id in covered_by.pop(topic, ()):
                covers[card_id] = covers[card_id] - {topic}
        marks = ", ".join("?" for _ in topics)
        for row in store.db.query(
            f"SELECT topic, title, edition, mentions FROM entries WHERE retired = 0 AND rank = 0 "
            f"AND topic IN ({marks})",
            sorted(topics),
        ):
            target = index.targets[index.by_topic[row["topic"]]]
            for card_id in [*self._cards_about(target), *_mentioned_cards(row)]:
                covers[card_id] = covers.get(card_id, set()) | {row["topic"]}
                covered_by[row["topic"]] = covered_by.get(row["topic"], set()) | {card_id}
        following._covers, following._covered_by = covers, covered_by
        return following


def _mentioned_cards(row: dict[str, Any]) -> list[str]:
    return [
        card_id
        for mention in json.loads(row["mentions"] or "[]")
        for card_id in mention.get("card_ids", [])
    ]

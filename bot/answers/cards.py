"""Cards as answers: a card's text, the rulings about it and those that mention it."""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from bot.answers.results import card_suggestion, result_json
from bot.normalize import lexicon, normalize
from bot.once import Once
from bot.search import card_answer
from bot.search.build import CardNames, build_card_index, build_card_names
from bot.search.index import SearchIndex
from bot.store.readers import ThreadReaders


class CardLookups:
    """The card side of one generation of the data."""

    def __init__(
        self,
        store: ThreadReaders,
        rulings_index: SearchIndex,
        card_names: CardNames | None = None,
        card_index: Once[SearchIndex] | None = None,
    ):
        """``card_names`` and ``card_index``: as a snapshot kept them (else built here)."""
        self.store = store
        self.rulings_index = rulings_index
        self.card_names: CardNames = card_names or build_card_names(store)
        # Built on first use (the CLI rarely needs it), once for every generation of the
        # rulings: the cards do not change.
        self.card_index: Once[SearchIndex] = card_index or Once(
            functools.partial(build_card_index, store)
        )

    def with_rulings_index(self, rulings_index: SearchIndex) -> CardLookups:
        """The same cards beside the next generation's rulings (cards do not change)."""
        following = copy.copy(self)
        following.rulings_index = rulings_index
        return following

    # ---------------------------------------------------------------- helpers
    def card_for(self, row: dict[str, Any]) -> dict[str, Any] | None:
        """The card a card ruling or clarification is about, if the title names one."""
        card_id = self.card_names.card_id(row["edition"], row["title"])
        card = self.store.card(card_id) if card_id else None
        if card is None:
            return None
        return {"id": card["id"], "name": card["name"], "type": card["type"], "text": card["text"]}

    def card_mentioned(
        self, row: dict[str, Any], matched: str | None, query_key: str = ""
    ) -> dict[str, Any] | None:
        """The card a query named when it found ``row`` through a card mentioned in its text
        (``Ptol cost`` finds "cost reduction"), by the name matched or by the card's whole
        name among the query's words: the card is the subject, so the answer shows it. Only
        an unambiguous mention counts (one card behind the name)."""
        mentions = row["mentions"]
        if isinstance(mentions, str):
            mentions = json.loads(mentions or "[]")
        for mention in mentions:
            ids = mention.get("card_ids") or []
            if mention.get("type") != "card" or len(ids) != 1:
                continue
            name = normalize(mention["name"])
            named = bool(matched) and (name == matched or name.startswith(matched + " "))
            if named or (name and f" {name} " in f" {query_key} "):
                card = self.store.card(ids[0])
                if card:
                    return {
                        "id": card["id"], "name": card["name"], "type": card["type"],
                        "text": card["text"], "subject": "mentioned",
                    }  # fmt: skip
        return None

    def suggest_cards(
        self, prefix: str, edition: str | None = None, limit: int = 25
    ) -> list[tuple[str, str]]:
        return self.card_index().suggest(prefix, edition=edition, limit=limit)

    def card(self, query_or_id: str, edition: str | None = None) -> tuple[dict | None, dict]:
        """A card with its text, the rulings about it and the rulings that mention it."""
        text = str(query_or_id).strip()
        row = self.store.card(text)
        found: dict[str, Any] = {"query": text, "confident": False, "results": []}
        if row is None:
            index = self.card_index()
            result = index.search(text, edition=edition, limit=5)
            found = result_json(result)
            # The card the query names: exactly (any printed form), or the whole query that
            # name misspelt. A card sharing a few of its words is a suggestion, not the
            # answer ("what time is it" is not You Will in Time, "cost" not At What Cost?).
            named = card_answer.named_cards(index, text, edition)
            spelt = lexicon().spell_out(text)  # "AU Door": Alternate Universe Door
            if not named and spelt != text:
                named = card_answer.named_cards(index, spelt, edition)
            if not named:
                named, _ = card_answer.misspelt_cards(index, text, edition)
            if not named:
                # The start or end of one card's name ("Stone Knives") names it; of several
                # ("Terok Nor"), they are the first suggestions.
                part, _ = card_answer.cards_named_in_part(index, text, edition)
                if len({normalize(card.title) for card in part}) == 1:
                    named = part
                elif part:
                    listed = [card_suggestion(card) for card in part]
                    ids = {r["id"] for r in listed}
                    found["results"] = (
                        listed + [r for r in found["results"] if r["id"] not in ids]
                    )[:5]
            if not named:
                found["confident"] = False
                return None, found
            # Several cards of that name (one per edition): the one the search puts first.
            order = [hit.target.entry for hit in result.hits]
            named = sorted(
                named, key=lambda c: order.index(c.entry) if c.entry in order else len(order)
            )
            row = self.store.card(named[0].entry)
            others = named[1:]
        else:
            others = []
        card = dict(row)
        # The other cards of that name (a persona's versions, the other edition's card):
        # listed, never one picked in silence.
        card["same_name"] = [
            {"id": c.entry, "title": c.title, "edition": c.edition} for c in others
        ]
        card["sets"] = json.loads(card.get("sets") or "[]")
        names = [card["name"]] + ([] if card["subtitle"] else [card["title"]])
        titled = {t.topic: t for name in names for t in self.rulings_index.catalog.titled(name)}
        about, mentioned = [], []
        for topic in sorted(titled):
            target = titled[topic]
            if target.edition == card["edition"]:
                about.append({"id": target.entry, "title": target.title})
        like = f'%"{card["id"]}"%'
        for entry in self.store.db.query(
            "SELECT id, topic, title FROM entries WHERE status = 'current' AND mentions LIKE ? ORDER BY title",
            [like],
        ):
            if not any(a["id"] == entry["id"] for a in about):
                mentioned.append({"id": entry["id"], "title": entry["title"]})
        card["rulings"] = about
        card["mentioned_in"] = mentioned
        return card, found

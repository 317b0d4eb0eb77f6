"""A card as the answer (:class:`CardAnswers`): its text, its own rulings (their text as in
force) and the rulings that mention it, each cited with its source and date and the
sentences that name the card; the other cards of its name and of the other edition are
listed beside it, those with rulings first, never one picked in silence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.answers.cards import CardLookups
from bot.answers.choice import other_edition_cards
from bot.answers.covers import CardCovers
from bot.normalize import normalize
from bot.search import card_answer
from bot.search.index import SearchIndex
from bot.search.passages import sentences


class CardAnswers:
    """Cards as answers over one generation: its ``cards``, each card's rulings
    (``covers``), its rulings ``index``, and ``show``, which gives a ruling's answer by its
    entry id (a card's rulings are cited as their own answers cite them)."""

    def __init__(
        self,
        cards: CardLookups,
        covers: CardCovers,
        index: SearchIndex,
        show: Callable[[str], tuple[dict | None, dict]],
    ):
        self.cards = cards
        self.covers = covers
        self.index = index
        self.show = show

    def card(self, query_or_id: str, edition: str | None = None) -> tuple[dict | None, dict]:
        """A card with its text, the rulings about it (their text as in force) and the
        rulings that mention it, each with its source and date."""
        card, found = self.cards.card(query_or_id, edition)
        if card is None:
            return card, found
        same = self._rulings_first(card.get("same_name") or [])
        has_rulings = card["rulings"] or card["mentioned_in"]
        if same and same[0]["rulings"] and not has_rulings:
            # "Tama": the card a ruling is about comes first, the others are offered.
            shown = {"id": card["id"], "title": card["name"], "edition": card["edition"]}
            card, _ = self.cards.card(same[0]["id"])
            same = self._rulings_first([shown, *same[1:]])
        card["same_name"] = same
        self._detail_card_rulings(card)
        return card, found

    def _rulings_first(self, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Cards of one name with how many rulings each has, those with rulings first (a
        judge asking by a name wants the card a ruling is about)."""
        covers = self.covers.all()
        for card in cards:
            card["rulings"] = len(covers.get(card["id"], ()))
        return sorted(cards, key=lambda c: c["rulings"] == 0)

    def _detail_card_rulings(self, card: dict[str, Any]) -> None:
        """Each listed ruling's source and date (an honest citation, whichever way the card
        was reached); the card's own rulings also their text as in force."""
        for listed, with_text in ((card["rulings"], True), (card["mentioned_in"], False)):
            for item in listed:
                answer, _ = self.show(item["id"])
                if not answer:
                    continue
                item.update(source=answer["source"], date=answer["date"])
                shown = (answer.get("in_force") or {}).get("text") or answer["text"] or ""
                item["naming"] = naming_sentences(shown, card["title"])
                if with_text:
                    in_force = answer.get("in_force") or {}
                    item["text"] = in_force.get("text") or answer["text"]
                    for key in ("label", "label_detail", "damaged_note"):
                        if answer.get(key):
                            item[key] = answer[key]

    def card_answer(self, choice: Any, edition: str | None) -> dict[str, Any]:
        """A card as the answer: its text, its own rulings and the rulings that mention it."""
        best = choice.cards[0]
        card, _ = self.cards.card(best.topic, best.edition)
        covers = choice.covers.get(best.topic, set())
        listed = {r["id"] for r in card["rulings"] + card["mentioned_in"]}
        for topic in sorted(covers):  # rulings that name it without a resolved card id
            target = self.index.by_topic.get(topic)
            if target is not None and self.index.targets[target].entry not in listed:
                t = self.index.targets[target]
                card["mentioned_in"].append({"id": t.entry, "title": t.title})
        self._detail_card_rulings(card)
        rulings = card["rulings"] + card["mentioned_in"]
        answer: dict[str, Any] = {
            "id": card["id"],
            "title": card["name"],
            "edition": card["edition"],
            "kind": "card",
            "text": card["text"] or "",
            "source": "card text",
            "date": None,
            "status": "current",
            "related": [
                {"id": r["id"], "title": r["title"], "edition": card["edition"]} for r in rulings
            ],
            "versions": [],
            "card": card,
        }
        if not rulings:
            answer["rulings_note"] = "No rulings in the bundled documents mention this card."
        # Other cards of the edition that bear the same name ("Data" in 2E: a dozen
        # personas): listed, never one picked in silence.
        named = normalize(card["title"])
        same = [
            c
            for c in choice.cards[1:]
            if c.edition == best.edition and card_answer.whole_names(c)[1] == named
        ]
        if same:
            answer["same_name"] = self._rulings_first(
                [{"id": c.topic, "title": c.title, "edition": c.edition} for c in same]
            )
        others = other_edition_cards(choice, edition)
        if others:
            answer["editions"] = [{"id": best.topic, "title": best.title, "edition": best.edition}]
            answer["editions"] += self._rulings_first(
                [{"id": c.topic, "title": c.title, "edition": c.edition} for c in others]
            )
        return answer


NAMING_SENTENCES = 2  # sentences of a ruling shown beside the card they name


def naming_sentences(text: str, name: str) -> str:
    """The sentences of a ruling that name a card (the first two), else its opening ones: why
    the ruling is about the card, visible without opening it."""
    key = f" {normalize(name)} "
    said = sentences(text)
    naming = [s for s in said if key in f" {normalize(s)} "]
    return " ".join((naming or said)[:NAMING_SENTENCES])

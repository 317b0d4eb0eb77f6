"""Whether a lookup is answered by a card or by a ruling (:class:`CardOrRuling`): the
search's result for it, and the card it names when the card is the answer — named whole,
with a player's abbreviation, misspelt, inside a question, by the start of its name, or
printing the lookup — weighed against the ruling the search found (see
bot.search.card_answer, which decides between them). Also the answer ids and features
``rulings eval`` measures."""

from __future__ import annotations

from typing import Any

from bot.answers.cards import CardLookups
from bot.answers.covers import CardCovers
from bot.normalize import lexicon, normalize, terms
from bot.search import card_answer, confidence
from bot.search.build import RulingsIndexBuilder
from bot.search.confidence import FEATURES, NAME_WHOLE
from bot.search.evaluate import Ranked
from bot.search.hits import FOUND_BY_TEXT, Hit, SearchResult, Target
from bot.search.index import SearchIndex
from bot.search.likeness import FILLER, content_words, says_alike
from bot.store.build import Store
from bot.store.readers import ThreadReaders


class CardOrRuling:
    """The card-or-ruling choice over one generation: its rulings ``index``, its ``cards``
    and each card's rulings (``covers``)."""

    def __init__(
        self,
        store: Store | ThreadReaders,
        index: SearchIndex,
        cards: CardLookups,
        builder: RulingsIndexBuilder,
        covers: CardCovers,
    ):
        self.store = store
        self.index = index
        self.cards = cards
        self.builder = builder
        self.covers = covers

    def answer_for(self, query: str, edition: str | None = None):
        """The search result for a query, and the card it names when the card is the answer
        (a :class:`bot.search.card_answer.CardChoice`, confident or not), else None."""
        result = self.index.search(query, edition=edition, limit=10)
        self._check_inside_card(result, query, edition)
        # A card named with a player's abbreviation ("AU Door") is named as spelt out.
        spelt = lexicon().spell_out(query)
        cards = card_answer.named_cards(self.cards.card_index(), query, edition)
        if not cards and spelt != query:
            cards = card_answer.named_cards(self.cards.card_index(), spelt, edition)
        likeness = 1.0
        if not cards:
            cards, likeness = card_answer.misspelt_cards(self.cards.card_index(), query, edition)
        if not cards:  # the nearest card name of all first, then one a ruling mentions
            cards, likeness = card_answer.mentioned_card(
                self.cards.card_index(), result, query, edition
            )
        top = result.hits[0] if result.hits else None
        # A ruling found by a longer name that holds the query's words ("how does First
        # Contact work" is not the objective Stop First Contact): a card the query names
        # whole is the closer name. The search measured how much of the name the query holds.
        partly = (
            top is not None
            and top.via not in FOUND_BY_TEXT
            and bool(result.features)
            and result.features[NAME_WHOLE] < 1.0
        )
        if not cards and (not result.confident or (top is not None and top.mention) or partly):
            within, alike = card_answer.cards_named_within(self.cards.card_index(), query, edition)
            if not within and spelt != query:
                within, alike = card_answer.cards_named_within(
                    self.cards.card_index(), spelt, edition
                )
            # Sure of a ruling only because its text names a card: the card is the answer
            # when the question holds nothing but its name ("how does Secret Salvage II
            # work", as "Secret Salvage II"), not when it asks more ("Tama Dathon speaking
            # first" is the ruling that names both); nor when the ruling says nothing of
            # what the question asks besides the name ("does Jean-Luc Picard count as a
            # leader" is not the species rule, which only lists Picard among humans).
            # A ruling that names both cards the query names ("The Intendant Terok Nor")
            # leads either card, sure of it or not: it is about the two together.
            both = bool(within) and self._names_both(top, query, within[0])
            if (
                (not result.confident and not both)
                or alike >= 1.0
                or (within and not self._explains_rest(top, query, within[0]))
            ):
                cards, likeness = within, alike
        if not cards and not result.confident:  # "Stone Knives": the start of a name
            cards, likeness = card_answer.cards_named_in_part(
                self.cards.card_index(), query, edition
            )
        printed = False
        if not cards and not result.confident:  # "Tribble Side Deck": printed on one card
            cards = self._cards_printing(result, query, edition)
            printed, likeness = bool(cards), (0.0 if cards else likeness)
        lean = 0.0
        if self.index.passages is not None and not edition:
            lean = self.index.passages.lean(query)
        covers = self.covers.all()
        if cards:
            covers = dict(covers)
            for card in cards:  # and the rulings that name it without a resolved card id
                mentioning = self.index.catalog.exact(
                    card.title, edition=card.edition, mentions=True
                )
                covers[card.topic] = covers.get(card.topic, set()) | {t.topic for t in mentioning}
        others = card_answer.other_cards_named(self.cards.card_index(), query, edition, cards)
        choice = card_answer.choose(
            query, edition, result, cards, covers, lean, likeness, others, printed
        )
        if choice is not None:
            choice.covers = {c.topic: covers.get(c.topic, set()) for c in choice.cards}
        return result, choice

    def _cards_printing(self, result: SearchResult, query: str, edition: str | None) -> list:
        """The cards that print the lookup (see card_answer.cards_printing), unless a ruling
        found holds all its words in one passage ("deck size": the deck-building rule):
        then that ruling is what the lookup is about."""
        found = card_answer.cards_printing(
            self.cards.card_index(), self.builder.card_texts(), query, edition
        )
        if found and self.index.passages is not None:
            words = terms(query)
            if any(self.index.passages.holds_together(h.target.topic, words) for h in result.hits):
                return []
        return found

    def _explains_rest(self, hit: Hit, query: str, card: Target) -> bool:
        """Whether the ruling says something, where it names the card, of the query's words
        besides the card's name (the question's own words, such as "does", left out), or
        those words name another card ("The Intendant Terok Nor": the ruling that names
        both)."""
        if self.index.passages is None:
            return True
        rest = self._rest_of(query, card)
        if not rest or self._another_card(rest, card):
            return True
        return self.index.passages.says_beside(hit.target.topic, card.title, " ".join(rest))

    def _names_both(self, hit: Hit | None, query: str, card: Target) -> bool:
        """Whether the query is two cards' names and the ruling, found by one of them that
        its text names, names the other too ("The Intendant Terok Nor": the facility
        commander rule)."""
        if hit is None or not hit.mention:
            return False
        rest = self._rest_of(query, card)
        if not rest or not self._another_card(rest, card):
            return False
        texts = [
            normalize(version["text"]).split()
            for version in self.store.versions(hit.target.topic)
            if not version.get("retired")
        ]
        name = content_words(normalize(card.title).split())
        return any(says_alike(text, rest) and says_alike(text, name) for text in texts)

    @staticmethod
    def _rest_of(query: str, card: Target) -> list[str]:
        """The query's words besides the card's name and the question's own words."""
        named = set(" ".join(card_answer.whole_names(card)).split())
        return [w for w in normalize(query).split() if w not in named and w not in FILLER]

    def _another_card(self, words: list[str], card: Target) -> bool:
        return bool(self.cards.card_index().catalog.exact(" ".join(words), edition=card.edition))

    def _check_inside_card(self, result: SearchResult, query: str, edition: str | None) -> None:
        """A top answer whose name is a rules word inside a card's name the query holds is
        never confident (the confidence reads the mark; see confidence.vetoed)."""
        if not result.hits or not result.features:
            return
        top = result.hits[0]
        if top.via in FOUND_BY_TEXT:
            return
        if card_answer.inside_card_name(self.cards.card_index(), query, edition, top.matched):
            result.features[confidence.INSIDE_CARD] = 1.0
            result.confident = False

    def card_confident(self, choice) -> bool:
        model = self.index.confidence_override or confidence.load_shipped()
        return model.confident(choice.features) if model else True

    def ranked(self, query: str, edition: str | None = None) -> Ranked:
        """The answer ids for a query, best first, with the features its confidence reads."""
        result, choice = self.answer_for(query, edition)
        ids = [h.target.topic for h in result.hits]
        if choice is not None:
            cards = [c.topic for c in choice.cards]
            covers = dict(choice.covers)
            # Both editions' cards are offered: the answer stands for the other's too, as
            # for a ruling below.
            offered = {c.topic for c in other_edition_cards(choice, edition)}
            if offered:
                covers[cards[0]] = covers.get(cards[0], set()) | offered
            return Ranked(
                ids=cards + [i for i in ids if i not in cards],
                features=choice.features,
                confident=self.card_confident(choice),
                covers=covers,
            )
        other = result.other_edition(edition)
        return Ranked(
            ids=ids,
            features=list(result.features) or [0.0] * len(FEATURES),
            confident=result.confident,
            # Both editions are offered: the answer stands for the other edition's too.
            covers={ids[0]: {other.target.topic}} if other is not None else {},
            candidates=result.candidates,
        )


def other_edition_cards(choice: Any, edition: str | None) -> list[Target]:
    """The cards of the other edition a card answer offers beside its first card, when no
    edition was asked for ("Both editions match")."""
    if edition:
        return []
    best = choice.cards[0]
    return [c for c in choice.cards[1:] if c.edition != best.edition]

"""Which edition a question's words belong to (:class:`EditionLean`): each word counts by
how one-sided the passages holding it are, 1E's rulings against 2E's, and by how one-sided
the cards printing it are (:class:`EditionVocabulary`), weighted by its rarity; the
evidence is summed and squashed to -1 (2E) .. 1 (1E). The counts are kept as passages
come and go, so a question never walks the postings of its common words."""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.normalize import terms_as_written
from bot.search.question_terms import MAX_QUERY_TERMS

# A question leans to an edition by the evidence of its words, summed (a word only one
# edition uses counts whole, however many shared words surround it), squashed to -1..1.
LEAN_SCALE = 8.0
# A card-text word's say in the lean beside a ruling's word: equal. The rulings alone lean
# "Away Team" to neither edition (both editions' rules discuss away teams); the cards show
# 1E prints it on hundreds of cards and 2E on few.
CARD_LEAN_WEIGHT = 1.0


@functools.lru_cache(maxsize=512)
def _written_terms(question: str) -> tuple[str, ...]:
    """A question's terms as written, once each (a question is leaned on more than once)."""
    return tuple(dict.fromkeys(terms_as_written(question)[1][:MAX_QUERY_TERMS]))


class EditionLean:
    """Per term as written, how many passages of 1E and of 2E topics hold it; and the
    cards' vocabulary (``card_vocabulary``: asked for on the first lean)."""

    def __init__(self) -> None:
        # term of a word as written -> how many passages of 1E and of 2E topics hold it, kept
        # as passages come and go, so that ``lean`` need not walk the postings of common
        # words. Counted before the lexicon's synonyms fold "crew" (1E's word) into
        # "personnel" (both editions'), which would hide what the word says of the edition.
        self._edition_df: dict[str, tuple[int, int]] = {}
        # How many cards of each edition print each term (see ``edition_vocabulary``): the
        # lean's second witness. Asked for on the first lean.
        self.card_vocabulary: Callable[[], EditionVocabulary] = EditionVocabulary.empty

    def edited(self) -> EditionLean:
        """A copy to count changes in while the previous index's answers read this one."""
        clone = copy.copy(self)
        clone._edition_df = dict(self._edition_df)
        return clone

    def count(self, written: Iterable[str], edition: str | None, step: int) -> None:
        """Count (or, ``step`` -1, uncount) one passage of a topic of ``edition`` holding
        these terms (each once); a passage of neither edition is not counted."""
        side = 0 if edition == "1E" else 1 if edition == "2E" else None
        if side is None:
            return
        for term in written:
            counts = list(self._edition_df.get(term, (0, 0)))
            counts[side] += step
            if counts == [0, 0]:
                self._edition_df.pop(term, None)
            else:
                self._edition_df[term] = (counts[0], counts[1])

    def lean(self, text: str, idf: Callable[[str, int], float]) -> float:
        """Which edition a question's words belong to: toward +1 1E, toward -1 2E, 0 either.
        Each term counts by its weight (``idf``, of a term held by so many passages) and how
        one-sided its passages are; the evidence is summed (see LEAN_SCALE)."""
        total = weight = 0.0
        cards = self.card_vocabulary()
        for term in _written_terms(text):
            first, second = self._edition_df.get(term, (0, 0))
            if first + second:
                term_idf = idf(term, first + second)  # as written: apart from postings
                total += term_idf * ((first + 0.5) / (first + second + 1) - 0.5) * 2
                weight += term_idf
            evidence = cards.evidence(term)
            if evidence:
                total += CARD_LEAN_WEIGHT * evidence[0]
                weight += evidence[1]
        return math.tanh(total / LEAN_SCALE) if weight else 0.0


@dataclass(frozen=True)
class EditionVocabulary:
    """How many cards of each edition print each term (as written, before the lexicon's
    synonyms): the words of each game as its cards use them."""

    counts: dict[str, tuple[int, int]]
    cards: tuple[int, int]  # how many cards of 1E and of 2E were read

    @staticmethod
    def empty() -> EditionVocabulary:
        return EditionVocabulary({}, (0, 0))

    def evidence(self, term: str) -> tuple[float, float] | None:
        """(signed evidence toward 1E, its weight) of one term, or None if no card prints
        it. Each edition's count is taken as a share of its own cards (the lists are of
        different sizes); the weight is the term's rarity among all cards."""
        counts = self.counts.get(term)
        if counts is None or not all(self.cards):
            return None
        first = (counts[0] + 0.5) / self.cards[0]
        second = (counts[1] + 0.5) / self.cards[1]
        idf = math.log(1 + sum(self.cards) / (counts[0] + counts[1]))
        return idf * (first / (first + second) - 0.5) * 2, idf


@functools.lru_cache(maxsize=2)
def edition_vocabulary(cards: tuple[tuple[str, str], ...]) -> EditionVocabulary:
    """The card vocabulary of ``cards``, each an (edition, title and text) pair. Kept for
    the card lists last read: every rebuild of the index reads the same lists."""
    counts: dict[str, list[int]] = {}
    sizes = [0, 0]
    for edition, text in cards:
        side = 0 if edition == "1E" else 1 if edition == "2E" else None
        if side is None:
            continue
        sizes[side] += 1
        for term in set(terms_as_written(text)[1]):
            counts.setdefault(term, [0, 0])[side] += 1
    return EditionVocabulary({t: (c[0], c[1]) for t, c in counts.items()}, (sizes[0], sizes[1]))

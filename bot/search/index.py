"""One ranked search for the CLI and Discord, and its verdict: is the first answer the
right one, to give without a doubt (``SearchResult.confident``)?

:class:`SearchIndex` puts the parts together: the topics and their names
(:mod:`bot.search.catalog`), the passages (:mod:`bot.search.passages`) or else the store's
full text (:mod:`bot.search.fulltext`). A search ranks a query's candidates
(:mod:`bot.search.candidates`), then reads what the confidence model needs about the first
(its features: :mod:`bot.search.verdict`) and lets the model decide. Autocomplete is :mod:`bot.search.suggest`.
Everything the user types goes through :func:`bot.normalize.normalize` and is matched as
data, never as query syntax.
"""

from __future__ import annotations

import copy
import sqlite3

from bot.normalize import normalize, quoted_phrases
from bot.search import confidence, ranking
from bot.search.candidates import CONFIDENT, Candidates
from bot.search.catalog import Catalog
from bot.search.fulltext import fulltext_hits
from bot.search.hits import Hit, SearchResult, Target
from bot.search.suggest import MAX_SUGGESTIONS, suggestions
from bot.search.verdict import Verdict
from bot.validate import MAX_QUERY_CHARS  # the one query cap

MAX_KEPT_OFFERS = 20_000  # queries an evaluation keeps the offers of (its table is ~1,000)


def _typed_exactly(ranked: list[Hit], key: str) -> bool:
    """A ruling's title or a moderator's alias typed exactly is asked for by name, not a guess
    to be weighed: it answers unless another name typed exactly (in the same edition) ties
    with it. (On the labelled tables every such answer is right; the model, which reads the
    passages, can leave one unconfident whose words are all stop words: "may not".)"""
    top = ranked[0]
    if top.via not in ("title", "alias") or top.matched != key:
        return False
    return not any(
        h.matched == key and h.via in ("title", "alias") and h.target.edition == top.target.edition
        for h in ranked[1:]
    )


class SearchIndex:
    """The topics and their names (``catalog``), their passages (``passages``: a
    bot.search.passages.PassageIndex, when built) or else an FTS5 connection for full-text
    relevance (``fulltext``); ``search`` ranks and judges a query."""

    def __init__(self, targets: list[Target], fulltext: sqlite3.Connection | None = None):
        self.catalog = Catalog(targets)
        self.fulltext = fulltext
        self.passages = None  # a bot.search.passages.PassageIndex, when built: replaces full text
        # A ranking and a confidence to use instead of the shipped ones (``rulings eval``
        # fits them per fold).
        self.ranker_override = None
        self.confidence_override = None
        # The candidates a query's names and passages (or full text) offer, by (query,
        # edition, thorough where full text is read), kept while an evaluation asks
        # the same questions under ranking after ranking (see remember_offers).
        self._offers: dict[tuple[str, str | None, bool], Candidates] | None = None

    @property
    def targets(self) -> list[Target]:
        return self.catalog.targets

    @property
    def by_topic(self) -> dict[str, int]:
        return self.catalog.by_topic

    @property
    def by_entry(self) -> dict[str, int]:
        return self.catalog.by_entry

    def __len__(self) -> int:
        return len(self.catalog)

    def edited(self) -> SearchIndex:
        """A copy to update while answers go on reading this one: its catalogue an edited
        copy (see :meth:`Catalog.edited <bot.search.catalog.Catalog.edited>`); its passages
        shared until the updater gives it an edited copy of them."""
        clone = copy.copy(self)
        clone.catalog = self.catalog.edited()
        clone._offers = None  # offered from the old names and passages
        return clone

    def remember_offers(self, on: bool) -> None:
        """Keep (or forget) each query's offered candidates: what a query's names and
        passages offer depends on neither the ranking nor the confidence, so an evaluation
        that fits those per fold and asks every question again reuses them. Only for an
        index nobody edits meanwhile (an edit makes a new one: :meth:`edited`)."""
        if not on:
            self._offers = None
        elif self._offers is None:
            self._offers = {}

    def _offered(self, query: str, key: str, edition: str | None, thorough: bool) -> Candidates:
        """The candidates the names, then the passages (or the full text), offer: a copy of
        those kept, while an evaluation keeps them."""
        kept = self._offers
        remembered = (query, edition, thorough and self.passages is None)
        if kept is not None and remembered in kept:
            return kept[remembered].copy()
        found = Candidates(self.catalog, query, key, edition)
        found.offer_names(with_passages=self.passages is not None)
        if self.passages is not None:
            found.offer_passages(self.passages)
        elif not found.settled() or thorough:
            # Full text answers questions the names cannot, and breaks ties between names.
            found.offer_fulltext(
                fulltext_hits(self.fulltext, found.content, edition, self.by_topic)
            )
        if kept is not None and len(kept) < MAX_KEPT_OFFERS:
            kept[remembered] = found.copy()
        return found

    def search(
        self, query: str, edition: str | None = None, limit: int = 10, thorough: bool = False
    ) -> SearchResult:
        """Rank topics for a query; ``confident`` only when the top one is clearly right.

        Full-text relevance is consulted when the names leave doubt, or always with
        ``thorough`` (result lists that should show more than the one answer).
        """
        query = str(query)[:MAX_QUERY_CHARS]
        key = normalize(query)
        result = SearchResult(query=query, confident=False)
        if not key:
            return result
        found = self._offered(query, key, edition, thorough)
        if self.passages is not None:
            ranker = self.ranker_override or ranking.load_shipped()
            found.rank(ranker, quoted_phrases(query), Verdict(self).unquoted)
        ranked = found.ordered()
        result.hits = ranked[: max(1, min(limit, 50))]
        result.candidates = [(h.target.topic, h.signals) for h in ranked if h.signals]
        words, content = found.words, found.content
        if ranked:
            result.features = Verdict(self).features(
                ranked, words, content, found.exact, edition, found.lean, query
            )
        model = self.confidence_override or confidence.load_shipped()
        if ranked and model is not None:
            result.confident = model.confident(result.features) or _typed_exactly(ranked, key)
        elif ranked and ranked[0].score >= CONFIDENT:
            top = ranked[0]
            rivals = [
                h
                for h in ranked[1:]
                if h.target.edition == top.target.edition and top.score - h.score < 0.02
            ]
            result.confident = top.score >= 0.95 or not rivals
        return result

    def suggest(
        self, prefix: str, edition: str | None = None, limit: int = MAX_SUGGESTIONS
    ) -> list[tuple[str, str]]:
        """Autocomplete: up to 25 (entry id, label ≤ 100 chars), from memory, per keystroke
        (see bot.search.suggest)."""
        return suggestions(self.catalog, prefix, edition, limit)

    def resolve(self, query_or_id: str, edition: str | None = None) -> Target | None:
        """An entry id, a topic id, or the best confident match of a query."""
        text = str(query_or_id).strip()
        for table in (self.by_entry, self.by_topic):
            if text in table:
                return self.targets[table[text]]
        result = self.search(text, edition=edition, limit=1)
        return result.hits[0].target if result.confident and result.hits else None

"""The topics one query may mean, each scored, in the order they are offered
(:class:`Candidates`). It decides the ranking, not the verdict: a name typed exactly or
matched with typos scores by where the name came from; a passage that explains the
query's words lifts a named topic or offers one of its own; the question's vocabulary
leans toward an edition; with a fitted ranking (bot.search.ranking) each candidate's
signals replace that score by a probability; without passages, full text offers what the
names cannot. Whether the first is confident is bot.search.index's to say."""

from __future__ import annotations

import copy
from collections.abc import Callable

from bot.search import confidence, ranking
from bot.search.catalog import Catalog
from bot.search.hits import FOUND_BY_TEXT, Hit
from bot.search.likeness import (
    content_words,
    misspelt_in_part,
    name_fit,
    nearly_whole,
)
from bot.search.name_match import scored_names
from bot.search.names import ALIAS, MENTION, SOURCE_LABEL, SOURCE_WEIGHT, TITLE

# How far a passage's support (or an edition's vocabulary) may lift a name match: not past the next kind of name, so an
# alias a moderator set is never overtaken by an automatic initialism whose ruling's text
# happens to contain the query (KTC re-pointed to another ruling must lead there).
PASSAGE_CAP = {"alias": 0.999, "card name": 0.979, "initialism": 0.959}
# A top result at or above this score is an answer; below it, a "did you mean".
# Calibrated on tests/search_cases.yaml (see tests/test_search_accuracy.py).
CONFIDENT = 0.80
# Full-text-only matches never count as confident on their own.
FULLTEXT_CEILING = 0.70
# With passages: a topic found only by a passage scores PASSAGE_ONLY x the share of the
# query's weight its best passage explains; a named topic gains PASSAGE_BONUS x that share.
PASSAGE_ONLY = 0.9
PASSAGE_BONUS = 0.3
PASSAGE_POWER = 1.0  # < 1 lifts the modest shares a long question's best passage reaches
LONG_QUESTION = 4  # content words beyond which a partial name match weighs less
LOOSE_MENTION = 0.5  # x a mentioned name's score when it matched only loosely (a typo)
EDITION_WEIGHT = 0.1  # x the question's edition lean (-1..1), without an edition given


class Candidates:
    """One query's candidates (``best``: target position -> its best hit so far), offered
    by its names, then its passages or the full text, and ``ordered`` at the end.

    ``key`` is the normalised query, ``words`` its first 20 words and ``content`` those
    that say what it is about; ``exact`` holds the targets one of whose names is the whole
    query, ``written`` those of them named so by a title or a moderator's alias."""

    def __init__(self, catalog: Catalog, query: str, key: str, edition: str | None):
        self.catalog = catalog
        self.query = query
        self.key = key
        self.edition = edition
        self.words = key.split()[:20]
        self.content = content_words(self.words)
        self.best: dict[int, Hit] = {}
        self.lean = 0.0  # the question's edition lean (-1 2E .. 1 1E), without an edition
        self.agree: set[int] = set()  # found by a name and by the full text both
        names = catalog.names
        self.named = names.exact_names(key)
        self.exact = {names.target_of[i] for i in self.named}
        # A title or a moderator's alias typed exactly leads whatever the ranking weighs:
        # people wrote those names for that ruling (an initialism or a mention is a guess).
        self.written = {
            names.target_of[i] for i in self.named if names.source_of[i] in (TITLE, ALIAS)
        }

    def copy(self) -> Candidates:
        """A copy to rank: its hits copied (ranking rescores them), the rest shared."""
        other = copy.copy(self)
        other.best = {target: copy.copy(hit) for target, hit in self.best.items()}
        other.agree = set(self.agree)
        return other

    def offer(
        self, target: int, score: float, via: str, matched: str, mention: bool = False
    ) -> None:
        """A candidate answer; kept if it scores better than the target's best so far."""
        targets = self.catalog.targets
        if self.edition and targets[target].edition != self.edition:
            return
        if targets[target].title_only:
            # Its text was lost: never an answer, even asked by its title (an empty
            # answer). A card of that name answers as the card (bot.answers).
            return
        hit = self.best.get(target)
        if hit is None or score > hit.score:
            name = score if via not in FOUND_BY_TEXT else 0.0
            self.best[target] = Hit(
                targets[target],
                round(score, 4),
                via,
                matched,
                name_score=name,
                mention=mention,
            )

    def offer_names(self, with_passages: bool) -> None:
        """The names typed exactly, then those the query's words match, typos allowed."""
        names = self.catalog.names
        content, key = self.content, self.key
        for index in self.named:
            source = names.source_of[index]
            self.offer(
                names.target_of[index],
                SOURCE_WEIGHT[source],
                SOURCE_LABEL[source],
                names.keys[index],
                source == MENTION,
            )
        # In a long question a name that matches only some words is a weak hint: the
        # passage that answers it should be able to outrank it.
        partial = min(1.0, LONG_QUESTION / len(content)) if with_passages else 1.0
        for index, score in scored_names(names, content, key):
            if score > 0.3:
                source = names.source_of[index]
                via = "typo" if score < 0.9 * SOURCE_WEIGHT[source] else SOURCE_LABEL[source]
                if via == "typo" and source == MENTION:
                    # A card name a ruling's text only mentions is a guess at the ruling, and
                    # matched loosely ("assimilation planet": Assimilate Planet) a weaker one.
                    if misspelt_in_part(names.keys[index], content, key):
                        continue
                    score *= LOOSE_MENTION
                if via == "typo":
                    score *= partial
                self.offer(names.target_of[index], score, via, names.keys[index], source == MENTION)

    def settled(self) -> bool:
        """Whether the names alone settle the answer: a confident leader, clear of the next."""
        leaders = sorted((h.score for h in self.best.values()), reverse=True)[:2]
        return bool(
            leaders
            and leaders[0] >= CONFIDENT
            and (len(leaders) < 2 or leaders[0] - leaders[1] >= 0.02)
        )

    def offer_passages(self, passages) -> None:
        """One score per topic from its names and its best passage: a name explains the
        query's words it holds, the passage the rest (weights in PASSAGE_*); then the
        question's lean toward an edition."""
        edition, best = self.edition, self.best
        targets, by_topic = self.catalog.targets, self.catalog.by_topic
        hits = passages.search(self.query, limit=40)
        lean = 0.0 if edition else passages.lean(self.query)
        share = {}
        for hit in hits:
            target = by_topic.get(hit.topic)
            if target is None or (edition and targets[target].edition != edition):
                continue
            share[target] = hit
        for target, hit in best.items():
            found = share.pop(target, None)
            if found is not None:
                hit.support = found.share
                hit.score = (
                    round(
                        min(
                            PASSAGE_CAP.get(hit.via, 0.999), hit.score + PASSAGE_BONUS * found.share
                        ),
                        4,
                    )
                    if hit.score < PASSAGE_CAP.get(hit.via, 0.999)
                    else hit.score
                )
                hit.passage = found.passage
        for target, found in share.items():
            self.offer(
                target,
                PASSAGE_ONLY * found.share**PASSAGE_POWER,
                "passage",
                found.passage.text[:80],
            )
            if target in best:
                best[target].passage = found.passage
                best[target].support = found.share
        if lean:
            # The question's vocabulary steers to its edition (only below the sure answers).
            for hit in best.values():
                sign = 1.0 if hit.target.edition == "1E" else -1.0
                cap = min(0.989, PASSAGE_CAP.get(hit.via, 0.999))
                if hit.score < cap:
                    hit.score = round(min(cap, hit.score + EDITION_WEIGHT * sign * lean), 4)
        self.lean = lean

    def rank(
        self,
        model: ranking.Ranker | None,
        quoted: list[list[str]],
        unquoted: Callable[[Hit, list[list[str]]], float],
    ) -> None:
        """Each candidate's signals, and with a fitted ranking (``model``) its score
        replaced by the probability the ranking gives it (see bot.search.ranking);
        ``quoted``: the terms of the query's quoted phrases, ``unquoted`` the share of them
        a hit does not hold."""
        content, exact, lean = self.content, self.exact, self.lean
        key = " ".join(self.words)
        pool = sorted(self.best.items(), key=lambda item: -item[1].score)
        best_support = max((hit.support for _, hit in pool), default=0.0)
        for position, (target, hit) in enumerate(pool):
            if position >= ranking.CANDIDATES:
                if model is not None:
                    hit.score = 0.0  # beyond the candidates the ranking weighs
                continue
            cover, whole = name_fit(hit.matched, hit.via, content)
            nearly = nearly_whole(hit, key, cover, whole)
            if quoted:
                hit.unquoted = unquoted(hit, quoted)
            hit.signals = ranking.signals(
                prior=hit.score,
                name=hit.name_score,
                exact=1.0 if target in exact else nearly,
                cover=cover,
                whole=whole,
                support=hit.support,
                best_support=best_support,
                content_words=len(content),
                edition_fit=confidence.lean_toward(hit.target.edition, lean),
                example=bool(hit.passage is not None and hit.passage.example),
                via=hit.via,
                quoted=bool(quoted),
                unquoted=hit.unquoted,
                mention=hit.mention,
            )
            if model is not None:
                hit.score = round(model.probability(hit.signals), 4)

    def offer_fulltext(self, found: list[tuple[int, float]]) -> None:
        """Full text's targets, best first: a tie-breaker for those a name found, below
        any confident answer for the rest."""
        for rank, (target, _) in enumerate(found):
            if target in self.best:
                self.agree.add(target)  # the name and the text both point here: a tie-breaker
            else:
                self.offer(target, FULLTEXT_CEILING - 0.01 * rank, "full text", self.query)

    def ordered(self) -> list[Hit]:
        """Every candidate, best first: a title or alias typed exactly, then by score, the
        full text's agreement, the edition the question leans to, and title."""
        best = self.best
        positions = {id(hit): target for target, hit in best.items()}
        written, agree = self.written, self.agree
        leaning = "1E" if self.lean > 0 else "2E"
        return sorted(
            best.values(),
            key=lambda h: (
                positions[id(h)] not in written,
                -h.score,
                positions[id(h)] not in agree,
                h.target.edition != leaning,
                h.target.title,
            ),
        )

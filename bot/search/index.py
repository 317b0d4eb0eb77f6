"""One ranked search for the CLI and Discord: titles, aliases, typos, prefixes, mentions,
questions in plain words, and a calibrated "confident" verdict.

The index lives in memory (names, word postings, a sorted key list for prefixes); full-text
relevance comes from an SQLite FTS5 table. Everything the user types goes through
:func:`bot.normalize.normalize` and is matched as data, never as query syntax.
"""

from __future__ import annotations

import bisect
import copy
import logging
import sqlite3
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from bot.normalize import initialism, normalize, quoted_phrases
from bot.search import confidence, ranking
from bot.search.matching import (
    FILLER,
    FOUND_BY_TEXT,
    MISSPELT_NAME,
    SLIP,
    _likeness,
    _name_fit,
    _nearly_whole,
    _typo_likeness,
    content_words,
    misspelt_name,
)
from bot.search.matching import asks_of_cards as asks_of_cards  # re-exported
from bot.search.matching import asks_with_unnamed as asks_with_unnamed  # re-exported
from bot.search.verdict import Verdict
from bot.validate import MAX_QUERY_CHARS  # the one query cap

log = logging.getLogger(__name__)

# Where a name came from; the weight is the best score a match through it can reach.
TITLE, ALIAS, CARD_FORM, INITIALISM, MENTION = range(5)
SOURCE_WEIGHT = {TITLE: 1.0, ALIAS: 0.98, CARD_FORM: 0.96, INITIALISM: 0.93, MENTION: 0.86}
# How far a passage's support (or an edition's vocabulary) may lift a name match: not past the next kind of name, so an
# alias a moderator set is never overtaken by an automatic initialism whose ruling's text
# happens to contain the query (KTC re-pointed to another ruling must lead there).
PASSAGE_CAP = {"alias": 0.999, "card name": 0.979, "initialism": 0.959}
SOURCE_LABEL = {
    TITLE: "title",
    ALIAS: "alias",
    CARD_FORM: "card name",
    INITIALISM: "initialism",
    MENTION: "mentioned",
}

# A top result at or above this score is an answer; below it, a "did you mean".
# Calibrated on tests/search_cases.yaml (see tests/test_search_accuracy.py).
CONFIDENT = 0.80
# Full-text-only matches never count as confident on their own.
FULLTEXT_CEILING = 0.70
# Both editions' answers within this many log-odds (no edition asked): both are offered.
EDITION_TIE = 1.0
# With passages: a topic found only by a passage scores PASSAGE_ONLY x the share of the
# query's weight its best passage explains; a named topic gains PASSAGE_BONUS x that share.
PASSAGE_ONLY = 0.9
PASSAGE_BONUS = 0.3
PASSAGE_POWER = 1.0  # < 1 lifts the modest shares a long question's best passage reaches
LONG_QUESTION = 4  # content words beyond which a partial name match weighs less
LOOSE_MENTION = 0.5  # x a mentioned name's score when it matched only loosely (a typo)
EDITION_WEIGHT = 0.1  # x the question's edition lean (-1..1), without an edition given
# Bounds that keep a search's work independent of the index size.
POSTING_CAP = 3000
RESCORE = 40
FULLTEXT_BUDGET = 120  # thousands of SQLite VM steps per full-text query (about 10 ms)
SUGGEST_FUZZY_POOL = 400
MAX_SUGGESTIONS = 25
LABEL_LIMIT = 100


@dataclass(slots=True)
class Target:
    """A topic the search can answer with (its current version)."""

    topic: str
    entry: str
    title: str
    edition: str
    kind: str
    source: str  # the document's title
    date: str | None
    title_only: bool = False  # the source lost its text: only the title is known
    # The topics its answer lists as related (its "see also" and the terms its text names).
    related: tuple[str, ...] = ()
    # The one named section of its entry that its text is, the rest not bundled: a CRD's
    # new "Objectives" subsection of the 1E Borg entry (see bot.models.replaced_section).
    section: str = ""

    def kin(self, other: Target) -> bool:
        """Either lists the other as related: the answer shows the other beside it."""
        return other.topic in self.related or self.topic in other.related


@dataclass(slots=True)
class Hit:
    target: Target
    score: float
    via: str  # how it matched: title, alias, card name, mentioned, typo, full text, passage
    matched: str  # the name or text that matched
    passage: object = None  # the passage that answers (bot.search.passages.Passage), if known
    support: float = 0.0  # the share of the query's weight that passage explains, 0..1
    name_score: float = 0.0  # the name match alone (0: found by its text only)
    signals: list[float] | None = None  # what the fitted ranking read (bot.search.ranking)
    unquoted: float = 0.0  # the share of the query's quoted phrases it does not hold
    mention: bool = False  # the name that matched is one its text merely mentions


@dataclass
class SearchResult:
    query: str
    confident: bool
    hits: list[Hit] = field(default_factory=list)
    features: list[float] = field(default_factory=list)  # of the top hit, for the confidence
    # Every candidate the fitted ranking weighed: (topic, its signals), for refitting it.
    candidates: list[tuple[str, list[float]]] = field(default_factory=list)

    def other_edition(self, edition: str | None) -> Hit | None:
        """No edition asked and the other edition's best answer matches as well: that answer
        (both are offered, never a silent pick). As well: the same title, or a score within
        EDITION_TIE log-odds of the top one."""
        if edition or not self.hits:
            return None
        top = self.hits[0]
        for hit in self.hits[1:]:
            if hit.target.edition != top.target.edition:
                same_title = normalize(hit.target.title) == normalize(top.target.title)
                close = confidence.margin(top.score, hit.score) < EDITION_TIE
                return hit if same_title or close else None
        return None


def _misspelt_in_part(name: str, content: list[str], key: str) -> bool:
    """Whether a name is matched through a word typed only alike ("mordoik" for Mordock),
    without the query being the whole name misspelt (:func:`misspelt_name`)."""
    alike_only = any(
        0.0 < max((_likeness(w, named) for w in content), default=0.0) < 1.0
        for named in content_words(name.split())
    )
    return alike_only and not misspelt_name(key, name)


def _alike(word: str, other: str) -> bool:
    """The same word, a prefix of it, or a typo of it."""
    return word == other or other.startswith(word) or fuzz.ratio(word, other) >= 75


def says_alike(text: list[str], run: list[str]) -> bool:
    """Whether a text's words hold these words side by side, each as typed or mistyped
    (normalised words; a typo on either side: the documents have their own, "The
    Intentant" for The Intendant)."""

    def alike(word: str, other: str) -> bool:
        return _likeness(word, other) >= SLIP or _likeness(other, word) >= SLIP

    width = len(run)
    return bool(run) and any(
        all(alike(word, other) for word, other in zip(run, text[i : i + width], strict=True))
        for i in range(len(text) - width + 1)
    )


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
    """In-memory name index plus an FTS5 connection for full-text relevance."""

    def __init__(self, targets: list[Target], fulltext: sqlite3.Connection | None = None):
        self.targets = targets
        self.by_topic = {t.topic: i for i, t in enumerate(targets)}
        self.by_entry = {t.entry: i for i, t in enumerate(targets)}
        self.fulltext = fulltext
        self.passages = None  # a bot.search.passages.PassageIndex, when built: replaces full text
        self._keys: list[str] = []
        self._longest = 0  # the longest key (a removed name may leave it long: only a bound)
        self._target: array = array("i")
        self._source = bytearray()
        self._exact: dict[str, int | list[int]] = {}  # key -> name index (or several)
        self._postings: dict[str, array] = {}
        self._order: array = array("i")  # name indexes sorted by key, for prefixes
        self._vocab_sorted: list[str] | None = None
        self._vocab_by_letter: dict[str, list[str]] | None = None
        # A name's posting words beyond its key's own words (plural forms), kept so that an
        # update can take the name out of every posting list it is in.
        self._extra_words: dict[int, tuple[str, ...]] = {}
        # While an update is made on a copy (see ``edited``): the posting lists and name
        # lists this copy owns (others are shared with the index readers still use), and
        # the names it added, to be placed in the sorted structures by ``finish_edit``.
        self._owned: set[int] | None = None
        self._added: list[int] = []
        self._endings: dict[str, list[str]] | None = None  # see ``named_ending``; built lazily
        # A ranking and a confidence to use instead of the shipped ones (``rulings eval``
        # fits them per fold).
        self.ranker_override = None
        self.confidence_override = None

    # ----------------------------------------------------------------- building
    def add_name(self, name: str, target: int, source: int) -> None:
        """Register a name (title, alias, card form, mention) that leads to a target."""
        key = normalize(name)
        if not key:
            return
        self._longest = max(self._longest, len(key))
        existing = self._exact.get(key)
        if existing is not None:
            others = [existing] if isinstance(existing, int) else existing
            if any(self._target[i] == target for i in others):
                return
        index = len(self._keys)
        self._keys.append(key)
        self._target.append(target)
        self._source.append(source)
        if existing is None:
            self._exact[key] = index  # most keys name one thing: an int, not a list
        elif isinstance(existing, int):
            self._exact[key] = [existing, index]
        else:
            self._mine(self._exact, key, list).append(index)
        key_words = set(key.split())
        extra = set(normalize(name, fold_plurals=False).split()) - key_words
        if extra:
            self._extra_words[index] = tuple(sorted(extra))
        for word in key_words | extra:
            posting = self._postings.get(word)
            if posting is None:
                posting = self._postings[word] = array("i")
                if self._owned is not None:
                    self._owned.add(id(posting))
            else:
                posting = self._mine(self._postings, word, array)
            posting.append(index)
        if self._owned is not None:
            self._added.append(index)

    def _mine(self, table: dict, key: str, kind: type):
        """``table[key]``, copied first if readers of the previous index still share it."""
        value = table[key]
        if self._owned is None or id(value) in self._owned:
            return value
        value = table[key] = kind("i", value) if kind is array else kind(value)
        self._owned.add(id(value))
        return value

    def _exact_names(self, key: str) -> list[int]:
        found = self._exact.get(key)
        if found is None:
            return []
        return [found] if isinstance(found, int) else found

    def add_card_forms(
        self,
        title: str,
        subtitle: str | None,
        target: int,
        subtitle_alone: bool = True,
        title_alone: bool = True,
    ) -> None:
        """Automatic aliases of a card-titled topic: forms, title alone (unless other cards
        share it, see ``title_alone``), subtitle (when it names the card on its own, see
        bot.search.build.named_subtitles), KTC."""
        if subtitle:
            for form in (f"{title}, {subtitle}", f"{title} ({subtitle})", f"{title} {subtitle}"):
                self.add_name(form, target, CARD_FORM)
            if title_alone:
                self.add_name(title, target, CARD_FORM)
            if subtitle_alone:
                self.add_name(subtitle, target, CARD_FORM)
        full = f"{title} {subtitle}" if subtitle else title
        letters = initialism(full)
        if len(letters) >= 3:
            self.add_name(letters, target, INITIALISM)

    def finish(self) -> None:
        """Build the sorted structures used for prefixes and typo candidates."""
        keys = self._keys
        self._order = array("i", sorted(range(len(keys)), key=keys.__getitem__))
        self._sorted_keys = [keys[i] for i in self._order]
        self._vocab_sorted = sorted(self._postings)
        by_letter: dict[str, list[str]] = {}
        for word in self._vocab_sorted:
            by_letter.setdefault(word[0], []).append(word)
        self._vocab_by_letter = by_letter
        self._endings = None

    # ----------------------------------------------------------------- updating
    def edited(self) -> SearchIndex:
        """A copy to update while answers go on reading this one.

        The containers are copied now (a few milliseconds at 100,000 entries); the posting
        and name lists inside them are copied when the update first changes them. Remove
        the topics a change touched with ``remove_topics``, add their new targets with
        ``add_target`` and their names with ``add_name``/``add_card_forms``, then call
        ``finish_edit``. The result answers as an index built from scratch would.
        """
        clone = copy.copy(self)
        clone.targets = list(self.targets)
        clone.by_topic = dict(self.by_topic)
        clone.by_entry = dict(self.by_entry)
        clone._keys = list(self._keys)
        clone._target = array("i", self._target)
        clone._source = bytearray(self._source)
        clone._exact = dict(self._exact)
        clone._postings = dict(self._postings)
        clone._extra_words = dict(self._extra_words)
        clone._order = array("i", self._order)
        clone._sorted_keys = list(self._sorted_keys)
        clone._vocab_sorted = list(self._vocab_sorted or [])
        clone._vocab_by_letter = dict(self._vocab_by_letter or {})
        clone._owned = set()
        clone._added = []
        clone._endings = None
        return clone

    def remove_topics(self, topics: Iterable[str]) -> None:
        """Take these topics and every name leading to them out of the index."""
        positions = set()
        for topic in topics:
            position = self.by_topic.pop(topic, None)
            if position is not None:
                self.by_entry.pop(self.targets[position].entry, None)
                positions.add(position)
        if not positions:
            return
        for index in [i for i, t in enumerate(self._target) if t in positions]:
            self._unlink(index)

    def add_target(self, target: Target) -> int:
        """A new (or updated) topic's target; returns the position names refer to."""
        position = len(self.targets)
        self.targets.append(target)
        self.by_topic[target.topic] = position
        self.by_entry[target.entry] = position
        return position

    def _unlink(self, index: int) -> None:
        key = self._keys[index]
        found = self._exact.get(key)
        if found == index:
            del self._exact[key]
        elif isinstance(found, list):
            rest = [i for i in found if i != index]
            if len(rest) == 1:
                self._exact[key] = rest[0]
            else:
                self._exact[key] = rest
        for word in set(key.split()) | set(self._extra_words.pop(index, ())):
            posting = self._postings.get(word)
            if posting is not None and index in posting:
                kept = array("i", (i for i in posting if i != index))
                self._postings[word] = kept
                self._owned.add(id(kept))
        position = bisect.bisect_left(self._sorted_keys, key)
        while position < len(self._order) and self._order[position] != index:
            position += 1
        if position < len(self._order):
            del self._order[position]
            del self._sorted_keys[position]

    def finish_edit(self) -> None:
        """Place the names added since ``edited`` in the sorted structures."""
        for index in self._added:
            key = self._keys[index]
            position = bisect.bisect_right(self._sorted_keys, key)
            self._sorted_keys.insert(position, key)
            self._order.insert(position, index)
            for word in set(key.split()) | set(self._extra_words.get(index, ())):
                spot = bisect.bisect_left(self._vocab_sorted, word)
                if spot < len(self._vocab_sorted) and self._vocab_sorted[spot] == word:
                    continue
                self._vocab_sorted.insert(spot, word)
                letter = self._vocab_by_letter.get(word[0], [])
                letter = self._vocab_by_letter[word[0]] = list(letter)
                bisect.insort(letter, word)
        self._owned = None
        self._added = []
        self._endings = None

    def titled(self, name: str) -> list[Target]:
        """The current targets whose title is ``name`` (normalised), in topic order: a
        lookup, where comparing every title costs seconds at 100,000 entries."""
        key = normalize(name)
        found = {self._target[i] for i in self._exact_names(key) if self._source[i] == TITLE}
        targets = [
            self.targets[p]
            for p in found
            if self.by_topic.get(self.targets[p].topic) == p  # not a removed topic's
            and normalize(self.targets[p].title) == key
        ]
        return sorted(targets, key=lambda t: t.topic)

    def current_targets(self) -> list[Target]:
        """Every topic the index answers with, in topic order (updates leave the targets
        of removed topics in ``targets``, unreachable)."""
        return sorted((self.targets[p] for p in self.by_topic.values()), key=lambda t: t.topic)

    def __len__(self) -> int:
        return len(self.by_topic)

    @property
    def name_count(self) -> int:
        return len(self._keys)

    # ----------------------------------------------------------------- matching
    def _word_matches(self, word: str, allow_fuzzy: bool = True) -> dict[str, float]:
        """Vocabulary words a query word may stand for, with a similarity in 0..1."""
        found: dict[str, float] = {}
        if word in self._postings:
            found[word] = 1.0
        if len(word) >= 3:
            start = bisect.bisect_left(self._vocab_sorted, word)
            for candidate in self._vocab_sorted[start : start + 40]:
                if not candidate.startswith(word):
                    break
                found.setdefault(candidate, 0.9)
        if allow_fuzzy and len(word) >= 4 and not found:
            bucket = self._vocab_by_letter.get(word[0], [])
            for candidate, score, _ in process.extract(
                word, bucket, scorer=fuzz.ratio, score_cutoff=75, limit=5
            ):
                found.setdefault(candidate, score / 100 * 0.95)
        return found

    def _score_name(self, key: str, query_words: list[str], query_key: str) -> float:
        """How well a name matches: word coverage both ways, or whole-string similarity."""
        key_words = content_words(key.split())
        if not key_words:
            return 0.0
        sims: dict[tuple[str, str], float] = {}

        def sim(q: str, k: str) -> float:
            pair = (q, k)
            if pair not in sims:
                if q == k:
                    value = 1.0
                elif len(q) >= 2 and k.startswith(q):
                    value = 0.9
                else:
                    ratio = _typo_likeness(q, k)
                    value = ratio * 0.95 if ratio >= 0.75 else 0.0
                sims[pair] = value
            return sims[pair]

        title_cov = sum(max(sim(q, k) for q in query_words) for k in key_words) / len(key_words)
        query_cov = sum(max(sim(q, k) for k in key_words) for q in query_words) / len(query_words)
        words_score = 0.6 * title_cov + 0.4 * query_cov
        whole = fuzz.ratio(query_key, key) / 100
        whole_score = whole * 0.95 if whole >= 0.8 else 0.0
        return max(words_score, whole_score)

    def _name_candidates(self, words: list[str], limit: int = 1500) -> list[int]:
        """Names sharing a (possibly misspelt or partial) word with the query, most shared first.

        A word found in very many names narrows nothing and is skipped when the query has
        other words, which keeps the work bounded whatever the index size.
        """
        counts: Counter[int] = Counter()
        for word in words:
            matched: set[int] = set()
            for vocab_word in self._word_matches(word):
                posting = self._postings[vocab_word]
                if len(posting) > POSTING_CAP:
                    if len(words) > 1:
                        continue
                    posting = posting[:POSTING_CAP]
                matched.update(posting)
            counts.update(matched)
        return [index for index, _ in counts.most_common(limit)]

    def _scored_names(self, content: list[str], key: str) -> list[tuple[int, float]]:
        """Candidate names scored: a C-speed preselection, then the word-coverage score."""
        candidates = self._name_candidates(content)
        if not candidates:
            return []
        query_key = " ".join(content)
        if len(candidates) > RESCORE:
            keys = [self._keys[i] for i in candidates]
            picked = process.extract(query_key, keys, scorer=fuzz.WRatio, limit=RESCORE)
            candidates = [candidates[position] for _, _, position in picked]
        out = []
        for index in candidates:
            name = self._keys[index]
            source = self._source[index]
            score = self._score_name(name, content, query_key) * SOURCE_WEIGHT[source]
            if name != key:
                score = min(score, SOURCE_WEIGHT[source] - 0.01)
            out.append((index, score))
        return out

    def _fulltext(
        self, words: list[str], edition: str | None, limit: int = 20
    ) -> list[tuple[int, float]]:
        if self.fulltext is None or not words:
            return []
        # Every word as a quoted string: user text is data, never FTS5 syntax. All words
        # first (selective and fast), any word only when that finds nothing.
        quoted = [f'"{w}"' for w in words[:12]]
        # A bounded amount of work: SQLite calls the handler every 1000 VM steps and a true
        # return interrupts the query, so one pathological query cannot stall an answer.
        steps = [FULLTEXT_BUDGET]

        def spend() -> bool:
            steps[0] -= 1
            return steps[0] < 0

        self.fulltext.set_progress_handler(spend, 1000)
        rows: list = []
        try:
            rows = self._fulltext_rows(quoted, edition, limit)
        except sqlite3.OperationalError as exc:  # interrupted, or odd input: never an error
            log.debug("full-text query for %r stopped: %s", quoted, exc)
        finally:
            self.fulltext.set_progress_handler(None, 0)
        seen: set[str] = set()
        out = []
        for topic, score in rows:
            if topic in self.by_topic and topic not in seen:
                seen.add(topic)
                out.append((self.by_topic[topic], score))
        return out

    def _fulltext_rows(self, quoted: list[str], edition: str | None, limit: int) -> list:
        rows: list = []
        for joiner in (" AND ", " OR "):
            expression = joiner.join(quoted)
            sql = "SELECT topic, bm25(fulltext, 0.0, 0.0, 4.0, 1.0) AS score FROM fulltext WHERE fulltext MATCH ?"
            params: list = [expression]
            if edition:
                sql += " AND edition = ?"
                params.append(edition)
            sql += " ORDER BY score LIMIT ?"
            params.append(limit)
            rows = self.fulltext.execute(sql, params).fetchall()
            if rows or len(quoted) == 1:
                break
        return rows

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
        words = key.split()[:20]
        content = content_words(words)
        best: dict[int, Hit] = {}
        lean = 0.0

        named = self._exact_names(key)
        exact = {self._target[i] for i in named}
        # A title or a moderator's alias typed exactly leads whatever the ranking weighs:
        # people wrote those names for that ruling (an initialism or a mention is a guess).
        written = {self._target[i] for i in named if self._source[i] in (TITLE, ALIAS)}

        def offer(target: int, score: float, via: str, matched: str, mention: bool = False) -> None:
            if edition and self.targets[target].edition != edition:
                return
            if self.targets[target].title_only:
                # Its text was lost: never an answer, even asked by its title (an empty
                # answer). A card of that name answers as the card (bot.answers).
                return
            hit = best.get(target)
            if hit is None or score > hit.score:
                name = score if via not in FOUND_BY_TEXT else 0.0
                best[target] = Hit(
                    self.targets[target],
                    round(score, 4),
                    via,
                    matched,
                    name_score=name,
                    mention=mention,
                )

        for index in named:
            source = self._source[index]
            offer(
                self._target[index],
                SOURCE_WEIGHT[source],
                SOURCE_LABEL[source],
                self._keys[index],
                source == MENTION,
            )
        # In a long question a name that matches only some words is a weak hint: the
        # passage that answers it should be able to outrank it.
        partial = min(1.0, LONG_QUESTION / len(content)) if self.passages is not None else 1.0
        for index, score in self._scored_names(content, key):
            if score > 0.3:
                source = self._source[index]
                via = "typo" if score < 0.9 * SOURCE_WEIGHT[source] else SOURCE_LABEL[source]
                if via == "typo" and source == MENTION:
                    # A card name a ruling's text only mentions is a guess at the ruling, and
                    # matched loosely ("assimilation planet": Assimilate Planet) a weaker one.
                    if _misspelt_in_part(self._keys[index], content, key):
                        continue
                    score *= LOOSE_MENTION
                if via == "typo":
                    score *= partial
                offer(self._target[index], score, via, self._keys[index], source == MENTION)
        # Full text answers questions the names cannot, and breaks ties between names.
        leaders = sorted((h.score for h in best.values()), reverse=True)[:2]
        settled = (
            leaders
            and leaders[0] >= CONFIDENT
            and (len(leaders) < 2 or leaders[0] - leaders[1] >= 0.02)
        )
        if self.passages is not None:
            lean = self._offer_passages(query, edition, best, offer)
            self._rank(best, exact, content, lean, quoted_phrases(query), " ".join(words))
            fts = []
        else:
            fts = [] if settled and not thorough else self._fulltext(content, edition)
        agree: set[int] = set()
        for rank, (target, _) in enumerate(fts):
            if target in best:
                agree.add(target)  # the name and the text both point here: a tie-breaker
            else:
                offer(target, FULLTEXT_CEILING - 0.01 * rank, "full text", query)

        positions = {id(hit): target for target, hit in best.items()}
        ranked = sorted(
            best.values(),
            key=lambda h: (
                positions[id(h)] not in written,
                -h.score,
                positions[id(h)] not in agree,
                h.target.edition != ("1E" if lean > 0 else "2E"),
                h.target.title,
            ),
        )
        result.hits = ranked[: max(1, min(limit, 50))]
        result.candidates = [(h.target.topic, h.signals) for h in ranked if h.signals]
        if ranked:
            result.features = Verdict(self).features(
                ranked, words, content, exact, edition, lean, query
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

    def could_be_misspelt_name(self, key: str) -> bool:
        """Whether a normalised query is short enough to be some name misspelt as a whole
        (:func:`misspelt_name`): at least MISSPELT_NAME alike means at most about 1.2 times
        the name's length. A long question is no misspelt name, and is not compared."""
        return len(key) * MISSPELT_NAME <= self._longest * (2 - MISSPELT_NAME)

    def has_word(self, word: str) -> bool:
        """Whether some name holds this (normalised) word."""
        return word in self._postings

    def exact(self, query: str, edition: str | None = None, mentions: bool = False) -> list[Target]:
        """The targets one of whose names is exactly the query: with ``mentions``, only
        those that merely mention it; else only their own names."""
        names = self._exact_names(normalize(str(query)[:MAX_QUERY_CHARS]))
        return self._targets_named(names, edition, mentions)

    def _targets_named(
        self, names: Iterable[int], edition: str | None, mentions: bool = False
    ) -> list[Target]:
        """The targets of these names (by index), each once, in order: of the edition, and
        only names that mention them (``mentions``) or only their own names."""
        found: list[Target] = []
        for index in names:
            target = self.targets[self._target[index]]
            if (self._source[index] == MENTION) != mentions or (
                edition and target.edition != edition
            ):
                continue
            if target not in found:
                found.append(target)
        return found

    def named_starting(self, words: str, edition: str | None = None) -> list[Target]:
        """The targets one of whose own names starts with these whole words ("stone knives":
        Stone Knives and Bearskins), in the order of their names; a few at most."""
        probe = normalize(str(words)[:MAX_QUERY_CHARS])
        if not probe:
            return []
        names = []
        start = bisect.bisect_left(self._sorted_keys, probe)
        for position in range(start, min(start + 50, len(self._order))):
            key = self._sorted_keys[position]
            if not key.startswith(probe):
                break
            if key == probe or key.startswith(probe + " "):  # "stone knife" is not "stone knives"
                names.append(self._order[position])
        return self._targets_named(names, edition)

    def named_ending(self, words: str, edition: str | None = None) -> list[Target]:
        """The targets one of whose own names ends with these whole words and is longer
        ("transport crash survivor": the 2E mission Alpha 5 Approach Transport Crash
        Survivor, whose card list lost the comma after its location), in name order."""
        if self._endings is None:
            endings: dict[str, list[str]] = {}
            for key in sorted(self._exact):
                parts = key.split()
                for cut in range(1, len(parts)):
                    endings.setdefault(" ".join(parts[cut:]), []).append(key)
            self._endings = endings
        keys = self._endings.get(normalize(str(words)[:MAX_QUERY_CHARS]), ())
        return self._targets_named([i for key in keys for i in self._exact_names(key)], edition)

    def _offer_passages(self, query: str, edition: str | None, best: dict, offer) -> float:
        """One score per topic from its names and its best passage: a name explains the
        query's words it holds, the passage the rest (weights in PASSAGE_*)."""
        hits = self.passages.search(query, limit=40)
        lean = 0.0 if edition else self.passages.lean(query)
        share = {}
        for hit in hits:
            target = self.by_topic.get(hit.topic)
            if target is None or (edition and self.targets[target].edition != edition):
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
            offer(
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
        return lean

    def _rank(
        self,
        best: dict[int, Hit],
        exact: set[int],
        content: list[str],
        lean: float,
        quoted: list[list[str]],
        key: str = "",
    ) -> None:
        """Each candidate's signals, and with a fitted ranking its score replaced by the
        probability the ranking gives it (see bot.search.ranking); ``quoted``: the terms
        of the query's quoted phrases."""
        model = self.ranker_override or ranking.load_shipped()
        pool = sorted(best.items(), key=lambda item: -item[1].score)
        best_support = max((hit.support for _, hit in pool), default=0.0)
        for position, (target, hit) in enumerate(pool):
            if position >= ranking.CANDIDATES:
                if model is not None:
                    hit.score = 0.0  # beyond the candidates the ranking weighs
                continue
            cover, whole = _name_fit(hit.matched, hit.via, content)
            nearly = _nearly_whole(hit, key, cover, whole)
            if quoted:
                hit.unquoted = Verdict(self).unquoted(hit, quoted)
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

    def suggest(
        self, prefix: str, edition: str | None = None, limit: int = MAX_SUGGESTIONS
    ) -> list[tuple[str, str]]:
        """Autocomplete: up to 25 (entry id, label ≤ 100 chars), from memory, per keystroke."""
        limit = max(1, min(limit, MAX_SUGGESTIONS))
        words = normalize(str(prefix)[:MAX_QUERY_CHARS], fold_plurals=False).split()[:8]
        chosen: list[int] = []
        seen: set[int] = set()

        def take(target: int) -> bool:
            if target in seen or (edition and self.targets[target].edition != edition):
                return False
            seen.add(target)
            chosen.append(target)
            return len(chosen) >= limit

        if not words:
            for target in sorted(
                self.by_topic.values(),
                key=lambda t: (self.targets[t].title.casefold(), self.targets[t].topic),
            )[:limit]:
                take(target)
            return [self._label(t) for t in chosen]

        full = self._prefix_pass(words, take)
        kept = [w for w in words if w not in FILLER]
        if not full and kept and len(kept) < len(words):
            # "how does kira nerys work": the question words are not part of any name.
            words = kept
            full = self._prefix_pass(words, take)
        typed = " ".join(words)
        folded = normalize(typed)
        if not full and len(typed) >= 4:
            # 3. a typo: the names that best match what was typed, at C speed.
            candidates = self._name_candidates(words, limit=SUGGEST_FUZZY_POOL)
            if candidates:
                keys = [self._keys[i] for i in candidates]
                picked = process.extract(
                    folded, keys, scorer=fuzz.WRatio, limit=limit * 2, score_cutoff=60
                )
                for _, _, position in picked:
                    if take(self._target[candidates[position]]):
                        break
        return [self._label(t) for t in chosen]

    def _prefix_pass(self, words: list[str], take) -> bool:
        """Whole names, then words, that start as typed; True once ``take`` is full."""
        typed = " ".join(words)
        folded = normalize(typed)
        full = False
        # 1. whole names starting with what was typed: titles first, then the rest.
        for probe in dict.fromkeys((typed, folded)):
            start = bisect.bisect_left(self._sorted_keys, probe)
            window = []
            for position in range(start, min(start + 400, len(self._order))):
                if not self._sorted_keys[position].startswith(probe):
                    break
                window.append(self._order[position])
            window.sort(key=lambda i: (self._source[i], len(self._keys[i])))
            for index in window:
                if take(self._target[index]):
                    full = True
                    break
            if full:
                break
        if not full:
            # 2. every typed word present (the last one as a prefix), in any position.
            *complete, last = words
            pools = []
            for word in complete:
                pool: set[int] = set()
                for vocab_word in self._word_matches(word, allow_fuzzy=True):
                    pool.update(self._postings[vocab_word][:POSTING_CAP])
                pools.append(pool)
            last_words = []
            start = bisect.bisect_left(self._vocab_sorted, last)
            for candidate in self._vocab_sorted[start : start + 60]:
                if not candidate.startswith(last):
                    break
                last_words.append(candidate)
            if not last_words and len(last) >= 4:
                last_words = list(self._word_matches(last))
            if pools:
                pools.sort(key=len)
                candidates = pools[0]
                for pool in pools[1:]:
                    candidates = candidates & pool
                hits = self._with_last_word(candidates, last, last_words)
            else:
                hits = []
                for word in last_words:
                    hits.extend(self._postings[word][:500])
                    if len(hits) >= POSTING_CAP:
                        break
            hits.sort(key=lambda i: (self._source[i], len(self._keys[i]), self._keys[i]))
            for index in hits:
                if take(self._target[index]):
                    full = True
                    break
        return full

    def _with_last_word(self, candidates: set[int], last: str, near: list[str]) -> list[int]:
        """The candidate names with a word that starts as ``last`` (still being typed), or
        failing any, one of its ``near`` spellings. Walks whichever is shorter: the posting
        lists of those words or the candidates themselves (this is autocomplete's hot path)."""
        vocab = self._vocab_sorted
        lo = bisect.bisect_left(vocab, last)
        hi = bisect.bisect_left(vocab, last + "\U0010ffff", lo)
        words = vocab[lo:hi] if hi > lo else near
        budget = 4 * len(candidates)
        cost = 0
        for word in words:
            cost += len(self._postings[word])
            if cost > budget:
                break
        if cost <= budget:
            found: set[int] = set()
            for word in words:
                found.update(candidates.intersection(self._postings[word]))
            return list(found)
        if hi > lo:
            return [i for i in candidates if any(k.startswith(last) for k in self._keys[i].split())]
        wanted = set(near)
        return [i for i in candidates if wanted.intersection(self._keys[i].split())]

    def _label(self, target: int) -> tuple[str, str]:
        t = self.targets[target]
        label = f"{t.title} ({t.edition})"
        if len(label) > LABEL_LIMIT:
            label = label[: LABEL_LIMIT - 1] + "…"
        return t.entry, label

    def resolve(self, query_or_id: str, edition: str | None = None) -> Target | None:
        """An entry id, a topic id, or the best confident match of a query."""
        text = str(query_or_id).strip()
        for table in (self.by_entry, self.by_topic):
            if text in table:
                return self.targets[table[text]]
        result = self.search(text, edition=edition, limit=1)
        return result.hits[0].target if result.confident and result.hits else None

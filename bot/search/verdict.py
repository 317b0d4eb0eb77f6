"""The verdict: whether a search's top answer is confident, or only offered.

It observes the top answer (one feature row): its log-odds and its lead over rivals, how it
was found, how much of the query its name explains, and the signs that a lookup names another
kind of the thing, a part of the topic the answer never speaks of, or two answers at once.
The confidence model (bot.search.confidence) weighs a few of them, each with a stated sign,
and its vetoes overrule it. The ranking (bot.search.index) orders the answers; this decides
only whether the first one is said outright.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Protocol

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from bot.normalize import holds_run, normalize, terms
from bot.search import confidence
from bot.search.hits import FOUND_BY_TEXT
from bot.search.likeness import FILLER, SLIP
from bot.search.likeness import SOURCE_WORDS as _SOURCE_WORDS
from bot.search.likeness import likeness as _likeness
from bot.search.likeness import name_fit as _name_fit
from bot.search.likeness import nearly_whole as _nearly_whole
from bot.search.passages import PassageIndex, written_sentences
from bot.search.wording import QUESTION_OPENINGS as _QUESTION_OPENINGS
from bot.search.wording import asks_of_cards, asks_with_unnamed

if TYPE_CHECKING:
    from bot.search.hits import Hit

# A heading's last clause is what it asks ("Space Missions -- Multiple Ships").
# From the start of a run of spaces only, possessively: tried from every space of a long run
# "\s+--?" was quadratic.
_CLAUSE_BREAK = re.compile(r"(?<!\s)\s++--?\s+|[:;,/&()\u2013\u2014]")
# The source words as terms, with what a source is called in full ("current rules
# document") and the editions: none of them narrows the name a lookup ends in.
_META_TERMS = frozenset(terms(" ".join(_SOURCE_WORDS) + " current document 1e 2e edition"))
# Beside the source words, the words that only wrap what a heading asks ("Expanded
# Explanation"): a heading's part made of them asks nothing of the answer.
_ASIDE_IGNORED = _META_TERMS | frozenset(terms(" ".join(sorted(FILLER))))


def _span(words: list[str], run: list[str]) -> range | None:
    """Where ``run`` stands in ``words`` word for word, if it does."""
    size = len(run)
    for start in range(len(words) - size + 1):
        if run and words[start : start + size] == run:
            return range(start, start + size)
    return None


def _names_another(ranked: list[Hit], words: list[str]) -> bool:
    """Whether the query holds, besides the name the top answer matched, the whole title
    (two words or more) of another answer of its edition, apart: "Major Rakal's guide to
    dilemma resolution" names a card's ruling and a rule, and may mean either."""
    top = ranked[0]
    if top.via in FOUND_BY_TEXT:
        return False
    own = _span(words, top.matched.split())
    if own is None:
        return False
    for hit in ranked[1:]:
        title = normalize(hit.target.title).split()
        if len(title) < 2 or hit.target.edition != top.target.edition or hit.target == top.target:
            continue
        other = _span(words, title)
        if other is not None and not set(other) & set(own):
            return True
    return False


def _in_name(term: str, name: set[str]) -> bool:
    """A name's word, as typed, misspelt or in part."""
    return term in name or (
        len(term) >= 3
        and any(
            OSA.distance(term, n) <= (2 if len(term) >= 8 else 1)
            or (len(term) >= 4 and fuzz.partial_ratio(term, n) >= 80)
            for n in name
        )
    )


class Searched(Protocol):
    """What a verdict reads of the index it judges (a bot.search.index.SearchIndex): the
    passages, when built, and each topic's position."""

    passages: PassageIndex | None
    by_topic: dict[str, int]


class Verdict:
    """The features of a search's top answer that the confidence model reads, computed
    against one index (its passages and topics)."""

    __slots__ = ("index",)

    def __init__(self, index: Searched):
        self.index = index

    def unquoted(self, hit: Hit, quoted: list[list[str]]) -> float:
        """The share of the quoted phrases neither its matched name nor its text holds."""
        name = terms(hit.matched)
        missing = sum(
            1
            for run in quoted
            if not holds_run(name, run)
            and not self.index.passages.holds_phrase(hit.target.topic, run)
        )
        return missing / len(quoted)

    def features(
        self,
        ranked: list[Hit],
        words: list[str],
        content: list[str],
        exact_targets: set[int],
        edition: str | None,
        lean: float = 0.0,
        query: str = "",
    ) -> list[float]:
        """What the confidence model reads about the top answer (see bot.search.confidence);
        ``words``: the query's normalised words, ``content`` those that say what it is
        about; ``exact_targets``: the targets one of whose names is the whole query."""
        top = ranked[0]
        # An answer the top one lists as related (or that lists it) is shown beside it, to
        # read next: no rival reading of the query ("Cloaking": the cloaking device rule
        # only says "See cloaking and phasing").
        others = [h for h in ranked[1:] if not top.target.kin(h.target)]
        same = [h for h in others if h.target.edition == top.target.edition]
        second = same[0].score if same else 0.0
        rivals = sum(1 for h in same if top.score - h.score < 0.02)
        other_best = max(
            (h.score for h in others if h.target.edition != top.target.edition), default=0.0
        )
        # How close the other edition's best answer comes: 1 tied, 0 two log-odds behind.
        other = max(0.0, 1.0 - confidence.margin(top.score, other_best) / 2)
        cover, whole = _name_fit(top.matched, top.via, content)
        via = top.via
        exact = self.index.by_topic[top.target.topic] in exact_targets
        said = written_sentences(query)
        heading = self._is_heading(top, query, words, said)
        unheld_modifier = self._unheld_modifier(top, query) if heading else 0.0
        # A one-word name narrowed by a word its text never says beside it is another kind
        # of the thing, as a longer name's last word is ("Other Order Actions" asks of order
        # actions, of which the actions rule says nothing; "Dilemmas With Conditional
        # Requirements"). So is a longer name with the word typed inside it ("Playing
        # Specific Kinds of Cards" is no rule for playing a card). A longer name is narrow
        # already: a word more before it is about the same thing ("hidden ship attributes").
        other_kind = self._other_kind(top, query)
        if unheld_modifier and (len(terms(top.matched)) == 1 or self._name_split(top, query)):
            other_kind = 1.0
        return confidence.feature_row(
            score=top.score,
            gap=top.score - second,
            exact=1.0 if exact else _nearly_whole(top, " ".join(words), cover, whole),
            via_title=float(via == "title"),
            via_alias=float(via == "alias"),
            via_card=float(via == "card name"),
            via_initialism=float(via == "initialism"),
            via_mention=float(via == "mentioned"),
            via_typo=float(via == "typo"),
            via_fulltext=float(via in FOUND_BY_TEXT),
            query_words=math.log1p(len(content)),
            name_cover=cover,
            rivals=math.log1p(rivals),
            other_edition=0.0 if edition else other,
            title_only=float(top.target.title_only),
            support=top.support,
            support_gap=top.support - max((h.support for h in others[:5]), default=0.0),
            edition_fit=confidence.edition_fit(top.target.edition, edition, lean),
            name_whole=whole,
            logit=confidence.logit(top.score),
            explained_margin=confidence.explained_margin(
                top.score, second, max(top.support, cover * whole)
            ),
            margin=confidence.margin(top.score, second),
            share=confidence.share([h.score for h in [top, *others[:9]]]),
            unquoted=top.unquoted,
            mention_name=float(top.mention),
            # inside_card is left 0: the answers know the cards (bot.answers.lookups)
            two_titles=float(_names_another(ranked, words)),
            sentences=math.log1p(said),
            unheld_modifier=unheld_modifier,
            unheld_aside=self._unheld_aside(top, query) if heading else 0.0,
            other_kind=other_kind,
            other_section=self._other_section(top, query) if heading else 0.0,
            unnamed_party=float(
                top.via not in FOUND_BY_TEXT and asks_with_unnamed(query, top.matched)
            ),
        )

    def _other_section(self, top: Hit, query: str) -> float:
        """1 when a lookup names an answer whose text is only one named section of its entry
        (the rest not bundled; see :attr:`Target.section`) and asks, besides its name, of
        words that are not that section's: "Borg Personnel" asks of the Borg entry's
        personnel, which the bundled Borg text, its new "Objectives" subsection, is not;
        "Borg objectives" asks of that very section. Asked of a heading only."""
        if not top.target.section or top.via in FOUND_BY_TEXT:
            return 0.0
        name = set(terms(top.matched))
        section = set(terms(top.target.section))
        asked = [
            t
            for t in self.index.passages.query_terms(query)
            if t not in _ASIDE_IGNORED and not _in_name(t, name)
        ]
        if not asked or any(_in_name(t, section) for t in asked):
            return 0.0
        return 1.0

    def _unheld_modifier(self, top: Hit, query: str) -> float:
        """1 when a lookup (no question) ends in the answer's name and the word before it
        narrows the name in a way no passage of the answer says, the two words side by
        side: "Other Order Actions" asks of a kind of action that the actions rule never
        names ("order actions"), "random selection" is said so by the selections rule.
        Asked of a heading only (see ``_is_heading``)."""
        asked = self._last_clause_terms(query)
        name = set(terms(top.matched))
        end = len(asked)
        while end and _in_name(asked[end - 1], name):
            end -= 1
        if end == len(asked) or end == 0:
            return 0.0
        held = self.index.passages.holds_phrase(top.target.topic, [asked[end - 1], asked[end]])
        return 0.0 if held else 1.0

    def _name_split(self, top: Hit, query: str) -> bool:
        """Whether the words of the answer's name that a heading's last clause holds stand
        apart there, other words between them ("Playing Specific Kinds of Cards")."""
        if top.via in FOUND_BY_TEXT:
            return False
        name = set(terms(top.matched))
        at = [i for i, t in enumerate(self._last_clause_terms(query)) if _in_name(t, name)]
        return len(at) >= 2 and at[-1] - at[0] + 1 > len(at)

    def _last_clause_terms(self, query: str) -> list[str]:
        """The terms of a query's last clause, what a heading asks ("Space Missions --
        Multiple Ships"), source words and editions left out."""
        clause = _CLAUSE_BREAK.split(query)[-1]
        return [t for t in self.index.passages.query_terms(clause) if t not in _META_TERMS]

    def _other_kind(self, top: Hit, query: str) -> float:
        """1 when the query (its last clause) ends in the last word of the answer's name of
        two words or more but holds none of the name's other words, having words of its own
        before it: it names another kind of that thing ("Card Play Phase" is no seed phase,
        "Pending Effects" no conditional effect). A name found by the text alone is not the
        name the query was typed after; a card's name the text mentions counts when the
        query asks of "cards" beside it (see :func:`asks_of_cards`)."""
        if self.index.passages is None or top.via in FOUND_BY_TEXT:
            return 0.0
        if top.mention:  # a card's name its text mentions, not a name of its own
            return float(asks_of_cards(query, top.matched))
        asked = self._last_clause_terms(query)
        name = terms(top.matched)
        if len(name) < 2 or len(asked) < 2 or asked[-1] != name[-1]:
            return 0.0
        kind = set(name[:-1])
        if any(_in_name(term, kind) for term in asked[:-1]):
            return 0.0
        # The name's other words typed with a slip, as its name match allows ("Memery Wipe"
        # is Memory Wipe, "plying a card" is playing a card): the same thing.
        typed = normalize(_CLAUSE_BREAK.split(query)[-1]).split()
        others = [w for w in top.matched.split()[:-1] if w not in FILLER]
        held = any(_likeness(t, w) >= SLIP for w in others for t in typed)
        return 0.0 if held else 1.0

    def _unheld_aside(self, top: Hit, query: str) -> float:
        """1 when a heading in parts ("The Seed Phase - Facilities", "Space Missions --
        Multiple Ships") names the answer in one part and asks in another of what no
        passage of the answer says, that part's words together: it asks of something
        within the topic that the answer never speaks of. Words that only wrap ("Expanded
        Explanation") do not count. Asked of a heading only (see ``_is_heading``)."""
        parts = [
            [t for t in self.index.passages.query_terms(part) if t not in _ASIDE_IGNORED]
            for part in _CLAUSE_BREAK.split(query)
        ]
        parts = [part for part in parts if part]
        name = set(terms(top.matched))
        named = [any(_in_name(t, name) for t in part) for part in parts]
        asides = [part for part, is_named in zip(parts, named, strict=True) if not is_named]
        if not any(named) or not asides:
            return 0.0
        topic = top.target.topic
        said = all(self.index.passages.holds_together(topic, part) for part in asides)
        return 0.0 if said else 1.0

    def _is_heading(self, top: Hit, query: str, words: list[str], said: int) -> bool:
        """A lookup worded as a heading, not a question, answered by a ruling's own name."""
        if self.index.passages is None or top.mention or said or "?" in query:
            return False
        return not (words and words[0] in _QUESTION_OPENINGS)  # a question without its "?"

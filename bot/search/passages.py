"""Passage-level retrieval: every paragraph, numbered step, bullet and example of every
ruling is a passage of its topic, ranked with BM25 over stemmed terms.

Everything is held in memory and built once per generation of the data; a topic's passages
can be replaced alone (:meth:`PassageIndex.set_topic`), so a moderator's change to one
ruling need not rebuild the rest. Questions and passages go through the same analysis,
:func:`bot.normalize.terms` (lexicon, stop words, Snowball stems); a question's words are
met with the passages' terms (typos, compounds) by :mod:`bot.search.question_terms`, and
its lean to an edition is :mod:`bot.search.edition_lean`.
"""

from __future__ import annotations

import bisect
import copy
import heapq
import itertools
import json
import logging
import math
import re
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from bot.normalize import (
    holds_run,
    normalize,
    terms,
    terms_with_words,
)
from bot.search.edition_lean import EditionLean, EditionVocabulary
from bot.search.passage_texts import PassageTexts
from bot.search.question_terms import QuestionTerms, english_words

log = logging.getLogger(__name__)

K1 = 1.2
B = 0.75
TITLE_REPEAT = 2  # a topic's title counts in each of its passages, twice
# A term in more passages than this narrows nothing: skipped when others exist, and walked
# only this far when it is all a question has (the work stays bounded at any index size).
POSTING_CAP = 4000

_ITEM = re.compile(r"^\s*(?:[-*•]\s+|\(?\d{1,2}[.)]\s+|\(?[a-z][.)]\s+)")
_EXAMPLE = re.compile(r"^\s*(?:for\s+)?examples?\b", re.IGNORECASE)
# A numbered step that is only its title ("4. Overcoming Dilemmas"), its sub-steps lettered
# below it: pointed out alone, it says only where the answer is.
_STEP_TITLE = re.compile(r"^\s*\(?\d{1,2}[.)]\s+[^.!?:;]+$")
_SUB_STEP = re.compile(r"^\s*\(?[a-z][.)]\s+")
STEP_TITLE_WORDS = 6
# A paragraph longer than this many words is cut into windows of whole sentences: some
# sources lost their paragraph breaks (a glossary entry of 500 words is one "paragraph"),
# and BM25 over such a wall finds nothing in particular and points at nothing.
WINDOW_WORDS = 60
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”')]*\s+(?=[\"“(]?[A-Z0-9])")
_NOT_AN_END = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|Mr|Mrs|Dr|St|No|cf)\.|\b[A-Z]\.)$")
# As people type a question: a sentence may start in lower case ("it stopped. can i beam?").
_TYPED_END = re.compile(r"(?<=[.!?])[\"”')]*\s+(?=\S)")
_NOT_AN_END_TYPED = re.compile(_NOT_AN_END.pattern, re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Passage:
    topic: str
    entry: str  # the version of the topic whose text holds it
    index: int  # its position among that text's passages (0-based)
    text: str
    example: bool  # a worked example rather than the rule itself


def split_passages(text: str) -> list[tuple[str, bool]]:
    """A ruling's text cut into (passage, is_example): paragraphs, and in them each
    numbered step or bullet on its own (an example stays with the paragraph it opens)."""
    out: list[tuple[str, bool]] = []
    in_example = False
    for paragraph in re.split(r"\n\s*\n", text or ""):
        lines = [line for line in paragraph.split("\n") if line.strip()]
        if not lines:
            continue
        current: list[str] = []
        pieces: list[list[str]] = []
        for line in lines:
            if _ITEM.match(line) and current:
                pieces.append(current)
                current = []
            current.append(line.strip())
        pieces.append(current)
        starts_example = bool(_EXAMPLE.match(lines[0]))
        # A list right after "Examples:" is a list of examples.
        in_example = starts_example or (in_example and bool(_ITEM.match(lines[0])))
        for piece in pieces:
            for body in windows(" ".join(piece)):
                out.append((body, in_example or bool(_EXAMPLE.match(body))))
        if not starts_example and not _ITEM.match(lines[0]):
            in_example = paragraph.rstrip().endswith(("Examples:", "Example:", "example:"))
    return out


def sentences(text: str, typed: bool = False) -> list[str]:
    """A paragraph cut into sentences (abbreviations such as "e.g." and initials kept whole);
    ``typed``: as people type, a sentence may start in lower case."""
    ends, kept = (_TYPED_END, _NOT_AN_END_TYPED) if typed else (_SENTENCE_END, _NOT_AN_END)
    out: list[str] = []
    start = 0
    for match in ends.finditer(text):
        # Only the piece's last characters can end in an abbreviation: searching the whole
        # piece, which grows while abbreviations are skipped, was quadratic.
        tail = text[max(start, match.start() - 16) : match.start()].rstrip()
        if kept.search(tail):
            continue
        out.append(text[start : match.end()].strip())
        start = match.end()
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return out


_ENDED = re.compile(r"[.!?][\"”')]*\s*$")


def written_sentences(text: str) -> int:
    """How many whole sentences a query is written in: a bare lookup ("deck size") none, a
    question one, a situation told before its question several."""
    found = sentences(text.strip(), typed=True)
    return len(found) - (0 if found and _ENDED.search(found[-1]) else 1) if found else 0


def windows(text: str, limit: int = WINDOW_WORDS) -> list[str]:
    """A long passage as consecutive windows of whole sentences of about ``limit`` words
    (a short one unchanged)."""
    if len(text.split()) <= limit:
        return [text]
    out: list[str] = []
    current: list[str] = []
    size = 0
    for sentence in sentences(text):
        words = len(sentence.split())
        if current and size + words > limit:
            out.append(" ".join(current))
            current, size = [], 0
        current.append(sentence)
        size += words
    if current:
        out.append(" ".join(current))
    return out


def topic_passages(rows: Iterable[dict]) -> list[Passage]:
    """The passages of one topic, from its versions' rows (``topic``, ``id``, ``text``);
    each distinct text once, the best-ranked version first."""
    out: list[Passage] = []
    seen: set[str] = set()
    for row in rows:
        instructions = _instructions(row)
        for position, (text, example) in enumerate(split_passages(row.get("text") or "")):
            body = _without_instruction(text, instructions)
            if not body:
                continue  # "Replace the first paragraph of this entry with the following:"
            key = " ".join(body.split()).casefold()
            if key in seen:
                continue
            seen.add(key)
            out.append(Passage(row["topic"], row["id"], position, body, example))
    return out


SAID_RUN = 4  # words in a run two versions must share for a word to count as said before
SAID_SHARE = 0.9  # a sentence whose words are this much said before is the other version's


def said_runs(text: str) -> set[tuple[str, ...]]:
    """The runs of SAID_RUN consecutive words a text holds (see :func:`unsaid`)."""
    words = normalize(text, fold_plurals=False).split()
    return {tuple(words[i : i + SAID_RUN]) for i in range(len(words) - SAID_RUN + 1)}


def unsaid(body: str, said: set[tuple[str, ...]]) -> list[str]:
    """The runs of consecutive sentences of ``body`` that a text with these runs does not
    already say. A sentence it says word for word but for a few words, or pieced together
    where a scrape ran two sentences into one, is the other text's."""
    pieces: list[list[str]] = [[]]
    for sentence in sentences(body):
        words = normalize(sentence, fold_plurals=False).split()
        covered: set[int] = set()
        for i in range(len(words) - SAID_RUN + 1):
            if tuple(words[i : i + SAID_RUN]) in said:
                covered.update(range(i, i + SAID_RUN))
        if len(words) >= SAID_RUN and len(covered) >= SAID_SHARE * len(words):
            pieces.append([])  # said already: the pieces on either side stay apart
        else:
            pieces[-1].append(sentence)
    return [" ".join(piece) for piece in pieces if piece]


def _instructions(row: dict) -> list[str]:
    """The editing instructions a CRD amendment's text holds, as its import recorded them
    (lower case, without closing punctuation)."""
    recorded = row.get("amendments") or []
    if isinstance(recorded, str):
        recorded = json.loads(recorded or "[]")
    found = (str(a.get("instruction") or "") for a in recorded if isinstance(a, dict))
    return [i.strip().strip("*_").rstrip(" .:;").lower() for i in found if i.strip()]


def _without_instruction(passage: str, instructions: list[str]) -> str:
    """A passage without the editing instruction it opens with: an instruction says where
    the text goes, not what the rule is, and is never the part that answers."""
    bare = passage.strip().strip("*_").strip()
    for instruction in instructions:
        if bare.lower().startswith(instruction):
            return bare[len(instruction) :].lstrip(" .:;*_").rstrip(" *_")
    return passage


class Posting:
    """The passages holding one term, and how often each holds it: two arrays in passage
    order (a passage's number only grows, so they stay sorted and are searched by halving).
    At 100,000 entries there are millions of these pairs: as dicts of ints they took most of
    the process's memory, as arrays a tenth of it."""

    __slots__ = ("slots", "counts")

    def __init__(self, slots: array | None = None, counts: array | None = None):
        self.slots = array("i") if slots is None else slots
        # A byte a count, widened for the rare term a passage holds more than 255 times.
        self.counts = array("B") if counts is None else counts

    def __len__(self) -> int:
        return len(self.slots)

    def __iter__(self) -> Iterator[int]:
        return iter(self.slots)

    def _at(self, slot: int) -> int:
        at = bisect.bisect_left(self.slots, slot)
        return at if at < len(self.slots) and self.slots[at] == slot else -1

    def __contains__(self, slot: int) -> bool:
        return self._at(slot) >= 0

    def get(self, slot: int) -> int | None:
        """How often the passage holds the term (None: it does not)."""
        at = self._at(slot)
        return self.counts[at] if at >= 0 else None

    def items(self) -> Iterator[tuple[int, int]]:
        return zip(self.slots, self.counts, strict=True)

    def add(self, slot: int, count: int) -> None:
        """A passage numbered after every one held (see ``PassageIndex.set_topic``)."""
        if self.slots and slot <= self.slots[-1]:
            raise ValueError(f"passage {slot} added out of order")
        if count > 255 and self.counts.typecode == "B":
            self.counts = array("I", self.counts)
        self.slots.append(slot)
        self.counts.append(count)

    def remove(self, slot: int) -> None:
        at = self._at(slot)
        if at >= 0:
            del self.slots[at]
            del self.counts[at]

    def copy(self) -> Posting:
        return Posting(array("i", self.slots), array(self.counts.typecode, self.counts))


_NOWHERE = Posting()  # a term no passage holds


class PassageColumns:
    """Every passage of an index by its number, kept as columns (the topics and entries are
    shared strings; the texts compressed in blocks, a removed passage's reading None): a
    passage object each took a third of the memory its text did. Reading one by its number
    gives a :class:`Passage`."""

    __slots__ = ("topics", "entries", "positions", "examples", "texts")

    def __init__(self) -> None:
        self.topics: list[str] = []
        self.entries: list[str] = []
        self.positions = array("i")
        self.examples = bytearray()
        self.texts = PassageTexts()

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, slot: int) -> Passage | None:
        text = self.texts[slot]
        if text is None:
            return None
        return Passage(
            self.topics[slot],
            self.entries[slot],
            self.positions[slot],
            text,
            bool(self.examples[slot]),
        )

    def append(self, passage: Passage) -> None:
        self.topics.append(passage.topic)
        self.entries.append(passage.entry)
        self.positions.append(passage.index)
        self.examples.append(passage.example)
        self.texts.append(passage.text)

    def remove(self, slot: int) -> None:
        self.texts.remove(slot)

    def copy(self) -> PassageColumns:
        clone = PassageColumns()
        clone.topics = list(self.topics)
        clone.entries = list(self.entries)
        clone.positions = array("i", self.positions)
        clone.examples = bytearray(self.examples)
        clone.texts = self.texts.copy()
        return clone


@dataclass(slots=True)
class PassageHit:
    topic: str
    score: float  # BM25 of its best passage
    share: float  # that score over the best any passage could reach for this query, 0..1
    passage: Passage


class PassageIndex:
    """BM25 over passages, in memory; topics can be replaced one at a time."""

    def __init__(self) -> None:
        self._passages = PassageColumns()
        self._lengths = array("i")  # each passage's length in terms
        self._postings: dict[str, Posting] = {}  # term -> passages and frequencies
        # Per topic: its passages' numbers (a range), its title, and the title's terms (a tuple: at
        # 100,000 topics lists took tens of MB; its words are worked out again on removal).
        self._by_topic: dict[str, range] = {}  # numbered one after another when indexed
        self._title_text: dict[str, str] = {}
        self._titles: dict[str, tuple[str, ...]] = {}
        self._editions: dict[str, str] = {}
        self._total_length = 0
        self._live = 0
        self._owned: set[int] | None = None  # postings a copy owns (see ``edited``)
        # A question's words as terms (typos, compounds; its ``known_words``), and its lean
        # to an edition (its ``card_vocabulary``): each asked for its witness when first needed.
        self.questions = QuestionTerms(self._postings)
        self.edition_lean = EditionLean()

    def __len__(self) -> int:
        return self._live

    def warm_up(self) -> None:
        """Build now what questions read on first need: the card lists' vocabulary (every
        lean), their words and the English word list (a word no passage holds)."""
        self.edition_lean.card_vocabulary()
        self.questions.known_words()
        english_words()

    def edited(self) -> PassageIndex:
        """A copy to update (``set_topic``, ``remove_topic``) while answers go on reading this
        one: containers are copied now, each posting the first time the copy changes it."""
        clone = copy.copy(self)
        clone._passages = self._passages.copy()
        clone._lengths = array("i", self._lengths)
        clone._postings = dict(self._postings)
        clone._by_topic = dict(self._by_topic)
        clone._title_text = dict(self._title_text)
        clone._titles = dict(self._titles)
        clone._editions = dict(self._editions)
        clone.questions = self.questions.edited(clone._postings)
        clone.edition_lean = self.edition_lean.edited()
        clone._owned = set()
        return clone

    def _posting(self, term: str, create: bool = False) -> Posting | None:
        """The posting of ``term`` this index may change (copied first if it is shared)."""
        posting = self._postings.get(term)
        if posting is None:
            if not create:
                return None
            posting = self._postings[term] = Posting()
        elif self._owned is not None and id(posting) not in self._owned:
            posting = self._postings[term] = posting.copy()
        else:
            return posting
        if self._owned is not None:
            self._owned.add(id(posting))
        return posting

    def set_topic(self, topic: str, title: str, passages: list[Passage], edition: str = "") -> None:
        """Index (or re-index) one topic's passages; none removes the topic."""
        self.remove_topic(topic)
        self._editions[topic] = sys.intern(edition)
        title_words, title_terms, title_written = terms_with_words(title)
        self._title_text[topic] = title
        self._titles[topic] = tuple(title_terms)
        title_terms = title_terms * TITLE_REPEAT
        slots = []
        for passage in passages or [Passage(topic, "", 0, "", False)]:
            words, found, written = terms_with_words(passage.text)
            counts = Counter(found + title_terms)
            if not counts:
                continue
            slot = len(self._passages)
            self._passages.append(passage)
            length = sum(counts.values())
            self._lengths.append(length)
            self._total_length += length
            self._live += 1
            for term, count in counts.items():
                self._posting(term, create=True).add(slot, count)
            self.questions.count_words(words + title_words, 1)
            held = set(written + title_written)
            self.edition_lean.count(held, self._editions.get(passage.topic), 1)
            slots.append(slot)
        self._by_topic[topic] = range(slots[0], slots[-1] + 1) if slots else range(0)
        if len(self._by_topic[topic]) != len(slots):  # set_topic numbers them in one run
            raise AssertionError(f"the passages of {topic} are not numbered in one run")

    def remove_topic(self, topic: str) -> None:
        self.questions.changed()
        title_words, _, title_written = terms_with_words(self._title_text.pop(topic, ""))
        for slot in self._by_topic.pop(topic, []):
            passage = self._passages[slot]
            if passage is None:
                continue
            words, found, written = terms_with_words(passage.text)
            self.questions.count_words(words + title_words, -1)
            for term in set(found).union(self._titles.get(topic, ())):
                posting = self._posting(term)
                if posting is not None:
                    posting.remove(slot)
                    if not posting:
                        del self._postings[term]
            held = set(written + title_written)
            self.edition_lean.count(held, self._editions.get(passage.topic), -1)
            self._total_length -= self._lengths[slot]
            self._lengths[slot] = 0
            self._passages.remove(slot)
            self._live -= 1
        self._titles.pop(topic, None)
        self._editions.pop(topic, None)

    def lean(self, text: str) -> float:
        """Which edition a question's words belong to: toward +1 1E, toward -1 2E, 0 either
        (see bot.search.edition_lean)."""
        return self.edition_lean.lean(text, self._idf)

    def has_term(self, term: str) -> bool:
        return term in self._postings

    def query_terms(self, text: str) -> list[str]:
        """A question's terms as this index holds them (see bot.search.question_terms)."""
        return self.questions.terms(text)

    def _idf(self, term: str, df: int | None = None) -> float:
        """BM25's weight of a term held by ``df`` passages (by default, those that do)."""
        if df is None:
            df = len(self._postings.get(term, ()))
        n = max(self._live, 1)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def search(
        self, text: str, topics: dict[str, int] | None = None, limit: int = 20
    ) -> list[PassageHit]:
        """The topics whose best passage fits the question best (``topics``: only these)."""
        query = self.query_terms(text)
        if not query or not self._live:
            return []
        average = self._total_length / self._live
        present = [t for t in query if t in self._postings]
        if len(present) > 1:
            narrow = [t for t in present if len(self._postings[t]) <= POSTING_CAP]
            present = narrow or present[:1]
        ceiling = sum(self._idf(t) for t in query) * (K1 + 1) or 1.0
        scores: dict[int, float] = {}
        for term in present:
            idf = self._idf(term)
            posting = self._postings[term]
            walked = posting.items()
            if len(posting) > POSTING_CAP:  # all the question has is a common word
                walked = itertools.islice(walked, POSTING_CAP)
            for slot, tf in walked:
                norm = K1 * (1 - B + B * self._lengths[slot] / average)
                scores[slot] = scores.get(slot, 0.0) + idf * tf * (K1 + 1) / (tf + norm)
        best: dict[str, tuple[float, int]] = {}
        columns = self._passages
        for slot, score in scores.items():
            topic = columns.topics[slot]
            if not columns.texts.live(slot) or (topics is not None and topic not in topics):
                continue
            held = best.get(topic)
            # A rule beats a worked example that scores alike: the rule is the answer.
            adjusted = score * (0.85 if columns.examples[slot] else 1.0)
            if held is None or adjusted > held[0]:
                best[topic] = (adjusted, slot)
        ranked = heapq.nsmallest(limit, best.items(), key=lambda item: (-item[1][0], item[0]))
        return [
            PassageHit(topic, round(score, 4), min(1.0, score / ceiling), columns[slot])
            for topic, (score, slot) in ranked
        ]

    def holds_phrase(self, topic: str, run: list[str]) -> bool:
        """Whether the topic's title or one of its passages holds these terms together."""
        if holds_run(list(self._titles.get(topic, ())), run):
            return True
        closed = self._postings.get("".join(run)) if len(run) > 1 else None
        if closed and any(slot in closed for slot in self._by_topic.get(topic, [])):
            return True  # "red shirt" held as "redshirt"
        postings = [self._postings.get(term) for term in run]
        if not all(postings):
            return False
        for slot in self._by_topic.get(topic, []):
            passage = self._passages[slot]
            if passage is not None and all(slot in posting for posting in postings):
                if holds_run(terms(passage.text), run):
                    return True
        return False

    def holds_together(self, topic: str, words: list[str]) -> bool:
        """Whether one of the topic's passages holds all these terms, in any order (a
        passage's terms include its topic's title)."""
        postings = [self._postings.get(term) for term in set(words)]
        if not all(postings):
            return False
        return any(
            all(slot in posting for posting in postings) for slot in self._by_topic.get(topic, [])
        )

    def with_first_sub_step(self, passage: Passage) -> Passage:
        """A numbered step's bare title with its first lettered sub-step ("4. Overcoming
        Dilemmas a. After all dilemma actions are processed, ... it is overcome."), to point
        out; any other passage as it is."""
        text = passage.text
        if not _STEP_TITLE.match(text) or len(text.split()) > STEP_TITLE_WORDS:
            return passage
        for slot in self._by_topic.get(passage.topic, []):
            following = self._passages[slot]
            if (
                following is not None
                and following.entry == passage.entry
                and following.index == passage.index + 1
            ):
                if _SUB_STEP.match(following.text):
                    return replace(passage, text=f"{text} {following.text}")
                break
        return passage

    def says_beside(self, topic: str, name: str, text: str) -> bool:
        """Whether the topic says something of ``text`` where it names ``name``: its title
        holds one of the text's terms, or one of its passages holds a term of each, the
        text's weightiest term among them. That term is what the text asks about: "need" and
        "report" beside a card's name say nothing of "mirror" personnel."""
        asked = set(self.query_terms(text))
        if asked.intersection(self._titles.get(topic, ())):
            return True
        if not asked:
            return False
        weightiest = max(sorted(asked), key=self._idf)
        beside = self._postings.get(weightiest, _NOWHERE)
        slots = set(self._by_topic.get(topic, []))
        return any(
            slot in beside and slot in self._postings.get(term, _NOWHERE)
            for term in set(terms(name))
            for slot in slots
        )

    def best_passage(self, topic: str, text: str, entry: str | None = None) -> Passage | None:
        """The passage of a topic (of one of its versions) that answers a question best
        (None: none shares a term with it)."""
        query = self.query_terms(text)
        best: tuple[float, int] | None = None
        average = self._total_length / max(self._live, 1)
        for slot in self._by_topic.get(topic, []):
            passage = self._passages[slot]
            if passage is None or (entry is not None and passage.entry != entry):
                continue
            score = 0.0
            for term in query:
                tf = self._postings.get(term, _NOWHERE).get(slot)
                if tf:
                    norm = K1 * (1 - B + B * self._lengths[slot] / average)
                    score += self._idf(term) * tf * (K1 + 1) / (tf + norm)
            score *= 0.85 if passage.example else 1.0
            if score > 0 and (best is None or score > best[0]):
                best = (score, slot)
        return self._passages[best[1]] if best else None


def build_passage_index(
    rows_by_topic: dict[str, list[dict]],
    titles: dict[str, str],
    known_words: Callable[[], frozenset[str]] = frozenset,
    card_vocabulary: Callable[[], EditionVocabulary] = EditionVocabulary.empty,
) -> PassageIndex:
    """The passage index of every topic: ``rows_by_topic`` holds each topic's non-retired
    versions, best first (each row with ``topic``, ``id``, ``text``, ``edition``);
    ``known_words``: gives the terms spelt right that no passage need hold (see
    ``known_terms``), and ``card_vocabulary`` the cards' words by edition (see
    ``edition_vocabulary``), each asked for when first needed."""
    index = PassageIndex()
    index.questions.known_words = known_words
    index.edition_lean.card_vocabulary = card_vocabulary
    for topic, rows in rows_by_topic.items():
        edition = rows[0].get("edition", "") if rows else ""
        index.set_topic(topic, titles.get(topic, ""), topic_passages(rows), edition)
    return index

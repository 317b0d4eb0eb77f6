"""Building the search indexes from a store, once per generation of its data.

Everything an answer looks up by name is built here and kept: the rulings index (titles,
card forms, mentions, aliases), the card index (built on first use: the CLI rarely needs
it), and the card a ruling's title names, by edition and normalised name.
"""

from __future__ import annotations

import bisect
import functools
import json
import logging
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from bot.models import replaced_section
from bot.normalize import normalize
from bot.once import Once
from bot.search.edition_lean import EditionVocabulary, edition_vocabulary
from bot.search.hits import Target
from bot.search.index import SearchIndex
from bot.search.names import ALIAS, MENTION, TITLE, NameIndex
from bot.search.passages import PassageIndex, build_passage_index, topic_passages
from bot.search.question_terms import english_words, known_terms
from bot.store.build import Store

log = logging.getLogger(__name__)

_PRINTED_SUBTITLE = re.compile(r"^(.+?)(?: \(.+\)|, .+)$")
_QUALIFIER = re.compile(r"^(.+?) \([^()]+\)$")  # a title's closing qualifier in brackets


class CardNames:
    """The card a title names, per edition: by its full name, or by its title when the card
    has no subtitle. The first card in store order wins, as a scan of the table would. Only
    the cards' ids are kept (the store holds the rest)."""

    def __init__(self, cards: list[dict[str, Any]]):
        self._by_key: dict[tuple[str, str], str] = {}
        for card in cards:
            keys = [normalize(card["name"])]
            if not card["subtitle"]:
                keys.append(normalize(card["title"]))
            for key in keys:
                self._by_key.setdefault((card["edition"], key), card["id"])

    def card_id(self, edition: str, title: str) -> str | None:
        """The id of the card ``title`` names in ``edition``, if any."""
        return self._by_key.get((edition, normalize(title)))


# The cards whose subtitle is printed on them: 2E personnel and ships ("Kira Nerys, Iliana
# Ghemor"). Other subtitles of the card lists only tell versions apart: the 1E set or
# episode a card comes from ("Rotation Damage Marker, Deep Space Nine", "Colonel Kira, Warp
# Pack"), a 2E reprint's set code ("A Private Little War, IDR").
_PRINTED_SUBTITLES = {("2E", "Personnel"), ("2E", "Ship")}


def subtitle_printed(edition: str, kind: str) -> bool:
    """Whether cards of this edition and type print their subtitle (2E personnel and
    ships); the 1E lists give a version the set or episode it comes from as its subtitle."""
    return (edition, kind) in _PRINTED_SUBTITLES


def named_subtitles(cards: Iterable[dict[str, Any]]) -> frozenset[tuple[str, str]]:
    """The subtitles that name a card on their own, as (edition, normalised subtitle):
    "Iliana Ghemor" finds Kira Nerys, Iliana Ghemor. Only printed subtitles (see
    _PRINTED_SUBTITLES: "Deep Space Nine" is a 1E set, not the damage marker's name), not
    one several titles share ("Voyager", "Tribble" and "back" mark versions of many cards),
    nor a one-word English word ("Emissary", "Mirror", "Curious"): typed alone, those are
    rarely a card's name."""
    titles: dict[tuple[str, str], set[str]] = {}
    for card in cards:
        if card["subtitle"] and subtitle_printed(card["edition"], card["type"]):
            key = (card["edition"], normalize(card["subtitle"]))
            titles.setdefault(key, set()).add(normalize(card["title"]))
    words = english_words()
    return frozenset(
        key
        for key, named in titles.items()
        if len(named) == 1 and not (" " not in key[1] and key[1] in words)
    )


def _names_alone(subtitles: frozenset[tuple[str, str]], card: dict[str, Any]) -> bool:
    return (card["edition"], normalize(card["subtitle"] or "")) in subtitles


class RulingsIndexBuilder:
    """Builds the rulings index from a store, whole or for the topics a change touched.

    The card lists never change while a process runs, so what the names need from them is
    read once, by the first whole build, and kept for every later update.
    """

    def __init__(self, store: Store, source_label: Callable[[dict[str, Any]], str]):
        self.source_label = source_label
        self.cards_by_key: dict[tuple[str, str], dict[str, Any]] = {}
        self.cards_by_id: dict[str, dict[str, Any]] = {}
        texts: list[str] = []
        cards = list(
            store.db.query("SELECT id, edition, title, subtitle, name, type, text FROM cards")
        )
        for card in cards:
            self.cards_by_id[card["id"]] = card
            self.cards_by_key.setdefault((card["edition"], normalize(card["name"])), card)
            texts.append(f"{card['name']} {card['text'] or ''}")
        self.subtitles = named_subtitles(cards)
        # A title several cards carry ("Kira Nerys": 23 versions in the two lists) is not
        # the name of a ruling about one of them ("Kira Nerys, Iliana Ghemor"): typed
        # alone, it may mean any of them, and the ruling would be a silent pick. Reprints
        # of one card (one name, listed once per set) do not share it.
        names_of: dict[str, set[str]] = {}
        for card in cards:
            names_of.setdefault(normalize(card["title"]), set()).add(normalize(card["name"]))
        self.shared_titles = frozenset(title for title, names in names_of.items() if len(names) > 1)
        self.card_words, self.card_vocabulary = card_witnesses(
            (card["edition"], text) for card, text in zip(cards, texts, strict=True)
        )
        # What each card prints, for a lookup no name holds (see card_answer.cards_printing).
        self.card_texts: Once[CardTexts] = Once(
            functools.partial(
                CardTexts, [(card["id"], card["edition"], card["text"] or "") for card in cards]
            )
        )

    def build(self, store: Store, fulltext: Any = None) -> SearchIndex:
        """The index every lookup searches: one target per topic (its current version)."""
        db = store.db
        rows = list(db.query("SELECT * FROM entries WHERE retired = 0 ORDER BY topic, rank"))
        versions = Counter(row["topic"] for row in rows)
        index = SearchIndex(
            [self._target(row, versions[row["topic"]]) for row in rows if row["rank"] == 0],
            fulltext=db.conn if fulltext is None else fulltext,
        )
        for row in rows:
            self._add_names(index.catalog.names, row, index.by_topic[row["topic"]])
        for alias in db.query("SELECT alias, target FROM aliases"):
            self._add_alias(index, alias)
        index.passages = build_passages(rows, self.card_words, self.card_vocabulary)
        index.catalog.finish()
        return index

    def update(
        self,
        index: SearchIndex,
        store: Store,
        topics: set[str],
        source_label: Callable[[dict[str, Any]], str],
    ) -> SearchIndex:
        """A new index: ``index`` with these topics (their rows, names and aliases) read again.

        ``index`` is left as it was, for the answers still reading it."""
        self.source_label = source_label
        updated = index.edited()
        updated.catalog.remove_topics(topics)
        marks = ", ".join("?" for _ in topics)
        rows = list(
            store.db.query(
                f"SELECT * FROM entries WHERE retired = 0 AND topic IN ({marks}) "
                "ORDER BY topic, rank",
                sorted(topics),
            )
        )
        versions = Counter(row["topic"] for row in rows)
        for row in rows:
            if row["rank"] == 0:
                updated.catalog.add_target(self._target(row, versions[row["topic"]]))
        for row in rows:
            self._add_names(updated.catalog.names, row, updated.by_topic[row["topic"]])
        entries = [row["id"] for row in rows if row["rank"] == 0]
        wanted = sorted(topics) + entries
        marks = ", ".join("?" for _ in wanted)
        for alias in store.db.query(
            f"SELECT alias, target FROM aliases WHERE target IN ({marks})", wanted
        ):
            self._add_alias(updated, alias)
        if index.passages is not None:
            passages = updated.passages = index.passages.edited()
            by_topic: dict[str, list[dict[str, Any]]] = {}
            for row in rows:
                by_topic.setdefault(row["topic"], []).append(row)
            for topic in topics:
                versions = by_topic.get(topic)
                if not versions:
                    passages.remove_topic(topic)
                    continue
                passages.set_topic(
                    topic, versions[0]["title"], topic_passages(versions), versions[0]["edition"]
                )
        updated.catalog.finish_edit()
        return updated

    def _target(self, row: dict[str, Any], versions: int = 1) -> Target:
        """The target of a topic's current version (``row``), one of ``versions`` live ones."""
        # Alone, with no version of the entry it amends: the text may be only one section.
        alone = versions == 1 and row["amendments"]
        # The values thousands of targets share, once in memory (SQLite gives each row its
        # own copy): tens of MB at 100,000 entries.
        return Target(
            topic=row["topic"],
            entry=row["id"],
            title=row["title"],
            edition=sys.intern(row["edition"]),
            kind=sys.intern(row["kind"]),
            source=sys.intern(self.source_label(row)),
            date=sys.intern(row["date"]) if row["date"] else row["date"],
            title_only=not row["text"],
            section=replaced_section(json.loads(row["amendments"])) if alone else "",
            related=tuple(
                related_topics(
                    json.loads(row["see_also"] or "[]"), json.loads(row["mentions"] or "[]")
                )
            ),
        )

    def _add_names(self, names: NameIndex, row: dict[str, Any], target: int) -> None:
        names.add_name(row["title"], target, TITLE)
        if "/" in row["title"]:
            for half in row["title"].split("/"):
                names.add_name(half, target, TITLE)
        qualified = _QUALIFIER.match(row["title"])
        if qualified:  # "playing an affiliation (non-Borg)" is asked for without its bracket
            names.add_name(qualified.group(1), target, TITLE)
        card = self.cards_by_key.get((row["edition"], normalize(row["title"])))
        if card:
            alone = _names_alone(self.subtitles, card)
            shared = normalize(card["title"]) in self.shared_titles
            names.add_card_forms(
                card["title"], card["subtitle"], target, alone, title_alone=not shared
            )
        for mention in json.loads(row["mentions"] or "[]"):
            if mention.get("type") != "card":
                continue
            names.add_name(mention["name"], target, MENTION)
            printed = _PRINTED_SUBTITLE.match(mention["name"])
            if printed:  # the ruling itself shows where the title ends: "I.K.S. Vorn (Ship…)"
                names.add_name(printed.group(1), target, MENTION)
            for card_id in mention.get("card_ids", [])[:3]:
                other = self.cards_by_id.get(card_id)
                if other and other["subtitle"]:
                    # "I.K.S. Vorn" finds the ruling that names "I.K.S. Vorn (Ship of Traitors)".
                    names.add_name(f"{other['title']} {other['subtitle']}", target, MENTION)
                    names.add_name(other["title"], target, MENTION)

    @staticmethod
    def _add_alias(index: SearchIndex, alias: dict[str, Any]) -> None:
        found = alias_target(index, alias["target"])
        if found is None:
            log.warning("alias %r points at unknown %r", alias["alias"], alias["target"])
            return
        index.catalog.names.add_name(alias["alias"], found, ALIAS)


def related_topics(see_also: Iterable[dict], mentions: Iterable[dict]) -> list[str]:
    """The topics an entry points its reader to, in order, once each: its "see also" and the
    terms its text names (the answer's related terms)."""
    links = [r.get("topic") for r in see_also]
    links += [m.get("topic") for m in mentions if m.get("type") == "term"]
    return list(dict.fromkeys(topic for topic in links if topic))


def card_witnesses(
    cards: Iterable[tuple[str, str]],
) -> tuple[Once[frozenset[str]], Once[EditionVocabulary]]:
    """What the card lists tell the passage index, each built on first need (``cards``:
    (edition, name and text) pairs): the words they spell right, so that a question's word
    found there but in no ruling is not a typo of a ruling's word (see ``known_terms``), and
    each edition's vocabulary, the lean's second witness (see ``edition_vocabulary``, which
    keeps it per process for the same lists; kept here too, so that a lean does not hash
    the lists to find it again)."""
    pairs = tuple(cards)
    return (
        Once(functools.partial(known_terms, [text for _, text in pairs])),
        Once(functools.partial(edition_vocabulary, pairs)),
    )


def build_passages(
    rows: list[dict[str, Any]],
    known_words: Callable[[], frozenset[str]] = frozenset,
    card_vocabulary: Callable[[], EditionVocabulary] = EditionVocabulary.empty,
) -> PassageIndex:
    """Every passage of every current topic (all its live versions), held in memory
    (``known_words``: gives the terms spelt right that no passage need hold;
    ``card_vocabulary``: the cards' words by edition)."""
    by_topic: dict[str, list[dict[str, Any]]] = {}
    titles: dict[str, str] = {}
    for row in rows:
        by_topic.setdefault(row["topic"], []).append(row)
        if row["rank"] == 0:
            titles[row["topic"]] = row["title"]
    return build_passage_index(by_topic, titles, known_words, card_vocabulary)


class CardTexts:
    """Every card's game text, normalised as queries are: which cards print a phrase."""

    # Between two cards' texts in the joined text: normalising leaves none in a text or a
    # phrase, so no phrase is found across two cards.
    _BETWEEN = "\x00"

    def __init__(self, cards: Iterable[tuple[str, str, str]]):
        # (card id, edition), and each card's " text " (padded, so that a phrase is found
        # word for word) joined into one text, searched in one pass: a lookup asks of tens
        # of thousands of cards at once.
        self._cards: list[tuple[str, str]] = []
        self._starts: list[int] = []
        pieces, at = [], 0
        for card, edition, text in cards:
            padded = f" {normalize(text)} "
            self._cards.append((card, edition))
            self._starts.append(at)
            pieces.append(padded)
            at += len(padded) + len(self._BETWEEN)
        self._joined = self._BETWEEN.join(pieces)

    def printing(self, phrase: str, edition: str | None = None) -> list[tuple[str, int]]:
        """Each card (of ``edition``, if given) whose text holds the normalised ``phrase``
        word for word: (card id, where in its text the phrase first stands), in the
        cards' order."""
        needle = f" {phrase} "
        if self._BETWEEN in needle:
            return []
        found = []
        at = self._joined.find(needle)
        while at >= 0:
            position = bisect.bisect_right(self._starts, at) - 1
            card, card_edition = self._cards[position]
            if not edition or card_edition == edition:
                found.append((card, at - self._starts[position]))
            following = position + 1  # the card's first place only: on to the next card
            if following >= len(self._starts):
                break
            at = self._joined.find(needle, self._starts[following])
        return found


def build_card_index(store: Store) -> SearchIndex:
    """Cards are searched with the same machinery, each card a target of its own."""
    rows = list(
        store.db.query("SELECT id, edition, title, subtitle, name, type FROM cards ORDER BY id")
    )
    targets = [
        Target(
            topic=row["id"],
            entry=row["id"],
            title=row["name"],
            edition=row["edition"],
            kind=row["type"] or "",
            source="card",
            date=None,
        )  # fmt: skip
        for row in rows
    ]
    index = SearchIndex(targets)
    names = index.catalog.names
    subtitles = named_subtitles(rows)
    for position, row in enumerate(rows):
        names.add_name(row["name"], position, TITLE)
        names.add_card_forms(row["title"], row["subtitle"], position, _names_alone(subtitles, row))
    index.catalog.finish()
    return index


def build_card_names(store: Store) -> CardNames:
    return CardNames(list(store.db.query("SELECT id, edition, title, subtitle, name FROM cards")))


def alias_target(index: SearchIndex, target: str) -> int | None:
    """The index position an alias's target (a topic or an entry id) stands at."""
    if target in index.by_topic:
        return index.by_topic[target]
    if target in index.by_entry:
        return index.by_entry[target]
    return None

"""Answers: everything a lookup shows, from one generation of the store's data.

An ``Answers`` is built after every change to the data (see ``bot.answers.service``) and
then only read: the documents, the rulings index and the card names it holds never change
under it. It answers in plain dicts, the JSON shapes of the CLI, so every front end shows
the same facts.

It decides which kind of answer a lookup gets — a card (by its id, or named by the lookup
and confidently the answer: :mod:`bot.answers.choice`, :mod:`bot.answers.card_answers`), a
ruling (:mod:`bot.answers.ruling_answer`), or a miss with suggestions, each pointing out
its part that fits (:mod:`bot.answers.parts`) — and how the next generation follows this
one after a change. Versions, labels and history are :mod:`bot.answers.versions`.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from bot.answers import snapshot
from bot.answers.card_answers import CardAnswers
from bot.answers.cards import CardLookups
from bot.answers.choice import CardOrRuling
from bot.answers.covers import CardCovers
from bot.answers.parts import AnsweringParts
from bot.answers.results import card_suggestion, result_json
from bot.answers.ruling_answer import RulingAnswers
from bot.answers.versions import Versions
from bot.markup import excerpt
from bot.search import card_answer
from bot.search.build import RulingsIndexBuilder
from bot.search.evaluate import Ranked
from bot.search.hits import SearchResult
from bot.store.build import Store
from bot.store.readers import ThreadConnection, ThreadReaders

# Past this many topics touched at once (a whole document imported), one whole build is
# cheaper than updating topic by topic.
MOST_TOPICS_UPDATED = 2000


class Answers:
    """The lookups over one generation of the data.

    Answers read the store on their own thread's connection (``ThreadReaders``), so any
    number run at once, beside a moderator's change being written.
    """

    def __init__(self, store: Store, readers: ThreadReaders | None = None):
        self.built_on = store
        self.readers = readers or ThreadReaders(store)
        self.store: Store | ThreadReaders = self.readers  # a preview reads its own transaction
        # The data's key and mark first: a change committed while the indexes are built is
        # then read again (never marked seen, nor written into a snapshot under its key).
        self.snapshot_key = snapshot.snapshot_key(store.db)
        self.change_mark = _change_mark(store)
        self.documents = store.documents()
        self.versions = Versions(self.store, self.documents)  # the index's labels read it
        fulltext = ThreadConnection(self.readers)
        parts = snapshot.load(
            snapshot.path_for(store.path),
            self.snapshot_key,
            {snapshot.FULLTEXT: fulltext, snapshot.SOURCE_LABEL: self.source_label},
        )
        self.from_snapshot = parts is not None
        if parts is not None:
            self.builder, self.index = parts["builder"], parts["index"]
            self.cards = CardLookups(
                self.readers, self.index, parts["card_names"], parts["card_index"]
            )
            self.covers = CardCovers(
                self.readers, self.index, self.cards.card_names, parts["covers"]
            )
        else:
            self.builder = RulingsIndexBuilder(store, self.source_label)
            self.index = self.builder.build(store, fulltext=fulltext)
            self.cards = CardLookups(self.readers, self.index)
            self.covers = CardCovers(self.readers, self.index, self.cards.card_names)
        self._assemble()

    def save_snapshot(self) -> int:
        """Write this generation, whole (what answers build on first use built first), as
        the snapshot of its data; returns the bytes written."""
        parts = {
            "builder": self.builder,
            "index": self.index,
            "card_names": self.cards.card_names,
            "card_index": self.cards.card_index,
            "covers": self.covers.held(),
        }
        standing = {
            snapshot.FULLTEXT: self.index.fulltext,
            snapshot.SOURCE_LABEL: self.builder.source_label,
        }
        path = snapshot.path_for(self.built_on.path)
        return snapshot.write(path, self.snapshot_key, parts, standing)

    def _assemble(self) -> None:
        """The parts each kind of answer is built by, over this generation's store,
        versions, index and cards."""
        self.parts = AnsweringParts(self.store, self.index, self.versions)
        self.choice = CardOrRuling(self.store, self.index, self.cards, self.builder, self.covers)
        self.rulings = RulingAnswers(self.store, self.index, self.versions, self.cards, self.parts)
        self.card_answers = CardAnswers(self.cards, self.covers, self.index, self.show)

    def updated(self, store: Store) -> Answers | None:
        """The next generation after moderator changes, reading again only the topics the
        changes touched; None when only a whole rebuild will do (the store was replaced,
        changes arrived out of order, a document was altered, a large import)."""
        if store is not self.built_on:
            return None
        key = snapshot.snapshot_key(store.db)  # before the changes are read: see __init__
        count, top = _change_mark(store)
        seen_count, seen_top = self.change_mark
        new = list(store.db.query("SELECT ops FROM changes WHERE id > ?", [seen_top]))
        if not new or count - seen_count != len(new):
            return None
        topics: set[str] = set()
        for change in new:
            for op in json.loads(change["ops"]):
                if op["kind"] == "entry":
                    topics.update(side["topic"] for side in (op["before"], op["after"]) if side)
                elif op["kind"] == "alias":
                    target = op["target"]
                    entry = store.entry(target)
                    topics.add(entry["topic"] if entry else target)
                elif op["before"] is not None:  # a document's title or date changed
                    return None
        if len(topics) > MOST_TOPICS_UPDATED:
            return None
        following = copy.copy(self)
        following.documents = store.documents()
        following.versions = Versions(following.store, following.documents)
        following.index = self.builder.update(self.index, store, topics, following.source_label)
        following.cards = self.cards.with_rulings_index(following.index)
        following.covers = self.covers.updated(store, following.index, topics)
        following.change_mark = (count, top)
        following.snapshot_key = key
        following.from_snapshot = False
        following._assemble()
        return following

    def reading(self, store: Store) -> Answers:
        """These answers reading ``store``'s own connection, its entries and documents (a
        preview, inside a transaction then rolled back), with the same index and cards."""
        view = copy.copy(self)
        view.store = store
        view.documents = store.documents()
        view.versions = Versions(store, view.documents)
        view._assemble()
        return view

    def source_label(self, row: dict[str, Any]) -> str:
        """The document a version comes from, as users should read it."""
        return self.versions.source_label(row)

    def version_as_of(self, topic: str, as_of: str) -> dict | None:
        """The version in force on a date (see :meth:`Versions.version_as_of`)."""
        return self.versions.version_as_of(topic, as_of)

    def changes(self, since: str, edition: str | None = None) -> list[dict[str, Any]]:
        """What documents published on or after ``since`` added, changed or superseded."""
        return self.versions.changes(since, edition)

    def other_edition_answer(self, query: str, edition: str | None) -> dict[str, Any] | None:
        """On a miss with an edition: the other edition's confident answer, if any."""
        return self.rulings.other_edition_answer(query, edition)

    # ---------------------------------------------------------------- answers
    def search(self, query: str, edition: str | None = None, limit: int = 10) -> dict[str, Any]:
        """Ranked results (a list to read, so full text always contributes). The list is
        confident only when its first ruling is what ``show`` answers confidently: not when
        the query names a card ("Kira Nerys": the card, whose versions include the one a
        ruling is about) or a rules word inside a card's name."""
        found = result_json(self.index.search(query, edition=edition, limit=limit, thorough=True))
        if found["confident"]:
            result, choice = self.choice.answer_for(query, edition)
            first = found["results"][0]["id"] if found["results"] else None
            answered = result.hits[0].target.entry if result.hits else None
            found["confident"] = choice is None and result.confident and answered == first
        return found

    def warm_up(self) -> None:
        """Build now what the first lookups would otherwise build (the card index and texts,
        what the passages read on first need, each card's rulings)."""
        self.cards.card_index()
        self.builder.card_texts()
        if self.index.passages is not None:
            self.index.passages.warm_up()
        self.card_covers()

    def card_covers(self) -> dict[str, set[str]]:
        """Each card's rulings: the topics about it and those that mention it."""
        return self.covers.all()

    def ranked(self, query: str, edition: str | None = None) -> Ranked:
        """The answer ids for a query, best first, with the features its confidence reads."""
        return self.choice.ranked(query, edition)

    def show(
        self, query_or_id: str, edition: str | None = None, as_of: str | None = None
    ) -> tuple[dict | None, dict]:
        """The answer for a query or id, or (None, search JSON with suggestions).

        With ``as_of`` (ISO date), the version that was in force on that date.
        """
        text = str(query_or_id).strip()
        searched = None
        named = None  # a card the query names, not confidently the answer: suggested first
        if not as_of and self.store.entry(text) is None and self.store.topic(text) is None:
            card_row = self.store.card(text)
            if card_row is not None:  # a card's id: the card itself (buttons link by id)
                by_id = self.cards.card_index().by_entry.get(text)
                if by_id is not None:
                    card_target = self.cards.card_index().targets[by_id]
                    choice = card_answer.choose(
                        text, None, SearchResult(text, False), [card_target], {}
                    )
                    if choice is not None:
                        choice.covers = {text: set()}
                        return self.card_answers.card_answer(choice, card_target.edition), {}
            searched, named = self.choice.answer_for(text, edition)
            if named is not None and self.choice.card_confident(named):
                return self.card_answers.card_answer(named, edition), {}
        row, result = self.rulings.resolve_row(query_or_id, edition, as_of, searched)
        if row is None:
            found = self.search(query_or_id, edition=edition, limit=5)
            if named is not None and not as_of:
                # The card in both editions, or a card the query names beside it.
                cards = [card_suggestion(c) for c in named.cards[:3]]
                found["results"] = (cards + found["results"])[:5]
            resolved = result is None or result.confident
            if as_of and resolved:
                found["note"] = self.versions.nothing_in_force_note(as_of, edition)
            elif not as_of:
                other = self.other_edition_answer(text, edition)
                if other is not None:  # said, and suggested first: one click away
                    found["other_edition"] = other
                    suggested = {k: v for k, v in other.items() if k not in ("query", "asked")}
                    found["results"] = [suggested] + [
                        r for r in found["results"] if r["id"] != other["id"]
                    ][:4]
            self.parts.point_out_in_suggestions(found["results"], text)
            return None, found
        return self.rulings.answer(row, result, text, edition, as_of), {}

    def card(self, query_or_id: str, edition: str | None = None) -> tuple[dict | None, dict]:
        """A card with its text, the rulings about it (their text as in force) and the
        rulings that mention it, each with its source and date."""
        return self.card_answers.card(query_or_id, edition)

    def history(
        self, query_or_id: str, edition: str | None = None, as_of: str | None = None
    ) -> dict[str, Any] | None:
        """Every version of a topic, newest first; with ``as_of``, the one then in force marked.

        A ruling whose every version is retired is out of the search index, so it is first
        looked up by its exact title or alias (:meth:`Versions.retired_by_name`)."""
        row = self.versions.retired_by_name(query_or_id, edition)
        if row is None:
            row, _ = self.rulings.resolve_row(query_or_id, edition)
        if row is None:
            return None
        return self.versions.history(row, as_of)

    def related(self, query_or_id: str, edition: str | None = None) -> dict[str, Any] | None:
        return self.rulings.related(query_or_id, edition)

    def sources(self) -> list[dict[str, Any]]:
        counts = {
            r["document"]: r
            for r in self.store.db.query(
                "SELECT document, count(*) AS entries, sum(marked_new) AS marked_new, "
                "sum(kind = 'erratum') AS errata, sum(text = '') AS title_only, "
                "sum(status = 'current') AS current FROM entries GROUP BY document"
            )
        }
        out = []
        for document in self.documents.values():
            c = counts.get(document["id"], {})
            out.append(
                {
                    "id": document["id"],
                    "title": document["title"],
                    "edition": document["edition"],
                    "kind": document["kind"],
                    "date": document["date"],
                    "official": bool(document["official"]),
                    "url": document.get("url"),
                    "entries": c.get("entries", 0),
                    "current": c.get("current", 0),
                    "marked_new": c.get("marked_new", 0),
                    "errata": c.get("errata", 0),
                    "title_only": c.get("title_only", 0),
                }
            )
        return out

    def suggest(
        self, prefix: str, edition: str | None = None, limit: int = 25
    ) -> list[tuple[str, str]]:
        return self.index.suggest(prefix, edition=edition, limit=limit)

    def snippets(self, entry_ids: list[str], width: int = 140) -> dict[str, str]:
        """The first words of each entry's text, for one-line result lists."""
        out = {}
        for entry_id in entry_ids:
            row = self.store.entry(entry_id)
            if row:
                out[entry_id] = excerpt(row["text"], width)
        return out


def _change_mark(store: Store) -> tuple[int, int]:
    """How many changes the store holds, and the newest one's id."""
    row = store.db.conn.execute("SELECT count(*), coalesce(max(id), 0) FROM changes").fetchone()
    return row[0], row[1]

"""Answers: everything a lookup shows, from one generation of the store's data.

An ``Answers`` is built after every change to the data (see ``bot.answers.service``) and
then only read: the documents, the rulings index and the card names it holds never change
under it. It answers in plain dicts, the JSON shapes of the CLI, so every front end shows
the same facts.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

from bot.answers import snapshot
from bot.answers.cards import CardLookups
from bot.answers.compose import REPLACED, compose, looks_cut, version_label
from bot.answers.layout import BEST_MATCHES, Citation, part_citation, part_key
from bot.answers.results import card_suggestion, result_json
from bot.markup import excerpt
from bot.models import WHOLE_ACTIONS
from bot.normalize import lexicon, normalize, terms
from bot.search import card_answer, confidence
from bot.search.build import RulingsIndexBuilder, related_topics
from bot.search.confidence import FEATURES, NAME_WHOLE
from bot.search.evaluate import Ranked
from bot.search.index import (
    FILLER,
    FOUND_BY_TEXT,
    Hit,
    SearchResult,
    Target,
    content_words,
    says_alike,
)
from bot.search.passages import said_runs, sentences, unsaid
from bot.store.build import Store
from bot.store.readers import ThreadConnection, ThreadReaders
from bot.validate import iso_date

# Past this many topics touched at once (a whole document imported), one whole build is
# cheaper than updating topic by topic.
MOST_TOPICS_UPDATED = 2000
# A ruling found by a name that explains this share of the query's words was asked for by
# name (misspelt or reordered): its whole text answers, no part of it is pointed out.
NAME_EXPLAINS = 0.9
NAME_COVER = FEATURES.index("name_cover")
OPENING_WORDS = 30  # a best match asked by its title's words shows this much of its opening


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
        self._covers: dict[str, set[str]] | None = None  # card id -> topics (built on use)
        self._covered_by: dict[str, set[str]] = {}  # topic -> card ids, to update the above
        fulltext = ThreadConnection(self.readers)
        parts = snapshot.load(
            snapshot.path_for(store.path),
            self.snapshot_key,
            {snapshot.FULLTEXT: fulltext, snapshot.SOURCE_LABEL: self.source_label},
        )
        self.from_snapshot = parts is not None
        if parts is not None:
            self.builder, self.index = parts["builder"], parts["index"]
            self.builder.source_label = self.source_label
            self.cards = CardLookups(
                self.readers, self.index, parts["card_names"], parts["card_index"]
            )
            self._covers, self._covered_by = parts["covers"], parts["covered_by"]
            return
        self.builder = RulingsIndexBuilder(store, self.source_label)
        self.index = self.builder.build(store, fulltext=fulltext)
        self.cards = CardLookups(self.readers, self.index)

    def save_snapshot(self) -> int:
        """Write this generation, whole (what answers build on first use built first), as
        the snapshot of its data; returns the bytes written."""
        covers = self.card_covers()
        parts = {
            "builder": self.builder,
            "index": self.index,
            "card_names": self.cards.card_names,
            "card_index": self.cards.card_index,
            "covers": covers,
            "covered_by": self._covered_by,
        }
        standing = {
            snapshot.FULLTEXT: self.index.fulltext,
            snapshot.SOURCE_LABEL: self.builder.source_label,
        }
        path = snapshot.path_for(self.built_on.path)
        return snapshot.write(path, self.snapshot_key, parts, standing)

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
        following.index = self.builder.update(self.index, store, topics, following.source_label)
        following.cards = self.cards.with_rulings_index(following.index)
        following.change_mark = (count, top)
        following.snapshot_key = key
        following.from_snapshot = False
        following._update_covers(store, topics)
        return following

    def source_label(self, row: dict[str, Any]) -> str:
        """The document a version comes from, as users should read it."""
        document = self.documents[row["document"]]
        if not document["official"]:
            taken = (row.get("taken_from") or "").replace("-", " ")
            what = f"{document['edition']} {taken} text".replace("  ", " ") if taken else "text"
            return f"{what}, via {document['title']}"
        return document["title"]

    def _resolve_row(
        self,
        query_or_id: str,
        edition: str | None,
        as_of: str | None = None,
        searched: SearchResult | None = None,
    ) -> tuple[dict | None, SearchResult | None]:
        text = str(query_or_id).strip()
        row = self.store.entry(text)
        result = None
        if row is None:
            topic = self.store.topic(text)
            if topic:
                row = self.store.entry(topic["current"])
            else:  # a topic whose every version is retired is still in history
                versions = self.store.versions(text)
                row = versions[0] if versions else None
        if row is None:
            result = searched or self.index.search(text, edition=edition, limit=5)
            if not (result.confident and result.hits):
                return None, result
            row = self.store.entry(result.hits[0].target.entry)
        if as_of:
            row = self.version_as_of(row["topic"], as_of)
        return row, result

    def version_as_of(self, topic: str, as_of: str) -> dict | None:
        """The version in force on a date: the best-ranked one published by then.

        Undated official documents (the Glossary) count as in force from the start.
        """
        iso_date(as_of)
        versions = self.store.versions(topic)
        # An undated community copy cannot be placed in time: it counts only from the
        # edition's earliest dated document (an undated official Glossary from the start).
        early = bool(versions) and as_of < self.earliest_date(versions[0]["edition"])
        for version in versions:
            if early and not self.documents[version["document"]]["official"]:
                continue
            if (version["date"] or "") <= as_of:
                return version
        return None

    def earliest_date(self, edition: str | None = None) -> str:
        """The date of the earliest dated document (of an edition)."""
        dates = [
            d["date"]
            for d in self.documents.values()
            if d["date"] and (edition is None or d["edition"] == edition)
        ]
        return min(dates) if dates else ""

    def nothing_in_force_note(self, as_of: str, edition: str | None = None) -> str:
        earliest = self.earliest_date(edition)
        if earliest and as_of < earliest:
            return (
                f"Nothing in force then: the earliest dated document in the bundled data is "
                f"from {earliest}, and the undated community copy cannot be placed before it."
            )
        return f"No version of this ruling was published by {as_of}."

    def changes(self, since: str, edition: str | None = None) -> list[dict[str, Any]]:
        """What documents published on or after ``since`` added, changed or superseded."""
        iso_date(since)
        out = []
        rows = self.store.db.query(
            "SELECT * FROM entries WHERE date >= ? AND (? IS NULL OR edition = ?) "
            "ORDER BY date DESC, document, line",
            [since, edition, edition],
        )
        for row in rows:
            older = [
                v
                for v in self.store.versions(row["topic"])
                if v["id"] != row["id"] and (v["date"] or "") < since
            ]
            if not older:
                change = "added"
            elif any(
                a["action"] in WHOLE_ACTIONS for a in json.loads(row["amendments"] or "[]")
            ) or all(v["text"] != row["text"] for v in older):
                change = "changed"
            else:
                change = "unchanged"
            out.append(
                {
                    "id": row["id"],
                    "title": row["title"],
                    "edition": row["edition"],
                    "change": change,
                    "status": row["status"],
                    "source": self.source_label(row),
                    "date": row["date"],
                    "supersedes": [v["id"] for v in older],
                }
            )
        return [c for c in out if c["change"] != "unchanged"]

    def _version_summary(self, row: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": row["id"],
            "source": self.source_label(row),
            "date": row["date"],
            "status": row["status"],
            **self._label(row),
        }

    # ------------------------------------------------- the rule as in force, labels
    def _topic_current(self, topic: str) -> dict[str, Any] | None:
        versions = self.store.versions(topic)
        return next((v for v in versions if not v.get("retired")), None)

    def _label(self, row: dict[str, Any]) -> dict[str, Any]:
        """``label`` (current / amended / superseded / retired / older copy) and why, plus a
        damaged-text note where the source cut the text mid-sentence."""
        current = self._topic_current(row["topic"]) or row
        label, detail = version_label(
            row,
            current,
            is_base=self._is_base_text(row) and not self._is_base_text(current),
            # The document once, as a source line says it (a title holding its date is
            # not followed by the date again).
            current_source=Citation(self.source_label(current), current["date"]).line,
        )
        out: dict[str, Any] = {"label": label, "label_detail": detail}
        document = self.documents[row["document"]]
        if document["kind"] == "glossary" and looks_cut(row["text"]):
            out["damaged"] = True
            out["damaged_note"] = (
                "The bundled copy of this text is cut short (the source lost the rest); "
                "check the official Glossary."
            )
        return out

    def _base_for(self, row: dict[str, Any], versions: list[dict]) -> dict[str, Any] | None:
        """The Rulebook or Glossary entry a CRD entry amends or adds to, when bundled.

        An earlier printing of the same amendment (an older CRD, a community copy of CRD text)
        is never the base.
        """
        if self._is_base_text(row):
            return None
        return next(
            (
                v
                for v in versions
                if v["id"] != row["id"]
                and v["text"]
                and self._is_base_text(v)
                and not v.get("retired")
            ),
            None,
        )

    def _add_rule_in_force(self, answer: dict, row: dict, versions: list[dict]) -> None:
        """``in_force`` (the composed rule), ``base`` and the labels of an answer."""
        answer.update(self._label(row))
        base = self._base_for(row, versions)
        composition = compose(
            row["text"],
            row["amendments"],
            base["text"] if base else None,
            edition=row["edition"],
            title=base["title"] if base else row["title"],
        )
        if row["amendments"] or base:
            answer["in_force"] = {
                **composition.as_json(),
                "sources": [row["id"]]
                + ([base["id"]] if base and composition.mode != REPLACED else []),
            }
        if base and composition.mode != REPLACED:  # a replaced entry is history, not a base
            answer["base"] = {
                **self._version_summary(base),
                "url": self.documents[base["document"]].get("url"),
                "text": base["text"],
            }

    def other_edition_answer(self, query: str, edition: str | None) -> dict[str, Any] | None:
        """On a miss with an edition: the other edition's confident answer, when it has one
        ("KTC" asked in 1E is a 2E ruling), in the shape of a search result plus ``asked``
        (the edition asked for): the CLI and Discord each say so in their own words."""
        if not edition:
            return None
        found = self.index.search(query, edition=None, limit=3)
        if found.confident and found.hits and found.hits[0].target.edition != edition:
            other = result_json(found)["results"][0]
            return {**other, "query": query, "asked": edition}
        return None

    def _related(self, row: dict[str, Any]) -> list[dict[str, str]]:
        related: list[dict[str, str]] = []
        seen = {row["topic"]}
        for topic_id in related_topics(row["see_also"], row["mentions"]):
            if topic_id in seen:
                continue
            seen.add(topic_id)
            topic = self.store.topic(topic_id)
            if topic:
                related.append(
                    {"id": topic_id, "title": topic["title"], "edition": topic["edition"]}
                )
        # The same title in the other edition is worth a look too.
        for target in self.index.titled(row["title"]):
            if target.topic not in seen and target.edition != row["edition"]:
                seen.add(target.topic)
                related.append(
                    {
                        "id": target.topic,
                        "title": f"{target.title} ({target.edition})",
                        "edition": target.edition,
                    }
                )
        return related

    # ---------------------------------------------------------------- answers
    def search(self, query: str, edition: str | None = None, limit: int = 10) -> dict[str, Any]:
        """Ranked results (a list to read, so full text always contributes). The list is
        confident only when its first ruling is what ``show`` answers confidently: not when
        the query names a card ("Kira Nerys": the card, whose versions include the one a
        ruling is about) or a rules word inside a card's name."""
        found = result_json(self.index.search(query, edition=edition, limit=limit, thorough=True))
        if found["confident"]:
            result, choice = self.answer_for(query, edition)
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
        """Each card's rulings: the topics about it and those that mention it (built once per
        data, then updated with the topics each change touches)."""
        if self._covers is None:
            covers: dict[str, set[str]] = {}
            covered_by: dict[str, set[str]] = {}
            for target in self.index.current_targets():
                for card_id in self._cards_about(target):
                    covers.setdefault(card_id, set()).add(target.topic)
                    covered_by.setdefault(target.topic, set()).add(card_id)
            for row in self.store.db.query(
                "SELECT topic, mentions FROM entries WHERE retired = 0 AND rank = 0 "
                "AND mentions LIKE '%card_ids%'"
            ):
                for card_id in _mentioned_cards(row):
                    covers.setdefault(card_id, set()).add(row["topic"])
                    covered_by.setdefault(row["topic"], set()).add(card_id)
            self._covers, self._covered_by = covers, covered_by
        return self._covers

    def _cards_about(self, target) -> list[str]:
        card_id = self.cards.card_names.card_id(target.edition, target.title)
        return [card_id] if card_id else []

    def _update_covers(self, store: Store, topics: set[str]) -> None:
        """After a change: the touched topics' cards read again; the sets they left, copied."""
        if self._covers is None:
            return
        covers, covered_by = dict(self._covers), dict(self._covered_by)
        for topic in topics:
            for card_id in covered_by.pop(topic, ()):
                covers[card_id] = covers[card_id] - {topic}
        marks = ", ".join("?" for _ in topics)
        for row in store.db.query(
            f"SELECT topic, title, edition, mentions FROM entries WHERE retired = 0 AND rank = 0 "
            f"AND topic IN ({marks})",
            sorted(topics),
        ):
            target = self.index.targets[self.index.by_topic[row["topic"]]]
            for card_id in [*self._cards_about(target), *_mentioned_cards(row)]:
                covers[card_id] = covers.get(card_id, set()) | {row["topic"]}
                covered_by[row["topic"]] = covered_by.get(row["topic"], set()) | {card_id}
        self._covers, self._covered_by = covers, covered_by

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
        covers = self.card_covers()
        if cards:
            covers = dict(covers)
            for card in cards:  # and the rulings that name it without a resolved card id
                mentioning = self.index.exact(card.title, edition=card.edition, mentions=True)
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
        return bool(self.cards.card_index().exact(" ".join(words), edition=card.edition))

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

    def _card_confident(self, choice) -> bool:
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
            offered = {c.topic for c in _other_edition_cards(choice, edition)}
            if offered:
                covers[cards[0]] = covers.get(cards[0], set()) | offered
            return Ranked(
                ids=cards + [i for i in ids if i not in cards],
                features=choice.features,
                confident=self._card_confident(choice),
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
                        return self._card_answer(choice, card_target.edition), {}
            searched, named = self.answer_for(text, edition)
            if named is not None and self._card_confident(named):
                return self._card_answer(named, edition), {}
        row, result = self._resolve_row(query_or_id, edition, as_of, searched)
        if row is None:
            found = self.search(query_or_id, edition=edition, limit=5)
            if named is not None and not as_of:
                # The card in both editions, or a card the query names beside it.
                cards = [card_suggestion(c) for c in named.cards[:3]]
                found["results"] = (cards + found["results"])[:5]
            resolved = result is None or result.confident
            if as_of and resolved:
                found["note"] = self.nothing_in_force_note(as_of, edition)
            elif not as_of:
                other = self.other_edition_answer(text, edition)
                if other is not None:  # said, and suggested first: one click away
                    found["other_edition"] = other
                    suggested = {k: v for k, v in other.items() if k not in ("query", "asked")}
                    found["results"] = [suggested] + [
                        r for r in found["results"] if r["id"] != other["id"]
                    ][:4]
            self._point_out_in_suggestions(found["results"], text)
            return None, found
        versions = self.store.versions(row["topic"])
        answer: dict[str, Any] = {
            "id": row["id"],
            "title": row["title"],
            "edition": row["edition"],
            "kind": row["kind"],
            "text": row["text"],
            "source": self.source_label(row),
            "url": self.documents[row["document"]].get("url"),
            "date": row["date"],
            "status": row["status"],
            "related": self._related(row),
            "versions": [self._version_summary(v) for v in versions],
        }
        if row.get("retired"):
            answer["retired"] = True
            answer["retired_reason"] = row.get("retired_reason")
        if not row["text"]:
            answer["note"] = (
                "The text of this entry is not in the bundled data (the source lost it); "
                "only its title is known."
            )
        amendments = row["amendments"]
        if amendments:
            answer["amendments"] = amendments
        self._add_rule_in_force(answer, row, versions)
        card = self.cards.card_for(row)
        if card is None and result is not None and not as_of:
            # The card a question names, where the ruling found mentions it: the subject.
            top = result.hits[0] if result.hits else None
            via_mention = top and top.via == "mentioned" and top.target.topic == row["topic"]
            card = self.cards.card_mentioned(
                row, top.matched if via_mention else None, normalize(text)
            )
        if card:
            answer["card"] = card
        if result is not None and result.hits:
            passage = self._answering_passage(row, result, text, _shown_text(answer, row))
            if passage is not None:
                # The document of the very sentence pointed out (the Glossary entry a CRD
                # amends, when it is that entry's), as every front end cites it.
                cite = part_citation(answer, passage["text"])
                answer["passage"] = {**passage, "source": cite.source, "date": cite.date}
            editions = self._both_editions(row, result, edition)
            if editions:
                answer["editions"] = editions
        if result is not None and len(result.hits) > 1:
            others = [
                {"id": h.target.entry, "title": h.target.title, "edition": h.target.edition}
                for h in result.hits[1:]
                if h.target.topic != row["topic"] and h.score >= result.hits[0].score - 0.02
            ]
            if others:
                answer["also"] = others
        return answer, {}

    def _point_out_in_suggestions(self, results: list[dict[str, Any]], query: str) -> None:
        """Each suggested ruling's part that fits the query best, as ``passage``: a miss
        lists rulings by title, and a question's words are rarely a title's. Only a part of
        what the ruling's answer shows (the rule in force, and the base entry it amends
        where that is shown beside it; never a sentence the amendment replaced), and none
        when the query is the title's own words."""
        passages = self.index.passages
        if passages is None:
            return
        asked = set(passages.query_terms(query))
        for position, result in enumerate(results):
            row = self.store.entry(result["id"])
            if row is None:
                self._point_out_in_card(result, query)
                if position < BEST_MATCHES:
                    self._card_part(result)
                continue
            if not row.get("text"):
                continue
            answer: dict[str, Any] = {}
            self._add_rule_in_force(answer, row, self.store.versions(row["topic"]))
            shown = _shown_text(answer, row)
            if not asked <= set(terms(row["title"])):
                found = self._shown_part(row, query, shown)
                if found is not None and " ".join(found.text.split()) in " ".join(shown.split()):
                    result["passage"] = {"text": found.text, "example": found.example}
            if position < BEST_MATCHES:
                self._best_match_part(result, row, answer)

    def _best_match_part(
        self, result: dict[str, Any], row: dict[str, Any], answer: dict[str, Any]
    ) -> None:
        """``part``: what a miss shows of one of its best matches without a tap — the part
        that fits the question (else the ruling's opening sentences), with the document and
        date that part comes from and where it sits (``at``, for the button that opens it)."""
        answer.update(
            text=row["text"], source=self.source_label(row), date=row["date"],
            url=self.documents[row["document"]].get("url"),
        )  # fmt: skip
        text = (result.get("passage") or {}).get("text")
        if not text:  # asked by its title's words: its opening, a few sentences
            opening = sentences((answer.get("in_force") or {}).get("text") or row["text"])
            taken: list[str] = []
            while opening and len(" ".join(taken).split()) < OPENING_WORDS:
                taken.append(opening.pop(0))
            text = " ".join(taken)
        cite = part_citation(answer, text)
        result["part"] = {
            "text": text, "source": cite.source, "date": cite.date, "url": cite.url,
            "status": cite.status, "at": part_key(answer, text),
        }  # fmt: skip

    def _card_part(self, result: dict[str, Any]) -> None:
        """A suggested card's ``part``: the sentence that prints the lookup, else its text."""
        card = self.store.card(result["id"])
        if card is None:
            return
        text = (result.get("passage") or {}).get("text") or card.get("text") or ""
        result["part"] = {
            "text": text, "source": "card text", "date": None, "url": None, "status": None,
            "at": None,
        }  # fmt: skip

    def _point_out_in_card(self, result: dict[str, Any], query: str) -> None:
        """A suggested card's sentence that holds every word the query asks, as
        ``passage``: why a card that prints a lookup is suggested ("Place one atop Tribble
        side deck during the seed phase.")."""
        card = self.store.card(result["id"])
        asked = set(terms(query))
        if card is None or not card.get("text") or not asked:
            return
        for sentence in sentences(card["text"]):
            if asked <= set(terms(sentence)):
                result["passage"] = {"text": sentence, "example": False}
                return

    def _answering_passage(
        self, row: dict[str, Any], result: SearchResult, query: str, shown: str
    ) -> dict[str, Any] | None:
        """The part of the shown text (the rule in force, where an amendment composes it)
        that answers the query, when the text has parts."""
        passages = self.index.passages
        if passages is None:
            return None
        top = result.hits[0]
        if any(t.topic == row["topic"] for t in self.index.exact(query)):
            return None  # asked by its name: the whole text is the answer
        named = (
            top.target.topic == row["topic"]
            and top.via not in FOUND_BY_TEXT
            and bool(result.features)
            and result.features[NAME_COVER] >= NAME_EXPLAINS
        )
        if named or set(passages.query_terms(query)) <= set(terms(row["title"])):
            # Asked by its name, misspelt or reordered or in a "how does ... work": every
            # passage holds the title alike, and the shortest would be pointed at for nothing.
            return None
        found = self._shown_part(
            row, query, shown, top.passage if top.target.topic == row["topic"] else None
        )
        if found is None or " ".join(found.text.split()) == " ".join(shown.split()):
            return None  # the whole text: nothing to point out
        return {"index": found.index, "text": found.text, "example": found.example}

    def _shown_part(self, row: dict[str, Any], query: str, shown: str, found: Any = None) -> Any:
        """The passage of a ruling's topic that fits ``query`` best among those ``shown``
        (what its answer shows), ``found`` first if the search found one there. It may
        sit in the base entry an amendment composes: then only what the amendment does
        not say again (see ``_in_force_part``)."""
        passages = self.index.passages
        flat_shown = " ".join(shown.split())

        def shown_here(passage: Any) -> bool:
            return passage is not None and " ".join(passage.text.split()) in flat_shown

        if not shown_here(found):
            found = passages.best_passage(row["topic"], query)
        if not shown_here(found):
            found = passages.best_passage(row["topic"], query, entry=row["id"])
        if found is not None and found.entry != row["id"]:
            found = self._in_force_part(found, row, query)
        if found is not None:
            widened = passages.with_first_sub_step(found)
            found = widened if shown_here(widened) else found
        return found

    def _in_force_part(self, found: Any, row: dict[str, Any], query: str) -> Any:
        """A passage of the entry an amendment composes, without what the amendment itself
        says (the paragraph it replaced, repeated): never point at a superseded sentence.
        What is left of it, or else the amendment's own best passage."""
        pieces = unsaid(found.text, said_runs(row.get("text") or ""))
        if not pieces:
            return self.index.passages.best_passage(row["topic"], query, entry=row["id"])
        if len(pieces) == 1 and pieces[0].split() == found.text.split():
            return found  # nothing said twice
        wanted = set(self.index.passages.query_terms(query))
        best = max(pieces, key=lambda piece: len(wanted & set(terms(piece))))
        return replace(found, text=best)

    def _both_editions(
        self, row: dict[str, Any], result: SearchResult, edition: str | None
    ) -> list[dict[str, Any]]:
        """No edition asked and the same title matches in both: both, the shown one first."""
        other = result.other_edition(edition)
        if other is None or other.target.edition == row["edition"]:
            return []
        return [
            {"id": row["id"], "title": row["title"], "edition": row["edition"]},
            {
                "id": other.target.entry,
                "title": other.target.title,
                "edition": other.target.edition,
            },
        ]

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
        covers = self.card_covers()
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

    def _card_answer(self, choice: Any, edition: str | None) -> dict[str, Any]:
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
        others = _other_edition_cards(choice, edition)
        if others:
            answer["editions"] = [{"id": best.topic, "title": best.title, "edition": best.edition}]
            answer["editions"] += self._rulings_first(
                [{"id": c.topic, "title": c.title, "edition": c.edition} for c in others]
            )
        return answer

    def _is_base_text(self, version: dict[str, Any]) -> bool:
        document = self.documents[version["document"]]
        return (
            document["kind"] in ("rulebook", "glossary") or version.get("taken_from") == "Rulebook"
        )

    def history(
        self, query_or_id: str, edition: str | None = None, as_of: str | None = None
    ) -> dict[str, Any] | None:
        """Every version of a topic, newest first; with ``as_of``, the one then in force marked.

        A ruling whose every version is retired is out of the search index, so it is first
        looked up by its exact title or alias (:meth:`_retired_by_name`)."""
        row = self._retired_by_name(query_or_id, edition)
        if row is None:
            row, _ = self._resolve_row(query_or_id, edition)
        if row is None:
            return None
        in_force = self.version_as_of(row["topic"], as_of) if as_of else None
        versions = self.store.versions(row["topic"])
        versions.sort(key=lambda v: (v["date"] or "", -v["rank"]), reverse=True)
        listed = []
        for v in versions:
            item = {**self._version_summary(v), "title": v["title"], "text": v["text"]}
            if as_of:
                item["in_force"] = in_force is not None and v["id"] == in_force["id"]
            listed.append(item)
        return {
            "topic": row["topic"],
            "title": row["title"],
            "edition": row["edition"],
            "versions": listed,
        }

    def _retired_by_name(self, query: str, edition: str | None) -> dict[str, Any] | None:
        """The newest version of a wholly retired topic named exactly by its title or an alias
        (normalised), or None. Topics with a live version are the search index's to find."""
        key = normalize(str(query))
        if not key:
            return None
        aliased = {
            row["target"]
            for row in self.store.db.query("SELECT target FROM aliases WHERE key = ?", [key])
        }
        rows = self.store.db.query(
            "SELECT id, topic, title FROM entries WHERE retired = 1 AND (? IS NULL OR edition = ?) "
            "AND topic NOT IN (SELECT topic FROM entries WHERE retired = 0) "
            "ORDER BY date DESC, id",
            [edition, edition],
        )
        for row in rows:
            if row["topic"] in aliased or normalize(row["title"]) == key:
                return self.store.entry(row["id"])
        return None

    def related(self, query_or_id: str, edition: str | None = None) -> dict[str, Any] | None:
        row, _ = self._resolve_row(query_or_id, edition)
        if row is None:
            return None
        return {"id": row["id"], "title": row["title"], "related": self._related(row)}

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


NAMING_SENTENCES = 2  # sentences of a ruling shown beside the card they name


def naming_sentences(text: str, name: str) -> str:
    """The sentences of a ruling that name a card (the first two), else its opening ones: why
    the ruling is about the card, visible without opening it."""
    key = f" {normalize(name)} "
    said = sentences(text)
    naming = [s for s in said if key in f" {normalize(s)} "]
    return " ".join((naming or said)[:NAMING_SENTENCES])


def _change_mark(store: Store) -> tuple[int, int]:
    """How many changes the store holds, and the newest one's id."""
    row = store.db.conn.execute("SELECT count(*), coalesce(max(id), 0) FROM changes").fetchone()
    return row[0], row[1]


def _mentioned_cards(row: dict[str, Any]) -> list[str]:
    return [
        card_id
        for mention in json.loads(row["mentions"] or "[]")
        for card_id in mention.get("card_ids", [])
    ]


def _shown_text(answer: dict[str, Any], row: dict[str, Any]) -> str:
    """What an answer shows of a ruling: the rule in force, and beside it a base not
    composed (``answer`` holds ``in_force`` and ``base`` as ``_add_rule_in_force`` put them)."""
    shown = (answer.get("in_force") or {}).get("text") or row["text"] or ""
    return shown + "\n\n" + (answer.get("base") or {}).get("text", "")


def _other_edition_cards(choice: Any, edition: str | None) -> list[Target]:
    """The cards of the other edition a card answer offers beside its first card, when no
    edition was asked for ("Both editions match")."""
    if edition:
        return []
    best = choice.cards[0]
    return [c for c in choice.cards[1:] if c.edition != best.edition]

"""A ruling as the answer (:class:`RulingAnswers`): the row a query or id resolves to (on a
date, the version then in force), and the answer built from it — its text and the rule in
force, its source and date, its versions and labels, its related rulings, the card it is
about, the part that answers the question, and both editions when both match; on a miss
with an edition, the other edition's confident answer."""

from __future__ import annotations

from typing import Any

from bot.answers.cards import CardLookups
from bot.answers.layout import part_citation
from bot.answers.parts import AnsweringParts, shown_text
from bot.answers.results import result_json
from bot.answers.versions import Versions
from bot.normalize import normalize
from bot.search.build import related_topics
from bot.search.hits import SearchResult
from bot.search.index import SearchIndex
from bot.store.build import Store
from bot.store.readers import ThreadReaders


class RulingAnswers:
    """Rulings as answers, over one generation's ``store``, ``index`` and ``cards``."""

    def __init__(
        self,
        store: Store | ThreadReaders,
        index: SearchIndex,
        versions: Versions,
        cards: CardLookups,
        parts: AnsweringParts,
    ):
        self.store = store
        self.index = index
        self.versions = versions
        self.cards = cards
        self.parts = parts

    def resolve_row(
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
            row = self.versions.version_as_of(row["topic"], as_of)
        return row, result

    def answer(
        self,
        row: dict[str, Any],
        result: SearchResult | None,
        text: str,
        edition: str | None = None,
        as_of: str | None = None,
    ) -> dict[str, Any]:
        """The answer a ruling's version (``row``) gives to ``text``, the query or id that
        resolved to it (``result``: the search that found it, None when named by id)."""
        versions = self.store.versions(row["topic"])
        answer: dict[str, Any] = {
            "id": row["id"],
            "title": row["title"],
            "edition": row["edition"],
            "kind": row["kind"],
            "text": row["text"],
            "source": self.versions.source_label(row),
            "url": self.versions.documents[row["document"]].get("url"),
            "date": row["date"],
            "status": row["status"],
            "related": self._related(row),
            "versions": [self.versions.summary(v) for v in versions],
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
        self.versions.add_rule_in_force(answer, row, versions)
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
            passage = self.parts.answering_passage(row, result, text, shown_text(answer, row))
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
        return answer

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
        for target in self.index.catalog.titled(row["title"]):
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
    def related(self, query_or_id: str, edition: str | None = None) -> dict[str, Any] | None:
        row, _ = self.resolve_row(query_or_id, edition)
        if row is None:
            return None
        return {"id": row["id"], "title": row["title"], "related": self._related(row)}

"""Which part of a ruling answers a lookup (:class:`AnsweringParts`): the passage of the
text an answer shows (the rule in force, where an amendment composes it) that a question
asks of, pointed out; never a sentence an amendment replaced, and none when the ruling was
asked for by its name. On a miss, each suggested ruling's or card's part that fits the
question, and what its best matches show without a tap."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.answers.layout import BEST_MATCHES, part_citation, part_key
from bot.answers.versions import Versions
from bot.normalize import terms
from bot.search.confidence import FEATURES
from bot.search.hits import FOUND_BY_TEXT, SearchResult
from bot.search.index import SearchIndex
from bot.search.passages import said_runs, sentences, unsaid
from bot.store.build import Store
from bot.store.readers import ThreadReaders

# A ruling found by a name that explains this share of the query's words was asked for by
# name (misspelt or reordered): its whole text answers, no part of it is pointed out.
NAME_EXPLAINS = 0.9
NAME_COVER = FEATURES.index("name_cover")
OPENING_WORDS = 30  # a best match asked by its title's words shows this much of its opening


class AnsweringParts:
    """The parts of one generation's rulings (``index.passages``) that answer lookups."""

    def __init__(self, store: Store | ThreadReaders, index: SearchIndex, versions: Versions):
        self.store = store
        self.index = index
        self.versions = versions

    def point_out_in_suggestions(self, results: list[dict[str, Any]], query: str) -> None:
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
            self.versions.add_rule_in_force(answer, row, self.store.versions(row["topic"]))
            shown = shown_text(answer, row)
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
            text=row["text"], source=self.versions.source_label(row), date=row["date"],
            url=self.versions.documents[row["document"]].get("url"),
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

    def answering_passage(
        self, row: dict[str, Any], result: SearchResult, query: str, shown: str
    ) -> dict[str, Any] | None:
        """The part of the shown text (the rule in force, where an amendment composes it)
        that answers the query, when the text has parts."""
        passages = self.index.passages
        if passages is None:
            return None
        top = result.hits[0]
        if any(t.topic == row["topic"] for t in self.index.catalog.exact(query)):
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


def shown_text(answer: dict[str, Any], row: dict[str, Any]) -> str:
    """What an answer shows of a ruling: the rule in force, and beside it a base not
    composed (``answer`` holds ``in_force`` and ``base`` as ``_add_rule_in_force`` put them)."""
    shown = (answer.get("in_force") or {}).get("text") or row["text"] or ""
    return shown + "\n\n" + (answer.get("base") or {}).get("text", "")

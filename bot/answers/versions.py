"""A ruling's versions: which one is in force on a date, how each is labelled (current,
amended, superseded, retired, an older copy) and cited (the document as users should read
it), the rule in force that an amendment composes with the entry it amends, what changed
since a date, and a topic's history (:class:`Versions`)."""

from __future__ import annotations

import json
from typing import Any

from bot.answers.compose import REPLACED, compose, looks_cut, version_label
from bot.answers.layout import Citation
from bot.models import WHOLE_ACTIONS
from bot.normalize import normalize
from bot.store.build import Store
from bot.store.readers import ThreadReaders
from bot.validate import iso_date


class Versions:
    """The versions of the rulings in one generation's ``store`` and their ``documents``."""

    def __init__(self, store: Store | ThreadReaders, documents: dict[str, dict[str, Any]]):
        self.store = store
        self.documents = documents

    def source_label(self, row: dict[str, Any]) -> str:
        """The document a version comes from, as users should read it."""
        document = self.documents[row["document"]]
        if not document["official"]:
            taken = (row.get("taken_from") or "").replace("-", " ")
            what = f"{document['edition']} {taken} text".replace("  ", " ") if taken else "text"
            return f"{what}, via {document['title']}"
        return document["title"]

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

    def summary(self, row: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": row["id"],
            "source": self.source_label(row),
            "date": row["date"],
            "status": row["status"],
            **self.label(row),
        }

    # ------------------------------------------------- the rule as in force, labels

    def _topic_current(self, topic: str) -> dict[str, Any] | None:
        versions = self.store.versions(topic)
        return next((v for v in versions if not v.get("retired")), None)

    def label(self, row: dict[str, Any]) -> dict[str, Any]:
        """``label`` (current / amended / superseded / retired / older copy) and why, plus a
        damaged-text note where the source cut the text mid-sentence."""
        current = self._topic_current(row["topic"]) or row
        label, detail = version_label(
            row,
            current,
            is_base=self.is_base_text(row) and not self.is_base_text(current),
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
        if self.is_base_text(row):
            return None
        return next(
            (
                v
                for v in versions
                if v["id"] != row["id"]
                and v["text"]
                and self.is_base_text(v)
                and not v.get("retired")
            ),
            None,
        )

    def add_rule_in_force(self, answer: dict, row: dict, versions: list[dict]) -> None:
        """``in_force`` (the composed rule), ``base`` and the labels of an answer."""
        answer.update(self.label(row))
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
                **self.summary(base),
                "url": self.documents[base["document"]].get("url"),
                "text": base["text"],
            }

    def is_base_text(self, version: dict[str, Any]) -> bool:
        document = self.documents[version["document"]]
        return (
            document["kind"] in ("rulebook", "glossary") or version.get("taken_from") == "Rulebook"
        )

    def history(self, row: dict[str, Any], as_of: str | None = None) -> dict[str, Any]:
        """Every version of ``row``'s topic, newest first; with ``as_of``, the one then in
        force marked."""
        in_force = self.version_as_of(row["topic"], as_of) if as_of else None
        versions = self.store.versions(row["topic"])
        versions.sort(key=lambda v: (v["date"] or "", -v["rank"]), reverse=True)
        listed = []
        for v in versions:
            item = {**self.summary(v), "title": v["title"], "text": v["text"]}
            if as_of:
                item["in_force"] = in_force is not None and v["id"] == in_force["id"]
            listed.append(item)
        return {
            "topic": row["topic"],
            "title": row["title"],
            "edition": row["edition"],
            "versions": listed,
        }

    def retired_by_name(self, query: str, edition: str | None) -> dict[str, Any] | None:
        """The newest version of a wholly retired topic named exactly by its title or an alias
        (normalised), or None. Topics with a live version are the search index's to find
        (a wholly retired one is out of it)."""
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

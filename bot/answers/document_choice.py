"""Which document a moderator's new ruling comes from (:class:`DocumentChoice`): an
existing document named by its id or title, of the ruling's edition and date; or, only
when asked for explicitly, a new moderator document. Any other name is refused with the
nearest names: a mistyped document must not quietly become a new one."""

from __future__ import annotations

import difflib
import sqlite3

from bot.answers.moderators import ModerationError, UnknownDocument
from bot.normalize import normalize, slugify
from bot.store.changelog import document_row


class DocumentChoice:
    """The documents of an open store (``conn``), as a moderator names them."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def document_op(
        self, document: str, edition: str, date: str | None, new_document: bool
    ) -> tuple[str, dict | None]:
        """An existing document, named by its id or its title; or, only when ``new_document``
        says so, a new moderator document with that title. Any other name is refused with the
        nearest names: a mistyped document must not quietly become a new one."""
        name = document.strip()
        if not name:
            raise ModerationError("Name the document the ruling comes from.")
        existing = document_row(self.conn, name)
        if existing is None:
            key = normalize(name)
            existing = next(
                (
                    document_row(self.conn, doc_id)
                    for doc_id, title in self.conn.execute(
                        "SELECT id, title FROM documents ORDER BY id"
                    )
                    if normalize(title) == key
                ),
                None,
            )
        if existing is not None:
            if existing["edition"] != edition:
                raise ModerationError(
                    f"Document {existing['id']} is {existing['edition']}, not {edition}."
                )
            if date and existing["date"] != date:
                raise ModerationError(
                    f"Document {existing['id']} is dated {existing['date'] or 'undated'}, "
                    f"not {date}."
                )
            return existing["id"], None
        if not new_document:
            raise UnknownDocument(name, self.suggestions(name, edition))
        doc_id = f"{edition.lower()}-{slugify(name)[:40]}-{(date or 'undated')}"
        record = {
            "id": doc_id, "title": name, "edition": edition, "kind": "current rulings",
            "date": date, "official": 1, "file": None, "parser": None, "origin": "moderator",
        }  # fmt: skip
        return doc_id, {"kind": "document", "id": doc_id, "before": None, "after": record}

    def suggestions(self, name: str, edition: str, count: int = 3) -> list[str]:
        """The documents of an edition whose id or title is nearest to ``name``."""
        rows = self.conn.execute(
            "SELECT id, title FROM documents WHERE edition = ? ORDER BY id", (edition,)
        ).fetchall()
        by_key: dict[str, str] = {}
        for doc_id, title in rows:
            label = f"{title} ({doc_id})"
            by_key.setdefault(doc_id.lower(), label)
            by_key.setdefault(normalize(title), label)
        key = normalize(name) if normalize(name) in by_key else name.strip().lower()
        close = difflib.get_close_matches(key, list(by_key), n=count * 2, cutoff=0.5)
        if not close:  # a few words of the title: the documents that share the most of them
            words = set(normalize(name).split())
            scored = sorted(
                ((len(words & set(normalize(t).split())), i) for i, t in rows), reverse=True
            )
            close = [i.lower() for n, i in scored if n][:count]
        return list(dict.fromkeys(by_key[k] for k in close))[:count]

"""Moderator changes to the live store: add, edit, retire, aliases, revert.

Every change is one SQLite transaction that also appends an audit row to ``changes``. A row
records the operations it made, each with the state before and after, which is what makes
a change revertable (apply the befores in reverse) and replayable on a rebuilt store (apply
the afters, noting a conflict where the base no longer matches the before).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from bot import validate
from bot.ingest.importer import topic_keys
from bot.models import KINDS
from bot.normalize import normalize, slugify
from bot.store.changelog import (
    apply_ops,
    current_state,
    document_row,
    entry_row,
    now,
    same_state,
)
from bot.store.journal import CHANGE_FIELDS, Journal, journalled

log = logging.getLogger(__name__)


class ModerationError(ValueError):
    """A change that cannot be made; the message is fit to show the moderator."""


class StaleEdit(ModerationError):
    """The entry changed after the moderator opened it."""


@dataclass
class Moderator:
    id: str
    name: str


def check_ruling(title: str, edition: str, kind: str, text: str, date: str | None) -> None:
    """Refuse a ruling that lacks a title or text, or names an unknown edition, kind or date."""
    if not title.strip():
        raise ModerationError("A ruling needs a title.")
    if not validate.is_canonical(validate.edition, edition):
        raise ModerationError("Edition must be 1E or 2E.")
    if not validate.is_canonical(validate.entry_kind, kind):
        raise ModerationError(f"Kind must be one of: {', '.join(KINDS)}.")
    if not text.strip():
        raise ModerationError("A ruling needs its text.")
    if date and not validate.is_canonical(validate.iso_date, date):
        raise ModerationError("Dates are written YYYY-MM-DD.")


@contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """Hold the store's write lock from the first read of a change to its commit.

    A change reads what it is made on (an entry's version, the change it reverts) and then
    writes; in a deferred transaction another process could write in between and be
    silently overwritten. ``BEGIN IMMEDIATE`` takes the write lock before the first read.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
    if conn.in_transaction:
        conn.commit()


# ----------------------------------------------------------------------- the service
class Moderation:
    """Moderator operations on an open store; each is one transaction with its audit row."""

    def __init__(self, conn: sqlite3.Connection, journal: Journal | None = None):
        self.conn = conn
        self.journal = journal

    def commit(
        self,
        moderator: Moderator,
        action: str,
        summary: str,
        ops: list[dict],
        reason: str | None = None,
        reverts: int | None = None,
    ) -> dict[str, Any]:
        """Write a change: to the journal first (durable), then to the store, with its audit
        row, in one transaction. Callers check what the change was made on inside the same
        transaction (see :func:`immediate`), so no other process can change it meanwhile."""
        if not ops:
            raise ModerationError("Nothing would change.")
        last = self.conn.execute("SELECT max(id) FROM changes").fetchone()[0] or 0
        change = {
            "id": self.journal.next_id(last + 1) if self.journal else last + 1,
            "at": now(), "moderator_id": str(moderator.id), "moderator_name": moderator.name,
            "action": action, "summary": summary, "reason": reason,
            "ops": json.dumps(ops, ensure_ascii=False), "reverts": reverts,
        }  # fmt: skip
        with journalled(self.journal, change) if self.journal else nullcontext():
            with self.conn:  # one transaction: the change and its audit row, or neither
                apply_ops(self.conn, ops, "after")
                self.conn.execute(
                    f"INSERT INTO changes({', '.join(CHANGE_FIELDS)}) "
                    f"VALUES ({', '.join('?' for _ in CHANGE_FIELDS)})",
                    [change[k] for k in CHANGE_FIELDS],
                )
        change_id = change["id"]
        log.info(
            "change #%s by %s (%s): %s %s", change_id, moderator.name, moderator.id, action, summary
        )
        return self.change(change_id)

    # -- reading
    def change(self, change_id: int) -> dict[str, Any] | None:
        self.conn.row_factory = sqlite3.Row
        try:
            row = self.conn.execute("SELECT * FROM changes WHERE id = ?", (change_id,)).fetchone()
        finally:
            self.conn.row_factory = None
        if row is None:
            return None
        change = dict(row)
        change["ops"] = json.loads(change["ops"])
        reverted = self.conn.execute(
            "SELECT id FROM changes WHERE reverts = ?", (change_id,)
        ).fetchall()
        change["reverted_by"] = [r[0] for r in reverted]
        return change

    def log(self, count: int = 10) -> list[dict[str, Any]]:
        count = max(1, min(int(count), 100))
        ids = [
            r[0]
            for r in self.conn.execute("SELECT id FROM changes ORDER BY id DESC LIMIT ?", (count,))
        ]
        return [self.change(i) for i in ids]

    def conflicts(self) -> list[dict[str, Any]]:
        return [
            {"change_id": r[0], "at": r[1], "detail": r[2]}
            for r in self.conn.execute("SELECT change_id, at, detail FROM conflicts ORDER BY id")
        ]

    def entry(self, entry_id: str) -> dict[str, Any] | None:
        return entry_row(self.conn, entry_id)

    # -- helpers
    def _topic_for(self, edition: str, title: str) -> str:
        for key in topic_keys(title):
            # The normalised title is stored beside each topic: one indexed lookup, not a
            # normalisation of every title of the edition (3 s at 100,000 entries).
            found = self.conn.execute(
                "SELECT id FROM topics WHERE edition = ? AND key = ? ORDER BY id LIMIT 1",
                (edition, key),
            ).fetchone()
            if found:
                return found[0]
        return f"{edition.lower()}-{slugify(title)[:60]}"

    def _document_op(
        self, document: str, edition: str, date: str | None
    ) -> tuple[str, dict | None]:
        """An existing document id, or a new moderator document named by its title."""
        existing = document_row(self.conn, document)
        if existing:
            if existing["edition"] != edition:
                raise ModerationError(
                    f"Document {document} is {existing['edition']}, not {edition}."
                )
            return document, None
        if not document.strip():
            raise ModerationError("Name the document the ruling comes from.")
        doc_id = f"{edition.lower()}-{slugify(document)[:40]}-{(date or 'undated')}"
        if document_row(self.conn, doc_id):
            return doc_id, None
        record = {
            "id": doc_id, "title": document.strip(), "edition": edition, "kind": "current rulings",
            "date": date, "official": 1, "file": None, "parser": None, "origin": "moderator",
        }  # fmt: skip
        return doc_id, {"kind": "document", "id": doc_id, "before": None, "after": record}

    def _alias_ops(self, aliases: list[str], target: str) -> list[dict]:
        ops = []
        for alias in aliases:
            key = normalize(alias)
            if (
                key
                and current_state(self.conn, {"kind": "alias", "key": key, "target": target})
                is None
            ):
                ops.append(
                    {
                        "kind": "alias",
                        "key": key,
                        "target": target,
                        "before": None,
                        "after": {"alias": alias.strip(), "note": None, "origin": "moderator"},
                    }
                )
        return ops

    # -- changes
    def add(
        self,
        moderator: Moderator,
        *,
        title: str,
        edition: str,
        kind: str,
        text: str,
        document: str,
        date: str | None = None,
        aliases: list[str] = (),
        reason: str | None = None,
    ) -> dict[str, Any]:
        """A new ruling (a new topic, or a new version of an existing one)."""
        check_ruling(title, edition, kind, text, date)
        doc_id, doc_op = self._document_op(document, edition, date)
        doc_date = doc_op["after"]["date"] if doc_op else document_row(self.conn, doc_id)["date"]
        base = f"{doc_id}:{slugify(title)[:60]}"
        entry_id, n = base, 2
        while entry_row(self.conn, entry_id) is not None:
            entry_id, n = f"{base}-{n}", n + 1
        topic = self._topic_for(edition, title)
        entry = {
            "id": entry_id, "topic": topic, "title": title.strip(), "edition": edition, "kind": kind,
            "document": doc_id, "date": doc_date, "line": 0, "marked_new": True, "taken_from": None,
            "amendments": [], "see_also": [], "mentions": [], "text": text.strip(), "version": 1,
            "retired": False, "retired_reason": None, "origin": "moderator",
        }  # fmt: skip
        ops = ([doc_op] if doc_op else []) + [
            {"kind": "entry", "id": entry_id, "before": None, "after": entry}
        ]
        ops += self._alias_ops(list(aliases), topic)
        return self.commit(moderator, "add", f"{title.strip()} ({edition})", ops, reason)

    def edit(
        self,
        moderator: Moderator,
        entry_id: str,
        based_on: int,
        *,
        title: str | None = None,
        kind: str | None = None,
        text: str | None = None,
        date: str | None = None,
        aliases: list[str] = (),
        reason: str | None = None,
    ) -> dict[str, Any]:
        """Change an entry; refused when it changed since version ``based_on`` was read."""
        before = entry_row(self.conn, entry_id)
        if before is None:
            raise ModerationError("That ruling does not exist (any more).")
        if before["version"] != based_on:
            last = self.conn.execute(
                "SELECT moderator_name, at FROM changes WHERE ops LIKE ? ORDER BY id DESC LIMIT 1",
                (f'%"id": "{entry_id}"%',),
            ).fetchone()
            who = f"{last[0]} at {last[1]}" if last else "someone"
            raise StaleEdit(f"Changed meanwhile by {who}: open it again to see the new text.")
        after = dict(before)
        after.update(
            {k: v for k, v in {"title": title, "kind": kind, "text": text}.items() if v is not None}
        )
        if title is not None:
            after["title"] = title.strip()
        if text is not None:
            after["text"] = text.strip()
        check_ruling(after["title"], after["edition"], after["kind"], after["text"], date)
        after["version"] = before["version"] + 1
        ops = []
        if any(after[k] != before[k] for k in ("title", "kind", "text")):
            ops.append({"kind": "entry", "id": entry_id, "before": before, "after": after})
        ops += self._alias_ops(list(aliases), before["topic"])
        return self.commit(moderator, "edit", f"{after['title']} ({after['edition']})", ops, reason)

    def retire(self, moderator: Moderator, entry_id: str, reason: str) -> dict[str, Any]:
        """The entry stops answering but stays in history, marked retired with the reason."""
        before = entry_row(self.conn, entry_id)
        if before is None:
            raise ModerationError("That ruling does not exist (any more).")
        if before["retired"]:
            raise ModerationError("That ruling is already retired.")
        if not reason.strip():
            raise ModerationError("Say why it is retired.")
        after = {
            **before,
            "retired": True,
            "retired_reason": reason.strip(),
            "version": before["version"] + 1,
        }
        ops = [{"kind": "entry", "id": entry_id, "before": before, "after": after}]
        return self.commit(
            moderator, "retire", f"{before['title']} ({before['edition']})", ops, reason
        )

    def alias_add(self, moderator: Moderator, alias: str, target: str) -> dict[str, Any]:
        if not normalize(alias):
            raise ModerationError("An alias needs letters or digits.")
        if len(alias) > 100:
            raise ModerationError("Aliases are at most 100 characters.")
        ops = self._alias_ops([alias], target)
        if not ops:
            raise ModerationError(f"“{alias}” already leads there.")
        return self.commit(moderator, "alias add", f"{alias} → {target}", ops)

    def alias_remove(self, moderator: Moderator, alias: str, target: str) -> dict[str, Any]:
        key = normalize(alias)
        current = current_state(self.conn, {"kind": "alias", "key": key, "target": target})
        if current is None:
            raise ModerationError(f"“{alias}” is not an alias of {target}.")
        ops = [
            {
                "kind": "alias",
                "key": key,
                "target": target,
                "before": {**current, "origin": "moderator"},
                "after": None,
            }
        ]
        return self.commit(moderator, "alias remove", f"{alias} ↛ {target}", ops)

    def revert(
        self, moderator: Moderator, change_id: int, reason: str | None = None
    ) -> dict[str, Any]:
        """Undo a change (itself a change, logged and revertable)."""
        change = self.change(change_id)
        if change is None:
            raise ModerationError(f"There is no change #{change_id}.")
        if change["reverted_by"]:
            raise ModerationError(
                f"Change #{change_id} was already reverted by #{change['reverted_by'][0]}."
            )
        ops = []
        for op in reversed(change["ops"]):
            current = current_state(self.conn, op)
            if not same_state(current, op["after"], op["kind"]):
                raise StaleEdit(
                    f"Change #{change_id} cannot be reverted: what it changed has changed since."
                )
            before = op["before"]
            if op["kind"] == "entry" and before is not None:
                before = {**before, "version": current["version"] + 1}
            ops.append({**op, "before": current, "after": before})
        return self.commit(
            moderator,
            "revert",
            f"#{change_id} {change['action']}: {change['summary']}",
            ops,
            reason,
            reverts=change_id,
        )


__all__ = ["Moderation", "ModerationError", "Moderator", "StaleEdit", "check_ruling"]

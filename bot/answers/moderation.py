"""Moderator changes to the live store: add, edit, retire, aliases, revert.

Every change is one SQLite transaction that also appends an audit row to ``changes``. A row
records the operations it made, each with the state before and after, which is what makes
a change revertable (apply the befores in reverse) and replayable on a rebuilt store (apply
the afters, noting a conflict where the base no longer matches the before).

:class:`Moderation` decides what each change does — the entry a new ruling or an edit
makes, what a retirement or a revert puts back — and refuses one made on a stale version.
Which document and alias targets a change names, and the change log itself, are
:mod:`bot.answers.document_choice`, :mod:`bot.answers.aliasing` and
:mod:`bot.answers.audit`; the refusals are :mod:`bot.answers.moderators`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bot.answers.aliasing import AliasOps
from bot.answers.audit import AuditLog
from bot.answers.document_choice import DocumentChoice
from bot.answers.moderators import (
    AliasRepoint,
    ModerationError,
    Moderator,
    StaleEdit,
    UnknownDocument,
    check_ruling,
)
from bot.ingest.importer import topic_keys
from bot.normalize import normalize, slugify
from bot.store.changelog import current_state, document_row, entry_row, same_state
from bot.store.journal import Journal


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

    def __init__(
        self,
        conn: sqlite3.Connection,
        journal: Journal | None = None,
        *,
        dry_run: bool = False,
        leads_to: Callable[[str], list[tuple[str, str]]] | None = None,
    ):
        self.conn = conn
        self.audit = AuditLog(conn, journal, dry_run)
        self.documents = DocumentChoice(conn)
        self.aliases = AliasOps(conn, leads_to)

    def commit(
        self,
        moderator: Moderator,
        action: str,
        summary: str,
        ops: list[dict],
        reason: str | None = None,
        reverts: int | None = None,
    ) -> dict[str, Any]:
        """Write a change with its audit row (see :meth:`AuditLog.commit`)."""
        return self.audit.commit(moderator, action, summary, ops, reason, reverts)

    # -- reading
    def change(self, change_id: int) -> dict[str, Any] | None:
        return self.audit.change(change_id)

    def log(self, count: int = 10) -> list[dict[str, Any]]:
        return self.audit.log(count)

    def conflicts(self) -> list[dict[str, Any]]:
        return self.audit.conflicts()

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
        new_document: bool = False,
    ) -> dict[str, Any]:
        """A new ruling (a new topic, or a new version of an existing one), in an existing
        document, or in a new moderator document when ``new_document`` says so."""
        check_ruling(title, edition, kind, text, date)
        doc_id, doc_op = self.documents.document_op(document, edition, date, new_document)
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
        ops += self.aliases.ops(list(aliases), topic)
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
        ops += self.aliases.ops(list(aliases), before["topic"])
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

    def alias_add(
        self, moderator: Moderator, alias: str, target: str, *, repoint: bool = False
    ) -> dict[str, Any]:
        """Make ``alias`` lead to the topic ``target``. An alias that already leads to another
        ruling is refused with :class:`AliasRepoint` unless ``repoint`` confirms the move."""
        if not normalize(alias):
            raise ModerationError("An alias needs letters or digits.")
        if len(alias) > 100:
            raise ModerationError("Aliases are at most 100 characters.")
        if self.conn.execute("SELECT 1 FROM topics WHERE id = ?", (target,)).fetchone() is None:
            raise ModerationError(f"There is no ruling topic {target}.")
        ops = self.aliases.ops([alias], target, repoint)
        if not ops:
            raise ModerationError(f"“{alias}” already leads there.")
        moved = [op["target"] for op in ops if op["after"] is None]
        summary = f"{alias} → {target}" + (f" (was {', '.join(moved)})" if moved else "")
        return self.commit(moderator, "alias add", summary, ops)

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


__all__ = [
    "AliasRepoint",
    "Moderation",
    "ModerationError",
    "Moderator",
    "StaleEdit",
    "UnknownDocument",
    "check_ruling",
]

"""Moderator changes to the live store: add, edit, retire, aliases, revert.

Every change is one SQLite transaction that also appends an audit row to ``changes``. A row
records the operations it made, each with the state before and after, which is what makes
a change revertable (apply the befores in reverse) and replayable on a rebuilt store (apply
the afters, noting a conflict where the base no longer matches the before).
"""

from __future__ import annotations

import difflib
import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
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


class AliasRepoint(ModerationError):
    """The alias already leads to another ruling; moving it needs an explicit confirmation."""

    def __init__(self, alias: str, target: str, current: list[tuple[str, str]]):
        self.alias, self.target, self.current = alias, target, current
        where = ", ".join(f"{title} ({topic})" for topic, title in current)
        super().__init__(
            f"“{alias}” already leads to {where}. Re-pointing it moves it in every server: "
            "confirm the re-point to do it."
        )


class UnknownDocument(ModerationError):
    """``add`` named a document that is not in the store."""

    def __init__(self, document: str, suggestions: list[str]):
        self.document, self.suggestions = document, suggestions
        hint = f" Did you mean: {'; '.join(suggestions)}?" if suggestions else ""
        super().__init__(
            f"There is no document “{document}”.{hint} Name an existing document by its id "
            "or title (see /sources), or ask for a new document explicitly."
        )


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

    def __init__(
        self,
        conn: sqlite3.Connection,
        journal: Journal | None = None,
        *,
        dry_run: bool = False,
        leads_to: Callable[[str], list[tuple[str, str]]] | None = None,
    ):
        self.conn = conn
        self.journal = journal
        # Where a text leads today as a lookup (topic id, title): the search's own answer,
        # which knows the automatic aliases (initialisms such as KTC) the store does not list.
        self.leads_to = leads_to
        # A dry run applies a change's operations without journal, audit row or commit: the
        # caller reads the result (a preview) inside the open transaction, then rolls back.
        self.dry_run = dry_run

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
        if self.dry_run:
            if not self.conn.in_transaction:
                raise RuntimeError("a dry run must run inside a transaction it rolls back")
            apply_ops(self.conn, ops, "after")
            return {"id": None, "action": action, "summary": summary, "ops": ops}
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
            raise UnknownDocument(name, self.document_suggestions(name, edition))
        doc_id = f"{edition.lower()}-{slugify(name)[:40]}-{(date or 'undated')}"
        record = {
            "id": doc_id, "title": name, "edition": edition, "kind": "current rulings",
            "date": date, "official": 1, "file": None, "parser": None, "origin": "moderator",
        }  # fmt: skip
        return doc_id, {"kind": "document", "id": doc_id, "before": None, "after": record}

    def document_suggestions(self, name: str, edition: str, count: int = 3) -> list[str]:
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

    def _alias_targets(self, alias: str, target: str) -> list[tuple[str, str]]:
        """The other topics (id, title) an alias leads to now: its stored alias rows, and
        where a lookup of it confidently lands (``leads_to``)."""
        found = {
            topic: title or topic
            for topic, title in self.conn.execute(
                "SELECT a.target, t.title FROM aliases a LEFT JOIN topics t ON t.id = a.target "
                "WHERE a.key = ? AND a.target != ? ORDER BY a.target",
                (normalize(alias), target),
            )
        }
        for topic, title in self.leads_to(alias) if self.leads_to else []:
            if topic != target:
                found.setdefault(topic, title)
        return list(found.items())

    def _alias_ops(self, aliases: list[str], target: str, repoint: bool = False) -> list[dict]:
        """Operations that make each alias lead to ``target``. An alias that already leads to
        another ruling is refused (:class:`AliasRepoint`) unless ``repoint``: then it is moved,
        its old targets removed in the same change (so a revert moves it back)."""
        ops = []
        for alias in aliases:
            key = normalize(alias)
            if not key:
                continue
            others = self._alias_targets(alias, target)
            if others and not repoint:
                raise AliasRepoint(alias.strip(), target, others)
            for other, _ in others:
                current = current_state(self.conn, {"kind": "alias", "key": key, "target": other})
                if current is None:  # an automatic alias: the new row outranks it
                    continue
                ops.append(
                    {"kind": "alias", "key": key, "target": other, "before": current, "after": None}
                )
            if current_state(self.conn, {"kind": "alias", "key": key, "target": target}) is None:
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
        new_document: bool = False,
    ) -> dict[str, Any]:
        """A new ruling (a new topic, or a new version of an existing one), in an existing
        document, or in a new moderator document when ``new_document`` says so."""
        check_ruling(title, edition, kind, text, date)
        doc_id, doc_op = self._document_op(document, edition, date, new_document)
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
        ops = self._alias_ops([alias], target, repoint)
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

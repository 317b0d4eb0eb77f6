"""The moderators' change log: each change is a list of operations, each with the state
before and after it.

Applying the ``after`` states makes a change; applying the ``before`` states in reverse undoes
it (a revert); applying the ``after`` states onto a rebuilt store replays it, unless the base
no longer matches the ``before`` states, which is a conflict that is recorded, not forced.
The store's build calls :func:`replay_changes`; moderator commands call :func:`apply_ops`.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sqlite3
from typing import Any

from bot.store.journal import ABANDONED, CHANGE_FIELDS, COMMITTED, PENDING, Journal
from bot.store.schema import ENTRY_FIELDS, decode_entry, encode_entry, index_text, rerank

log = logging.getLogger(__name__)

# What a replay compares to decide whether the base still is what a change was made on.
COMPARED = ("title", "kind", "text", "retired", "topic", "document")


def now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


def entry_row(conn: sqlite3.Connection, entry_id: str) -> dict[str, Any] | None:
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM entries WHERE id = ?", (entry_id,)).fetchone()
    finally:
        conn.row_factory = None
    if row is None:
        return None
    record = decode_entry(dict(row))
    return {k: record.get(k) for k in ENTRY_FIELDS}


def document_row(conn: sqlite3.Connection, document_id: str) -> dict[str, Any] | None:
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM documents WHERE id = ?", (document_id,)).fetchone()
    finally:
        conn.row_factory = None
    return dict(row) if row else None


# ------------------------------------------------------------------ primitive operations
def _put_entry(conn: sqlite3.Connection, entry: dict[str, Any] | None, entry_id: str) -> set[str]:
    """Write (or delete, for None) one entry; returns the topics whose order may change."""
    before = entry_row(conn, entry_id)
    touched = {before["topic"]} if before else set()
    if before:
        old = conn.execute("SELECT rowid FROM entries WHERE id = ?", (entry_id,)).fetchone()
        conn.execute("DELETE FROM fulltext WHERE rowid = ?", (old[0],))
        conn.execute("DELETE FROM entries WHERE id = ?", (entry_id,))
    if entry is not None:
        record = encode_entry({k: entry.get(k) for k in ENTRY_FIELDS})
        columns = [k for k in ENTRY_FIELDS if record.get(k) is not None]
        conn.execute(
            f"INSERT INTO entries({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
            [record[c] for c in columns],
        )
        index_text(conn, entry_id)
        touched.add(entry["topic"])
    return touched


def _put_document(
    conn: sqlite3.Connection, document: dict[str, Any] | None, document_id: str
) -> None:
    conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))
    if document is not None:
        columns = list(document)
        conn.execute(
            f"INSERT INTO documents({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
            [document[c] for c in columns],
        )


def _put_alias(
    conn: sqlite3.Connection, alias: dict[str, Any] | None, key: str, target: str
) -> None:
    conn.execute("DELETE FROM aliases WHERE key = ? AND target = ?", (key, target))
    if alias is not None:
        conn.execute(
            "INSERT INTO aliases(alias, key, target, note, origin) VALUES (?, ?, ?, ?, ?)",
            (alias["alias"], key, target, alias.get("note"), alias.get("origin", "moderator")),
        )


def apply_ops(conn: sqlite3.Connection, ops: list[dict[str, Any]], side: str) -> None:
    """Apply each operation's ``after`` (or, reverting, its ``before``); entries last-ranked."""
    touched: set[str] = set()
    ordered = ops if side == "after" else list(reversed(ops))

    # Documents must exist before their entries are written, and go after they are removed.
    def phase(op: dict[str, Any]) -> int:
        if op["kind"] != "document":
            return 1
        return 0 if op[side] is not None else 2

    ordered = sorted(ordered, key=phase)
    for op in ordered:
        value = op[side]
        if op["kind"] == "entry":
            touched |= _put_entry(conn, value, op["id"])
        elif op["kind"] == "document":
            _put_document(conn, value, op["id"])
        elif op["kind"] == "alias":
            _put_alias(conn, value, op["key"], op["target"])
    if touched:
        rerank(conn, sorted(touched))


def current_state(conn: sqlite3.Connection, op: dict[str, Any]) -> dict[str, Any] | None:
    if op["kind"] == "entry":
        return entry_row(conn, op["id"])
    if op["kind"] == "document":
        return document_row(conn, op["id"])
    row = conn.execute(
        "SELECT alias, note FROM aliases WHERE key = ? AND target = ?", (op["key"], op["target"])
    ).fetchone()
    return {"alias": row[0], "note": row[1]} if row else None


def same_state(a: dict[str, Any] | None, b: dict[str, Any] | None, kind: str) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if kind == "entry":
        return all(a.get(k) == b.get(k) for k in COMPARED)
    if kind == "alias":
        return a.get("alias") == b.get("alias")
    return all(a.get(k) == b.get(k) for k in ("title", "edition", "date"))


def replay_changes(conn: sqlite3.Connection, changes: list[dict[str, Any]]) -> list[str]:
    """Re-apply carried-over changes on a freshly built base; returns conflicts.

    A change whose operations still find the state they were made on is applied; one whose
    result is already there (the data was exported and committed) is kept as history only;
    anything else is a conflict: recorded, reported, and not applied.
    """
    conflicts: list[str] = []
    with conn:
        for change in changes:
            conn.execute(
                "INSERT INTO changes(id, at, moderator_id, moderator_name, action, summary, reason, ops, reverts) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                tuple(change[k] for k in CHANGE_FIELDS),
            )
            ops = json.loads(change["ops"])
            if all(same_state(current_state(conn, op), op["after"], op["kind"]) for op in ops):
                continue  # already part of the bundled data
            clashes = [
                op
                for op in ops
                if not same_state(current_state(conn, op), op["before"], op["kind"])
            ]
            if clashes:
                names = ", ".join(op.get("id") or op.get("key", "?") for op in clashes)
                detail = (
                    f"change #{change['id']} ({change['action']}: {change['summary']}) by "
                    f"{change['moderator_name']} was made on data that the new bundled data changed: {names}"
                )
                conn.execute(
                    "INSERT INTO conflicts(change_id, at, detail) VALUES (?, ?, ?)",
                    (change["id"], now(), detail),
                )
                conflicts.append(detail)
                continue
            apply_ops(conn, ops, "after")
    return conflicts


def abandon_unconfirmed(journal: Journal, committed_ids: set[int]) -> list[dict[str, Any]]:
    """Settle pending changes: committed where the store has them, abandoned (and said so)
    where it does not. Returns the abandoned ones."""
    abandoned = []
    for change in journal.changes():
        if change["state"] != PENDING:
            continue
        if change["id"] in committed_ids:
            journal.settle(change["id"], COMMITTED)
            continue
        journal.settle(change["id"], ABANDONED)
        abandoned.append(change)
        log.error(
            "change #%s (%s: %s) by %s was never committed to the store (its write failed, "
            "or the process stopped first): it is not applied; make it again if it is wanted",
            change["id"],
            change["action"],
            change["summary"],
            change["moderator_name"],
        )
    return abandoned


def sync_with_journal(conn: sqlite3.Connection, journal: Journal) -> list[str]:
    """Bring the store level with the journal; returns conflicts.

    Changes the store already has are settled as committed; committed changes only the
    journal has (the store was rebuilt from an older file) are replayed. A pending change
    the store lacks was never confirmed (its commit failed, or its process died first): it
    is abandoned, never applied. Changes only the store has (a store from before the
    journal, or a journal started again) are adopted.
    """
    conn.row_factory = sqlite3.Row
    try:
        stored = [dict(r) for r in conn.execute("SELECT * FROM changes ORDER BY id")]
    finally:
        conn.row_factory = None
    journal.adopt(stored)
    have = {c["id"] for c in stored}
    abandon_unconfirmed(journal, have)
    missing = [c for c in journal.changes() if c["id"] not in have]
    if not missing:
        return []
    conflicts = replay_changes(conn, missing)
    for change in missing:
        journal.settle(change["id"], COMMITTED)
    return conflicts

"""The moderators' change log (:class:`AuditLog`): a change is written to the journal
first (durable), then to the store with its audit row, in one transaction, or only
applied inside the caller's transaction for a preview (a dry run); and changes are read
back, with the changes that reverted them, and the conflicts a replay noted."""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import nullcontext
from typing import Any

from bot.answers.moderators import ModerationError, Moderator
from bot.store.changelog import apply_ops, now
from bot.store.journal import CHANGE_FIELDS, Journal, journalled

log = logging.getLogger(__name__)


class AuditLog:
    """The changes of an open store (``conn``), journalled in ``journal`` if given."""

    def __init__(
        self, conn: sqlite3.Connection, journal: Journal | None = None, dry_run: bool = False
    ):
        self.conn = conn
        self.journal = journal
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

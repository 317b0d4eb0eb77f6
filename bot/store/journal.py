"""The moderators' change journal: every change, in a file of its own beside the store.

The store (``rulings.sqlite3``) can always be rebuilt from the bundled YAML; what cannot be
rebuilt is what moderators changed. So each change is written here first, synchronously, and
only then to the store. The journal is append-only and small; a damaged store is moved aside
and rebuilt, and every change in the journal is replayed onto it (``bot.store.changelog``).

A change is ``pending`` from the moment it is journalled until the store committed it
(``committed``), or the store's write failed and the moderator was told so (``abandoned``).
A pending change found at the next start is settled by looking in the store: committed if
the store has it, replayed otherwise.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.store.db import BUSY_TIMEOUT_SECONDS

log = logging.getLogger(__name__)

PENDING, COMMITTED, ABANDONED = "pending", "committed", "abandoned"
# The columns of a change, shared with the store's ``changes`` table.
CHANGE_FIELDS = (
    "id", "at", "moderator_id", "moderator_name", "action", "summary", "reason", "ops", "reverts",
)  # fmt: skip

_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY, at TEXT NOT NULL, moderator_id TEXT NOT NULL,
    moderator_name TEXT NOT NULL, action TEXT NOT NULL, summary TEXT NOT NULL, reason TEXT,
    ops TEXT NOT NULL, reverts INTEGER, state TEXT NOT NULL DEFAULT 'pending'
);
"""


def journal_path_for(db_path: Path) -> Path:
    """``rulings.sqlite3`` → ``rulings.journal.sqlite3`` in the same folder."""
    return db_path.with_name(f"{db_path.stem}.journal{db_path.suffix or '.sqlite3'}")


class Journal:
    """An open journal file. Writes are durable (``synchronous=FULL``) before they return."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(
            str(self.path), timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False
        )
        # A rollback journal, not WAL: the file is the whole record, and it is copied as is.
        self.conn.execute("PRAGMA synchronous=FULL")
        with self.conn:
            self.conn.executescript(_SCHEMA)

    @classmethod
    def beside(cls, db_path: Path) -> Journal:
        return cls(journal_path_for(db_path))

    def close(self) -> None:
        self.conn.close()

    def next_id(self, at_least: int = 1) -> int:
        """The id the next change gets: above every journalled one and ``at_least``."""
        last = self.conn.execute("SELECT max(id) FROM journal").fetchone()[0] or 0
        return max(last + 1, at_least)

    def append(self, change: dict[str, Any]) -> None:
        """Record a change (with its id) as pending; durable when this returns."""
        with self.conn:
            self.conn.execute(
                f"INSERT INTO journal({', '.join(CHANGE_FIELDS)}, state) "
                f"VALUES ({', '.join('?' for _ in CHANGE_FIELDS)}, ?)",
                [change.get(k) for k in CHANGE_FIELDS] + [PENDING],
            )

    def settle(self, change_id: int, state: str) -> None:
        with self.conn:
            self.conn.execute("UPDATE journal SET state = ? WHERE id = ?", (state, change_id))

    def changes(self, include_abandoned: bool = False) -> list[dict[str, Any]]:
        """Every change in order (abandoned ones only when asked)."""
        rows = self.conn.execute(
            f"SELECT {', '.join(CHANGE_FIELDS)}, state FROM journal ORDER BY id"
        ).fetchall()
        out = [dict(zip((*CHANGE_FIELDS, "state"), row, strict=True)) for row in rows]
        return [c for c in out if include_abandoned or c["state"] != ABANDONED]

    def count(self) -> int:
        return self.conn.execute(
            "SELECT count(*) FROM journal WHERE state != ?", (ABANDONED,)
        ).fetchone()[0]

    def adopt(self, changes: list[dict[str, Any]]) -> int:
        """Take over changes recorded only in a store (a store from before the journal
        existed); returns how many were new to the journal."""
        known = {row[0] for row in self.conn.execute("SELECT id FROM journal")}
        new = [c for c in changes if c["id"] not in known]
        with self.conn:
            for change in new:
                self.conn.execute(
                    f"INSERT INTO journal({', '.join(CHANGE_FIELDS)}, state) "
                    f"VALUES ({', '.join('?' for _ in CHANGE_FIELDS)}, ?)",
                    [change.get(k) for k in CHANGE_FIELDS] + [COMMITTED],
                )
        return len(new)


@contextmanager
def journalled(journal: Journal, change: dict[str, Any]) -> Iterator[None]:
    """Journal ``change`` before the block writes it to the store; settle it after.

    If the block raises, the change is marked abandoned (the moderator is told it failed);
    if the process dies inside the block, it stays pending and the next start settles it.
    """
    journal.append(change)
    try:
        yield
    except BaseException:
        try:
            journal.settle(change["id"], ABANDONED)
        except sqlite3.Error:
            log.exception("could not mark change #%s abandoned in the journal", change["id"])
        raise
    journal.settle(change["id"], COMMITTED)

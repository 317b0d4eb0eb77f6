"""The moderators' change journal: every change, in a file of its own beside the store.

The store (``rulings.sqlite3``) can always be rebuilt from the bundled YAML; what cannot be
rebuilt is what moderators changed. So each change is written here first, synchronously, and
only then to the store. The journal is append-only and small; a damaged store is moved aside
and rebuilt, and every change in the journal is replayed onto it (``bot.store.changelog``).

A change is ``pending`` from the moment it is journalled until the store committed it
(``committed``), or the store's write failed and the moderator was told so (``abandoned``).
A pending change found at the next start is settled by looking in the store: committed if
the store has it, abandoned otherwise. It is never replayed: the store never confirmed it,
and its moderator was told it failed, or told nothing (a full disk may keep the journal from
recording the refusal, so a pending record alone is no proof the change was meant to stand).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.store.db import BUSY_TIMEOUT_SECONDS, exclusive
from bot.store.health import environment_problem, is_damage, move_aside

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
        """The journal beside a store. A damaged journal never takes lookups down: it is
        moved aside (kept, never deleted) and a new one started, which the store's own
        record of its changes fills again (:func:`bot.store.changelog.sync_with_journal`)."""
        path = journal_path_for(db_path)
        if path.exists() and journal_damage(path):
            with exclusive(path):  # processes starting together: one moves it
                damage = journal_damage(path) if path.exists() else None
                if damage:
                    set_aside(path, damage)
        return cls(path)

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
        existed, or a journal started again); pending ones the store has are committed.
        Returns how many were new to the journal."""
        states = dict(self.conn.execute("SELECT id, state FROM journal").fetchall())
        known = set(states)
        new = [c for c in changes if c["id"] not in known]
        with self.conn:
            for change in changes:
                if states.get(change["id"]) == PENDING:
                    self.conn.execute(
                        "UPDATE journal SET state = ? WHERE id = ?", (COMMITTED, change["id"])
                    )
            for change in new:
                self.conn.execute(
                    f"INSERT INTO journal({', '.join(CHANGE_FIELDS)}, state) "
                    f"VALUES ({', '.join('?' for _ in CHANGE_FIELDS)}, ?)",
                    [change.get(k) for k in CHANGE_FIELDS] + [COMMITTED],
                )
        return len(new)


def journal_damage(path: Path) -> str | None:
    """What is wrong with the journal file at ``path`` when its content is damaged; None
    when it is whole (or missing, or unusable for a reason of the environment)."""
    if not path.exists():
        return None
    if path.stat().st_size == 0:
        return None  # an empty file is a new journal
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_SECONDS)
    except sqlite3.Error as error:
        return None if environment_problem(error, path) else f"cannot be opened: {error}"
    try:
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "journal" in tables:
            conn.execute(f"SELECT {', '.join(CHANGE_FIELDS)}, state FROM journal").fetchall()
    except sqlite3.DatabaseError as error:
        if environment_problem(error, path) and not is_damage(error):
            return None
        return f"unreadable: {error}"
    finally:
        conn.close()
    return None if verdict == "ok" else f"failed its integrity check: {verdict}"


def set_aside(path: Path, damage: str) -> Path:
    """Move a damaged journal out of the way (kept, never deleted); says so loudly."""
    target = move_aside(path, what="journal")
    log.error(
        "the change journal %s is damaged (%s); kept it as %s and started a new one. Lookups "
        "answer from the store, which holds every change it committed; run `rulings doctor` "
        "to see whether the damaged journal held any change the store lacks",
        path,
        damage,
        target,
    )
    return target


def damaged_journals(db_path: Path) -> list[Path]:
    """Damaged journals kept beside the store ``db_path``, oldest first."""
    path = journal_path_for(db_path)
    return sorted(path.parent.glob(f"{path.name}.damaged-*[0-9]"))


@contextmanager
def journalled(journal: Journal, change: dict[str, Any]) -> Iterator[None]:
    """Journal ``change`` before the block writes it to the store; settle it after.

    If the block raises, the change is marked abandoned (the moderator is told it failed);
    if the process dies inside the block, or the disk is too full to mark it, it stays
    pending, and the next start abandons it unless the store committed it.
    """
    journal.append(change)
    try:
        yield
    except BaseException:
        try:
            journal.settle(change["id"], ABANDONED)
        except sqlite3.Error as error:
            # A full disk: the record stays pending, and the next start abandons it (the
            # store never committed it), so the refused change is never applied.
            log.error(
                "could not mark change #%s abandoned in the journal (%s); it stays pending "
                "and will not be applied",
                change["id"],
                error,
            )
        raise
    journal.settle(change["id"], COMMITTED)

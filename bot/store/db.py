"""Opening the project's SQLite files so that several processes can share them.

Shards of one bot run as several processes on one store and one state file, and they start
at the same moment. Two SQLite behaviours make that fail without care: switching a file to
WAL needs an exclusive lock and SQLite does not wait for it (it answers "database is locked"
at once), and two processes that both find the store out of date would both rebuild it.
"""

from __future__ import annotations

import fcntl
import logging
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# How long a process waits for another one's write (or rebuild) before giving up.
BUSY_TIMEOUT_SECONDS = 30.0


def connect(path: Path | str) -> sqlite3.Connection:
    """A connection in WAL mode that waits for other processes' locks instead of failing."""
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=BUSY_TIMEOUT_SECONDS)
    try:
        use_wal(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def use_wal(conn: sqlite3.Connection) -> None:
    """Put the file in WAL mode (persistent), retrying while another process holds a lock."""
    deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
    while True:
        try:
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            if mode in ("wal", "memory"):
                return
            if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal":
                return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError(
                f"database is locked: could not switch to WAL within {BUSY_TIMEOUT_SECONDS:.0f} s"
            )
        time.sleep(0.02)


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold ``<path>.lock`` exclusively: one process at a time builds or replaces ``path``."""
    with _locked(path, fcntl.LOCK_EX):
        yield


@contextmanager
def shared(path: Path) -> Iterator[None]:
    """Hold ``<path>.lock`` shared: ``path`` is not replaced while a change is written to it."""
    with _locked(path, fcntl.LOCK_SH):
        yield


@contextmanager
def _locked(path: Path, mode: int) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a+b") as handle:
        try:
            fcntl.flock(handle, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            log.info("waiting for another process to finish with %s", path)
            fcntl.flock(handle, mode)  # released by the kernel if that process dies
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class Database:
    """A store's connection: plain reads (:meth:`query`) without importing sqlite-utils,
    whose table API (``db["entries"].insert_all``, ``db.execute``, ...) is loaded on first
    use, by building, export and changes. A lookup never needs it, and importing it cost a
    cold ``rulings show`` about 50 ms. (No plugin or trigger of the store depends on what
    sqlite-utils sets on a connection it wraps.)"""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self._utils = None

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Iterator[dict]:
        """Rows of a SELECT as dicts, read lazily (as sqlite-utils' ``query``)."""
        cursor = self.conn.execute(sql, params)
        keys = [column[0] for column in cursor.description]
        return (dict(zip(keys, row, strict=True)) for row in cursor)

    @property
    def utils(self) -> Any:
        """The sqlite-utils database on this connection (imported on first use)."""
        if self._utils is None:
            import sqlite_utils

            self._utils = sqlite_utils.Database(self.conn)
        return self._utils

    def __getitem__(self, table: str) -> Any:
        return self.utils[table]

    def __getattr__(self, name: str) -> Any:
        # Everything else sqlite-utils offers (execute, table_names, transform, ...).
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.utils, name)

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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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

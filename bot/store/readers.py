"""Reading one store from many threads at once, each thread on its own connection.

SQLite in WAL mode lets any number of readers run beside a writer, but one connection runs
one statement at a time: answers sharing the writer's connection had to queue behind one
lock. ``ThreadReaders`` gives every thread that answers its own read-only connection to the
same file, opened on first use, so answers never wait for each other or for a moderator's
change being written.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from bot.store.build import Store
from bot.store.db import Database, connect


class ThreadReaders:
    """Per-thread read connections to one store file, with the ``Store`` reading methods."""

    def __init__(self, store: Store):
        self.path = store.path
        self.data_dir = store.data_dir
        self._identity = store.identity
        self._read_only = store.read_only
        self._local = threading.local()
        self._opened: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def mine(self) -> Store:
        """This thread's view of the store, opened on its first read."""
        view = getattr(self._local, "view", None)
        if view is None:
            if self._read_only is None:
                conn = connect(self.path)
            else:  # the store answers read-only (a full disk): as it was opened
                conn = sqlite3.connect(
                    f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False
                )
            conn.execute("PRAGMA query_only = 1")  # a reader never writes, by construction
            with self._lock:
                if self._closed:
                    conn.close()
                    raise sqlite3.ProgrammingError(f"the store {self.path} was closed")
                self._opened.append(conn)
            view = Store(
                Database(conn),
                self.path,
                self.data_dir,
                self._identity,
                read_only=self._read_only,
            )
            self._local.view = view
        return view

    def close(self) -> None:
        """Close every thread's connection. Call it when no lookup runs any more (the bot
        does, after its event loop and worker threads have finished): closing a connection
        while another thread reads on it can crash the process."""
        with self._lock:
            self._closed = True
            opened, self._opened = self._opened, []
        for conn in opened:
            conn.close()

    # The reading side of ``Store``, each call on the calling thread's connection.
    @property
    def db(self) -> Database:
        return self.mine().db

    def documents(self) -> dict[str, dict[str, Any]]:
        return self.mine().documents()

    def entry(self, entry_id: str) -> dict[str, Any] | None:
        return self.mine().entry(entry_id)

    def versions(self, topic: str) -> list[dict[str, Any]]:
        return self.mine().versions(topic)

    def topic(self, topic: str) -> dict[str, Any] | None:
        return self.mine().topic(topic)

    def card(self, card_id: str) -> dict[str, Any] | None:
        return self.mine().card(card_id)


class ThreadConnection:
    """The two calls the full-text search makes, on the calling thread's connection."""

    def __init__(self, readers: ThreadReaders):
        self._readers = readers

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self._readers.mine().db.conn.execute(sql, params)

    def set_progress_handler(self, handler: Callable[[], Any] | None, steps: int) -> None:
        self._readers.mine().db.conn.set_progress_handler(handler, steps)

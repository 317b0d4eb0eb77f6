"""The live store: one open store shared by threads, kept in step with other processes.

Other processes (shards) commit moderator changes to the same file, and a restarted one may
rebuild the store and rename a new file into place. ``LiveStore`` notices both, and runs each
moderator change so that a rebuild cannot replace the file while the change is written.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bot.store.build import Store, open_store
from bot.store.db import shared

log = logging.getLogger(__name__)

T = TypeVar("T")


class LiveStore:
    """An open store plus the lock that serialises its shared connection.

    ``on_change`` is called (under the lock) whenever the data may have changed: after this
    process wrote, after another process committed, after the file was replaced.
    """

    def __init__(self, store: Store, on_change: Callable[[Store], None]):
        self.store = store
        self.lock = threading.RLock()
        self._on_change = on_change
        self._data_version = store.data_version()

    @classmethod
    def open(
        cls, db_path: Path | None, data_dir: Path | None, on_change: Callable[[Store], None]
    ) -> LiveStore:
        return cls(open_store(db_path, data_dir), on_change)

    def close(self) -> None:
        with self.lock:  # not while a change or a moderator's read runs on this connection
            self.store.close()

    def refresh(self) -> None:
        """Tell the owner the data changed (after a change was committed)."""
        with self.lock:
            self._on_change(self.store)
            self._data_version = self.store.data_version()

    def refresh_if_changed(self) -> bool:
        """Refresh when another process committed to the store (PRAGMA data_version) or
        replaced it (a rebuild after an update, a restore)."""
        with self.lock:
            if self._follow_replaced_store():
                return True
            if self.store.data_version() == self._data_version:
                return False
            self.refresh()
            return True

    def write(self, change: Callable[[Store], T]) -> T:
        """Run a moderator change on the current file, then make it visible to every answer."""
        with self.lock:
            while True:
                self._follow_replaced_store()
                # The store is not replaced while the change is written (a rebuild waits,
                # then carries the change over); if it was replaced just now, follow it first.
                with shared(self.store.path):
                    if self.store.replaced():
                        continue
                    result = change(self.store)
                break
            self.refresh()
            return result

    def _follow_replaced_store(self) -> bool:
        """Switch to the store file another process renamed into place; this process would
        otherwise keep answering from, and writing to, the file it replaced."""
        if not self.store.replaced():
            return False
        old = self.store
        log.warning("store %s was replaced by another process; reopening it", old.path)
        self.store = open_store(old.path, old.data_dir)
        old.close()
        self.refresh()
        return True

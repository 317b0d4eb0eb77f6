"""Live state that must survive store rebuilds: per-server settings.

Kept in its own SQLite file beside the store (the store itself is rebuilt from YAML).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path


class State:
    """Per-server settings: inline lookups on or off, the announcement channel."""

    def __init__(self, path: Path | str, inline_default: bool = False):
        self.inline_default = inline_default
        self._lock = threading.Lock()
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(path), check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS guild_settings (guild_id INTEGER PRIMARY KEY, inline INTEGER)"
        )
        columns = {row[1] for row in self.conn.execute("PRAGMA table_info(guild_settings)")}
        if "announce_channel" not in columns:
            self.conn.execute("ALTER TABLE guild_settings ADD COLUMN announce_channel INTEGER")
        self.conn.commit()

    def inline_enabled(self, guild_id: int) -> bool:
        with self._lock:
            row = self.conn.execute(
                "SELECT inline FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ).fetchone()
        return bool(row[0]) if row and row[0] is not None else self.inline_default

    def set_inline(self, guild_id: int, enabled: bool) -> None:
        with self._lock, self.conn:
            self.conn.execute(
                "INSERT INTO guild_settings(guild_id, inline) VALUES (?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET inline = excluded.inline",
                (guild_id, int(enabled)),
            )

    def set_announcements(self, guild_id: int, channel_id: int | None) -> None:
        with self._lock, self.conn:
            self.conn.execute(
                "INSERT INTO guild_settings(guild_id, announce_channel) VALUES (?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET announce_channel = excluded.announce_channel",
                (guild_id, channel_id),
            )

    def announcement_channels(self) -> list[int]:
        with self._lock:
            rows = self.conn.execute(
                "SELECT announce_channel FROM guild_settings WHERE announce_channel IS NOT NULL"
            ).fetchall()
        return [row[0] for row in rows]

    def close(self) -> None:
        self.conn.close()


def state_path_for(db_path: Path) -> Path:
    return db_path.with_name("state.sqlite3")

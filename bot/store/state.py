"""Live state that must survive store rebuilds: per-server settings, lookup counts, reports.

Kept in its own SQLite file beside the store (the store itself is rebuilt from YAML).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from pathlib import Path

from bot.store.db import connect

log = logging.getLogger(__name__)

# Statements, not a script: executescript() would commit the transaction they run in.
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS guild_settings ("
    "guild_id INTEGER PRIMARY KEY, inline INTEGER, announce_channel INTEGER, "
    "reports_channel INTEGER)",
    "CREATE TABLE IF NOT EXISTS lookups ("
    "at TEXT NOT NULL, day TEXT NOT NULL, command TEXT NOT NULL, query TEXT NOT NULL, "
    "entry TEXT, confident INTEGER NOT NULL, guild_id INTEGER)",
    "CREATE INDEX IF NOT EXISTS lookups_day ON lookups(day)",
    "CREATE TABLE IF NOT EXISTS reports ("
    "id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, user_id INTEGER NOT NULL, "
    "user_name TEXT NOT NULL, guild_id INTEGER, entry TEXT NOT NULL, text TEXT NOT NULL, "
    "status TEXT NOT NULL DEFAULT 'open')",
)


class State:
    """Per-server settings: inline lookups on or off, the announcement channel, the
    moderators' reports channel; lookup counts; users' reports."""

    def __init__(self, path: Path | str, inline_default: bool = False):
        self.inline_default = inline_default
        self._lock = threading.Lock()
        self._closed = False
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.conn = connect(path)
        # Shards start together: one at a time makes the schema.
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in SCHEMA:
                self.conn.execute(statement)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(guild_settings)")}
            if "reports_channel" not in columns:  # a state file from before the setting
                self.conn.execute("ALTER TABLE guild_settings ADD COLUMN reports_channel INTEGER")
            self.conn.commit()
        except BaseException:
            self.conn.rollback()
            self.conn.close()
            raise

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

    def announcement_channel(self, guild_id: int) -> int | None:
        with self._lock:
            row = self.conn.execute(
                "SELECT announce_channel FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ).fetchone()
        return row[0] if row else None

    def set_reports_channel(self, guild_id: int, channel_id: int | None) -> None:
        """The moderators' channel where users' reports are posted (the home server's)."""
        with self._lock, self.conn:
            self.conn.execute(
                "INSERT INTO guild_settings(guild_id, reports_channel) VALUES (?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET reports_channel = excluded.reports_channel",
                (guild_id, channel_id),
            )

    def reports_channel(self, guild_id: int) -> int | None:
        with self._lock:
            row = self.conn.execute(
                "SELECT reports_channel FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ).fetchone()
        return row[0] if row else None

    def announcement_channels(self) -> list[int]:
        with self._lock:
            rows = self.conn.execute(
                "SELECT announce_channel FROM guild_settings WHERE announce_channel IS NOT NULL"
            ).fetchall()
        return [row[0] for row in rows]

    # ------------------------------------------------------------------ lookups
    def record_lookup(
        self, command: str, query: str, entry: str | None, confident: bool, guild_id: int | None
    ) -> None:
        """Count a lookup: the query only (no other message content), what it matched."""
        now = dt.datetime.now(dt.UTC)
        with self._lock:
            if self._closed:  # counted after the reply: the bot may be stopping meanwhile
                log.info("lookup not counted: the state file is closed")
                return
            self._count(now, command, query, entry, confident, guild_id)

    def _count(self, now, command, query, entry, confident, guild_id) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT INTO lookups(at, day, command, query, entry, confident, guild_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    now.isoformat(timespec="seconds"),
                    now.date().isoformat(),
                    command,
                    query[:300],
                    entry,
                    int(confident),
                    guild_id,
                ),
            )

    def prune_lookups(self, keep_days: int) -> int:
        """Forget lookups older than the retention limit; returns how many were removed."""
        cutoff = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=keep_days)).isoformat()
        with self._lock, self.conn:
            return self.conn.execute("DELETE FROM lookups WHERE day < ?", (cutoff,)).rowcount

    def stats(self, days: int = 7, top: int = 10) -> dict:
        """Lookups per day, top queries and top misses (no confident answer) over ``days``."""
        since = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days - 1)).isoformat()
        with self._lock:
            per_day = self.conn.execute(
                "SELECT day, count(*), sum(confident) FROM lookups WHERE day >= ? GROUP BY day ORDER BY day",
                (since,),
            ).fetchall()
            queries = self.conn.execute(
                "SELECT lower(query), count(*) AS n FROM lookups WHERE day >= ? GROUP BY lower(query) ORDER BY n DESC, 1 LIMIT ?",
                (since, top),
            ).fetchall()
            misses = self.conn.execute(
                "SELECT lower(query), count(*) AS n FROM lookups WHERE day >= ? AND confident = 0 "
                "GROUP BY lower(query) ORDER BY n DESC, 1 LIMIT ?",
                (since, top),
            ).fetchall()
        return {
            "days": days,
            "per_day": [{"day": d, "lookups": n, "answered": a or 0} for d, n, a in per_day],
            "top_queries": [{"query": q, "count": n} for q, n in queries],
            "top_misses": [{"query": q, "count": n} for q, n in misses],
        }

    # ------------------------------------------------------------------ reports
    def add_report(
        self, user_id: int, user_name: str, guild_id: int | None, entry: str, text: str
    ) -> int:
        with self._lock, self.conn:
            cursor = self.conn.execute(
                "INSERT INTO reports(at, user_id, user_name, guild_id, entry, text) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                    user_id,
                    user_name,
                    guild_id,
                    entry,
                    text[:1000],
                ),
            )
            return cursor.lastrowid

    def reports(self, status: str = "open", limit: int = 20) -> list[dict]:
        with self._lock:
            rows = self.conn.execute(
                "SELECT id, at, user_name, guild_id, entry, text, status FROM reports WHERE status = ? ORDER BY id DESC LIMIT ?",
                (status, limit),
            ).fetchall()
        keys = ("id", "at", "user_name", "guild_id", "entry", "text", "status")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def close_report(self, report_id: int) -> bool:
        with self._lock, self.conn:
            return (
                self.conn.execute(
                    "UPDATE reports SET status = 'closed' WHERE id = ? AND status = 'open'",
                    (report_id,),
                ).rowcount
                == 1
            )

    def close(self) -> None:
        # Under the lock: a lookup still being counted on a worker thread finishes first
        # (closing a connection another thread is using can crash the process).
        with self._lock:
            self._closed = True
            self.conn.close()


def state_path_for(db_path: Path) -> Path:
    return db_path.with_name("state.sqlite3")

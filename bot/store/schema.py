"""The store's schema and the row-level helpers every writer shares.

The tables, the FTS5 table the search reads, how an entry's JSON fields are stored, and the
recomputation of each topic's version order. The build (``bot.store.build``) and the change
log (``bot.store.changelog``) both write through these, so neither needs the other's module.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from bot.models import precedence
from bot.normalize import normalize

SCHEMA_VERSION = "4"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE documents (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, edition TEXT NOT NULL, kind TEXT NOT NULL,
    date TEXT, official INTEGER NOT NULL, file TEXT, parser TEXT,
    origin TEXT NOT NULL DEFAULT 'bundled', url TEXT
);
CREATE TABLE entries (
    id TEXT PRIMARY KEY, topic TEXT NOT NULL, title TEXT NOT NULL, edition TEXT NOT NULL,
    kind TEXT NOT NULL, document TEXT NOT NULL REFERENCES documents(id), date TEXT,
    line INTEGER NOT NULL DEFAULT 0, marked_new INTEGER NOT NULL DEFAULT 0, taken_from TEXT,
    amendments TEXT NOT NULL DEFAULT '[]', see_also TEXT NOT NULL DEFAULT '[]',
    mentions TEXT NOT NULL DEFAULT '[]', text TEXT NOT NULL DEFAULT '',
    rank INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'current',
    version INTEGER NOT NULL DEFAULT 1, retired INTEGER NOT NULL DEFAULT 0, retired_reason TEXT,
    origin TEXT NOT NULL DEFAULT 'bundled'
);
CREATE INDEX entries_topic ON entries(topic, rank);
CREATE TABLE topics (id TEXT PRIMARY KEY, edition TEXT NOT NULL, title TEXT NOT NULL, current TEXT NOT NULL,
    key TEXT NOT NULL DEFAULT '');
CREATE INDEX topics_key ON topics(edition, key);
CREATE TABLE cards (
    id TEXT PRIMARY KEY, edition TEXT NOT NULL, title TEXT NOT NULL, subtitle TEXT,
    name TEXT NOT NULL, type TEXT, text TEXT, sets TEXT
);
CREATE TABLE aliases (alias TEXT NOT NULL, key TEXT NOT NULL, target TEXT NOT NULL, note TEXT,
    origin TEXT NOT NULL DEFAULT 'bundled', PRIMARY KEY (key, target));
CREATE TABLE changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, moderator_id TEXT NOT NULL,
    moderator_name TEXT NOT NULL, action TEXT NOT NULL, summary TEXT NOT NULL, reason TEXT,
    ops TEXT NOT NULL, reverts INTEGER
);
CREATE TABLE conflicts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, change_id INTEGER NOT NULL, at TEXT NOT NULL,
    detail TEXT NOT NULL
);
"""

# Every column of an entry a writer sets, in table order (rank and status are derived).
ENTRY_FIELDS = (
    "id", "topic", "title", "edition", "kind", "document", "date", "line", "marked_new",
    "taken_from", "amendments", "see_also", "mentions", "text", "version", "retired",
    "retired_reason", "origin",
)  # fmt: skip
ENTRY_JSON = ("amendments", "see_also", "mentions")


def decode_entry(row: dict[str, Any]) -> dict[str, Any]:
    row = dict(row)
    for key in ENTRY_JSON:
        value = row.get(key)
        row[key] = json.loads(value) if isinstance(value, str) and value else (value or [])
    row["marked_new"] = bool(row.get("marked_new"))
    row["retired"] = bool(row.get("retired"))
    return row


def encode_entry(entry: dict[str, Any]) -> dict[str, Any]:
    row = dict(entry)
    for key in ENTRY_JSON:
        if not isinstance(row.get(key), str):
            row[key] = json.dumps(row.get(key) or [], ensure_ascii=False)
    row["marked_new"] = int(bool(row.get("marked_new")))
    row["retired"] = int(bool(row.get("retired")))
    return row


def rerank(conn: sqlite3.Connection, topics: list[str] | None = None) -> None:
    """Recompute each topic's version order, statuses and current entry."""
    documents = {
        row[0]: {"official": row[1], "date": row[2]}
        for row in conn.execute("SELECT id, official, date FROM documents")
    }
    if topics is None:
        topics = [row[0] for row in conn.execute("SELECT DISTINCT topic FROM entries")]
    for topic in topics:
        rows = conn.execute(
            "SELECT id, document, line, retired, title, edition, date FROM entries WHERE topic = ?",
            (topic,),
        ).fetchall()
        live = [r for r in rows if not r[3]]
        # An entry's own date (a rulings feed dates each ruling) ranks it; else its document's.
        live.sort(
            key=lambda r: (
                precedence(documents[r[1]]["official"], r[6] or documents[r[1]]["date"]),
                -r[2],
            ),
            reverse=True,
        )
        for rank, row in enumerate(live):
            status = "current" if rank == 0 else "superseded"
            conn.execute(
                "UPDATE entries SET rank = ?, status = ? WHERE id = ?", (rank, status, row[0])
            )
        for row in rows:
            if row[3]:
                conn.execute(
                    "UPDATE entries SET rank = 1000, status = 'retired' WHERE id = ?", (row[0],)
                )
        conn.execute("DELETE FROM topics WHERE id = ?", (topic,))
        if live:
            top = live[0]
            conn.execute(
                "INSERT INTO topics(id, edition, title, current, key) VALUES (?, ?, ?, ?, ?)",
                (topic, top[5], top[4], top[0], normalize(top[4])),
            )


def index_text(conn: sqlite3.Connection, entry_id: str) -> None:
    """Keep the full-text row of one entry in step with the entry (none when retired)."""
    row = conn.execute(
        "SELECT rowid, topic, edition, title, text, retired FROM entries WHERE id = ?", (entry_id,)
    ).fetchone()
    if row is None:
        return
    conn.execute("DELETE FROM fulltext WHERE rowid = ?", (row[0],))
    if not row[5]:
        conn.execute(
            "INSERT INTO fulltext(rowid, topic, edition, title, text) VALUES (?, ?, ?, ?, ?)",
            row[:5],
        )


FULLTEXT_SCHEMA = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS fulltext USING fts5("
    "topic UNINDEXED, edition UNINDEXED, title, text, "
    "tokenize = 'porter unicode61 remove_diacritics 2')"
)


def fill_fulltext(conn: sqlite3.Connection, rows: Iterable[tuple[str, str, str, str]]) -> None:
    """(topic, edition, title, text) rows into the FTS5 table the search reads."""
    conn.execute(FULLTEXT_SCHEMA)
    conn.executemany("INSERT INTO fulltext(topic, edition, title, text) VALUES (?, ?, ?, ?)", rows)
    conn.commit()

"""The SQLite store built from the shipped YAML (sqlite-utils, FTS5).

Built on first use into the user's cache directory (``--db`` / ``RULINGS_DB`` override) and
rebuilt automatically when the YAML changes (content hash in ``meta``), so a normal lookup
never re-parses documents. A rebuild writes a new file and renames it into place, so a
reader never sees half a store.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils
from platformdirs import user_cache_dir

from bot.cards import load_card_index
from bot.dataset import (
    CARDS_DIR,
    content_hash,
    default_data_dir,
    load_aliases,
    load_documents,
    load_entries,
)
from bot.models import Document
from bot.normalize import normalize
from bot.search import fill_fulltext

log = logging.getLogger(__name__)

SCHEMA_VERSION = "1"
# Amendments after which the earlier version still holds, with the new text on top.
PARTIAL_ACTIONS = {"add", "replace part", "delete part", "rest unchanged"}


def default_db_path() -> Path:
    configured = os.environ.get("RULINGS_DB")
    if configured:
        return Path(configured)
    return Path(user_cache_dir("stccg-rulings")) / "rulings.sqlite3"


@dataclass
class Store:
    """An open store: the sqlite-utils database and the data folder it was built from."""

    db: sqlite_utils.Database
    path: Path
    data_dir: Path

    def close(self) -> None:
        self.db.conn.close()

    def documents(self) -> dict[str, dict[str, Any]]:
        return {row["id"]: row for row in self.db["documents"].rows}

    def entry(self, entry_id: str) -> dict[str, Any] | None:
        rows = list(self.db["entries"].rows_where("id = ?", [entry_id]))
        return _decode(rows[0]) if rows else None

    def versions(self, topic: str) -> list[dict[str, Any]]:
        """Every version of a topic, current first."""
        return [
            _decode(r) for r in self.db["entries"].rows_where("topic = ?", [topic], order_by="rank")
        ]

    def topic(self, topic: str) -> dict[str, Any] | None:
        rows = list(self.db["topics"].rows_where("id = ?", [topic]))
        return rows[0] if rows else None

    def card(self, card_id: str) -> dict[str, Any] | None:
        rows = list(self.db["cards"].rows_where("id = ?", [card_id]))
        return rows[0] if rows else None


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    for key in ("amendments", "see_also", "mentions"):
        row[key] = json.loads(row[key]) if row.get(key) else []
    row["marked_new"] = bool(row["marked_new"])
    return row


def open_store(db_path: Path | None = None, data_dir: Path | None = None) -> Store:
    """Open the store, building or rebuilding it first when the data changed."""
    data_dir = Path(data_dir or default_data_dir())
    db_path = Path(db_path or default_db_path())
    wanted = f"{SCHEMA_VERSION}:{content_hash(data_dir)}"
    if db_path.exists():
        try:
            db = _connect(db_path)
            if "meta" in db.table_names():
                built = {r["key"]: r["value"] for r in db["meta"].rows}
                if built.get("hash") == wanted:
                    return Store(db, db_path, data_dir)
            db.conn.close()
        except sqlite3.DatabaseError:
            log.warning("store at %s is unreadable; rebuilding", db_path)
    build_store(db_path, data_dir, wanted)
    return Store(_connect(db_path), db_path, data_dir)


def _connect(db_path: Path) -> sqlite_utils.Database:
    # The Discord adapter reads from worker threads; the service serialises access.
    return sqlite_utils.Database(sqlite3.connect(str(db_path), check_same_thread=False))


def _rank_versions(entries: list[dict[str, Any]], documents: dict[str, Document]) -> None:
    """Order each topic's versions: official before community, later date first."""
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        by_topic.setdefault(entry["topic"], []).append(entry)
    for versions in by_topic.values():
        versions.sort(key=lambda e: (documents[e["document"]].precedence, -e["line"]), reverse=True)
        for rank, entry in enumerate(versions):
            entry["rank"] = rank
            entry["status"] = "current" if rank == 0 else "superseded"


def build_store(db_path: Path, data_dir: Path, content_key: str | None = None) -> None:
    """Build the whole store from the YAML into a new file, then rename it into place."""
    documents = load_documents(data_dir)
    by_id = {d.id: d for d in documents}
    entries = load_entries(data_dir, documents)
    for entry in entries:
        entry["document"] = entry["id"].split(":", 1)[0]
        if entry["document"] not in by_id:
            raise ValueError(f"entry {entry['id']} names unknown document {entry['document']}")
    _rank_versions(entries, by_id)

    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(db_path.name + ".building")
    if tmp.exists():
        tmp.unlink()
    db = sqlite_utils.Database(tmp)
    db["meta"].insert_all(
        [{"key": "hash", "value": content_key or f"{SCHEMA_VERSION}:{content_hash(data_dir)}"}],
        pk="key",
    )
    db["documents"].insert_all(
        [
            {
                "id": d.id,
                "title": d.title,
                "edition": d.edition,
                "kind": d.kind,
                "date": d.date,
                "official": d.official,
                "file": d.file,
                "parser": d.parser,
            }
            for d in documents
        ],
        pk="id",
    )
    rows = []
    for e in entries:
        document = by_id[e["document"]]
        rows.append(
            {
                "id": e["id"],
                "topic": e["topic"],
                "title": e["title"],
                "edition": e["edition"],
                "kind": e["kind"],
                "document": document.id,
                "date": document.date,
                "line": e["line"],
                "marked_new": e.get("marked_new", False),
                "taken_from": e.get("taken_from"),
                "amendments": json.dumps(e.get("amendments") or []),
                "see_also": json.dumps(e.get("see_also") or []),
                "mentions": json.dumps(e.get("mentions") or []),
                "text": e.get("text") or "",
                "rank": e["rank"],
                "status": e["status"],
            }
        )
    db["entries"].insert_all(rows, pk="id")
    db["entries"].create_index(["topic", "rank"])
    fill_fulltext(
        db.conn, [(e["topic"], e["edition"], e["title"], e.get("text") or "") for e in entries]
    )
    topics = [
        {"id": e["topic"], "edition": e["edition"], "title": e["title"], "current": e["id"]}
        for e in entries
        if e["rank"] == 0
    ]
    db["topics"].insert_all(topics, pk="id")

    cards = []
    for edition in ("1e", "2e"):
        path = data_dir / CARDS_DIR / f"{edition}.yaml"
        if path.exists():
            cards.extend(load_card_index(path))
    db["cards"].insert_all(
        [
            {
                "id": c.id,
                "edition": c.edition,
                "title": c.title,
                "subtitle": c.subtitle,
                "name": c.name,
                "type": c.type,
                "text": c.text,
                "sets": json.dumps(c.sets),
            }
            for c in cards
        ],
        pk="id",
    )
    aliases = []
    for item in load_aliases(data_dir):
        aliases.append(
            {
                "alias": str(item["alias"]),
                "key": normalize(str(item["alias"])),
                "target": str(item["target"]),
                "note": item.get("note"),
            }
        )
    db["aliases"].create(
        {"alias": str, "key": str, "target": str, "note": str}, pk=("key", "target")
    )
    db["aliases"].insert_all(aliases, replace=True)
    db.conn.commit()
    db.conn.close()
    os.replace(tmp, db_path)
    log.info("built store %s (%d entries, %d cards)", db_path, len(rows), len(cards))

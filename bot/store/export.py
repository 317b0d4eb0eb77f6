"""``rulings export``: the live store back to ``rulings_data/`` YAML, for review and commit.

It writes the same files the importer writes (one per document, the registry, aliases), so
a moderator's changes can be reviewed as a diff; a store built from the exported YAML holds
the same entries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.ingest.dataset import (
    ALIASES_FILE,
    DOCUMENTS_FILE,
    dump_yaml,
    entries_path,
    read_yaml,
    write_text_atomically,
)
from bot.store.build import Store, decode_entry
from bot.store.schema import ENTRY_FIELDS

# The order of keys in an entry record, as the importer writes them: the entry's fields up to
# its text, less those the document gives (the text, and retired, are written after).
_KEYS = tuple(
    f for f in ENTRY_FIELDS[: ENTRY_FIELDS.index("text")] if f not in ("document", "date")
)


def _record(row: dict[str, Any], document_date: str | None = None) -> dict[str, Any]:
    entry = decode_entry(row)
    record: dict[str, Any] = {}
    for key in _KEYS:
        value = entry.get(key)
        if key in ("taken_from", "amendments", "see_also", "mentions") and not value:
            continue
        record[key] = value
    if entry.get("date") and entry["date"] != document_date:
        record["date"] = entry["date"]  # dated on its own (a rulings feed): kept
    if entry["retired"]:
        record["retired"] = True
        record["retired_reason"] = entry.get("retired_reason")
    record["text"] = entry["text"]
    return record


def export_store(store: Store, data_dir: Path) -> list[str]:
    """Write every document's entries, the registry and the aliases; returns files changed."""
    db = store.db
    changed: list[str] = []

    def write(path: Path, text: str) -> None:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_text_atomically(path, text)
            changed.append(str(path.relative_to(data_dir)))

    registry = read_yaml(data_dir / DOCUMENTS_FILE)
    listed = {d["id"] for d in registry["documents"]}
    added = False
    for row in db.query("SELECT * FROM documents WHERE origin != 'bundled' ORDER BY rowid"):
        if row["id"] not in listed:
            registry["documents"].append(
                {
                    "id": row["id"],
                    "title": row["title"],
                    "edition": row["edition"],
                    "kind": row["kind"],
                    "date": row["date"],
                    "official": bool(row["official"]),
                    "file": None,
                    "parser": None,
                }  # fmt: skip
            )
            added = True
    if added:  # the hand-written registry is rewritten only when it has something new
        header = (data_dir / DOCUMENTS_FILE).read_text(encoding="utf-8").split("documents:")[0]
        write(data_dir / DOCUMENTS_FILE, header + dump_yaml({"documents": registry["documents"]}))
    for document in registry["documents"]:
        dated = None if document.get("date") is None else str(document["date"])
        rows = list(
            db.query(
                "SELECT * FROM entries WHERE document = ? ORDER BY line, rowid", [document["id"]]
            )
        )
        text = dump_yaml(
            {
                "document": document["id"],
                "entries": [_record(r, dated) for r in rows],
            }
        )
        write(entries_path(data_dir, document["id"]), text)
    aliases = []
    for row in db.query("SELECT alias, target, note FROM aliases ORDER BY rowid"):
        item = {"alias": row["alias"], "target": row["target"]}
        if row["note"]:
            item["note"] = row["note"]
        aliases.append(item)
    alias_path = data_dir / ALIASES_FILE
    head = (
        alias_path.read_text(encoding="utf-8").split("aliases:")[0] if alias_path.exists() else ""
    )
    write(alias_path, head + dump_yaml({"aliases": aliases}))
    return changed


__all__ = ["export_store"]

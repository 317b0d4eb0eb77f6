"""The live SQLite store: the shipped YAML plus every moderator change, with FTS5.

Built on first use into the user's cache directory (``--db`` / ``RULINGS_DB`` override). The
bundled YAML is the base; moderator changes are kept in the ``changes`` table (an append-only
audit log whose rows hold the operations they made). When the YAML changes (content hash in
``meta``) the store is rebuilt into a new file, the old file's changes are carried over and
replayed on the new base, and conflicts are recorded rather than resolved silently. A rebuild
is renamed into place, so a reader never sees half a store.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

from bot.ingest.cards import load_card_index
from bot.ingest.dataset import (
    CARDS_DIR,
    content_hash,
    default_data_dir,
    load_aliases,
    load_documents,
    load_entries,
)
from bot.normalize import normalize
from bot.store.changelog import abandon_unconfirmed, replay_changes, sync_with_journal
from bot.store.db import Database, connect, exclusive, use_wal
from bot.store.health import (
    StoreDamaged,
    StoreUnavailable,
    check_file,
    clean_leftovers,
    environment_problem,
    is_damage,
    move_aside,
)
from bot.store.journal import COMMITTED, PENDING, Journal, journal_path_for
from bot.store.schema import (
    ENTRY_FIELDS,
    FULLTEXT_SCHEMA,
    SCHEMA,
    SCHEMA_VERSION,
    decode_entry,
    encode_entry,
    rerank,
)

log = logging.getLogger(__name__)


def default_db_path() -> Path:
    configured = os.environ.get("RULINGS_DB")
    if configured:
        return Path(configured)
    return Path(user_cache_dir("stccg-rulings")) / "rulings.sqlite3"


@dataclass
class Store:
    """An open store: the sqlite-utils database and the data folder it was built from."""

    db: Database
    path: Path
    data_dir: Path
    identity: tuple[int, int] | None = None  # the file opened: (device, inode)
    # Why the store answers read-only (a full disk, a read-only folder), or None.
    read_only: str | None = None

    def __post_init__(self) -> None:
        if self.identity is None:
            self.identity = _identity(self.path)

    def close(self) -> None:
        self.db.conn.close()

    def replaced(self) -> bool:
        """True once another process renamed a rebuilt (or restored) store over this file."""
        return _identity(self.path) != self.identity

    # The reads an answer makes dozens of times, as plain queries: a table reached by name
    # through sqlite-utils first asks SQLite for the schema's views, every time.
    def documents(self) -> dict[str, dict[str, Any]]:
        return {row["id"]: row for row in self.db.query("SELECT * FROM documents")}

    def entry(self, entry_id: str) -> dict[str, Any] | None:
        rows = list(self.db.query("SELECT * FROM entries WHERE id = ?", [entry_id]))
        return decode_entry(rows[0]) if rows else None

    def versions(self, topic: str) -> list[dict[str, Any]]:
        """Every version of a topic, current first (retired ones last)."""
        rows = self.db.query("SELECT * FROM entries WHERE topic = ? ORDER BY rank", [topic])
        return [decode_entry(r) for r in rows]

    def topic(self, topic: str) -> dict[str, Any] | None:
        rows = list(self.db.query("SELECT * FROM topics WHERE id = ?", [topic]))
        return rows[0] if rows else None

    def card(self, card_id: str) -> dict[str, Any] | None:
        rows = list(self.db.query("SELECT * FROM cards WHERE id = ?", [card_id]))
        return rows[0] if rows else None

    def data_version(self) -> int:
        """Changes whenever another connection commits (SQLite's PRAGMA data_version)."""
        return self.db.conn.execute("PRAGMA data_version").fetchone()[0]


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino


def open_store(db_path: Path | None = None, data_dir: Path | None = None) -> Store:
    """Open the store, building or rebuilding it first when the data changed or the file
    is damaged, and bring it level with the moderators' journal.

    Processes starting together (shards) take turns: one builds, the others wait for it and
    then open what it built, so no moderator change is lost between two rebuilds. A damaged
    file is kept beside the store and rebuilt with every journalled change replayed; an
    environment that will not let us use the file (read-only, full, locked) raises
    ``StoreUnavailable`` with one line naming the path and the fix, and nothing is moved.
    """
    data_dir = Path(data_dir or default_data_dir())
    db_path = Path(db_path or default_db_path())
    wanted = f"{SCHEMA_VERSION}:{content_hash(data_dir)}"
    try:
        store = _open_or_build(db_path, data_dir, wanted)
        _level_with_journal(store)
    except StoreUnavailable:
        raise
    except (sqlite3.Error, OSError) as error:
        problem = environment_problem(error, db_path)
        if problem is None:
            raise
        raise StoreUnavailable(problem) from error
    return store


def _open_or_build(db_path: Path, data_dir: Path, wanted: str) -> Store:
    try:
        store = _open_if_current(db_path, data_dir, wanted)
    except StoreDamaged:
        store = None
    if store is not None:
        return store
    with exclusive(db_path):
        clean_leftovers(db_path)
        damaged = None
        try:
            store = _open_if_current(db_path, data_dir, wanted)  # built while we waited?
        except StoreDamaged as damage:
            log.error("%s", damage)
            journal_missing = not journal_path_for(db_path).exists()
            damaged = move_aside(db_path)
            if journal_missing:
                log.error(
                    "the store %s was damaged and there is no change journal beside it: "
                    "moderator changes only the damaged copy held may be lost. The damaged "
                    "copy is kept as %s: do not delete it; run `rulings doctor`",
                    db_path,
                    damaged,
                )
            store = None
        if store is None:
            try:
                build_store(db_path, data_dir, wanted, salvage_from=damaged)
            except ValueError as error:  # DataError, SourceFormatError: the data, not the file
                previous = _previous_store(db_path, data_dir)
                if previous is None:
                    raise
                log.error(
                    "the data in %s cannot be built (%s); the previous store stays in force "
                    "until it is fixed (run `rulings doctor`)",
                    data_dir,
                    error,
                )
                return previous
            store = Store(_connect(db_path), db_path, data_dir)
    return store


def open_read_only(db_path: Path | None, data_dir: Path | None, problem: str) -> Store:
    """The store as it is, opened read-only, when the environment will not let it be
    written (a full disk: even SQLite's shared-memory file cannot be made). Lookups go on;
    moderator changes are refused until ``problem`` is fixed. Raises ``StoreUnavailable``
    with ``problem`` when there is no whole store built from this data to read."""
    data_dir = Path(data_dir or default_data_dir())
    db_path = Path(db_path or default_db_path())
    wanted = f"{SCHEMA_VERSION}:{content_hash(data_dir)}"
    if not db_path.exists():
        raise StoreUnavailable(problem)
    # immutable: no lock, no WAL index, nothing written; nobody can write here now anyway.
    conn = sqlite3.connect(f"file:{db_path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
    try:
        db = Database(conn)
        built = {r["key"]: r["value"] for r in db.query("SELECT key, value FROM meta")}
        db.conn.execute("SELECT count(*) FROM topics").fetchone()
    except sqlite3.DatabaseError:
        conn.close()
        raise StoreUnavailable(problem) from None
    if built.get("hash") != wanted:
        conn.close()
        raise StoreUnavailable(problem)
    log.warning("answering read-only from %s: %s", db_path, problem)
    return Store(db, db_path, data_dir, read_only=problem)


def _previous_store(db_path: Path, data_dir: Path) -> Store | None:
    """The store built from earlier data, whole, when the data now cannot be built: a
    document registered but not importable must not take every lookup down with it."""
    if not db_path.exists():
        return None
    try:
        check_file(db_path)
        db = _connect(db_path)
        db.conn.execute("SELECT count(*) FROM topics").fetchone()
    except (StoreDamaged, sqlite3.DatabaseError):
        return None
    return Store(db, db_path, data_dir)


def _level_with_journal(store: Store) -> None:
    """Replay journalled changes the store lacks (a process died between the journal and
    the store, or the store was rebuilt from an older file); settle the rest."""
    journal = Journal.beside(store.path)
    try:
        ids = {r[0] for r in store.db.conn.execute("SELECT id FROM changes")}
        if all(c["id"] in ids for c in journal.changes()) and not (
            ids - {c["id"] for c in journal.changes(include_abandoned=True)}
        ):
            for change in journal.changes():
                if change["state"] == PENDING:
                    journal.settle(change["id"], COMMITTED)
            return
        with exclusive(store.path):  # one process replays; the others find it done
            for conflict in sync_with_journal(store.db.conn, journal):
                log.warning("a journalled change conflicts with the store: %s", conflict)
    finally:
        journal.close()


def _open_if_current(db_path: Path, data_dir: Path, wanted: str) -> Store | None:
    """The store at ``db_path`` if it was built from this data and schema, else None.

    Raises StoreDamaged for a file that is not whole, StoreUnavailable for one that cannot
    be used here."""
    if not db_path.exists():
        return None
    check_file(db_path)
    try:
        db = _connect(db_path)
    except sqlite3.DatabaseError as error:
        if is_damage(error):
            raise StoreDamaged(f"{db_path} is unreadable: {error}") from error
        raise
    try:
        built = {r["key"]: r["value"] for r in db.query("SELECT key, value FROM meta")}
    except sqlite3.DatabaseError as error:
        db.conn.close()
        if is_damage(error):
            raise StoreDamaged(f"{db_path} is unreadable: {error}") from error
        raise
    if built.get("hash") == wanted:
        return Store(db, db_path, data_dir)
    db.conn.close()
    return None


def _connect(db_path: Path) -> Database:
    # The Discord adapter reads from worker threads; the service serialises access.
    conn = connect(db_path)
    conn.execute("PRAGMA foreign_keys=ON")
    return Database(conn)


def build_store(
    db_path: Path,
    data_dir: Path,
    content_key: str | None = None,
    salvage_from: Path | None = None,
) -> list[str]:
    """Build the store from the YAML into a new file, replay every moderator change from
    the journal (adopting any only the old file had, or a damaged copy ``salvage_from``
    still lets us read), then rename it into place. Returns conflict descriptions."""
    documents = load_documents(data_dir)
    by_id = {d.id: d for d in documents}
    entries = load_entries(data_dir, documents)
    for entry in entries:
        entry["document"] = entry["id"].split(":", 1)[0]
        if entry["document"] not in by_id:
            raise ValueError(f"entry {entry['id']} names unknown document {entry['document']}")
    db_path.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal.beside(db_path)
    try:
        old = _old_changes(db_path)  # a store from before the journal existed
        if salvage_from is not None:
            salvaged = _old_changes(salvage_from)
            if salvaged:
                log.warning(
                    "read %d moderator change(s) from the damaged copy %s",
                    len(salvaged),
                    salvage_from,
                )
            old += salvaged
        journal.adopt(old)
        # A pending change no store holds was never confirmed: it is not carried over.
        abandon_unconfirmed(journal, {c["id"] for c in old})
        carried = journal.changes()
        conflicts = _build_into(db_path, data_dir, documents, entries, carried, content_key)
    finally:
        journal.close()
    return conflicts


def _build_into(
    db_path: Path,
    data_dir: Path,
    documents: list,
    entries: list[dict[str, Any]],
    carried: list[dict[str, Any]],
    content_key: str | None,
) -> list[str]:
    """Write the new store beside ``db_path`` and rename it into place; on any failure the
    half-built file is removed and the old store stays as it was."""
    tmp = db_path.with_name(f"{db_path.name}.building-{os.getpid()}")  # processes may race
    try:
        by_id = {d.id: d for d in documents}
        for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
            if leftover.exists():
                leftover.unlink()
        conn = sqlite3.connect(str(tmp))
        conn.executescript(SCHEMA)
        conn.execute(FULLTEXT_SCHEMA)
        with conn:
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('hash', ?)",
                (content_key or f"{SCHEMA_VERSION}:{content_hash(data_dir)}",),
            )
            conn.executemany(
                "INSERT INTO documents(id, title, edition, kind, date, official, file, parser, url) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        d.id,
                        d.title,
                        d.edition,
                        d.kind,
                        d.date,
                        int(d.official),
                        d.file,
                        d.parser,
                        d.url,
                    )
                    for d in documents
                ],
            )
            # Bundled entries leave their version and origin to the table's defaults.
            columns = tuple(c for c in ENTRY_FIELDS if c not in ("version", "origin"))
            rows = []
            for e in entries:
                record = encode_entry({**e, "date": e.get("date") or by_id[e["document"]].date})
                rows.append(tuple(record.get(c) for c in columns))
            placeholders = ", ".join("?" for _ in columns)
            conn.executemany(
                f"INSERT INTO entries({', '.join(columns)}) VALUES ({placeholders})", rows
            )
            conn.execute(
                "INSERT INTO fulltext(rowid, topic, edition, title, text) "
                "SELECT rowid, topic, edition, title, text FROM entries WHERE retired = 0"
            )
            rerank(conn)
            cards = []
            for edition in ("1e", "2e"):
                path = data_dir / CARDS_DIR / f"{edition}.yaml"
                if path.exists():
                    cards.extend(load_card_index(path))
            conn.executemany(
                "INSERT INTO cards(id, edition, title, subtitle, name, type, text, sets) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        c.id,
                        c.edition,
                        c.title,
                        c.subtitle,
                        c.name,
                        c.type,
                        c.text,
                        json.dumps(c.sets),
                    )
                    for c in cards
                ],
            )
            conn.executemany(
                "INSERT OR REPLACE INTO aliases(alias, key, target, note) VALUES (?, ?, ?, ?)",
                [
                    (str(a["alias"]), normalize(str(a["alias"])), str(a["target"]), a.get("note"))
                    for a in load_aliases(data_dir)
                ],
            )
        conflicts = replay_changes(conn, carried)
        use_wal(conn)  # persistent: the renamed file opens in WAL mode without a lock dance
        conn.close()
        os.replace(tmp, db_path)
        for suffix in ("-wal", "-shm"):
            stale = db_path.with_name(db_path.name + suffix)
            if stale.exists():
                stale.unlink()
        log.info(
            "built store %s (%d entries, %d cards, %d changes replayed)",
            db_path,
            len(rows),
            len(cards),
            len(carried),
        )
        for conflict in conflicts:
            log.warning("moderator change conflicts with the new bundled data: %s", conflict)
        return conflicts
    except BaseException:
        for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
            try:
                leftover.unlink()
            except FileNotFoundError:
                pass
        raise


def _old_changes(db_path: Path) -> list[dict[str, Any]]:
    """Moderator changes recorded in the store being replaced (none if it is unreadable)."""
    if not db_path.exists():
        return []
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            conn.row_factory = sqlite3.Row
            tables = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if "changes" not in tables:
                return []
            return [dict(r) for r in conn.execute("SELECT * FROM changes ORDER BY id")]
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        log.error(
            "the old store %s is unreadable: its moderator changes cannot be carried over", db_path
        )
        return []

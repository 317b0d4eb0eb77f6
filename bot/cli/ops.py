"""Operations: ``rulings doctor``, ``rulings backup PATH``, ``rulings restore PATH``.

Library functions return data; only the command handlers print. The token is never shown.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import sqlite3
import sys
from contextlib import closing
from dataclasses import asdict, dataclass
from pathlib import Path

from bot.cli.conventions import described, emit_json
from bot.ingest.dataset import DataError, default_data_dir, load_documents, load_entries
from bot.settings import Settings, SettingsError, load_settings
from bot.store.build import default_db_path, open_store
from bot.store.db import exclusive
from bot.store.health import StoreUnavailable, damaged_copies, free_name
from bot.store.journal import Journal, damaged_journals, journal_damage, journal_path_for
from bot.store.state import state_path_for

OK, WARN, FAIL = "OK", "WARN", "FAIL"
STALE_AFTER_DAYS = 3 * 365
BACKUP_FILES = ("rulings.sqlite3", "state.sqlite3", "rulings.journal.sqlite3")


@dataclass
class Check:
    name: str
    status: str
    detail: str
    fix: str = ""


def _integrity(path: Path) -> str:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def _changes_in(path: Path) -> set[int] | None:
    """The ids of the moderator changes a store or journal file holds; None if unreadable."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            table = "changes" if "changes" in tables else "journal" if "journal" in tables else None
            if table is None:
                return None
            # A damaged page can read as a row of zeros: a change's id is 1 or more.
            state = " AND state != 'abandoned'" if table == "journal" else ""
            return {r[0] for r in conn.execute(f"SELECT id FROM {table} WHERE id > 0{state}")}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return None


def _kept_copy(name: str, copy: Path, live: set[int]) -> Check:
    """What a damaged copy kept beside the store may still hold that the store lacks. A
    copy is never called safe to delete unless every change it holds is in the store."""
    held = _changes_in(copy)
    if held is None:
        return Check(
            name,
            WARN,
            f"{copy} cannot be read: it may hold moderator changes the store lacks",
            "keep it (do not delete it); compare `rulings log` with what moderators changed, "
            "or restore a backup made before the damage",
        )
    lacking = sorted(held - live)
    if lacking:
        ids = ", ".join(f"#{i}" for i in lacking[:20])
        return Check(
            name,
            FAIL,
            f"{copy} holds {len(lacking)} moderator change(s) the store lacks: {ids}",
            "do not delete it: restore a backup holding them, or make those changes again",
        )
    return Check(
        name,
        WARN,
        f"{copy}: every moderator change it held ({len(held)}) is in the store",
        "keep it for a bug report, then delete it",
    )


def _store_checks(db_path: Path, data_dir: Path) -> list[Check]:
    """The store, its journal and any damaged copies of either, told apart: a damaged
    journal is not a damaged store, and a copy holding changes is never called disposable."""
    checks: list[Check] = []
    journal = journal_path_for(db_path)
    journal_damage_found = journal_damage(journal)
    try:
        store = open_store(db_path, data_dir)
        store.close()
        result = _integrity(db_path)
        if result == "ok":
            checks.append(Check("store", OK, f"{db_path} passes integrity_check"))
        else:
            checks.append(
                Check(
                    "store",
                    FAIL,
                    f"integrity_check: {result}",
                    "restore a backup: rulings restore PATH",
                )
            )
    except StoreUnavailable as exc:  # the environment, not the file: never move it
        checks.append(Check("store", FAIL, str(exc), "fix what the line says, then rerun"))
    except (sqlite3.DatabaseError, OSError, ValueError) as exc:
        checks.append(
            Check(
                "store",
                FAIL,
                f"{db_path}: {exc}",
                "restore a backup: rulings restore PATH",
            )
        )
    live = _changes_in(db_path) or set()
    for copy in damaged_copies(db_path):
        checks.append(_kept_copy("damaged stores", copy, live))
    if journal_damage_found:
        checks.append(
            Check(
                "journal",
                WARN,
                f"{journal} was damaged ({journal_damage_found}); it was set aside and a new "
                "journal started from the store's changes. The store itself is whole: lookups "
                "answer from it",
                "nothing to do for the store; see the damaged journal's line below",
            )
        )
    for copy in damaged_journals(db_path):
        checks.append(_kept_copy("damaged journals", copy, live))
    if journal.exists():
        try:
            with closing(Journal(journal)) as opened:
                count = opened.count()
            if not journal_damage_found:
                checks.append(Check("journal", OK, f"{journal}: {count} moderator change(s)"))
        except sqlite3.DatabaseError as exc:
            checks.append(
                Check(
                    "journal",
                    FAIL,
                    f"{journal}: {exc}",
                    "stop the bot and run `rulings doctor` again: a damaged journal is set "
                    "aside at the next start, and the store keeps answering",
                )
            )
    elif live:
        checks.append(
            Check(
                "journal",
                WARN,
                f"{journal} is missing though the store holds {len(live)} moderator change(s): "
                "if the store is damaged now, nothing else holds them",
                "back up now: rulings backup PATH",
            )
        )
    return checks


def run_checks(db_path: Path | None = None, data_dir: Path | None = None) -> list[Check]:
    """Every check `rulings doctor` prints, in order."""
    checks: list[Check] = []
    settings: Settings | None = None
    try:
        settings = load_settings()
        checks.append(Check("settings", OK, "every setting is well-formed"))
    except SettingsError as exc:
        checks.append(
            Check("settings", FAIL, str(exc), "correct it in the environment or the .env file")
        )
    if settings is not None:
        if not settings.token:
            checks.append(
                Check(
                    "token",
                    WARN,
                    "DISCORD_TOKEN is not set: lookups from the CLI work; the bot needs it",
                    "set DISCORD_TOKEN (Developer Portal → Bot → Reset Token)",
                )  # fmt: skip
            )
        elif not Settings.token_looks_valid(settings.token):
            checks.append(
                Check(
                    "token",
                    FAIL,
                    "DISCORD_TOKEN does not look like a bot token",
                    "copy the token again from the Developer Portal (three dot-separated parts)",
                )  # fmt: skip
            )
        else:
            checks.append(Check("token", OK, "DISCORD_TOKEN is set and well-formed"))
        if settings.home_guild_id and not (
            settings.moderator_role_id or settings.moderator_user_ids
        ):
            checks.append(
                Check(
                    "moderators",
                    WARN,
                    "a home server is set but no moderator role or user ids",
                    "set RULINGS_MODERATOR_ROLE_ID (or RULINGS_MODERATOR_USER_IDS)",
                )  # fmt: skip
            )
        elif settings.home_guild_id:
            checks.append(Check("moderators", OK, f"home server {settings.home_guild_id}"))
        else:
            checks.append(Check("moderators", WARN, "RULINGS_HOME_GUILD_ID is not set: /ruling-admin is off",
                                "set RULINGS_HOME_GUILD_ID and RULINGS_MODERATOR_ROLE_ID"))  # fmt: skip
        db_path = db_path or settings.db_path
        data_dir = data_dir or settings.data_dir
    data_dir = Path(data_dir or default_data_dir())
    db_path = Path(db_path or default_db_path())

    documents = []
    try:
        documents = load_documents(data_dir)
        entries = load_entries(data_dir, documents)
        checks.append(
            Check("data", OK, f"{len(documents)} documents, {len(entries)} entries in {data_dir}")
        )
    except (DataError, OSError, ValueError) as exc:
        checks.append(
            Check(
                "data", FAIL, str(exc), "point RULINGS_DATA at a rulings_data folder, or reinstall"
            )
        )
    if documents:
        newest = max((d.date for d in documents if d.date), default=None)
        if newest is None:
            checks.append(Check("data age", WARN, "no document has a date"))
        else:
            age = (dt.date.today() - dt.date.fromisoformat(newest)).days
            status = WARN if age > STALE_AFTER_DAYS else OK
            fix = (
                "rulings may be stale: import the newest Current Rulings Document"
                if status == WARN
                else ""
            )
            checks.append(
                Check("data age", status, f"newest document dated {newest} ({age} days ago)", fix)
            )

    if not any(c.name == "data" and c.status == FAIL for c in checks):
        checks += _store_checks(db_path, data_dir)
    state = state_path_for(db_path)
    if state.exists():
        try:
            result = _integrity(state)
            conn = sqlite3.connect(f"file:{state}?mode=ro", uri=True)
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            conn.close()
            if result != "ok":
                checks.append(
                    Check(
                        "state",
                        FAIL,
                        f"integrity_check: {result}",
                        "restore a backup: rulings restore PATH",
                    )
                )
            else:
                checks.append(
                    Check("state", OK, f"{state} passes integrity_check (journal {mode})")
                )
        except sqlite3.DatabaseError as exc:
            checks.append(
                Check("state", FAIL, f"{state}: {exc}", "restore a backup: rulings restore PATH")
            )
    else:
        checks.append(Check("state", OK, f"{state} will be created when the bot first runs"))
    return checks


# ------------------------------------------------------------------ backup and restore
def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _copy_online(source: Path, target: Path) -> None:
    """SQLite's backup API: a consistent copy even while the bot is writing."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    tmp = target.with_name(target.name + ".part")
    if tmp.exists():
        tmp.unlink()
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
    finally:
        dst.close()
        src.close()
    os.replace(tmp, target)


def backup(db_path: Path, folder: Path) -> dict:
    """Copy the store and the state into ``folder`` with a manifest of their hashes."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = {
        "rulings.sqlite3": db_path,
        "state.sqlite3": state_path_for(db_path),
        "rulings.journal.sqlite3": journal_path_for(db_path),  # the changes, kept with the store
    }
    manifest = {"created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "files": {}}
    for name, source in sources.items():
        if not source.exists():
            continue
        _copy_online(source, folder / name)
        manifest["files"][name] = _sha256(folder / name)
    if "rulings.sqlite3" not in manifest["files"]:
        raise ValueError(f"{db_path}: there is no store to back up")
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return manifest


def verify_backup(folder: Path) -> dict:
    """The manifest of a backup folder whose files are whole and valid; ValueError otherwise."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ValueError(
            f"{folder}: no readable manifest.json; not a backup made by rulings backup"
        ) from None
    for name, digest in manifest.get("files", {}).items():
        path = folder / name
        if name not in BACKUP_FILES or not path.exists():
            raise ValueError(f"{path}: missing")
        if _sha256(path) != digest:
            raise ValueError(f"{path}: does not match its manifest (changed or truncated)")
        try:
            result = _integrity(path)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{path}: not an SQLite database ({exc})") from None
        if result != "ok":
            raise ValueError(f"{path}: integrity_check says {result}")
    if "rulings.sqlite3" not in manifest.get("files", {}):
        raise ValueError(f"{folder}: the backup holds no store")
    return manifest


def restore(folder: Path, db_path: Path) -> dict:
    """Verify a backup, move the live files it replaces aside, then copy it in (restart the
    bot afterwards). Returns the manifest, with ``kept``: the folder now holding the replaced
    files (with their WAL files, so they stay readable), or None when there were none."""
    manifest = verify_backup(folder)
    targets = {
        "rulings.sqlite3": db_path,
        "state.sqlite3": state_path_for(db_path),
        "rulings.journal.sqlite3": journal_path_for(db_path),
    }
    db_path.parent.mkdir(parents=True, exist_ok=True)
    kept = None
    with exclusive(db_path):  # never in the middle of a starting bot's rebuild
        for name in manifest["files"]:
            target = targets[name]
            if target.exists():
                kept = kept or _kept_folder(db_path)
                for suffix in ("", "-wal", "-shm"):
                    live = target.with_name(target.name + suffix)
                    if live.exists():
                        os.replace(live, kept / live.name)
            _copy_online(folder / name, target)
    return {**manifest, "kept": None if kept is None else str(kept)}


def _kept_folder(db_path: Path) -> Path:
    """A new folder beside the store for the files a restore replaces, named by the time."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    folder = free_name(db_path.with_name(f"replaced-by-restore-{stamp}"))
    folder.mkdir()
    return folder


# ------------------------------------------------------------------ command line
def _paths(args: argparse.Namespace) -> tuple[Path, Path]:
    db = args.db or (
        Path(os.environ["RULINGS_DB"]) if os.environ.get("RULINGS_DB") else default_db_path()
    )
    return Path(db), Path(args.data or default_data_dir())


def _doctor(args: argparse.Namespace) -> int:
    db, data = _paths(args)
    checks = run_checks(db, data)
    failed = any(c.status == FAIL for c in checks)
    if args.json:
        emit_json({"ok": not failed, "checks": [asdict(c) for c in checks]})
        return 1 if failed else 0
    for check in checks:
        print(f"{check.status:<4}  {check.name}: {check.detail}")
        if check.fix and check.status != OK:
            print(f"      fix: {check.fix}")
    return 1 if any(c.status == FAIL for c in checks) else 0


def _backup(args: argparse.Namespace) -> int:
    db, _ = _paths(args)
    try:
        manifest = backup(db, Path(args.path))
    except (ValueError, sqlite3.DatabaseError, OSError) as exc:
        print(f"rulings: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        emit_json({"path": str(args.path), **manifest})
    else:
        print(f"backed up {', '.join(manifest['files'])} to {args.path}")
    return 0


def _confirmed(db: Path, manifest: dict) -> bool:
    """Ask on the terminal (the question on stderr, so --json output stays one document)."""
    sys.stderr.write(
        f"Replace the store {db} (and its state and journal) with the backup made "
        f"{manifest['created']}? The files replaced are kept beside it. [y/N] "
    )
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def _restore(args: argparse.Namespace) -> int:
    db, _ = _paths(args)
    try:
        if not args.yes:
            manifest = verify_backup(Path(args.path))  # a damaged backup is refused first
            if not sys.stdin.isatty():
                raise ValueError(
                    f"restore replaces the live store {db}: confirm it in a terminal, "
                    "or add --yes (scripts)"
                )
            if not _confirmed(db, manifest):
                print("rulings: nothing restored", file=sys.stderr)
                return 1
        manifest = restore(Path(args.path), db)
    except (ValueError, sqlite3.DatabaseError, OSError) as exc:
        print(f"rulings: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        emit_json({"path": str(args.path), **manifest})
        return 0
    print(
        f"restored {', '.join(manifest['files'])} from {args.path} (made {manifest['created']}); restart the bot"
    )
    if manifest["kept"]:
        print(f"the files it replaced are kept in {manifest['kept']}")
    return 0


def add_ops_commands(sub: argparse._SubParsersAction) -> None:
    report = "print the result as one JSON document on stdout"
    p = sub.add_parser(
        "doctor",
        **described(
            "check settings, data and store, with a fix for each problem",
            "rulings doctor",
            "rulings doctor --json",
            notes="exit codes: 0 nothing failed (warnings allowed), 1 a check failed",
        ),
    )
    p.add_argument("--json", action="store_true", help=report)
    p.set_defaults(handler=_doctor)
    p = sub.add_parser(
        "backup",
        **described(
            "a consistent copy of the store and state (safe while the bot runs)",
            "rulings backup ~/rulings-backups/2026-11-27",
            "rulings backup /var/backups/rulings/today --json",
        ),
    )
    p.add_argument("path", type=Path, help="a folder to write the backup into")
    p.add_argument("--json", action="store_true", help=report)
    p.set_defaults(handler=_backup)
    p = sub.add_parser(
        "restore",
        **described(
            "restore a backup made by 'rulings backup' (then restart the bot)",
            "rulings restore ~/rulings-backups/2026-11-27",
            "rulings restore /var/backups/rulings/today --yes --json",
            details="Verify a backup made by 'rulings backup', ask, then replace the live "
            "store, state and journal with it. The files it replaces are moved aside into a "
            "folder beside the store (replaced-by-restore-<time>), and the command says where. "
            "Without a terminal to ask on, it restores only with --yes. Restart the bot "
            "afterwards.",
        ),
    )
    p.add_argument("path", type=Path, help="the backup folder to restore from")
    p.add_argument("--yes", action="store_true", help="do not ask (scripts and recipes)")
    p.add_argument("--json", action="store_true", help=report)
    p.set_defaults(handler=_restore)

"""Telling a damaged store from an environment that will not let us use a healthy one.

A damaged file (truncated, overwritten, a broken schema) is moved aside — kept, never
deleted — and rebuilt, with the moderators' journal replayed. A read-only folder, a missing
permission, a full disk or a lock held too long are not damage: rebuilding would not help and
moving the file could lose a healthy store, so they stop with one line naming the path and
the fix.
"""

from __future__ import annotations

import datetime as dt
import errno
import logging
import os
import sqlite3
from pathlib import Path

log = logging.getLogger(__name__)

# What SQLite says when the file itself is bad.
_DAMAGE_MARKERS = (
    "file is not a database",
    "malformed",
    "file is encrypted",
    "no such table",
    "no such column",
    "corrupt",
)
_ENVIRONMENT_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT}


class StoreDamaged(Exception):
    """The store file is unreadable or inconsistent; the message says how."""


class StoreUnavailable(Exception):
    """The store cannot be used here (permissions, read-only, full disk, lock); the message
    is one line naming the path and what to do."""


def is_damage(error: BaseException) -> bool:
    """True for SQLite errors that mean the file's content is bad."""
    if isinstance(error, StoreDamaged):
        return True
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    if isinstance(error, sqlite3.OperationalError) and environment_problem(error, Path(".")):
        return False
    text = str(error).lower()
    return any(marker in text for marker in _DAMAGE_MARKERS)


def environment_problem(error: BaseException, path: Path) -> str | None:
    """One line naming ``path`` and the fix, when ``error`` comes from the environment."""
    text = str(error).lower()
    where = Path(path)
    folder = where.parent if where.suffix else where
    if isinstance(error, OSError) and error.errno in (errno.EEXIST, errno.ENOTDIR):
        return f"cannot create the folder of {where}: a file is in the way; move it, or set RULINGS_DB to another path"
    if isinstance(error, OSError) and error.errno in _ENVIRONMENT_ERRNOS:
        if error.errno == errno.ENOSPC or error.errno == errno.EDQUOT:
            return f"no space left for {where}: free disk space there, or set RULINGS_DB to a path on another disk"
        return f"cannot write {where}: {error.strerror or 'permission denied'}; make {folder} writable, or set RULINGS_DB to a writable path"
    if not isinstance(error, sqlite3.Error):
        return None
    if "readonly" in text or "read-only" in text:
        return f"cannot write {where}: it or its folder is read-only; make {folder} writable, or set RULINGS_DB to a writable path"
    if "disk is full" in text or "database or disk is full" in text:
        return f"no space left for {where}: free disk space there, or set RULINGS_DB to a path on another disk"
    if "unable to open" in text or "permission" in text or "access permission" in text:
        return f"cannot open {where}: check that {folder} exists and is readable and writable, or set RULINGS_DB to another path"
    if "locked" in text or "busy" in text:
        return (
            f"{where} is locked by another process for too long: wait for it to finish, or stop it"
        )
    if "disk i/o error" in text:
        return f"the disk reported an I/O error on {where}: check the disk and free space, then start again"
    return None


def check_file(path: Path) -> None:
    """Raise StoreDamaged if the SQLite file at ``path`` is not whole; StoreUnavailable if it
    cannot be read here. A missing file is not damage (it is built)."""
    if not path.exists():
        return
    try:
        size = path.stat().st_size
    except OSError as error:
        raise StoreUnavailable(environment_problem(error, path) or str(error)) from error
    if size == 0:
        raise StoreDamaged(f"{path} is empty (0 bytes)")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as error:
        problem = environment_problem(error, path)
        if problem:
            raise StoreUnavailable(problem) from error
        raise StoreDamaged(f"{path} cannot be opened: {error}") from error
    try:
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as error:
        problem = environment_problem(error, path)
        if problem and not is_damage(error):
            raise StoreUnavailable(problem) from error
        raise StoreDamaged(f"{path} is unreadable: {error}") from error
    finally:
        conn.close()
    if verdict != "ok":
        raise StoreDamaged(f"{path} failed its integrity check: {verdict}")
    missing = {"meta", "documents", "entries", "topics", "changes"} - tables
    if missing:
        raise StoreDamaged(f"{path} lacks the tables {', '.join(sorted(missing))}")


def free_name(first: Path) -> Path:
    """``first``, or ``first`` with -2, -3… added: the first name nothing holds yet."""
    candidate, n = first, 2
    while candidate.exists():
        candidate = first.with_name(f"{first.name}-{n}")
        n += 1
    return candidate


def move_aside(path: Path, what: str = "store") -> Path:
    """Rename a damaged store or journal (and its WAL or rollback files) out of the way;
    returns the new name."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
    target = free_name(path.with_name(f"{path.name}.damaged-{stamp}"))
    os.replace(path, target)
    for suffix in ("-wal", "-shm", "-journal"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    if what == "store":
        log.error("the store %s was damaged; kept it as %s and rebuilt it", path, target)
    return target


def damaged_copies(path: Path) -> list[Path]:
    """Damaged stores kept beside ``path``, oldest first."""
    return sorted(path.parent.glob(f"{path.name}.damaged-*[0-9]"))


def clean_leftovers(path: Path) -> list[Path]:
    """Remove half-built files a crashed or failed build left (``.building-<pid>``, ``.part``)
    whose process is gone; returns what was removed."""
    removed = []
    for leftover in [
        *path.parent.glob(f"{path.name}.building-*"),
        *path.parent.glob(f"{path.name}*.part"),
    ]:
        pid = leftover.name.split(".building-")[-1].split("-")[0]
        if pid.isdigit() and int(pid) != os.getpid() and _alive(int(pid)):
            continue
        try:
            leftover.unlink()
            removed.append(leftover)
        except FileNotFoundError:
            pass
        except OSError as error:
            log.warning("could not remove the leftover %s: %s", leftover, error)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

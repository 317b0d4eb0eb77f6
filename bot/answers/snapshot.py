"""A snapshot of what answering is built from, kept beside the store: read at start-up
instead of building the indexes again.

A generation of the answers (``bot.answers.lookups.Answers``) builds the rulings index
(names, typo and prefix tables, passages and their statistics), the card names, the card
index and each card's rulings from the store: about a second for the bundled data, minutes
at 100,000 entries. The snapshot holds those, pickled, in one file beside the store
(``rulings.sqlite3.snapshot``), under a key naming both what they were built from (the
store's data: its build hash and the changes replayed on it) and the code that built them
(the package as installed, the source of the search, the store and the answers, the lexicon and
the libraries whose words they hold). A snapshot whose key is not the current one, or that is
damaged (truncated, a checksum mismatch, a class no longer there), is logged and ignored:
the answers are built from the store as before, and the snapshot written again.

It is written whole to a temporary file and renamed into place, so a reader never sees half
of one; it is read in one pass once its length and checksum are found right, streamed, so
that the file's bytes are never held in memory beside the structures they make. Unpickling runs only classes of this
package and plain containers (an allow-list), so a file that is not ours is refused, not run.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import io
import json
import logging
import os
import pickle
import sys
import time
import zlib
from pathlib import Path
from typing import Any

from bot.once import Once

log = logging.getLogger(__name__)

FORMAT = 1  # the file's layout; a new layout is a new number
MAGIC = b"rulings-snapshot\n"
SUFFIX = ".snapshot"
HEADER_WIDTH = 512  # bytes kept for the header (JSON, padded with spaces)
CHUNK = 1 << 20  # bytes read at a time
# What the key's code part reads: every source file whose output the snapshot holds.
_CODE = ("normalize.py", "once.py", "models.py", "validate.py", "search", "store", "answers")
_LIBRARIES = ("bot", "snowballstemmer")  # this package as installed, and the stemmer
# The globals a snapshot may name beside this package's own classes (see ``_Reader``).
_ALLOWED = {
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "bytearray"),
    ("builtins", "range"),
    ("builtins", "object"),
    ("array", "array"),
    ("array", "_array_reconstructor"),
    ("copyreg", "_reconstructor"),
    ("collections", "Counter"),
    ("collections", "OrderedDict"),
}
# The objects of a generation that belong to the process, not to the data: stood in for by
# a name when written, and given the new process's own when read.
FULLTEXT, SOURCE_LABEL = "fulltext", "source_label"


class SnapshotUnusable(Exception):
    """A snapshot that must not be used (damaged, or of other data or code)."""


def path_for(store_path: Path) -> Path:
    return store_path.with_name(store_path.name + SUFFIX)


@functools.cache
def code_version() -> str:
    """A hash of the code a snapshot's contents depend on (cached: it cannot change while
    the process runs)."""
    digest = hashlib.sha256()
    digest.update(f"{FORMAT} {sys.version_info[:2]}".encode())
    for name in _LIBRARIES:
        digest.update(f"{name} {_installed_stamp(name)}".encode())
    digest.update(_english_words_stamp().encode())
    root = Path(__file__).resolve().parents[1]  # bot/
    for part in _CODE:
        path = root / part
        files = (
            sorted(path.rglob("*.py")) + sorted(path.glob("*.json")) if path.is_dir() else [path]
        )
        for file in files:
            digest.update(str(file.relative_to(root)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def _installed_stamp(module: str) -> str:
    """An installed module's file, by path, size and time: a new version of it is another
    file (found without importlib.metadata, whose import and lookups cost a cold lookup
    about 15 ms)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        return "none"
    try:
        stat = Path(spec.origin).stat()
    except OSError:
        return "none"
    return f"{spec.origin}:{stat.st_size}:{stat.st_mtime_ns}"


def _english_words_stamp() -> str:
    """The English word list's file (pyspellchecker's, see ``passages.english_words``), by
    size and time: found without importing the library (its metadata costs 20 ms here)."""
    spec = importlib.util.find_spec("spellchecker")
    if spec is None or not spec.origin:
        return "no word list"
    words = Path(spec.origin).parent / "resources" / "en.json.gz"
    try:
        stat = words.stat()
    except OSError:
        return "no word list"
    return f"{stat.st_size}:{stat.st_mtime_ns}"


def data_version(db: Any) -> str:
    """What the store's data is: the hash it was built from, the moderator changes on it,
    and its live rows counted (``db``: the store's sqlite-utils database)."""
    conn = db.conn
    built = conn.execute("SELECT value FROM meta WHERE key = 'hash'").fetchone()
    changes = conn.execute("SELECT count(*), coalesce(max(id), 0) FROM changes").fetchone()
    entries = conn.execute("SELECT count(*), coalesce(max(rowid), 0) FROM entries").fetchone()
    aliases = conn.execute("SELECT count(*) FROM aliases").fetchone()
    return json.dumps([built[0] if built else None, *changes, *entries, *aliases])


def lexicon_version() -> str:
    """The lexicon's bytes hashed: its synonyms and stems are in every passage's terms."""
    from bot.paths import default_data_dir

    try:
        return hashlib.sha256((default_data_dir() / "lexicon.yaml").read_bytes()).hexdigest()
    except OSError:
        return "none"


def snapshot_key(db: Any) -> str:
    """The key a snapshot of this store's answers is written and looked for under."""
    return f"{code_version()}:{lexicon_version()}:{data_version(db)}"


# ---------------------------------------------------------------------------- writing
class _Writer(pickle.Pickler):
    def __init__(self, file: Any, standing: dict[int, str]):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._standing = standing

    def persistent_id(self, obj: Any) -> str | None:
        return self._standing.get(id(obj))

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Once):  # its value, built now if it was not yet, read on first use
            held = io.BytesIO()
            _Writer(held, self._standing).dump(obj())
            return thawed, (held.getvalue(),)
        return NotImplemented


class _Checksummed:
    """A file written through, counting the bytes and their CRC-32 on the way."""

    def __init__(self, file: Any):
        self._file = file
        self.length = 0
        self.crc = 0

    def write(self, data: Any) -> int:
        self.length += len(data)
        self.crc = zlib.crc32(data, self.crc)
        return self._file.write(data)


def write(path: Path, key: str, parts: dict[str, Any], standing: dict[str, Any]) -> int:
    """Write ``parts`` under ``key`` to ``path`` (atomically: a temporary file renamed into
    place); ``standing``: the process's own objects inside them (see FULLTEXT), by name.
    Streamed to the file (a copy in memory would double the peak); returns the bytes."""
    # Named as the store's half-built files are: one left by a process that died is
    # removed with them (see bot.store.health.clean_leftovers).
    tmp = path.with_name(f"{path.name.removesuffix(SUFFIX)}.building-{os.getpid()}-snapshot")
    try:
        with open(tmp, "w+b") as file:
            file.write(MAGIC + b" " * HEADER_WIDTH + b"\n")  # the header, once known
            payload = _Checksummed(file)
            _Writer(payload, {id(obj): name for name, obj in standing.items()}).dump(parts)
            header = json.dumps(
                {"format": FORMAT, "key": key, "length": payload.length, "crc32": payload.crc}
            ).encode()
            if len(header) > HEADER_WIDTH:
                raise ValueError("the snapshot's key is too long")
            file.seek(len(MAGIC))
            file.write(header.ljust(HEADER_WIDTH))
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return len(MAGIC) + HEADER_WIDTH + 1 + payload.length


# ---------------------------------------------------------------------------- reading
def thawed(held: bytes) -> Once:
    """A value built on first need (a ``Once``), read back when first asked for: what a
    lookup may never need (the cards' texts and words) costs nothing at start-up."""
    return Once(functools.partial(_thaw, held))


def _thaw(held: bytes) -> Any:
    return _Reader(io.BytesIO(held), {}).load()


class _Reader(pickle.Unpickler):
    def __init__(self, file: Any, standing: dict[str, Any]):
        super().__init__(file)
        self._standing = standing

    def persistent_load(self, pid: Any) -> Any:
        if pid not in self._standing:
            raise pickle.UnpicklingError(f"unknown stand-in {pid!r}")
        return self._standing[pid]

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == (__name__, "thawed") or (module, name) in _ALLOWED:
            return super().find_class(module, name)
        if module.startswith("bot.") and name[:1].isupper():  # this package's classes only
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")


def read(path: Path, key: str, standing: dict[str, Any]) -> dict[str, Any]:
    """The parts written under ``key`` at ``path``; raises FileNotFoundError when there is
    none, SnapshotUnusable when it is of other data or code, or damaged."""
    with open(path, "rb", buffering=CHUNK) as file:
        head = file.read(len(MAGIC) + HEADER_WIDTH + 1)
        if not head:
            raise SnapshotUnusable("empty")
        if not head.startswith(MAGIC) or len(head) < len(MAGIC) + HEADER_WIDTH + 1:
            raise SnapshotUnusable("not a snapshot")
        try:
            header = json.loads(head[len(MAGIC) :])
        except ValueError as error:
            raise SnapshotUnusable(f"unreadable header ({error})") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise SnapshotUnusable("another format")
        if header.get("key") != key:
            raise SnapshotUnusable("built from other data or code")
        length = crc = 0
        while chunk := file.read(CHUNK):  # checked whole before any of it is unpickled
            length += len(chunk)
            crc = zlib.crc32(chunk, crc)
        if length != header.get("length"):
            raise SnapshotUnusable(f"truncated ({length} of {header.get('length')} bytes)")
        if crc != header.get("crc32"):
            raise SnapshotUnusable("checksum mismatch")
        file.seek(len(head))
        try:  # streamed: the file's bytes are never all in memory beside what they make
            parts = _Reader(file, standing).load()
        except Exception as error:  # noqa: BLE001 - any failure: not trusted
            raise SnapshotUnusable(f"unreadable ({type(error).__name__}: {error})") from None
    if not isinstance(parts, dict):
        raise SnapshotUnusable("unexpected contents")
    return parts


def load(path: Path, key: str, standing: dict[str, Any]) -> dict[str, Any] | None:
    """The parts of the snapshot at ``path`` if it is whole and of this ``key``, else None
    (why it was not used is logged)."""
    try:
        return read(path, key, standing)
    except FileNotFoundError:
        return None
    except (SnapshotUnusable, OSError, ValueError) as problem:
        log.warning("the snapshot %s is not used (%s): the answers are built again", path, problem)
        return None


class SnapshotKeeper:
    """When the answers' snapshot is written: once for each generation built from the store
    (a first start, new bundled data, a change), never for answers read from a snapshot,
    never on a read-only store, and never while ``rulings eval`` ranks with models of its
    own (those answers are not the shipped ones)."""

    def __init__(self) -> None:
        self.written: str | None = None  # the key of the snapshot last written

    def keep(self, answers: Any, read_only: bool) -> bool:
        """Write it if it is due; False when nothing needed writing or it could not be
        written (logged: answering goes on, a snapshot only saves time)."""
        if answers.from_snapshot or answers.snapshot_key == self.written:
            return False
        if read_only or _fitting(answers):
            return False
        began = time.perf_counter()
        try:
            size = answers.save_snapshot()
        except Exception as error:  # noqa: BLE001 - a snapshot only saves time; never fatal
            log.warning("could not write the answers' snapshot: %s", error)
            return False
        self.written = answers.snapshot_key
        log.info(
            "wrote the answers' snapshot (%.1f MB) in %.2f s",
            size / 1e6,
            time.perf_counter() - began,
        )
        return True


def _fitting(answers: Any) -> bool:
    """Whether ``rulings eval`` ranks with models of its own now."""
    index = answers.index
    cards = answers.cards.card_index
    return bool(
        index.ranker_override
        or index.confidence_override
        or (cards.built and cards().confidence_override)
    )

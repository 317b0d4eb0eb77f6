"""Where the shipped data lives and how its files are read: registry, entries, aliases."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import logging
import os
import shutil
from pathlib import Path
from typing import Any

from bot import validate
from bot.models import EDITIONS, Document
from bot.paths import default_data_dir  # noqa: F401  (re-exported: callers import it here)

log = logging.getLogger(__name__)

DOCUMENTS_FILE = "documents.yaml"
ENTRIES_DIR = "entries"
CARDS_DIR = "cards"
ALIASES_FILE = "aliases.yaml"


class DataError(ValueError):
    """Shipped data is missing or malformed; the message names the file."""


class _ImpossibleDate(ValueError):
    def __init__(self, line: int, printed: str):
        super().__init__(f"date {printed} is not a real date")
        self.line = line


@functools.cache
def _yaml() -> tuple[Any, type, type]:
    """PyYAML with this project's loader and dumper, imported on first use: a lookup from a
    current store reads no YAML, and importing it cost a cold lookup about 15 ms."""
    import yaml

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        """The safe loader, whose dates that no calendar has (2014-02-30) name their line."""

        def construct_yaml_timestamp(self, node):  # PyYAML's own hook, overridden
            try:
                return super().construct_yaml_timestamp(node)
            except ValueError:  # Python says only "day is out of range for month"
                raise _ImpossibleDate(node.start_mark.line + 1, node.value) from None

    Loader.add_constructor("tag:yaml.org,2002:timestamp", Loader.construct_yaml_timestamp)

    class ReviewDumper(yaml.SafeDumper):
        """Block style for multi-line text (reviewable diffs)."""

    def represent_text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
        style = (
            "|"
            if "\n" in value and not any(line != line.rstrip() for line in value.split("\n"))
            else None
        )
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    ReviewDumper.add_representer(str, represent_text)
    return yaml, Loader, ReviewDumper


def parse_yaml(text: str) -> Any:
    """YAML text read with the project's loader: the safe one, in C where PyYAML has it
    (a tenth of the pure-Python one's time on the labelled tables and the card lists)."""
    yaml, loader, _ = _yaml()
    return yaml.load(text, Loader=loader)


def read_yaml(path: Path) -> Any:
    yaml, loader, _ = _yaml()
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.load(handle, Loader=loader)
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except _ImpossibleDate as exc:
        raise DataError(f"{path}:{exc.line}: {exc}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: not valid YAML: {exc}") from None


def dump_yaml(data: Any) -> str:
    """Deterministic, reviewable YAML: block style for multi-line text, keys as given."""
    yaml, _, dumper = _yaml()
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, width=100)


def write_text_atomically(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a failure never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


_INCOMING, _PREVIOUS = ".incoming", ".previous"


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_files_together(folder: Path, changed: dict[str, str]) -> None:
    """Replace files of ``folder`` (name -> text) all at once: a copy of the folder is
    written aside with the new files, then swapped in by two renames. A process killed at
    any point leaves the old set or the new one (:func:`recover_folder` finishes or undoes
    a swap that was cut between its two renames), never a mixture."""
    incoming = folder.with_name(folder.name + _INCOMING)
    previous = folder.with_name(folder.name + _PREVIOUS)
    with _exclusive(folder):
        _recover(folder)
        shutil.rmtree(incoming, ignore_errors=True)
        if folder.exists():
            shutil.copytree(folder, incoming)
        else:
            incoming.mkdir(parents=True)
        for name, text in changed.items():
            (incoming / name).write_text(text, encoding="utf-8")
        for path in [*incoming.iterdir(), incoming]:
            _fsync(path)  # whole on disk before it may become the folder
        if folder.exists():
            os.replace(folder, previous)
        os.replace(incoming, folder)
        _fsync(folder.parent)
        shutil.rmtree(previous, ignore_errors=True)


def recover_folder(folder: Path) -> None:
    """Finish or undo a :func:`replace_files_together` a killed process left half done."""
    incoming = folder.with_name(folder.name + _INCOMING)
    previous = folder.with_name(folder.name + _PREVIOUS)
    if folder.exists() and not incoming.exists() and not previous.exists():
        return  # the common case: nothing to do, nothing written (the folder may be read-only)
    with _exclusive(folder):
        _recover(folder)


@contextlib.contextmanager
def _exclusive(folder: Path):
    """One process at a time swaps or recovers ``folder`` (``.<folder>.lock`` beside it)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(f".{folder.name}.lock"), "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released by the kernel if the holder dies
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _recover(folder: Path) -> None:
    incoming = folder.with_name(folder.name + _INCOMING)
    previous = folder.with_name(folder.name + _PREVIOUS)
    if not folder.exists() and previous.exists():
        if incoming.exists():  # cut between the renames: the new set is whole
            os.replace(incoming, folder)
            log.warning("finished replacing %s, which an import left half done", folder)
        else:
            os.replace(previous, folder)
    if incoming.exists():  # cut while the new set was written: the old set stays
        shutil.rmtree(incoming, ignore_errors=True)
        log.warning("removed %s, an import's unfinished files", incoming)
    if previous.exists():
        shutil.rmtree(previous, ignore_errors=True)


def load_documents(data_dir: Path) -> list[Document]:
    """The document registry, validated: every field present, editions and dates sane."""
    path = data_dir / DOCUMENTS_FILE
    raw = read_yaml(path)
    if not isinstance(raw, dict) or not isinstance(raw.get("documents"), list):
        raise DataError(f"{path}: expected a mapping with a 'documents' list")
    documents = []
    seen: set[str] = set()
    for index, item in enumerate(raw["documents"], 1):
        try:
            date = item["date"]
            missing = [key for key in ("file", "parser") if key not in item]  # null is allowed
            if missing:
                raise KeyError(missing[0])
            document = Document(
                id=str(item["id"]),
                title=str(item["title"]),
                edition=str(item["edition"]),
                kind=str(item["kind"]),
                date=None if date is None else str(date),
                official=bool(item["official"]),
                # Documents a moderator added have no source file for the importer to read.
                file=None if item.get("file") is None else str(item["file"]),
                parser=None if item.get("parser") is None else str(item["parser"]),
                url=_url(item.get("url")),
            )
        except (KeyError, TypeError) as exc:
            raise DataError(f"{path}: document #{index} lacks {exc}") from None
        except ValueError as exc:
            raise DataError(f"{path}: document #{index}: {exc}") from None
        try:
            valid_edition = validate.edition(document.edition) == document.edition
        except validate.InvalidValue:
            valid_edition = False
        if not valid_edition:
            raise DataError(f"{path}: {document.id}: edition must be one of {EDITIONS}")
        if document.id in seen:
            raise DataError(f"{path}: duplicate document id {document.id}")
        seen.add(document.id)
        documents.append(document)
    return documents


def _url(value: Any) -> str | None:
    """A document's optional link: absent or null, else an http(s) address."""
    if value is None:
        return None
    url = str(value).strip()
    if not url.startswith(("https://", "http://")) or any(c.isspace() for c in url):
        raise ValueError(f"url must be an http(s) address, not {url!r}")
    return url


def entries_path(data_dir: Path, document_id: str) -> Path:
    return data_dir / ENTRIES_DIR / f"{document_id}.yaml"


def load_entries(data_dir: Path, documents: list[Document]) -> list[dict[str, Any]]:
    """Every imported entry of every registered document, in registry then document order."""
    entries: list[dict[str, Any]] = []
    recover_folder(data_dir / ENTRIES_DIR)
    for document in documents:
        path = entries_path(data_dir, document.id)
        raw = read_yaml(path)
        if not isinstance(raw, dict) or raw.get("document") != document.id:
            raise DataError(f"{path}: expected 'document: {document.id}' and 'entries'")
        entries.extend(raw.get("entries") or [])
    return entries


def load_aliases(data_dir: Path) -> list[dict[str, Any]]:
    """Curated nicknames: ``[{alias, target, note?}]``; a missing file means none."""
    path = data_dir / ALIASES_FILE
    if not path.exists():
        return []
    raw = read_yaml(path) or {}
    aliases = raw.get("aliases") if isinstance(raw, dict) else None
    if not isinstance(aliases, list):
        raise DataError(f"{path}: expected a mapping with an 'aliases' list")
    return aliases


def content_hash(data_dir: Path) -> str:
    """A hash of every data file the store is built from; a change means rebuild."""
    digest = hashlib.sha256()
    recover_folder(data_dir / ENTRIES_DIR)
    files = [data_dir / DOCUMENTS_FILE, data_dir / ALIASES_FILE]
    files += sorted((data_dir / ENTRIES_DIR).glob("*.yaml"))
    files += sorted((data_dir / CARDS_DIR).glob("*.yaml"))
    for path in files:
        if path.exists():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()

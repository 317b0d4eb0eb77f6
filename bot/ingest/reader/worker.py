"""Reading an upload apart from the process that answers lookups.

A document is read in a worker process of its own, with a wall-clock deadline and a cap on
its memory (``resource.setrlimit`` in the worker): a document that makes a reader run away
(a pattern that backtracks, a PDF that unpacks to gigabytes) fails with a refusal that says
so, and the bot's event loop, heartbeat and lookups go on meanwhile. A file is read from a
path only when it is a regular file: a FIFO, a device or ``/dev/zero`` is refused by name.
"""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

from bot.ingest.reader import limits
from bot.ingest.reader.model import (
    CorrectionError,
    DocumentTooLarge,
    ReadDocument,
    UnknownShape,
    UnreadableDocument,
)

_REFUSALS = {
    "UnreadableDocument": UnreadableDocument,
    "DocumentTooLarge": DocumentTooLarge,
    "UnknownShape": UnknownShape,
    "CorrectionError": CorrectionError,
}
_SPECIAL = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_upload_file(path: Path) -> bytes:
    """The bytes of a document file; a special file or one over the size limit is refused
    (before a byte is read: reading a FIFO or /dev/zero never ends)."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise UnreadableDocument(f"cannot read {path}: {error.strerror or error}") from None
    for test, what in _SPECIAL:
        if test(mode):
            raise UnreadableDocument(f"{path} is {what}, not a document file.")
    if not stat.S_ISREG(mode):
        raise UnreadableDocument(f"{path} is not a regular file.")
    # O_NONBLOCK: if the path was swapped for a FIFO since the check, open does not hang.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise UnreadableDocument(f"cannot read {path}: {error.strerror or error}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise UnreadableDocument(f"{path} is not a regular file.")
        content = handle.read(limits.MAX_DOCUMENT_BYTES + 1)
    if len(content) > limits.MAX_DOCUMENT_BYTES:
        raise DocumentTooLarge(
            f"{path.name}: the file is over {limits.MAX_DOCUMENT_BYTES // 1048576} MB; a "
            "document may be no larger. Split it, or upload its text."
        )
    return content


def read_isolated(
    content: bytes,
    filename: str | None = None,
    seconds: float | None = None,
    memory_bytes: int | None = None,
    heads: dict[int, str | None] | None = None,
) -> ReadDocument:
    """:func:`bot.ingest.reader.read_document` in a worker process with a deadline and a
    memory cap (defaults: :mod:`bot.ingest.reader.limits`). Raises what the reader raises,
    or :class:`UnreadableDocument` when the worker ran out of time or memory. ``heads``: a
    moderator's entry heads (:func:`bot.ingest.reader.read_document`)."""
    seconds = limits.read_seconds() if seconds is None else seconds
    memory_bytes = limits.read_memory_bytes() if memory_bytes is None else memory_bytes
    name = f"{filename}: " if filename else ""
    if len(content) > limits.MAX_DOCUMENT_BYTES:  # not worth a process
        raise DocumentTooLarge(
            f"{name}the file is over {limits.MAX_DOCUMENT_BYTES // 1048576} MB; a document "
            "may be no larger. Split it, or upload its text."
        )
    payload = pickle.dumps((content, filename, memory_bytes, seconds, heads))
    worker = subprocess.Popen(
        [sys.executable, "-m", "bot.ingest.reader.worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": _root_path()},
    )
    try:
        out, err = worker.communicate(payload, timeout=seconds)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.communicate()
        raise UnreadableDocument(
            f"{name}reading the document took longer than {seconds:g} s and was stopped; "
            "it is not a document the reader can handle. Upload its text in a plainer form."
        ) from None
    except BaseException:  # cancelled: never leave the worker running
        worker.kill()
        worker.communicate()
        raise
    if worker.returncode != 0 or not out:
        detail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [
            f"stopped by signal {-worker.returncode}"
            if worker.returncode < 0
            else f"exit {worker.returncode}"
        ]
        raise UnreadableDocument(
            f"{name}the document could not be read within the reader's limits "
            f"({detail[0][:200]}). Upload its text in a plainer form."
        )
    status, *rest = pickle.loads(out)
    if status == "ok":
        return rest[0]
    kind, message, heads = rest
    if kind == "UnknownShape":
        raise UnknownShape(message, heads)
    raise _REFUSALS.get(kind, UnreadableDocument)(message)


def _root_path() -> str:
    """The folder that holds the ``bot`` package, ahead of any other on the worker's path."""
    root = str(Path(__file__).resolve().parents[3])
    inherited = os.environ.get("PYTHONPATH")
    return f"{root}{os.pathsep}{inherited}" if inherited else root


def _limit_self(memory_bytes: int, seconds: float) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    cpu = max(1, int(seconds) + 1)  # the parent's wall-clock deadline comes first
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # a reader writes no file


def _main() -> int:
    content, filename, memory_bytes, seconds, heads = pickle.loads(sys.stdin.buffer.read())
    _limit_self(memory_bytes, seconds)
    from bot.ingest.reader import read_document

    try:
        result: tuple = ("ok", read_document(content, filename, heads))
    except (UnreadableDocument, UnknownShape, CorrectionError) as error:
        result = ("refused", type(error).__name__, str(error), getattr(error, "heads", []))
    except MemoryError:
        name = f"{filename}: " if filename else ""
        result = (
            "refused",
            "UnreadableDocument",
            f"{name}reading the document needs more than {memory_bytes // 1048576} MB of "
            "memory; it is not a document the reader can handle.",
            [],
        )
    except RecursionError:
        result = ("refused", "UnreadableDocument", "the document nests too deeply to read.", [])
    sys.stdout.buffer.write(pickle.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(_main())

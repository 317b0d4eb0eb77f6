"""Issue 36, finding 2: reading a moderator's document is bounded and kept apart.

A document is read in a worker process with a deadline and a memory cap, so a document that
makes a reader run away fails with a refusal while lookups go on; sizes, entries and line
lengths have limits with a clear refusal; PDF bombs and special files are refused by name.
"""

from __future__ import annotations

import os
import signal
import threading
import zlib
from pathlib import Path

import pytest

from bot.answers.moderation import ModerationError
from bot.cli.main import main
from bot.ingest.reader import DocumentTooLarge, UnreadableDocument, read_text
from bot.ingest.reader.limits import MAX_DOCUMENT_BYTES, MAX_ENTRIES, MAX_LINE_CHARS
from bot.ingest.reader.worker import read_isolated, read_upload_file
from tests.ingest.pdfmaker import assemble

DATA = Path(__file__).resolve().parents[2] / "rulings_data"
FEED = "Second Edition\n\n" + "".join(
    f"Ruling number {n} 2020-01-{n % 28 + 1:02d}\nThe ruling's text, a whole sentence.\n\n"
    for n in range(3)
)


def test_special_files_are_refused_by_name_without_being_read(tmp_path):
    fifo = tmp_path / "upload.txt"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    with pytest.raises(UnreadableDocument, match="FIFO"):
        read_upload_file(fifo)
    with pytest.raises(UnreadableDocument, match="character device"):
        read_upload_file(Path("/dev/zero"))
    with pytest.raises(UnreadableDocument, match="folder"):
        read_upload_file(tmp_path)
    big = tmp_path / "big.txt"
    with open(big, "wb") as handle:
        handle.truncate(MAX_DOCUMENT_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(DocumentTooLarge, match="MB"):
        read_upload_file(big)


def test_cli_ingest_refuses_a_fifo_and_dev_zero(tmp_path, capsys, store_copy):
    fifo = tmp_path / "feed.txt"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        code = main(["--data", str(DATA), "--db", str(store_copy), "ingest", str(path)])
        err = capsys.readouterr().err
        assert code == 2, err
        assert str(path) in err and ("FIFO" in err or "character device" in err)
        assert "Traceback" not in err


def test_limits_on_entries_and_line_length_are_refused_clearly():
    many = "".join(f"Ruling {n} 2020-01-01\nText {n}.\n\n" for n in range(MAX_ENTRIES + 1))
    with pytest.raises(DocumentTooLarge, match=f"{MAX_ENTRIES + 1:,} entries"):
        read_text(many)
    long_line = FEED + "x" * (MAX_LINE_CHARS + 1) + "\n"
    with pytest.raises(DocumentTooLarge, match=f"line {FEED.count(chr(10)) + 1} is 20,001"):
        read_text(long_line)
    assert len(read_text(FEED).entries) == 3  # below the limits, read as before


def _pdf_bomb(unpacked: int) -> bytes:
    """A one-page PDF whose page content is a small stream that unpacks to ``unpacked`` bytes."""
    stream = zlib.compress(b"BT /F1 12 Tf (x) Tj ET\n" * (unpacked // 23), 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    return assemble(objects)


def test_a_pdf_bomb_is_refused_not_a_traceback():
    bomb = _pdf_bomb(300 * 1024 * 1024)
    assert len(bomb) < 2 * 1024 * 1024
    with pytest.raises(UnreadableDocument) as refused:
        read_isolated(bomb, "bomb.pdf", seconds=120, memory_bytes=400 * 1024 * 1024)
    assert "bomb.pdf" in str(refused.value) or "PDF" in str(refused.value)


def _reader_workers() -> list[int]:
    """This process's live children that are document readers."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"bot.ingest.reader.worker" in cmdline:
            found.append(int(entry.name))
    return found


def test_lookups_keep_answering_while_a_hostile_import_runs(rulings, monkeypatch):
    """The worker reading an upload is frozen (as a runaway pattern would leave it); lookups
    answer meanwhile, and the import is refused once its deadline passes."""
    monkeypatch.setenv("RULINGS_READ_SECONDS", "4")
    rulings.show("Kira Nerys")  # built before the clock starts: lookups answer in milliseconds
    outcome: dict[str, BaseException | object] = {}
    finished = threading.Event()

    def import_document():
        try:
            outcome["result"] = rulings.preview_import(FEED.encode(), "hostile.txt")
        except BaseException as error:  # noqa: BLE001 - examined below
            outcome["error"] = error
        finished.set()

    importer = threading.Thread(target=import_document, daemon=True)
    importer.start()
    workers: list[int] = []
    while not workers and not finished.is_set():
        workers = _reader_workers()
    assert workers, f"the document was read without a worker process: {outcome}"
    os.kill(workers[0], signal.SIGSTOP)  # frozen: it will never answer by itself
    answered = 0
    for query in ("Kira Nerys", "mission attempt", "Borg", "dilemma", "Q"):
        answer, _ = rulings.show(query)
        answered += answer is not None
        assert not finished.is_set()  # the import is still stuck, and lookups go on
    assert answered >= 3
    assert finished.wait(60), "the stuck import was never stopped"
    error = outcome.get("error")
    assert isinstance(error, ModerationError), outcome
    assert "longer than 4 s" in str(error)
    assert workers[0] not in _reader_workers()  # killed, not left behind

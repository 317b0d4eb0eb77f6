"""Issue 36, findings 3, 4 and 5: a damaged or missing journal, a full disk, a refused change.

A damaged journal never takes lookups down, and doctor tells it from a damaged store; a
store rebuilt without its journal says what may be lost, and no copy that may hold changes is
called disposable; a change whose commit failed is never applied by a later start, even when
the journal could not record the refusal; on a full disk lookups still answer.
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.answers.moderation import Moderator
from bot.answers.service import Rulings
from bot.cli.ops import FAIL, OK, run_checks
from bot.store.health import damaged_copies
from bot.store.journal import Journal, damaged_journals, journal_path_for
from tests.test_faults import _damage

ROOT = Path(__file__).resolve().parents[1]
MARY = Moderator("101", "Mod Mary")


@pytest.fixture
def store_with_a_change(store_copy, data_dir):
    """A store with one moderator change (an alias), closed, its journal beside it."""
    service = Rulings.open(store_copy, data_dir)
    service.add_alias(MARY, "the big chair", "1e-matching-commander")
    service.close()
    return store_copy, data_dir


def _damage_journal(path: Path, kind: str) -> None:
    data = bytearray(path.read_bytes())
    assert len(data) >= 8192  # two pages at least: the schema and the journal's rows
    if kind == "truncated":
        data = data[: len(data) // 2 + 100]
    elif kind == "garbage":
        data = bytearray((i * 31 + 7) % 256 for i in range(len(data)))
    elif kind == "zeroed page":
        data[4096:8192] = bytes(4096)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("kind", ["truncated", "garbage", "zeroed page"])
def test_a_damaged_journal_never_takes_lookups_down(store_with_a_change, kind, caplog):
    db, data = store_with_a_change
    journal = journal_path_for(db)
    _damage_journal(journal, kind)
    checks = {c.name: c for c in run_checks(db, data)}  # doctor first, as an operator would
    assert checks["store"].status == OK  # the healthy store is not called malformed
    assert "damaged" in checks["journal"].detail and "store itself is whole" in (
        checks["journal"].detail
    )
    kept = checks["damaged journals"]
    assert kept.status != FAIL  # every change it held is in the store, or it is unreadable
    if "cannot be read" in kept.detail:
        assert "keep it (do not delete it)" in kept.fix
    assert len(damaged_journals(db)) == 1 and not damaged_copies(db)
    service = Rulings.open(db, data)
    try:
        assert service.show("the big chair")[0]["title"] == "matching commander"
        assert [c["action"] for c in service.change_log(5)] == ["alias add"]
        service.add_alias(MARY, "the hot seat", "1e-matching-commander")  # journalled again
    finally:
        service.close()
    fresh = Journal(journal)
    try:
        assert [c["action"] for c in fresh.changes()] == ["alias add", "alias add"]
    finally:
        fresh.close()
    assert any("change journal" in r.getMessage() for r in caplog.records)


def test_a_store_rebuilt_without_its_journal_says_what_may_be_lost(store_with_a_change, caplog):
    db, data = store_with_a_change
    journal_path_for(db).unlink()
    _damage(db, "random header")  # unreadable: its change cannot be salvaged
    with caplog.at_level(logging.ERROR):
        service = Rulings.open(db, data)
    try:
        assert not service.search("the big chair")["confident"]  # the change is gone
    finally:
        service.close()
    loud = [r.getMessage() for r in caplog.records if "no change journal" in r.getMessage()]
    assert loud and "may be lost" in loud[0] and "do not delete it" in loud[0]
    checks = run_checks(db, data)
    (kept,) = [c for c in checks if c.name == "damaged stores"]
    assert "may hold moderator changes the store lacks" in kept.detail
    assert "do not delete it" in kept.fix
    assert not any("rebuilt with every journalled change" in c.detail for c in checks)


def test_doctor_never_calls_a_copy_holding_changes_disposable(store_with_a_change, built_store):
    db, data = store_with_a_change
    copy = db.with_name(f"{db.name}.damaged-20260101T000000")
    shutil.copy(db, copy)  # the copy holds change #1 ...
    shutil.copy(built_store, db)  # ... which the live store (rebuilt) lacks
    journal_path_for(db).unlink()
    (kept,) = [c for c in run_checks(db, data) if c.name == "damaged stores"]
    assert kept.status == FAIL and "holds 1 moderator change(s) the store lacks: #1" in kept.detail
    assert kept.fix.startswith("do not delete it")


def test_a_refused_change_is_never_applied_though_the_journal_could_not_say_so(
    store_with_a_change, monkeypatch, caplog
):
    """The full-disk sequence of the issue: the change is journalled, the store's commit
    fails, and marking it abandoned fails too: it stays pending in the journal."""
    import bot.answers.audit as audit
    import bot.store.journal as journal_module

    db, data = store_with_a_change
    service = Rulings.open(db, data)
    full = sqlite3.OperationalError("database or disk is full")

    def store_full(*args, **kwargs):
        raise full

    real_settle = journal_module.Journal.settle

    def settle_full(self, change_id, state):
        if state == journal_module.ABANDONED:
            raise full
        return real_settle(self, change_id, state)

    monkeypatch.setattr(audit, "apply_ops", store_full)
    monkeypatch.setattr(journal_module.Journal, "settle", settle_full)
    with pytest.raises(sqlite3.OperationalError):
        service.add_alias(MARY, "the hot seat", "1e-matching-commander")
    service.close()
    monkeypatch.undo()
    assert any("could not mark change #2 abandoned" in r.getMessage() for r in caplog.records)
    pending = sqlite3.connect(journal_path_for(db))
    assert pending.execute("SELECT state FROM journal WHERE id = 2").fetchone() == ("pending",)
    pending.close()
    service = Rulings.open(db, data)  # space freed: the next start
    try:
        assert not service.search("the hot seat")["confident"]  # refused means never applied
        assert len(service.change_log(10)) == 1
    finally:
        service.close()


FULL_DISK = textwrap.dedent(
    """
    import resource, signal, sys
    # Every write fails (EFBIG), as on a disk with no space left: SQLite cannot even make
    # the store's shared-memory file.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    from bot.cli.main import main
    sys.exit(main(sys.argv[1:]))
    """
)


def test_a_full_disk_degrades_to_read_only_answering(store_with_a_change):
    db, data = store_with_a_change

    def rulings(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", FULL_DISK, "--db", str(db), "--data", str(data), *argv],
            capture_output=True, text=True, cwd=ROOT, timeout=120,
        )  # fmt: skip

    looked = rulings("show", "the big chair")
    assert looked.returncode == 0, looked.stderr
    assert "matching commander" in looked.stdout
    assert "read-only" in looked.stderr
    edited = rulings("alias", "add", "1e-matching-commander", "the hot seat", "--as", "Mary")
    assert edited.returncode != 0
    assert "read-only" in edited.stderr and "Traceback" not in edited.stderr
    service = Rulings.open(db, data)  # space again: nothing refused was applied
    try:
        assert not service.search("the hot seat")["confident"]
        assert len(service.change_log(10)) == 1
    finally:
        service.close()

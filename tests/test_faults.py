"""Faults from outside: hostile text, a damaged store, an environment that refuses writes,
and two processes editing one ruling at once. Nothing a moderator changed may be lost, and
nothing may end in a traceback."""

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.answers.moderation import Moderator
from bot.answers.service import Rulings
from bot.store.build import open_store
from bot.store.health import StoreUnavailable, damaged_copies
from bot.store.journal import journal_path_for

ROOT = Path(__file__).resolve().parents[1]
MARY = Moderator("101", "Mod Mary")
# Every kind of text: lone surrogates, NULs, control characters, any script.
ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()), max_size=60)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=ANY_TEXT)
def test_any_string_through_every_public_lookup_never_raises(rulings, text):
    answer, found = rulings.show(text)
    assert answer is not None or "results" in found
    rulings.history(text)
    rulings.related(text)
    rulings.card(text)
    assert isinstance(rulings.snippets([text]), dict)
    assert isinstance(rulings.search(text)["results"], list)
    assert len(rulings.suggest(text)) <= 25
    assert len(rulings.suggest_cards(text)) <= 25


def test_lone_surrogates_that_crashed_lookups_answer(rulings):
    assert rulings.show("matching commander\ud800", edition="1E")[0]["title"] == (
        "matching commander"
    )
    assert rulings.history("\udfffmatching commander")["title"] == "matching commander"
    rulings.card("Kira\ud83d")
    rulings.related("\ud800")


@pytest.fixture
def store_with_a_change(store_copy, data_dir):
    """A store in a folder of its own with one moderator change, closed."""
    db, data = store_copy, data_dir
    service = Rulings.open(db, data)
    service.add_alias(MARY, "the big chair", "1e-matching-commander")
    service.close()
    return db, data


def _damage(db: Path, kind: str) -> None:
    for side in ("-wal", "-shm"):
        db.with_name(db.name + side).unlink(missing_ok=True)
    data = bytearray(db.read_bytes())
    if kind == "truncated to 0":
        data = bytearray()
    elif kind == "truncated to half":
        data = data[: len(data) // 2]
    elif kind == "truncated to one page":
        data = data[:4096]
    elif kind == "random header":
        data[0:100] = bytes((i * 37 + 11) % 256 for i in range(100))
    elif kind == "random schema page":
        data[100:4096] = bytes((i * 13 + 5) % 256 for i in range(3996))
    elif kind == "random whole file":
        data = bytearray((i * 31 + 7) % 256 for i in range(len(data)))
    elif kind == "changes table dropped":
        conn = sqlite3.connect(db)
        conn.execute("DROP TABLE changes")
        conn.commit()
        conn.close()
        return
    elif kind == "file deleted":
        db.unlink()
        return
    db.write_bytes(bytes(data))


DAMAGE = [
    "truncated to 0", "truncated to half", "truncated to one page", "random header",
    "random schema page", "random whole file", "changes table dropped", "file deleted",
]  # fmt: skip


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_store_keeps_every_moderator_change(store_with_a_change, kind, caplog):
    db, data = store_with_a_change
    _damage(db, kind)
    service = Rulings.open(db, data)
    try:
        answer, _ = service.show("the big chair")
        assert answer is not None and answer["title"] == "matching commander"
        assert [c["action"] for c in service.change_log(5)] == ["alias add"]
    finally:
        service.close()
    if kind != "file deleted":
        kept = damaged_copies(db)
        assert len(kept) == 1 and kept[0].exists()  # moved aside, never deleted
        assert any("damaged" in r.getMessage() for r in caplog.records)


def test_a_change_the_store_never_got_is_not_applied_at_the_next_start(store_with_a_change, caplog):
    """A change journalled but never committed: its process died first, or its commit
    failed and a full disk kept the journal from recording the refusal. Its moderator was
    told it failed (or nothing): a later start must not apply it (issue 36, finding 5)."""
    db, data = store_with_a_change
    journal = sqlite3.connect(journal_path_for(db))
    row = journal.execute("SELECT * FROM journal ORDER BY id DESC LIMIT 1").fetchone()
    ops = json.loads(row[7])
    ops[0]["key"], ops[0]["after"]["alias"] = "the captain s chair", "the captain's chair"
    journal.execute(
        "INSERT INTO journal VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')",
        (row[0] + 1, *row[1:7], json.dumps(ops), None),
    )
    journal.commit()
    journal.close()
    service = Rulings.open(db, data)
    try:
        assert not service.search("the captain's chair")["confident"]
        assert len(service.change_log(10)) == 1  # the committed change only
    finally:
        service.close()
    journal = sqlite3.connect(journal_path_for(db))
    states = dict(journal.execute("SELECT id, state FROM journal").fetchall())
    journal.close()
    assert states == {row[0]: "committed", row[0] + 1: "abandoned"}
    assert any(f"change #{row[0] + 1}" in r.getMessage() for r in caplog.records)


def test_environment_errors_are_one_line_and_move_nothing(store_with_a_change, monkeypatch):
    db, data = store_with_a_change
    before = db.read_bytes()

    def refuse(*args, **kwargs):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    import bot.store.build as build

    monkeypatch.setattr(build, "check_file", refuse)
    with pytest.raises(StoreUnavailable) as refused:
        open_store(db, data)
    assert str(db) in str(refused.value) and "\n" not in str(refused.value)
    assert db.read_bytes() == before and not damaged_copies(db)


def test_a_full_disk_refuses_the_change_and_loses_nothing(store_with_a_change, monkeypatch):
    import errno

    import bot.store.journal as journal_module

    db, data = store_with_a_change
    service = Rulings.open(db, data)
    try:
        real_append = journal_module.Journal.append

        def full(self, change):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(journal_module.Journal, "append", full)
        with pytest.raises(OSError):
            service.add_alias(MARY, "the hot seat", "1e-matching-commander")
        monkeypatch.setattr(journal_module.Journal, "append", real_append)
        assert not service.search("the hot seat")["confident"]  # not half written
        assert len(service.change_log(10)) == 1
        service.add_alias(MARY, "the hot seat", "1e-matching-commander")  # works once there is room
        assert service.show("the hot seat")[0]["title"] == "matching commander"
    finally:
        service.close()


def test_the_cli_names_an_unusable_store_in_one_line(tmp_path, data_dir):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the store's folder should be")
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "--db", str(blocker / "rulings.sqlite3"), "--data",
         str(data_dir), "show", "KTC"],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "rulings.sqlite3" in lines[0], result.stderr
    assert "Traceback" not in result.stderr


EDITOR = textwrap.dedent(
    """
    import sys
    from bot.answers.moderation import Moderator, StaleEdit
    from bot.answers.service import Rulings

    db, data, who, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    service = Rulings.open(db, data)
    moderator = Moderator(who, who)
    entry = service.show("matching commander", edition="1E")[0]["id"]
    won = refused = 0
    for n in range(count):
        version = service.editable_entry(entry)["version"]
        try:
            service.edit_ruling(moderator, entry, version, text=f"{who} edit {n}")
            won += 1
        except StaleEdit:
            refused += 1
    print(won, refused)
    """
)


def test_two_processes_editing_one_ruling_lose_nothing(store_with_a_change):
    db, data = store_with_a_change
    count = 20
    editors = [
        subprocess.Popen(
            [sys.executable, "-c", EDITOR, str(db), str(data), who, str(count)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )  # fmt: skip
        for who in ("joe", "mary")
    ]
    results = [editor.communicate(timeout=300) for editor in editors]
    for editor, (_, err) in zip(editors, results, strict=True):
        assert editor.returncode == 0, err
    won = sum(int(out.split()[0]) for out, _ in results)
    refused = sum(int(out.split()[1]) for out, _ in results)
    assert won + refused == 2 * count
    service = Rulings.open(db, data)
    try:
        entry = service.show("matching commander", edition="1E")[0]["id"]
        # Every accepted edit is one version, one logged change: none was overwritten.
        assert service.editable_entry(entry)["version"] == 1 + won
        edits = [c for c in service.change_log(100) if c["action"] == "edit"]
        assert len(edits) == won
    finally:
        service.close()


def test_doctor_reports_the_journal_and_a_damaged_store_kept_aside(store_with_a_change):
    from bot.cli.ops import run_checks

    db, data = store_with_a_change
    _damage(db, "random header")
    checks = {c.name: c for c in run_checks(db, data)}
    assert checks["store"].status == "OK"  # rebuilt, with the change replayed
    assert (
        checks["damaged stores"].status == "WARN" and ".damaged-" in checks["damaged stores"].detail
    )
    assert "1 moderator change" in checks["journal"].detail


def test_backup_and_restore_carry_the_journal(store_with_a_change, tmp_path):
    from bot.cli.ops import backup, restore

    db, data = store_with_a_change
    folder = tmp_path / "backup"
    manifest = backup(db, folder)
    assert "rulings.journal.sqlite3" in manifest["files"]
    journal_path_for(db).unlink()
    restore(folder, db)
    service = Rulings.open(db, data)
    try:
        assert service.show("the big chair")[0]["title"] == "matching commander"
        assert len(service.change_log(5)) == 1
    finally:
        service.close()

"""The pieces that keep moderator changes safe, tested without a store: the journal, the
verdict on a damaged or unusable file, and the text every lookup is cleaned with."""

import errno
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store.health import (
    StoreDamaged,
    StoreUnavailable,
    check_file,
    clean_leftovers,
    damaged_copies,
    environment_problem,
    is_damage,
    move_aside,
)
from bot.store.journal import ABANDONED, COMMITTED, PENDING, Journal, journal_path_for, journalled
from bot.validate import user_text


def _change(change_id: int, summary: str = "x") -> dict:
    return {
        "id": change_id, "at": "2026-11-23T00:00:00+00:00", "moderator_id": "1",
        "moderator_name": "Mary", "action": "add", "summary": summary, "reason": None,
        "ops": "[]", "reverts": None,
    }  # fmt: skip


def test_journal_lives_beside_the_store_in_its_own_file(tmp_path):
    assert journal_path_for(tmp_path / "rulings.sqlite3") == tmp_path / "rulings.journal.sqlite3"


def test_journal_records_settles_and_survives_reopening(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    with journalled(journal, _change(1, "kept")):
        assert journal.changes()[0]["state"] == PENDING  # written before the store
    with pytest.raises(RuntimeError):
        with journalled(journal, _change(2, "failed")):
            raise RuntimeError("the store's write failed")
    journal.append(_change(3, "process died"))
    journal.close()
    reopened = Journal(tmp_path / "j.sqlite3")
    states = {c["id"]: c["state"] for c in reopened.changes(include_abandoned=True)}
    assert states == {1: COMMITTED, 2: ABANDONED, 3: PENDING}
    assert [c["id"] for c in reopened.changes()] == [1, 3]
    assert reopened.next_id() == 4 and reopened.next_id(at_least=10) == 10
    assert reopened.count() == 2


def test_journal_adopts_changes_only_a_store_had(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    journal.append(_change(1))
    assert journal.adopt([_change(1), _change(2), _change(3)]) == 2
    assert [c["id"] for c in journal.changes()] == [1, 2, 3]


def _store_like(path):
    conn = sqlite3.connect(path)
    for table in ("meta", "documents", "entries", "topics", "changes"):
        conn.execute(f"CREATE TABLE {table} (a TEXT)")
    conn.executemany("INSERT INTO entries VALUES (?)", [("x" * 500,) for _ in range(200)])
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    "damage",
    ["empty", "half", "one page", "header bytes", "schema page", "whole file", "tables gone"],
)
def test_every_kind_of_damage_is_recognised(tmp_path, damage):
    path = tmp_path / "rulings.sqlite3"
    _store_like(path)
    data = bytearray(path.read_bytes())
    if damage == "empty":
        data = bytearray()
    elif damage == "half":
        data = data[: len(data) // 2]
    elif damage == "one page":
        data = data[:4096]
    elif damage == "header bytes":
        data[0:16] = b"\x00garbage-garbage"[:16]
    elif damage == "schema page":
        data[100:4096] = bytes((i * 7) % 251 for i in range(3996))
    elif damage == "whole file":
        data = bytearray((i * 31 + 7) % 256 for i in range(len(data)))
    elif damage == "tables gone":
        conn = sqlite3.connect(path)
        conn.execute("DROP TABLE entries")
        conn.commit()
        conn.close()
        data = bytearray(path.read_bytes())
    path.write_bytes(bytes(data))
    with pytest.raises(StoreDamaged):
        check_file(path)


def test_a_whole_store_and_a_missing_one_pass(tmp_path):
    path = tmp_path / "rulings.sqlite3"
    check_file(path)  # missing: it will be built
    _store_like(path)
    check_file(path)


def test_environment_errors_are_not_damage(tmp_path):
    path = tmp_path / "rulings.sqlite3"
    for error in (
        sqlite3.OperationalError("attempt to write a readonly database"),
        sqlite3.OperationalError("database or disk is full"),
        sqlite3.OperationalError("unable to open database file"),
        sqlite3.OperationalError("database is locked"),
        OSError(errno.EROFS, "Read-only file system"),
        OSError(errno.ENOSPC, "No space left on device"),
        PermissionError(errno.EACCES, "Permission denied"),
    ):
        line = environment_problem(error, path)
        assert line and str(path) in line and "\n" not in line, error
        assert not is_damage(error)
    assert is_damage(sqlite3.DatabaseError("file is not a database"))
    assert is_damage(sqlite3.DatabaseError("database disk image is malformed"))
    assert environment_problem(sqlite3.DatabaseError("file is not a database"), path) is None


def test_an_unreadable_store_is_unavailable_not_damaged(tmp_path):
    import os

    if os.geteuid() == 0:
        # root reads anything; simulate the refusal SQLite reports instead.
        line = environment_problem(
            sqlite3.OperationalError("unable to open database file"), tmp_path
        )
        assert "cannot open" in line
        return
    path = tmp_path / "rulings.sqlite3"
    _store_like(path)
    path.chmod(0)
    with pytest.raises(StoreUnavailable):
        check_file(path)


def test_damaged_store_is_kept_beside_and_leftovers_are_cleaned(tmp_path):
    path = tmp_path / "rulings.sqlite3"
    path.write_bytes(b"junk")
    (tmp_path / "rulings.sqlite3-wal").write_bytes(b"wal")
    kept = move_aside(path)
    assert not path.exists() and kept.read_bytes() == b"junk"
    assert kept.with_name(kept.name + "-wal").exists()
    assert damaged_copies(path) == [kept]
    dead = tmp_path / "rulings.sqlite3.building-999999999"
    dead.write_bytes(b"half")
    part = tmp_path / "rulings.sqlite3.part"
    part.write_bytes(b"half")
    assert sorted(clean_leftovers(path)) == sorted([dead, part])
    assert not dead.exists() and not part.exists()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=())))
def test_user_text_is_always_writable_and_keeps_ordinary_text(value):
    cleaned = user_text(value)
    cleaned.encode("utf-8")  # never raises: no lone surrogate survives
    assert "\x00" not in cleaned
    if value.isascii() and value.isprintable():
        assert cleaned == value


def test_user_text_joins_pairs_and_drops_lone_surrogates():
    assert user_text("a\ud800b") == "ab"
    assert user_text("\ud83d\ude00!") == "😀!"
    assert user_text("KTC\x00\x07 rules\n") == "KTC   rules\n"
    assert user_text("Kira Nerys, Iliana Ghemor") == "Kira Nerys, Iliana Ghemor"

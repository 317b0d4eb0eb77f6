"""rulings doctor, backup and restore."""

import shutil
import sqlite3
import threading
import time

import pytest

from bot.cli.main import main
from bot.cli.ops import FAIL, OK, WARN, backup, restore, run_checks
from bot.store.state import State, state_path_for

GOOD_TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GgoodX.abcdefghijklmnopqrstuvwxyz0123"
SETTINGS = (
    "DISCORD_TOKEN", "RULINGS_HOME_GUILD_ID", "RULINGS_MODERATOR_ROLE_ID", "RULINGS_MODERATOR_USER_IDS",
    "RULINGS_LOG_LEVEL", "RULINGS_SHARD_COUNT", "RULINGS_SHARD_IDS", "RULINGS_COOLDOWN_PER_MINUTE",
    "RULINGS_STATS_DAYS", "RULINGS_INLINE_DEFAULT", "RULINGS_MESSAGE_CONTENT_INTENT", "RULINGS_DATA",
)  # fmt: skip


@pytest.fixture
def env(monkeypatch, tmp_path, built_store):
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    # A copy of the session's store: the doctor checks settings, not how long a build takes.
    (tmp_path / "store").mkdir()
    shutil.copy(built_store, tmp_path / "store" / "rulings.sqlite3")
    monkeypatch.setenv("RULINGS_DB", str(tmp_path / "store" / "rulings.sqlite3"))
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def _status(checks, name):
    return next(c for c in checks if c.name == name)


@pytest.mark.parametrize(
    ("variables", "check", "status"),
    [
        ({"DISCORD_TOKEN": "abc"}, "token", FAIL),
        ({}, "token", WARN),
        ({"DISCORD_TOKEN": GOOD_TOKEN}, "token", OK),
        ({"RULINGS_HOME_GUILD_ID": "abc"}, "settings", FAIL),
        ({"RULINGS_MODERATOR_ROLE_ID": "12,x"}, "settings", FAIL),
        ({"RULINGS_LOG_LEVEL": "LOUD"}, "settings", FAIL),
        ({"RULINGS_SHARD_COUNT": "x"}, "settings", FAIL),
        ({"RULINGS_COOLDOWN_PER_MINUTE": "0"}, "settings", FAIL),
        ({"RULINGS_INLINE_DEFAULT": "perhaps"}, "settings", FAIL),
        ({"RULINGS_HOME_GUILD_ID": "123"}, "moderators", WARN),
        ({"RULINGS_HOME_GUILD_ID": "123", "RULINGS_MODERATOR_ROLE_ID": "456"}, "moderators", OK),
    ],
)
def test_doctor_catches_each_broken_setting(env, tmp_path, data_dir, variables, check, status):
    for name, value in variables.items():
        env.setenv(name, value)
    checks = run_checks(tmp_path / "store" / "rulings.sqlite3", data_dir)
    assert _status(checks, check).status == status
    if status != OK:
        assert _status(checks, check).fix


def test_doctor_exit_codes_and_the_token_is_never_printed(env, capsys):
    env.setenv("DISCORD_TOKEN", GOOD_TOKEN)
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "OK    store:" in out and GOOD_TOKEN not in out and GOOD_TOKEN[:10] not in out
    env.setenv("DISCORD_TOKEN", "not-a-token")
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  token" in out and "not-a-token" not in out


def test_doctor_reports_missing_data(env, tmp_path):
    checks = run_checks(tmp_path / "db.sqlite3", tmp_path / "nowhere")
    assert _status(checks, "data").status == FAIL


def test_doctor_reports_a_corrupt_state_file(env, tmp_path, data_dir):
    db = tmp_path / "store" / "rulings.sqlite3"
    state_path_for(db).write_bytes(b"SQLite format 3\x00" + b"\x00garbage" * 200)
    checks = run_checks(db, data_dir)
    state = _status(checks, "state")
    assert state.status == FAIL and "restore" in state.fix


def test_doctor_rebuilds_a_corrupt_store(env, tmp_path, data_dir):
    db = tmp_path / "store" / "rulings.sqlite3"
    db.write_bytes(b"not a database at all" * 100)
    assert _status(run_checks(db, data_dir), "store").status == OK


def test_backup_while_writing_then_restore_loses_nothing(env, tmp_path, rulings):
    db = tmp_path / "live" / "rulings.sqlite3"
    db.parent.mkdir()
    shutil_copy(rulings.store.path, db)
    state = State(state_path_for(db))
    stop = threading.Event()
    written = []

    def write():
        n = 0
        while not stop.is_set():
            state.record_lookup("ruling", f"query {n}", None, False, 1)
            written.append(n)
            n += 1
            time.sleep(0.001)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        time.sleep(0.1)
        committed_before_backup = len(written)
        backup(db, tmp_path / "backup")
        time.sleep(0.05)
    finally:
        stop.set()
        writer.join()
        state.close()
    target = tmp_path / "restored" / "rulings.sqlite3"
    restore(tmp_path / "backup", target)
    conn = sqlite3.connect(state_path_for(target))
    rows = conn.execute("SELECT count(*) FROM lookups").fetchone()[0]
    conn.close()
    assert committed_before_backup > 0
    assert committed_before_backup <= rows <= len(written)  # nothing committed before it is lost
    assert sqlite3.connect(target).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def shutil_copy(source, target):
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    src.backup(dst)
    dst.close()
    src.close()


@pytest.mark.parametrize("damage", ["garbage", "truncate", "manifest"])
def test_restore_refuses_a_damaged_backup(env, tmp_path, rulings, capsys, damage):
    folder = tmp_path / "backup"
    backup(rulings.store.path, folder)
    store = folder / "rulings.sqlite3"
    if damage == "garbage":
        store.write_bytes(b"garbage" * 100)
    elif damage == "truncate":
        store.write_bytes(store.read_bytes()[:4096])
    else:
        (folder / "manifest.json").write_text("{not json", encoding="utf-8")
    before = tmp_path / "live.sqlite3"
    assert main(["--db", str(before), "restore", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rulings: error:") and err.count("\n") == 1
    assert not before.exists()

"""Several bot processes (shards) start at once on one store and one state file.

Each thread below opens its own SQLite connections, as a separate process would: SQLite's
locks are per connection, and the sqlite3 module releases the GIL while SQLite works, so the
threads really overlap. A barrier lines them up on the same instant.
"""

import logging
import shutil
import threading

from bot.state import State
from bot.store import open_store

STARTERS = 6


def _all_at_once(work, count: int = STARTERS) -> list[BaseException]:
    """Run ``work(number)`` in ``count`` threads released together; return what they raised."""
    barrier = threading.Barrier(count)
    failures: list[BaseException] = []

    def run(number: int) -> None:
        barrier.wait()
        try:
            work(number)
        except BaseException as error:  # noqa: BLE001 - collected for the assertion
            failures.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def test_processes_creating_the_state_file_together_all_start(tmp_path):
    for round_number in range(10):
        path = tmp_path / f"state{round_number}.sqlite3"
        opened: list[State] = []
        failures = _all_at_once(lambda n, opened=opened, path=path: opened.append(State(path)))
        for state in opened:
            state.close()
        assert failures == [], f"round {round_number}: {failures!r}"
        state = State(path)
        state.set_announcements(1, 2)  # the newest column exists
        assert state.announcement_channel(1) == 2
        assert state.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        state.close()


def test_processes_opening_a_store_that_needs_building_build_it_once(tmp_path, data_dir, caplog):
    data = tmp_path / "rulings_data"
    shutil.copytree(data_dir, data)
    db = tmp_path / "store.sqlite3"
    stores = []
    with caplog.at_level(logging.INFO, logger="bot.store"):
        failures = _all_at_once(lambda n: stores.append(open_store(db, data)), count=3)
    try:
        assert failures == [], repr(failures)
        builds = [r for r in caplog.records if r.getMessage().startswith("built store")]
        assert len(builds) == 1, [r.getMessage() for r in builds]
        for store in stores:
            assert store.versions("1e-matching-commander")[0]["title"] == "matching commander"
            assert store.db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        for store in stores:
            store.close()


def test_processes_opening_a_built_store_together_all_start(tmp_path, data_dir):
    data = tmp_path / "rulings_data"
    shutil.copytree(data_dir, data)
    db = tmp_path / "store.sqlite3"
    open_store(db, data).close()
    for _ in range(5):
        stores = []
        failures = _all_at_once(lambda n, stores=stores: stores.append(open_store(db, data)))
        for store in stores:
            store.close()
        assert failures == [], repr(failures)

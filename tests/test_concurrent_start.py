"""Several bot processes (shards) start at once on one store and one state file.

Each thread below opens its own SQLite connections, as a separate process would: SQLite's
locks are per connection, and the sqlite3 module releases the GIL while SQLite works, so the
threads really overlap. A barrier lines them up on the same instant.
"""

import logging
import threading

from bot.answers.moderation import Moderator
from bot.answers.service import Rulings
from bot.store.build import open_store
from bot.store.state import State

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


def test_processes_opening_a_store_that_needs_building_build_it_once(tmp_path, data_copy, caplog):
    db = tmp_path / "store.sqlite3"
    stores = []
    with caplog.at_level(logging.INFO, logger="bot.store.build"):
        failures = _all_at_once(lambda n: stores.append(open_store(db, data_copy)), count=3)
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


def test_processes_opening_a_built_store_together_all_start(tmp_path, data_copy):
    db = tmp_path / "store.sqlite3"
    open_store(db, data_copy).close()
    for _ in range(5):
        stores = []
        failures = _all_at_once(lambda n, stores=stores: stores.append(open_store(db, data_copy)))
        for store in stores:
            store.close()
        assert failures == [], repr(failures)


def _update_bundled_data(data) -> None:
    """What an update of the bot does to the data folder: here, one new curated alias."""
    aliases = data / "aliases.yaml"
    aliases.write_text(
        aliases.read_text(encoding="utf-8")
        + "  - alias: big chair\n    target: 1e-matching-commander\n",
        encoding="utf-8",
    )


def test_a_running_process_follows_a_store_another_process_rebuilt(tmp_path, data_copy):
    """An update: a restarted shard rebuilds the store while an old one still runs. The old
    one must answer from the new file and write its moderator changes there, not into the
    replaced file (where they would be lost)."""
    db = tmp_path / "store.sqlite3"
    running = Rulings.open(db, data_copy)
    _update_bundled_data(data_copy)
    Rulings.open(db, data_copy).close()  # the restarted process rebuilds and renames into place

    assert running.refresh_if_changed()  # its watcher notices the new file
    assert running.search("big chair")["confident"]
    running.add_alias(Moderator("101", "Mod Mary"), "the hot seat", "1e-matching-commander")
    running.close()

    later = Rulings.open(db, data_copy)
    try:
        found = later.search("the hot seat")
        assert found["confident"] and found["results"][0]["id"].endswith(":matching-commander")
    finally:
        later.close()


def test_a_moderator_change_is_not_lost_to_a_rebuild_in_between(tmp_path, data_copy):
    """No watcher tick between the rebuild and the change: the change itself follows."""
    db = tmp_path / "store.sqlite3"
    running = Rulings.open(db, data_copy)
    _update_bundled_data(data_copy)
    Rulings.open(db, data_copy).close()
    running.add_alias(Moderator("101", "Mod Mary"), "the hot seat", "1e-matching-commander")
    running.close()
    later = Rulings.open(db, data_copy)
    try:
        assert later.search("the hot seat")["confident"]
        assert later.search("big chair")["confident"]
    finally:
        later.close()

"""Shared pytest configuration: the shipped data, built once into a temporary store."""

import compileall
import gc
import re
import shutil
from pathlib import Path

import pytest

from bot.answers.snapshot import SUFFIX as SNAPSHOT_SUFFIX

pytest_plugins = ["tests.fakediscord.plugin"]

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rulings_data"
# The project's own packages, compiled once per run (see pytest_configure).
COMPILED = ("bot", "commands", "tests", "rulings_data")
# Test modules are compiled by pytest's assertion rewriting, never from a plain .pyc.
REWRITTEN = re.compile(r"(^|/)(test_[^/]*|conftest)\.py$")


# Young objects are collected every this many allocations (Python's default: 700), and
# each older generation after this many collections of the one below (default: 10, 10).
GC_THRESHOLDS = (10_000, 10, 10)


def pytest_configure(config):
    """The test processes collect garbage less often; and the bytecode is written first.

    Garbage collection took about 40 s of the two xdist workers' CPU: a test builds a
    service, an index or a module's fixture of hundreds of thousands of objects, which a
    young collection every 700 allocations moved on to the oldest generation while the
    test still held them, and each full collection (over 200 a run, 60-180 ms each) then
    went over those and everything the session keeps. Collected every 10,000 allocations,
    most of a test's objects are freed (by their last reference going) before any
    collection sees them; with what lives for the whole session frozen once collected
    (pytest_collection_finish), the collections take about 9 s. Only in the pytest
    processes: the commands and bots the suite starts as processes keep Python's own.

    Write the bytecode of the project's own modules once, before any test process starts.
    The suite starts about a hundred Python processes (the xdist workers, each ``rulings``
    command, each upload's reader worker, the bot processes), and each imports much of
    ``bot``. Where PYTHONDONTWRITEBYTECODE is set (as on the machine CI runs on), none ever
    writes a .pyc, so on a fresh clone every one compiled those modules from source again
    (0.05-0.15 s of CPU each: some 6 s a run, 3 s of the wall time). Compiled here, beside
    the sources in the ``__pycache__`` folders git ignores (checked against each source's
    time and size, as Python always does), every process reads them instead. Only in the
    controlling process: an xdist worker starts once this is done."""
    gc.set_threshold(*GC_THRESHOLDS)
    if hasattr(config, "workerinput"):
        return
    for name in COMPILED:
        compileall.compile_dir(ROOT / name, quiet=2, rx=REWRITTEN)


def pytest_collection_finish(session):
    """What is alive once the tests are collected (the modules imported, the tests and
    their parameters) lives until the session ends: frozen, no collection goes over it
    again. The garbage is collected first, so none of it is kept for good."""
    gc.collect()
    gc.freeze()


# The modules whose tests (or module fixtures) take longest, ten seconds and more of CPU
# each (see --durations), longest first: they are run before all others (see below).
RUN_FIRST = (
    "tests/search/test_evaluate.py",
    "tests/test_installed.py",
    "tests/ingest/test_synthetic.py",
    "tests/test_bench.py",
    "tests/test_snapshot.py",
    "tests/ingest/test_fuzz_readers.py",
)


def pytest_collection_modifyitems(config, items):
    """The modules of RUN_FIRST first, each whole (its module fixtures set up once), the
    others after them in the order collected. With ``-n 2 --dist worksteal`` one worker
    starts on the long tests while the other takes short ones, and the run ends on short
    tests the two share: a long test started last kept one worker busy alone for up to
    ten seconds while the other had nothing left to take."""
    rank = {module: number for number, module in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def built_store(tmp_path_factory) -> Path:
    """A store built once for the whole session from the bundled data, closed."""
    from bot.store.build import open_store

    db = tmp_path_factory.mktemp("built") / "rulings.sqlite3"
    open_store(db, DATA).close()
    # Closing the last connection checkpoints the WAL: the one file is the whole store.
    assert not db.with_name(db.name + "-wal").exists()
    return db


@pytest.fixture(scope="session")
def rulings(tmp_path_factory, built_store):
    """The service over the bundled data, in a store of its own (never the user's cache):
    a copy of the session's built store (building another from the same data takes half a
    second more), its answers built from the store as on a first start. Their snapshot is
    written at once, before any test uses the service (kept_snapshot is a copy of it): the
    values built on first need are then built, as a first lookup would have built them."""
    from bot.answers.service import Rulings

    db = tmp_path_factory.mktemp("store") / "rulings.sqlite3"
    shutil.copy(built_store, db)
    service = Rulings.open(db, DATA)
    try:
        assert not service._answers.from_snapshot  # none yet: built from the store
        assert service.keep_snapshot()
        assert not service.keep_snapshot()  # written once: nothing changed since
    except BaseException:
        service.close()
        raise
    yield service
    service.close()


@pytest.fixture(scope="session")
def kept_snapshot(built_store, rulings) -> Path:
    """The answers' snapshot of the session's store, as a deployed store has one after its
    first start (bot.answers.snapshot), beside built_store: a copy of both starts from it.
    It is the one the rulings fixture wrote of the same store's answers as it opened (a
    snapshot is keyed by the code and the store's data, not by where the store lies), so
    the answers are built from the store once on each worker, not twice."""
    kept = built_store.with_name(built_store.name + SNAPSHOT_SUFFIX)
    shutil.copy(rulings.store.path.with_name(rulings.store.path.name + SNAPSHOT_SUFFIX), kept)
    return kept


@pytest.fixture
def store_copy(tmp_path, built_store, kept_snapshot) -> Path:
    """A writable store of this test's own, copied from the session's with its answers'
    snapshot (building either takes seconds; copying, milliseconds). Both are current for any
    copy of the bundled data; a test that changes the data or the store gets them rebuilt."""
    db = tmp_path / "store.sqlite3"
    shutil.copy(built_store, db)
    shutil.copy(kept_snapshot, db.with_name(db.name + SNAPSHOT_SUFFIX))
    return db


@pytest.fixture
def data_copy(tmp_path, data_dir) -> Path:
    """A writable copy of the bundled data of this test's own."""
    copy = tmp_path / "rulings_data"
    shutil.copytree(data_dir, copy)
    return copy


@pytest.fixture
def live(store_copy, data_copy):
    """The service on a store and data of this test's own (moderator changes must not leak
    into other tests)."""
    from bot.answers.service import Rulings

    service = Rulings.open(store_copy, data_copy)
    yield service
    service.close()


@pytest.fixture(autouse=True)
def _root_logger_restored():
    """The CLI's entry point configures logging, with a handler on the stderr pytest captured
    for that one test; put the root logger back so later tests don't log to a closed stream."""
    import logging

    root = logging.getLogger()
    level = root.level
    yield
    for handler in list(root.handlers):
        if type(handler) is logging.StreamHandler:  # pytest's own handlers are subclasses
            root.removeHandler(handler)
    root.setLevel(level)

"""The answers' snapshot: the same answers as a build from the store, for every case of the
evaluation tables; a stale or damaged snapshot is never trusted, and is written again."""

import logging
import os
import shutil
from pathlib import Path

import pytest

from bot.answers import snapshot
from bot.answers.moderation import Moderator
from bot.answers.service import Rulings
from bot.ingest.dataset import parse_yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rulings_data"
MARY = Moderator("101", "Mod Mary")


def _cases() -> list[dict]:
    cases = []
    for name in ("eval_cases.yaml", "cases.yaml"):
        cases += parse_yaml((ROOT / "tests" / "search" / name).read_text())["cases"]
    return cases


@pytest.fixture(scope="module")
def kept(tmp_path_factory, built_store, kept_snapshot):
    """A store and the snapshot its answers were written to, both closed: (folder, store).
    A copy of the session's (conftest.py: its answers were built from the store, and the
    snapshot written once, not again with nothing changed), as writing it takes seconds."""
    folder = tmp_path_factory.mktemp("kept")
    db = folder / "rulings.sqlite3"
    shutil.copy(built_store, db)
    shutil.copy(kept_snapshot, snapshot.path_for(db))
    return folder, db


@pytest.fixture(scope="module")
def both(kept):
    """The service built from the store and the one read from the snapshot, side by side."""
    folder, db = kept
    built_folder = folder / "built"
    built_folder.mkdir()
    shutil.copy(db, built_folder / db.name)  # the same store, no snapshot beside it
    built = Rulings.open(built_folder / db.name, DATA)
    restored = Rulings.open(db, DATA)
    yield built, restored
    built.close()
    restored.close()


def _copy(kept, tmp_path: Path) -> Path:
    """This test's own store and snapshot (a copy of the module's)."""
    _, db = kept
    shutil.copy(db, tmp_path / db.name)
    shutil.copy(snapshot.path_for(db), snapshot.path_for(tmp_path / db.name))
    return tmp_path / db.name


def test_the_snapshot_answers_every_case_as_the_store_does(both):
    built, restored = both
    assert not built._answers.from_snapshot
    assert restored._answers.from_snapshot
    cases = _cases()
    assert len(cases) > 1000  # the whole of both tables
    differ = []
    for case in cases:
        query, edition = str(case["query"]), case.get("edition")
        if built.show(query, edition=edition) != restored.show(query, edition=edition):
            differ.append(query)
    assert differ == []
    # The card side and the lists are read from the snapshot too.
    assert built.card_targets() == restored.card_targets()
    assert built.suggest("matching co") == restored.suggest("matching co")
    assert built.suggest_cards("kivas") == restored.suggest_cards("kivas")
    assert built.card_covers() == restored.card_covers()


def _opened(db: Path, caplog) -> tuple[Rulings, str]:
    """The service opened on ``db``, and what it said of the snapshot."""
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=snapshot.__name__):
        service = Rulings.open(db, DATA)
    said = [r.getMessage() for r in caplog.records if r.name == snapshot.__name__]
    return service, "\n".join(said)


def _reads_back(db: Path) -> None:
    """The snapshot written again is whole and of the store's data: the next start reads it."""
    again = Rulings.open(db, DATA)
    try:
        assert again._answers.from_snapshot
    finally:
        again.close()


def _damaged(db: Path, caplog, expected: str) -> None:
    service, said = _opened(db, caplog)
    try:
        assert not service._answers.from_snapshot
        assert expected in said
        answer, _ = service.show("matching commander", edition="1E")
        assert answer is not None and answer["id"].startswith("1e-")
        assert service.keep_snapshot()  # built from the store: written again
    finally:
        service.close()
    _reads_back(db)


def test_a_truncated_snapshot_is_rebuilt(kept, tmp_path, caplog):
    db = _copy(kept, tmp_path)
    path = snapshot.path_for(db)
    with open(path, "r+b") as file:
        file.truncate(os.path.getsize(path) // 2)
    _damaged(db, caplog, "truncated")


def test_a_snapshot_with_a_changed_byte_is_rebuilt(kept, tmp_path, caplog):
    db = _copy(kept, tmp_path)
    path = snapshot.path_for(db)
    content = bytearray(path.read_bytes())
    content[-100] ^= 0x55
    path.write_bytes(bytes(content))
    _damaged(db, caplog, "checksum mismatch")


def test_an_empty_or_foreign_file_is_not_a_snapshot(kept, tmp_path, caplog):
    db = _copy(kept, tmp_path)
    snapshot.path_for(db).write_bytes(b"")
    _damaged(db, caplog, "empty")
    snapshot.path_for(db).write_bytes(b"PK\x03\x04 not ours")
    _damaged(db, caplog, "not a snapshot")


class _Foreign:
    """Pickled as a call of a function no snapshot may name."""

    def __reduce__(self):
        return (os.getpid, ())


def test_a_snapshot_naming_what_it_may_not_is_refused_not_run(kept, tmp_path, caplog):
    db = _copy(kept, tmp_path)
    service = Rulings.open(db, DATA)
    key = snapshot.snapshot_key(service.store.db)
    service.close()
    snapshot.write(snapshot.path_for(db), key, {"index": _Foreign()}, {})
    with pytest.raises(snapshot.SnapshotUnusable, match="may not hold posix.getpid"):
        snapshot.read(snapshot.path_for(db), key, {})
    _damaged(db, caplog, "may not hold")


def test_a_snapshot_of_other_code_is_rebuilt(kept, tmp_path, caplog, monkeypatch):
    db = _copy(kept, tmp_path)
    monkeypatch.setattr(snapshot, "code_version", lambda: "another version of the code")
    _damaged(db, caplog, "built from other data or code")


def test_a_change_makes_the_snapshot_stale_and_it_is_written_again(
    kept, tmp_path, caplog, data_copy
):
    db = _copy(kept, tmp_path)
    stale = snapshot.path_for(db).read_bytes()
    service = Rulings.open(db, data_copy)
    try:
        assert service._answers.from_snapshot
        service.add_alias(MARY, "Commander Matching", "1e-matching-commander")
        answer, _ = service.show("Commander Matching", edition="1E")
        assert answer["id"] == "1e-crd-2014-11-03:matching-commander"
        assert service.keep_snapshot()  # the changed answers, kept under the new key
    finally:
        service.close()
    again, said = _opened(db, caplog)
    try:
        assert again._answers.from_snapshot and said == ""
        assert again.show("Commander Matching", edition="1E")[0]["id"] == answer["id"]
    finally:
        again.close()
    # The snapshot from before the change: of other data now, never read.
    snapshot.path_for(db).write_bytes(stale)
    service, said = _opened(db, caplog)
    try:
        assert not service._answers.from_snapshot
        assert "built from other data or code" in said
        assert service.show("Commander Matching", edition="1E")[0]["id"] == answer["id"]
    finally:
        service.close()

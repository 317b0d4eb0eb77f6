"""The store: built on first use, reused while the YAML is unchanged, rebuilt when it changes."""

from bot.answers.service import Rulings
from bot.store.build import open_store


def test_built_once_then_reused(tmp_path, data_dir):
    db = tmp_path / "store.sqlite3"
    store = open_store(db, data_dir)
    store.close()
    first = db.stat().st_mtime_ns
    store = open_store(db, data_dir)
    store.close()
    assert db.stat().st_mtime_ns == first


def test_rebuilt_when_the_yaml_changes(tmp_path, data_copy):
    db = tmp_path / "store.sqlite3"
    rulings = Rulings.open(db, data_copy)
    assert rulings.search("ship commander")["confident"]
    rulings.close()
    aliases = data_copy / "aliases.yaml"
    aliases.write_text(
        aliases.read_text(encoding="utf-8")
        + "  - alias: big chair\n    target: 1e-matching-commander\n",
        encoding="utf-8",
    )
    rulings = Rulings.open(db, data_copy)
    found = rulings.search("big chair")
    rulings.close()
    assert found["confident"] and found["results"][0]["id"].endswith(":matching-commander")


def test_unreadable_store_is_rebuilt(tmp_path, data_dir):
    db = tmp_path / "store.sqlite3"
    db.write_bytes(b"this is not a database" * 100)
    rulings = Rulings.open(db, data_dir)
    try:
        assert rulings.sources()
    finally:
        rulings.close()


def test_current_version_ranks_first(rulings):
    versions = rulings.store.versions("1e-matching-commander")
    assert [v["document"] for v in versions] == ["1e-crd-2014-11-03", "1e-glossary-m"]
    assert [v["status"] for v in versions] == ["current", "superseded"]
    two = rulings.store.versions("2e-attempting-missions")
    assert [v["document"] for v in two] == [
        "2e-crd-2014-07-07",
        "2e-crd-2011-10-05",
        "2e-opencards-terms",
    ]

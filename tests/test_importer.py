"""rulings import: byte-stable output, topics and supersession, links, malformed input."""

import json
import shutil
from pathlib import Path

import pytest
import yaml

from bot.ingest.dataset import load_documents
from bot.ingest.importer import run_import
from bot.ingest.parsers import SourceFormatError

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rulings_data"


@pytest.fixture(scope="module")
def data_copy(tmp_path_factory):
    target = tmp_path_factory.mktemp("data") / "rulings_data"
    shutil.copytree(DATA, target)
    return target


def _entries(data: Path, document: str) -> dict[str, dict]:
    raw = yaml.safe_load((data / "entries" / f"{document}.yaml").read_text(encoding="utf-8"))
    return {e["title"]: e for e in raw["entries"]}


def test_reimport_changes_no_byte(data_copy, capsys):
    from bot.cli.main import main

    # through `rulings import --json`: its report is one JSON document on stdout
    assert main(["--data", str(data_copy), "import", "--json"]) == 0
    reports = json.loads(capsys.readouterr().out)["documents"]
    assert {r["id"] for r in reports} == {d.id for d in load_documents(DATA) if d.file}
    assert [r["changed"] for r in reports] == [False] * len(reports)
    for path in sorted((DATA / "entries").glob("*.yaml")):
        assert (data_copy / "entries" / path.name).read_bytes() == path.read_bytes(), path.name


def test_every_registered_document_has_entries(data_copy):
    for document in load_documents(DATA):
        assert (DATA / "entries" / f"{document.id}.yaml").exists(), document.id


def test_versions_share_one_topic_per_edition():
    crd = _entries(DATA, "1e-crd-2014-11-03")
    glossary = _entries(DATA, "1e-glossary-m")
    assert (
        crd["matching commander"]["topic"]
        == glossary["matching commander"]["topic"]
        == "1e-matching-commander"
    )
    assert crd["missions"]["topic"] == glossary["mission"]["topic"]
    new = _entries(DATA, "2e-crd-2014-07-07")
    old = _entries(DATA, "2e-crd-2011-10-05")
    community = _entries(DATA, "2e-opencards-terms")
    assert (
        new["attempting missions"]["topic"]
        == old["attempting missions"]["topic"]
        == community["attempting missions"]["topic"]
    )
    # Either half of a slash-joined topic joins it.
    assert (
        community["cannot"]["topic"]
        == community["may not"]["topic"]
        == new["cannot / may not"]["topic"]
    )


def test_same_title_in_both_editions_is_two_topics():
    assert _entries(DATA, "1e-crd-2014-11-03")["species"]["topic"] == "1e-species"
    assert _entries(DATA, "2e-crd-2014-07-07")["species"]["topic"] == "2e-species"


def test_cross_references_resolve_to_topics_or_stay_text():
    crd = _entries(DATA, "1e-crd-2014-11-03")
    assert crd["matching commander"]["see_also"] == [
        {"title": "named in lore", "topic": "1e-named-in-lore"},
        {"title": "facility commander", "topic": "1e-facility-commander"},
    ]
    assert crd["faction"]["see_also"] == [
        {
            "title": "battle – affiliation restrictions",
            "topic": "1e-battle-affiliation-restrictions",
        },
        {"title": "infiltration icon", "topic": "1e-infiltration-icon"},
        {
            "title": "playing an affiliation (non-Borg)",
            "topic": "1e-playing-an-affiliation-non-borg",
        },
    ]
    assert {"title": "timeline disruption", "topic": None} in crd["Stop First Contact"]["see_also"]
    # "(See characteristics.)": no 1E topic of that name is bundled, so it stays text.
    assert [r["title"] for r in crd["species"]["see_also"]] == ["characteristics", "humanoid"]


def test_mentions_name_the_cards_in_the_text():
    entry = _entries(DATA, "2e-crd-2014-07-07")["cost reduction"]
    names = [m["name"] for m in entry["mentions"] if m["type"] == "card"]
    for expected in (
        "Julian Bashir (Rebel Captain)",
        "Ptol",
        "Thompson",
        "U.S.S. Equinox (Determined To Get Home)",
    ):
        assert expected in names
    bashir = next(m for m in entry["mentions"] if m["name"] == "Julian Bashir (Rebel Captain)")
    assert bashir["card_ids"] == ["2e-julian-bashir-rebel-captain"]


def test_amendments_are_recorded_for_glossary_changes():
    crd = _entries(DATA, "1e-crd-2014-11-03")
    assert crd["matching commander"]["amendments"] == [
        {"action": "replace entry", "instruction": "Replace this entry with the following:"}
    ]
    assert [a["action"] for a in crd["missions attempt"]["amendments"]] == ["add", "replace part"]


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "rulings_data"
    shutil.copytree(DATA, target)
    return target


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"abilities \xe2\x80\x93 fine\n\x00\x01\x02", "binary"),
        (b"abilities \xff\xfe text", "not UTF-8"),
        (b"Nothing here looks like an entry.\n", "no 'term"),
    ],
)
def test_malformed_source_is_refused_and_nothing_is_written(tmp_path, content, message):
    data = _copy(tmp_path)
    before = {p.name: p.read_bytes() for p in (data / "entries").glob("*.yaml")}
    (data / "sources" / "2e-current-rulings-2014-07-07.txt").write_bytes(content)
    with pytest.raises(SourceFormatError) as info:
        run_import(data)
    assert "2e-current-rulings-2014-07-07.txt" in str(info.value)
    assert message in str(info.value)
    assert {p.name: p.read_bytes() for p in (data / "entries").glob("*.yaml")} == before


def test_unknown_parser_is_a_clear_error(tmp_path):
    data = _copy(tmp_path)
    registry = data / "documents.yaml"
    registry.write_text(
        registry.read_text(encoding="utf-8").replace("parser: crd-2e-text", "parser: pdf-magic"),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="unknown parser 'pdf-magic'"):
        run_import(data)


def _card_mentions(document: str, title: str) -> dict[str, dict]:
    entry = _entries(DATA, document)[title]
    return {m["name"]: m for m in entry.get("mentions", []) if m["type"] == "card"}


@pytest.mark.parametrize(
    ("document", "title", "name", "card_id"),
    [
        # sentence-final dot, the next sentence's capital is not part of the name
        ("1e-crd-2014-11-03", "matching commander", "Jovis", "1e-jovis"),
        ("1e-crd-2014-11-03", "missions attempt", "Cryosatellite", "1e-cryosatellite"),
        # "(Both Bareil", "See Reunion": capitalised only by starting a sentence
        ("1e-crd-2014-11-03", "named in lore", "Bareil", "1e-bareil"),
        ("1e-glossary-m", "mission", "Reunion", "1e-reunion"),
        # a digit-led title
        ("1e-crd-2014-11-03", "named in lore", "0413-Theta", "1e-0413-theta"),
    ],
)
def test_mentions_once_missed_are_found(document, title, name, card_id):
    assert card_id in _card_mentions(document, title)[name]["card_ids"]


@pytest.mark.parametrize(
    ("document", "title", "name"),
    [
        ("1e-glossary-m", "mission II", "Wolf"),  # "Wolf 359"
        ("1e-glossary-m", "multi-affiliation cards", "Voyager"),  # "the Voyager ... expansion"
        ("1e-crd-2014-11-03", "special equipment", "Long-Range Scan"),  # "... Scan Shielding"
    ],
)
def test_titles_inside_longer_names_are_not_mentions(document, title, name):
    assert name not in _card_mentions(document, title)


def test_a_persona_named_alone_is_not_every_version():
    # "your Worf, First Officer (...) ... you decide to use Worf": the version already named.
    worf = _card_mentions("2e-crd-2014-07-07", "exchange")["Worf"]
    assert worf == {
        "type": "card",
        "name": "Worf",
        "persona": True,
        "card_ids": ["2e-worf-first-officer"],
    }
    # "a [Fed] Worf would not meet this requirement": the persona, no version named.
    assert _card_mentions("2e-opencards-terms", "species")["Worf"]["card_ids"] == []
    # A title some card is printed with exactly keeps its cards.
    assert "1e-data" in _card_mentions("1e-crd-2014-11-03", "named in lore")["Data"]["card_ids"]


def test_a_registered_document_that_fails_keeps_the_previous_data_in_force(
    tmp_path, store_copy, capsys
):
    """A moderator registers a new document in documents.yaml and runs `rulings import`;
    its file cannot be read. The import says so and writes nothing, and lookups keep
    answering from the data before (the store is not rebuilt from the broken data)."""
    from bot.answers.service import Rulings
    from bot.cli.main import main

    data = _copy(tmp_path)
    (data / "sources" / "1e-rulings-new.txt").write_bytes(b"Not a rules document at all.\n")
    registry = data / "documents.yaml"
    registry.write_text(
        registry.read_text(encoding="utf-8") + "  - id: 1e-crd-2030-01-01\n"
        "    title: A newer 1E CRD\n"
        "    edition: 1E\n"
        "    kind: current rulings\n"
        "    date: 2030-01-01\n"
        "    official: true\n"
        "    file: sources/1e-rulings-new.txt\n"
        "    parser: crd-1e-markdown\n",
        encoding="utf-8",
    )
    before = {p.name: p.read_bytes() for p in (data / "entries").glob("*.yaml")}
    code = main(["--data", str(data), "--db", str(store_copy), "import"])
    assert code == 2
    assert "nothing was written" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in (data / "entries").glob("*.yaml")} == before
    live = Rulings.open(store_copy, data)  # the CLI's logging (to stderr) reports the failure
    try:
        answer, _ = live.show("attempting missions", edition="2E")
        assert answer is not None and answer["date"] == "2014-07-07"
    finally:
        live.close()
    logged = capsys.readouterr().err
    assert "the previous store stays in force" in logged
    assert "1e-crd-2030-01-01" in logged


def test_the_import_failure_says_nothing_was_written(tmp_path, capsys):
    from bot.cli.main import main

    data = _copy(tmp_path)
    (data / "sources" / "2e-current-rulings-2014-07-07.txt").write_bytes(b"")
    assert main(["--data", str(data), "import"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "nothing was written, the previous data stays in force" in err[0]

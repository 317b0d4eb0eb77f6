"""The Lackey card lists -> card index: name reconciliation, strict reading, the YAML files."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ingest.cards import (
    CardListError,
    dump_card_index,
    import_cards,
    load_card_index,
    name_forms,
    read_lackey,
    split_1e,
    strip_suffix,
    write_card_index,
)
from bot.models import Card

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "rulings_data" / "cards"
LACKEY = Path(__file__).resolve().parents[2] / "shared" / "cards"

needs_lackey = pytest.mark.skipif(
    not (LACKEY / "1e").is_dir() or not (LACKEY / "2e").is_dir(),
    reason=f"the Lackey card lists are not at {LACKEY}",
)

# The counts measured on the lists of /work/shared/cards (2021 plugin snapshots).
ROWS = {"1E": 5823, "2E": 4760}
SKIPPED_2E_ROWS = 838  # 837 with Set ban_2E, one mis-tagged "Comm Officer Sato 2E (...)"
CARDS = {"1E": 4038, "2E": 3332}

HEADER_2E = (
    "Name\tSet\tImageFile\tRarity\tUnique\tCollectorsInfo\tType\tCost\tMission/DilemmaType\t"
    "Span\tPoints\tQuadrant\tAffiliation\tIcons\tStaff\tKeywords\tClass\tSpecies\tSkills\t"
    "Integrity/Range\tCunning/Weapons\tStrength/Shields\tText"
)
HEADER_1E = (
    "Name\tSet\tImageFile\tRelease\tInfo\tProperty\tUniqueness\tType\tMission/ Dilemma Type\t"
    "Affil\tClass\tInt/Rng\tCun/Wpn\tStr/Shd\tPoints\tRegion\tQuadrant\tSpan\tIcons\tStaff\t"
    "Characteristics/ Keywords\tRequires\tPersona\tCommand\tLore\tReports\tNames\tText"
)


def row_2e(name: str, set_code: str, card_type: str, text: str = "") -> str:
    cells = [""] * 23
    cells[0], cells[1], cells[6], cells[22] = name, set_code, card_type, text
    return "\t".join(cells)


def row_1e(name: str, set_code: str, release: str, card_type: str, text: str = "") -> str:
    cells = [""] * 28
    cells[0], cells[1], cells[3], cells[7], cells[27] = name, set_code, release, card_type, text
    return "\t".join(cells)


def write_lists(root: Path, edition: str, files: dict[str, list[str]], header: str) -> Path:
    folder = root / edition
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in files.items():
        (folder / name).write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def small_lists(tmp_path: Path) -> Path:
    """A miniature of both editions, with the quirks that matter."""
    write_lists(
        tmp_path,
        "1e",
        {
            "Physical.txt": [
                row_1e("Jean-Luc Picard (First Contact)", "Trad_OTF", "fc", "Personnel", "FC"),
                row_1e("Garak", "Trad_OTF", "dom", "Personnel", "old"),
                row_1e("Jean-Luc Picard 2E (Galen)", "ban_2E", "", "Personnel"),
                row_1e("Worf 2E (Son of Mogh)", "ban_2E", "", "Personnel"),
            ],
            "Virtual.txt": [row_1e("Garak*", "Trad_Virtual", "VP", "Personnel", "new")],
            "setlist.txt": ["not a card list"],
        },
        HEADER_1E,
    )
    write_lists(
        tmp_path,
        "2e",
        {
            "Physical.txt": [
                row_2e("Kira Nerys Iliana Ghemor", "NE", "Personnel", "first"),
                row_2e("Kira Nerys Bit of a Fighter", "CA", "Personnel"),
                row_2e("Jean-Luc Picard Galen", "R2", "Personnel"),
                row_2e("Jean-Luc Picard Explorer", "SE", "Personnel"),
                row_2e("Klingon Tea Ceremony", "PP", "Event"),
                row_2e("Ptol", "RTS", "Personnel"),
            ],
            "Virtual.txt": [row_2e("Kira Nerys Iliana Ghemor *VP", "VP", "Personnel", "newest")],
        },
        HEADER_2E,
    )
    return tmp_path


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("raw", "stripped"),
    [
        ("Kira Nerys Iliana Ghemor *VP", "Kira Nerys Iliana Ghemor"),
        ("Garak*", "Garak"),
        ("Hajur**", "Hajur"),
        ("Betazoid Gift Box *AP", "Betazoid Gift Box"),
        ("Elim Garak Federation Agent *VAP", "Elim Garak Federation Agent"),
        ("Some Card *A", "Some Card"),
        ("Odo (Dogs of War)+ *VP", "Odo (Dogs of War)"),
        ("Klingon Tea Ceremony", "Klingon Tea Ceremony"),
    ],
)
def test_strip_suffix(raw, stripped):
    assert strip_suffix(raw) == stripped


@pytest.mark.parametrize(
    ("raw", "title", "subtitle"),
    [
        ("Jean-Luc Picard (First Contact)", "Jean-Luc Picard", "First Contact"),
        ("Garak*", "Garak", None),
        ("Borg Queen (The Borg) *VP", "Borg Queen", "The Borg"),
        ("Lt. (j.g.) Picard", "Lt. (j.g.) Picard", None),
    ],
)
def test_split_1e(raw, title, subtitle):
    assert split_1e(raw) == (title, subtitle)


def test_small_lists_group_and_split(small_lists):
    cards_2e, warnings = read_lackey(small_lists, "2E")
    assert warnings == []
    by_id = {c.id: c for c in cards_2e}
    kira = by_id["2e-kira-nerys-iliana-ghemor"]
    assert (kira.title, kira.subtitle, kira.name) == (
        "Kira Nerys",
        "Iliana Ghemor",
        "Kira Nerys, Iliana Ghemor",
    )
    assert kira.sets == ["NE", "VP"] and kira.text == "newest"
    assert by_id["2e-jean-luc-picard-galen"].subtitle == "Galen"  # the ban_2E mapping
    assert by_id["2e-jean-luc-picard-explorer"].title == "Jean-Luc Picard"  # known title
    assert by_id["2e-klingon-tea-ceremony"].subtitle is None
    assert [c.id for c in cards_2e] == sorted(c.id for c in cards_2e)

    cards_1e, _ = read_lackey(small_lists, "1e")
    assert [c.id for c in cards_1e] == ["1e-garak", "1e-jean-luc-picard-first-contact"]
    garak = cards_1e[0]
    assert (garak.sets, garak.text, garak.edition) == (["dom", "VP"], "new", "1E")


def test_2e_without_1e_lists_still_reads(small_lists, tmp_path):
    only_2e = tmp_path / "only"
    (only_2e / "2e").mkdir(parents=True)
    for path in (small_lists / "2e").iterdir():
        (only_2e / "2e" / path.name).write_bytes(path.read_bytes())
    cards, warnings = read_lackey(only_2e, "2E")
    assert any("ban_2E" in w for w in warnings)
    by_id = {c.id: c for c in cards}
    assert by_id["2e-kira-nerys-iliana-ghemor"].title == "Kira Nerys"  # shared prefix


@pytest.mark.parametrize(
    ("title", "subtitle", "forms"),
    [
        (
            "Kira Nerys",
            "Iliana Ghemor",
            [
                "Kira Nerys, Iliana Ghemor",
                "Kira Nerys (Iliana Ghemor)",
                "Kira Nerys Iliana Ghemor",
                "Kira Nerys",
            ],
        ),
        ("Klingon Tea Ceremony", None, ["Klingon Tea Ceremony"]),
    ],
)
def test_name_forms(title, subtitle, forms):
    card = Card(id="x", edition="2E", title=title, subtitle=subtitle, type="Personnel")
    assert name_forms(card) == forms


# --------------------------------------------------------------------------- malformed lists


def _bad_list(tmp_path: Path, content: bytes) -> Path:
    folder = tmp_path / "2e"
    folder.mkdir()
    (folder / "Broken.txt").write_bytes(content)
    return tmp_path


GOOD = row_2e("Ptol", "RTS", "Personnel")


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        (f"{HEADER_2E}\n{GOOD}\n{GOOD}\tEXTRA\n".encode(), 3, "24 columns"),
        (f"{HEADER_2E}\nPtol\tRTS\n".encode(), 2, "2 columns"),
        (f"{HEADER_2E.replace('Text', 'Txt')}\n{GOOD}\n".encode(), 1, "'Text'"),
        (f"{HEADER_2E.replace('Name', 'Title')}\n{GOOD}\n".encode(), 1, "'Name'"),
        (f"{HEADER_2E}\n{GOOD}\nQ\xe9\tx\n".encode("latin-1"), 3, "not UTF-8"),
        (b"", 1, "empty file"),
        (b"\n\n", 1, "empty file"),
    ],
    ids=["extra-column", "short-row", "no-text", "no-name", "latin-1", "empty", "blank"],
)
def test_malformed_list_raises_naming_file_and_line(tmp_path, content, line, words):
    cards_dir = _bad_list(tmp_path, content)
    with pytest.raises(CardListError) as caught:
        read_lackey(cards_dir, "2E")
    message = str(caught.value)
    assert "Broken.txt" in message and f"line {line}:" in message and words in message
    assert isinstance(caught.value, ValueError)


def test_missing_folder_and_unknown_edition(tmp_path):
    with pytest.raises(CardListError, match="no such folder"):
        read_lackey(tmp_path, "1E")
    with pytest.raises(ValueError, match="unknown edition"):
        read_lackey(tmp_path, "3E")


# --------------------------------------------------------------------------- the index files


def test_write_load_round_trip_and_bytes_stable(small_lists, tmp_path):
    cards, _ = read_lackey(small_lists, "2E")
    path = tmp_path / "out" / "2e.yaml"
    write_card_index(cards, path)
    first = path.read_bytes()
    assert load_card_index(path) == cards
    write_card_index(list(reversed(cards)), path)
    assert path.read_bytes() == first
    assert "subtitle: null" not in first.decode() and "edition: 2E" in first.decode()


def test_mixed_editions_refused():
    one = Card(id="1e-a", edition="1E", title="A", subtitle=None, type="Event")
    two = Card(id="2e-a", edition="2E", title="A", subtitle=None, type="Event")
    with pytest.raises(ValueError, match="one edition"):
        dump_card_index([one, two])


def test_load_rejects_malformed_index(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("edition: 2E\ncards:\n- id: x\n", encoding="utf-8")
    with pytest.raises(CardListError, match="card #1"):
        load_card_index(path)
    path.write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(CardListError, match="expected a mapping"):
        load_card_index(path)


def test_import_cards_writes_both_and_is_idempotent(small_lists, tmp_path):
    out = tmp_path / "cards"
    first = import_cards(small_lists, out)
    assert first["1E"]["rows"] == 5 and first["1E"]["skipped_2e"] == 2
    assert first["1E"]["cards"] == 2 and first["2E"]["cards"] == 6
    assert first["2E"]["changed"] and (out / "2e.yaml").exists()
    again = import_cards(small_lists, out)
    assert not again["1E"]["changed"] and not again["2E"]["changed"]


# --------------------------------------------------------------------------- the real lists


@pytest.fixture(scope="module")
def real() -> dict[str, dict[str, Card]]:
    if not (LACKEY / "1e").is_dir() or not (LACKEY / "2e").is_dir():
        pytest.skip(f"the Lackey card lists are not at {LACKEY}")
    out = {}
    for edition in ("1E", "2E"):
        cards, warnings = read_lackey(LACKEY, edition)
        expected = ["Comm Officer Sato 2E"] if edition == "1E" else []
        assert len(warnings) == len(expected)
        assert all(w in warning for w, warning in zip(expected, warnings, strict=True))
        out[edition] = {c.id: c for c in cards}
    return out


@needs_lackey
@pytest.mark.parametrize(
    ("card_id", "title", "subtitle", "type_"),
    [
        ("2e-kira-nerys-iliana-ghemor", "Kira Nerys", "Iliana Ghemor", "Personnel"),
        ("2e-julian-bashir-rebel-captain", "Julian Bashir", "Rebel Captain", "Personnel"),
        ("2e-jean-luc-picard-galen", "Jean-Luc Picard", "Galen", "Personnel"),
        ("2e-worf-son-of-mogh", "Worf", "Son of Mogh", "Personnel"),
        ("2e-elim-garak-plain-simple-tailor", "Elim Garak", "Plain, Simple Tailor", "Personnel"),
        ("2e-temba-his-arms-wide", "Temba, His Arms Wide", None, "Event"),
        ("2e-ptol", "Ptol", None, "Personnel"),
        ("2e-thompson", "Thompson", None, "Personnel"),
        ("2e-klingon-tea-ceremony", "Klingon Tea Ceremony", None, "Event"),
        (
            "2e-u-s-s-equinox-determined-to-get-home",
            "U.S.S. Equinox",
            "Determined To Get Home",
            "Ship",
        ),
        ("2e-hikaru-sulu-senior-helmsman", "Hikaru Sulu", "Senior Helmsman", "Personnel"),
        ("2e-ezri-tigan-cynical-mercenary", "Ezri Tigan", "Cynical Mercenary", "Personnel"),
        ("2e-founder-architect", "Founder Architect", None, "Personnel"),
        ("2e-marlena-moreau-mirror", "Marlena Moreau", "Mirror", "Personnel"),
        ("1e-jean-luc-picard-first-contact", "Jean-Luc Picard", "First Contact", "Personnel"),
        ("1e-garak", "Garak", None, "Personnel"),
        ("1e-ptol", "Ptol", None, "Personnel"),
    ],
)
def test_real_reconciliation(real, card_id, title, subtitle, type_):
    card = real[card_id[:2].upper()][card_id]
    assert (card.title, card.subtitle, card.type) == (title, subtitle, type_)


@needs_lackey
def test_real_grouping(real):
    kira = real["2E"]["2e-kira-nerys-iliana-ghemor"]
    assert kira.sets == ["Excelsior11", "NE", "VP"]  # the *VP printing grouped in
    garak = real["1E"]["1e-garak"]
    assert garak.sets[0] == "dom" and len(garak.sets) > 1  # "Garak*" grouped in
    reprint = real["2E"]["2e-automated-server"]  # "Automated Server (IDR)": same text
    assert reprint.subtitle is None and reprint.sets == ["ID", "IDR"]


@needs_lackey
def test_ban_2e_rows_are_not_1e_cards(real):
    cards = real["1E"].values()
    assert not [c.id for c in cards if c.title.endswith(" 2E") or "-2e-" in c.id]
    assert all(set(c.sets).isdisjoint({"ban_2E"}) for c in cards)


@needs_lackey
def test_real_counts_and_shipped_files_current(tmp_path):
    report = import_cards(LACKEY, tmp_path)
    assert {ed: report[ed]["rows"] for ed in ROWS} == ROWS
    assert report["1E"]["skipped_2e"] == SKIPPED_2E_ROWS
    assert {ed: report[ed]["cards"] for ed in CARDS} == CARDS
    for edition in ("1e", "2e"):
        assert (tmp_path / f"{edition}.yaml").read_bytes() == (
            SHIPPED / f"{edition}.yaml"
        ).read_bytes(), f"rulings_data/cards/{edition}.yaml is stale: re-run import_cards"


# --------------------------------------------------------------------------- the shipped files


@pytest.mark.parametrize("edition", ["1E", "2E"])
def test_shipped_index_loads_with_plausible_counts(edition):
    path = SHIPPED / f"{edition.lower()}.yaml"
    cards = load_card_index(path)  # how fast: `rulings bench`, never a timed test
    assert len(cards) == CARDS[edition]
    ids = [c.id for c in cards]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(c.edition == edition and c.id.startswith(f"{edition.lower()}-") for c in cards)
    assert all(c.title and c.type and c.sets for c in cards)
    assert dump_card_index(cards) == path.read_text(encoding="utf-8")


def test_shipped_2e_names():
    by_id = {c.id: c for c in load_card_index(SHIPPED / "2e.yaml")}
    kira = by_id["2e-kira-nerys-iliana-ghemor"]
    assert kira.name == "Kira Nerys, Iliana Ghemor"
    assert sum(1 for c in by_id.values() if c.title == "Kira Nerys") >= 20

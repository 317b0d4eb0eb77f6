"""The scraped 1E Glossary page (letter M): titles split from text, title-only entries kept."""

import csv
import re
from pathlib import Path

import pytest

from bot.ingest.parsers import SourceFormatError
from bot.ingest.parsers.glossary import parse
from bot.normalize import normalize

FILE = "1e-glossary-m.txt"
SHARED_CARDS = Path(__file__).resolve().parents[3] / "shared" / "cards" / "1e"
# 1E card names (from the LackeyCCG lists) whose titles the page runs into their text.
CARDS = [
    "Madred", "Magic Carpet Ride OCD", "Major Rakal", "Make It So", "Manheim's Dimensional Door",
    "Memory Wipe", "Mirror Image", "Mission Fatigue", "Montana Missile Complex",
]  # fmt: skip
TITLES = [
    "Madam Pulaski", "Madred", "Magic Carpet Ride OCD", "Major Rakal", "Make It So", "Make Us Go",
    "Mandarin Bailiff", "Manheim's Dimensional Door", "Martia", "Masaka Transformations", "Mas'ud",
    "matching affiliation", "matching commander", "meeting requirements", "Memory Wipe",
    "Menthar Booby Trap", "Mickey D.", "Mila", "Mining Survey", "Minuet", "Miracle Worker",
    "Mirasta Yale", "Mirror Image", "Mirror Quadrant", "Mirror Quadrant icon", "mirror universe",
    "mis-seeds", "mission", "mission attempt", "mission attempt - example", "mission continues",
    "Mission Debriefing", "Mission Fatigue", "mission II", "mission requirements - alternate",
    "mission specialist", "mix", "Mobile Holo-Emitter", "Mona Lisa", "Montana Missile Complex",
    "Mordock", "mortally wounded", "Mortal Q",
    "most cunning, strongest, highest total attributes, etc.", "movement",
    "movement between quadrants", "movement between time location and spaceline", "Mr. Scott",
    "multi-affiliation cards", "Multidimensional Transporter Device", "multiple targets",
    "Multiplexor Drone (Nine of Seventeen)", "must do nothing but", "Mutation", "Mysterious Orb",
]  # fmt: skip


@pytest.fixture(scope="module")
def known():
    return frozenset(normalize(c) for c in CARDS)


@pytest.fixture(scope="module")
def entries(source_text, known):
    result = parse(source_text(FILE), FILE, known_titles=known)
    assert result.warnings == []
    return {e.title: e for e in result.entries}


def test_every_title_in_order(source_text, known):
    assert [e.title for e in parse(source_text(FILE), FILE, known_titles=known).entries] == TITLES


def test_madred_exact(entries):
    assert entries["Madred"].text == (
        "This personnel may add 1 to Interrogation or Torture only when Madred and the captive are "
        "both aboard the same outpost. If he adds 1 to Interrogation, you score 2 points each time "
        "your opponent resists interrogation, and 11 points if he complies and you return the "
        "captive to him. If he adds 1 to Torture, your opponent loses 1 extra point each turn (the "
        'point box reads -7; if Madred "adds 1" for each of the three turns of the countdown, your '
        "opponent loses a total of 10 points)."
    )
    assert entries["Madred"].kind == "card ruling"


def test_matching_commander_first_and_last_sentences(entries):
    text = entries["matching commander"].text
    assert text.startswith(
        "When specified in the ship's lore, only the named personnel is the matching commander;"
    )
    assert text.endswith(
        "Most matching commanders may be easily determined directly from the ship and/or personnel lore, following the rules given above. Two need clarification:"
    )
    assert entries["matching commander"].kind == "rule"
    assert entries["matching commander"].see_also == ["present"]


@pytest.mark.parametrize(
    "title",
    ["Make It So", "Mickey D.", "mission continues", "Multiplexor Drone (Nine of Seventeen)"],
)
def test_title_only_entries_are_known_titles_without_text(entries, title):
    assert entries[title].text == ""


def test_hard_wrapped_lines_are_reflowed(entries):
    text = entries["mission attempt"].text
    assert (
        "it must have mission requirements (either printed or added by an objective such as Establish Trade Route),"
        in text
    )


@pytest.mark.parametrize(
    ("title", "joined"),
    [
        ("mission", "only on the end of the mission facing him: mission requirements, special"),
        ("movement", 'or it can "warp past" locations without stopping there'),
        ("matching affiliation", "that belongs to that homeworld. For example, Cloaked Mission"),
    ],
)
def test_column_wraps_after_a_full_stop_are_not_paragraph_breaks(entries, title, joined):
    assert joined in entries[title].text
    assert "\n" not in entries[title].text


def test_real_paragraph_breaks_are_kept(entries):
    # Whole scraped paragraphs (long lines) and a label line keep their breaks.
    assert "unless otherwise specified.\n\nRepeat this step for each dilemma" in (
        entries["mission attempt - example"].text
    )
    assert entries["Manheim's Dimensional Door"].text.startswith("Example:\n\nTreat this doorway")


def test_see_also_lists(entries):
    assert entries["Memory Wipe"].see_also == [
        "Away Team and crew",
        "loses affiliation",
        "Stop First Contact",
        "multi-affiliation cards",
    ]
    assert entries["mission attempt"].see_also == [
        "actions - interrupting",
        "meeting requirements",
        "capturing",
    ]
    assert entries["mission II"].see_also == [
        "card types",
        "Borg - Cooperation",
    ]  # not "see whether ..."


def test_without_the_card_list_a_guess_is_a_warning(source_text):
    result = parse(source_text(FILE), FILE)
    assert any(w.line == 19 and "'Madred'" in w.message for w in result.warnings)


@pytest.mark.skipif(not SHARED_CARDS.is_dir(), reason="../shared/cards is not beside this clone")
def test_the_real_card_list_splits_the_same_titles(source_text):
    names = set()
    for path in sorted(SHARED_CARDS.glob("*.txt")):
        if path.name == "setlist.txt":
            continue
        with path.open(encoding="utf-8") as handle:
            for row in list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))[1:]:
                name = re.sub(r"\s*\*\w*$|\*$", "", row[0]).strip()
                names.add(normalize(re.sub(r"\s*\([^)]*\)$", "", name)))
                names.add(normalize(name))
    result = parse(source_text(FILE), FILE, known_titles=frozenset(names))
    assert [e.title for e in result.entries] == TITLES


@pytest.mark.parametrize("text", ["", "just text\nno separators\n", "||\n\x00\x01\n||\n"])
def test_malformed_input_is_refused(text):
    with pytest.raises(SourceFormatError, match="glossary.txt"):
        parse(text, "glossary.txt")

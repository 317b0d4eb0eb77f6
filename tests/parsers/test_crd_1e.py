"""The 1E CRD (2014-11-03): entries, errata, Glossary amendments, cross references."""

import pytest

from bot.ingest.parsers import SourceFormatError
from bot.ingest.parsers.crd_1e import parse
from bot.ingest.parsers.text import see_also
from bot.normalize import normalize

FILE = "1e-current-rulings-2014-11-03.md"

TITLES = [
    "actions – step 1: initiation", "Alien Parasites", "Bajoran Wormhole", "battle – affiliation restrictions", "Borg",
    "Brilgar", "Classic Communicator", "cloaking and phasing", "cloaking device",
    "Continuing Mission", "corresponding", "couple", "Deep Space 9 icon", "Dilemma Resolution",
    "DS9", "facility commander", "faction", "Ferengi Military Operations", "Going to the Top",
    "HQ: Defensive Measures", "infiltration icon", "Liberty", "Lore Returns",
    "matching commander", "missions", "missions attempt", "missions - persona", "mission II",
    "named in lore", "◆Nebula", "persona", "playing an affiliation (non-Borg)",
    "Reactor Core icon 🏭", "romantic partner", "Sam Lavelle", "scouting location", "seed phase",
    "Sergey and Helena", "special equipment", "species", "Stop First Contact", "stopped",
    "time location", "unique and universal", "Visit Cochrane Memorial",
]  # fmt: skip
ERRATA = [
    "Brilgar", "Continuing Mission", "Ferengi Military Operations", "Going to the Top",
    "HQ: Defensive Measures", "Liberty", "Sam Lavelle", "Visit Cochrane Memorial",
]  # fmt: skip


@pytest.fixture(scope="module")
def entries(source_text):
    cards = frozenset(
        normalize(t) for t in ("Bajoran Wormhole", "Classic Communicator", "Lore Returns")
    )
    result = parse(source_text(FILE), FILE, known_titles=cards)
    assert result.warnings == []
    return {e.title: e for e in result.entries}


def test_every_title_in_document_order(source_text):
    assert [e.title for e in parse(source_text(FILE), FILE).entries] == TITLES


def test_errata(entries):
    assert sorted(t for t, e in entries.items() if e.kind == "erratum") == sorted(ERRATA)


def test_known_card_titles_are_card_rulings(entries):
    assert entries["Bajoran Wormhole"].kind == "card ruling"
    assert entries["faction"].kind == "rule"


@pytest.mark.parametrize(
    "title",
    ["couple", "infiltration icon", "Lore Returns", "romantic partner", "Sergey and Helena"],
)
def test_marked_new(entries, title):
    assert entries[title].marked_new


def test_matching_commander_replaces_the_glossary_entry(entries):
    entry = entries["matching commander"]
    assert [a.action for a in entry.amendments] == ["replace entry"]
    assert entry.text.startswith(
        "Replace this entry with the following:\n\nA personnel is a *matching commander*"
    )
    assert "such as Rinnak Pire and Regent Worf, have special game text" in entry.text
    assert entry.see_also == ["named in lore", "facility commander"]


@pytest.mark.parametrize(
    ("title", "actions"),
    [
        ("missions attempt", ["add", "replace part"]),
        ("◆Nebula", ["delete part"]),
        ("infiltration icon", ["add", "replace part", "rest unchanged"]),
        ("Borg", ["replace part", "rest unchanged"]),
        ("Stop First Contact", ["replace entry"]),
        ("scouting location", ["add"]),
        ("faction", []),
    ],
)
def test_amendment_instructions(entries, title, actions):
    assert [a.action for a in entries[title].amendments] == actions


def test_inline_titles(entries):
    assert entries["couple"].text == "a **personnel** and their **romantic partner**."
    assert entries["named in lore"].text.startswith(
        "a personnel or ship card is named in the lore of another card"
    )


def test_page_break_rejoined_across_blank_line(entries):
    assert (
        "Often served as a bodyguard for visiting dignitaries and key personnel."
        in entries["Brilgar"].text
    )
    assert (
        "Unlike with combo dilemmas, which are conceptually" in entries["Dilemma Resolution"].text
    )


def test_bare_title_before_a_lower_case_instruction_is_its_own_entry(entries):
    # "Alien Parasites" then "replace the first sentence ...": not a sentence split by a page
    # break, so the title is not glued onto the end of "actions – step 1: initiation".
    assert "Alien Parasites" not in entries["actions – step 1: initiation"].text
    parasites = entries["Alien Parasites"]
    assert parasites.text.startswith(
        "replace the first sentence of the final paragraph with the following:\n\n"
        "If you take control of your opponent's [Borg] cards,"
    )
    assert [a.action for a in parasites.amendments] == ["replace part"]


def test_page_break_after_closing_emphasis_is_rejoined(entries):
    # "... For example, *I.K.C. K'elric*" / blank / "names Captain Kang ...": the emphasis
    # closes a card title, not the sentence.
    assert (
        "For example, *I.K.C. K'elric* names Captain Kang in lore, but does not name Kang"
        in entries["named in lore"].text
    )


def test_see_also_lists(entries):
    assert entries["faction"].see_also == [
        "battle – affiliation restrictions, infiltration icon, playing an affiliation (non-Borg)"
    ]
    assert entries["persona"].see_also == ["missions – persona"]


def test_parenthesised_plain_see_is_a_cross_reference(entries):
    # "... that indicates the species. (See characteristics.) ..." and "See **humanoid**."
    assert entries["species"].see_also == ["characteristics", "humanoid"]
    assert see_also("(See **missions – persona**.) Then (See a, b.)") == [
        "missions – persona",
        "a, b",
    ]
    assert see_also("you may see the card.") == []


def test_species_numbered_list_kept(entries):
    text = entries["species"].text
    assert (
        "\n1. If the card is a **Second Edition card**, the species is indicated below the image.\n2. "
        in text
    )
    assert "\n- Hannah Bates is Human.\n\nComparing species - Two personnel" in text


def test_species_bullets_stay_nested_under_their_step(entries):
    # The source indents " - For ..." under step 5; the exceptions list is a list of its own.
    text = entries["species"].text
    assert (
        "the personnel then retains that species in any affiliation mode.\n   - For , , and , "
        'Human is a "usual species."\n   - For , "usual species" are'
    ) in text
    assert '"usual species."\n6. If the species is not discernible' in text
    assert "\n\n- Commander Data, Exocomp," in text


def test_trademark_footer_is_not_text(entries):
    assert "Paramount" not in entries["Visit Cochrane Memorial"].text


def test_without_rulings_section_is_refused():
    with pytest.raises(SourceFormatError, match="x.md"):
        parse("Some title –\n\nSome text.\n", "x.md")


@pytest.mark.parametrize(
    "line",
    [
        "Add the following You may only scout a location that has a point box.",
        "Replace the third paragraph Cards that work with the original mission also work.",
    ],
)
def test_an_instruction_run_on_into_its_text_is_no_instruction_alone(line):
    # a copy that lost the line break after "Add the following" joins the instruction and
    # the sentence it introduces: the line is no instruction that introduces the next one
    from bot.ingest.parsers.text import amendment_of

    assert amendment_of(line) is None
    assert amendment_of(line.split(" You")[0].split(" Cards")[0]) is not None


@pytest.mark.parametrize("bullet", ["•", "-"])
def test_list_items_spaced_apart_are_no_titles(bullet):
    # a word processor spaces a list's items apart, as paragraphs of their own (a PDF's
    # text): each short item was a bare title, with the next item as its text
    text = (
        "RULINGS – General\n\nspecies –\n\nExceptions and clarifications:\n\n"
        f"{bullet} Tora Ziyal is Bajoran and Cardassian\n\n{bullet} Phlox is a Denobulan\n\n"
        f"{bullet} Vina is Orion\n\nstopped –\n\nA stopped personnel cannot be used.\n"
    )
    result = parse(text, "crd.txt")
    assert [entry.title for entry in result.entries] == ["species", "stopped"]
    assert "Phlox is a Denobulan" in result.entries[0].text


def test_a_number_a_wrap_puts_at_a_lines_start_is_the_paragraphs_text():
    # a narrow column wraps "Deep Space 9. Often …" before the 9: a list that interrupts a
    # paragraph starts at 1, as Markdown reads it, so "9." there is no step of a list
    from bot.ingest.parsers.text import flow

    assert flow(["serving aboard Deep Space", "9. Often served as a bodyguard."]) == [
        "serving aboard Deep Space 9. Often served as a bodyguard."
    ]
    assert flow(["in this order:", "1. Seed.", "2. Play.", "b) Draw."]) == [
        "in this order:",
        "1. Seed.",
        "2. Play.",
        "b) Draw.",
    ]
    assert flow(["the steps:", "a. Seed.", "b. Play"]) == ["the steps:", "a. Seed.", "b. Play"]

"""Issue 38: a numbered list of entries ("12. Title – text", "4) Title: text"), as a fan's or
a tournament's rules list prints them. The numbers are the list's: each item is an entry
under its title without the number, while an entry's own numbered steps stay its text."""

from __future__ import annotations

from bot.ingest.reader import read_text


def _read(text: str):
    document = read_text(text)
    return [(e.title, e.text.split("\n")[0][:40]) for e in document.entries], document


def _titles(text: str) -> list[str]:
    return [entry.title for entry in read_text(text).entries]


DASH_LIST = """Rules of the house

41. Bajoran Wormhole – Whenever you play or download this doorway, you must download another copy.

42. cloaking device – This special equipment allows a ship or facility to cloak.

43. Brilgar – This card has updated lore, as the other printings have it.
"""


def test_a_numbered_list_of_dash_entries_reads_each_item_under_its_title():
    entries, _ = _read(DASH_LIST)
    assert entries == [
        ("Bajoran Wormhole", "Whenever you play or download this doorw"),
        ("cloaking device", "This special equipment allows a ship or "),
        ("Brilgar", "This card has updated lore, as the other"),
    ]


COLON_LIST = """4) Brilgar: This card has updated lore, as the other printings have it.

5) cloaking device: This special equipment allows a ship or facility to cloak.

6) modifications: If multiple effects modify a card, they are applied in the following order:

1. Choose: Any free choices presented by cards are made first of all.

2. Replace: Any effects that use the verb to replace occur next.

7) Bajoran Wormhole: Whenever you play or download this doorway, you must download another.
"""


def test_an_entrys_own_numbered_steps_under_its_lead_in_stay_its_text():
    entries, document = _read(COLON_LIST)
    assert [title for title, _ in entries] == [
        "Brilgar",
        "cloaking device",
        "modifications",
        "Bajoran Wormhole",
    ]
    steps = document.entries[2].text
    assert "1. Choose: Any free choices" in steps and "2. Replace: Any effects" in steps


def test_numbered_steps_on_a_page_of_unnumbered_entries_leave_its_entries_alone():
    unnumbered = "\n".join(
        line.split(") ", 1)[1] if line[:1].isdigit() and ") " in line[:4] else line
        for line in COLON_LIST.split("\n")
    )
    assert _titles(unnumbered) == [
        "Brilgar",
        "cloaking device",
        "modifications",
        "Bajoran Wormhole",
    ]


def test_an_item_whose_title_the_page_does_not_confirm_is_named_in_a_doubt():
    # "Qapla Rites" is no title the project knows, and its text opens in lower case: the
    # reader cannot take it for an entry, and says so instead of reading it into the last
    page = COLON_LIST + "\n8) Qapla Rites: a personnel and their romantic partner, in any case.\n"
    _, document = _read(page)
    assert [e.title for e in document.entries][-1] == "Bajoran Wormhole"
    doubts = [w for w in document.warnings if w.doubt]
    assert any("Qapla Rites" in w.message and "{line: 13, head: true}" in w.message for w in doubts)


STEPS_PAGE = """cloaking device: This special equipment allows a ship or facility to cloak.

modifications: If multiple effects modify a card, they are applied in the following order:

1. Choose: Any free choices presented by cards are made first of all.

2. Replace: Any effects that use the verb to replace occur next.

3. Modify: Any effects that add to or reduce an aspect of a card occur then.

4. Lose: Any effects that remove an aspect of a card whatever its amount occur last.

Brilgar: This card has updated lore, as the other printings have it.
"""


def test_more_steps_than_entries_under_a_lead_in_are_still_one_entrys_steps():
    assert _titles(STEPS_PAGE) == ["cloaking device", "modifications", "Brilgar"]


STEPS_NO_LEAD_IN = STEPS_PAGE.replace("in the following order:", "in an order of steps.").replace(
    "Brilgar: This card",
    "Bajoran Wormhole: Whenever you play this doorway, download another copy.\n\n"
    "DS9: References in lore to DS9 are equivalent to Deep Space 9.\n\n"
    "Brilgar: This card",
)


def test_steps_without_a_lead_in_on_a_page_of_unnumbered_entries_are_no_list():
    assert _titles(STEPS_NO_LEAD_IN) == [
        "cloaking device",
        "modifications",
        "Bajoran Wormhole",
        "DS9",
        "Brilgar",
    ]


def test_a_list_of_entries_under_the_pages_own_lead_in_is_read():
    # the lead-in stands above every entry: it introduces the list, no entry's steps
    page = "Rules Update\n\nThe following entries change in this update:\n\n" + "\n".join(
        DASH_LIST.replace("41. ", "1. ")
        .replace("42. ", "2. ")
        .replace("43. ", "3. ")
        .split("\n")[2:]
    )
    assert _titles(page) == ["Bajoran Wormhole", "cloaking device", "Brilgar"]


def test_an_entrys_steps_under_its_lead_in_raise_no_numbered_list_doubt():
    _, document = _read(STEPS_PAGE)
    assert not [w for w in document.warnings if "numbered paragraphs" in w.message]
    # the same items under no lead-in may be entries read as one: named for a moderator
    _, document = _read(STEPS_NO_LEAD_IN)
    assert [w for w in document.warnings if "numbered paragraphs" in w.message and w.doubt]


def test_items_numbered_past_a_thousand_are_items_too():
    page = DASH_LIST.replace("41. ", "998. ").replace("42. ", "999. ").replace("43. ", "1000. ")
    assert _titles(page) == ["Bajoran Wormhole", "cloaking device", "Brilgar"]


ITEMS = (
    "9) cannot: Game text which forbids an action cannot be overridden except by game text.\n\n"
    "11) Commander: This keyword on personnel is always followed by the name of a ship.\n\n"
    "13) Consume: If a card has the keyword Consume: X, X is the number of cards placed.\n"
)


def test_a_head_without_a_number_above_the_items_is_not_confirmed_by_them():
    # a copy cut inside item 7, whose text went on "…your deck has 60 cards: 5 missions…":
    # it opens as the items do but for their number, so it is named, not read
    page = "60 cards: 5 different missions. The rest of the entry does not change.\n\n" + ITEMS
    document = read_text(page)
    assert [e.title for e in document.entries] == ["cannot", "Commander", "Consume"]
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert doubt.line == 1 and "'60 cards'" in doubt.message


def test_the_numbered_items_still_confirm_each_other_and_a_known_head_above_them():
    page = "Alien Parasites: If you take control of Borg cards, follow their rules.\n\n" + ITEMS
    document = read_text(page)
    assert [e.title for e in document.entries] == [
        "Alien Parasites",
        "cannot",
        "Commander",
        "Consume",
    ]
    assert not any(w.doubt for w in document.warnings)

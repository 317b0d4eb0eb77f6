"""Issue 38: the committee's single-ruling pages read exactly, however the browser copied the
page around the ruling. Each real ruling of the committee's rulings page (shared/sources/
examples) is put on a page in every combination of the chrome seen on the committee's site:
the menu on one line or a link per line, the edition heading, the ruling links run together
or not, a date or none, the applicable cards or none, the copyright footer, and a copy cut
off as a page store returns it (it keeps 2,000 characters of a page; these rulings are shorter, so the copies are cut at 900 and 600) (so its "Applicable Cards:" is lost)."""

from __future__ import annotations

import itertools
import re
import textwrap
from pathlib import Path

import pytest

from bot.ingest.reader import UnknownShape, read_text

EXAMPLES = Path("/work/shared/sources/examples")
if not EXAMPLES.is_dir():  # CI: shared/ sits beside the clone
    EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "sources" / "examples"
FEED = EXAMPLES / "2e-rulings-2016-2017-partial.txt"

MENU = (
    "What's New Dashboard Articles Forums Chat Room Achievements Tournaments Player Map "
    "The Promenade Volunteers About Us Site Index"
)
MENUS = {"none": "", "line": MENU + "\n", "links": "\n".join(MENU.split("  ")) + "\n"}
MENUS["links"] = "What's New\nDashboard\nArticles\nForums\nChat Room\nTournaments\nSite Index\n"
EDITIONS = {"none": "", "heading": "Second Edition\n"}
LINKS = {
    "none": "",
    "run-together": "CardlistsList RulingsPrint Rulings\n",
    "short": "RulingsPrint Rulings\n",
    "apart": "Cardlists\nList Rulings\nPrint Rulings\n",
}
FOOTER = (
    "\nStar Trek in all forms is copyright and trademark of CBS Paramount Studios which has no "
    "affiliation with trekcc.org or The Continuing Committee.\n"
)
_TITLE = re.compile(r"^(.+?) (\d{4}-\d{2}-\d{2})$")


def _rulings() -> list[tuple[str, str, list[str]]]:
    """(title, date, paragraphs) of each ruling on the committee's rulings page."""
    rulings: list[tuple[str, str, list[str]]] = []
    for line in FEED.read_text(encoding="utf-8").splitlines():
        if match := _TITLE.match(line.strip()):
            rulings.append((match.group(1), match.group(2), []))
        elif line.strip() and rulings:
            rulings[-1][2].append(line.strip())
    return rulings


def _page(ruling, menu, edition, links, dated, cards, footer) -> str:
    title, date, paragraphs = ruling
    head = f"{title} {date}" if dated == "same line" else title
    if dated == "own line":
        head += f"\n{date}"
    body = "\n\n".join(paragraphs)
    tail = "\n\nApplicable Cards: Set Up; The Pillage of Bajor;" if cards else ""
    return f"{MENUS[menu]}{EDITIONS[edition]}{LINKS[links]}\n{head}\n\n\n{body}{tail}\n" + (
        FOOTER if footer else ""
    )


CASES = list(
    itertools.product(
        MENUS, EDITIONS, LINKS, ("none", "same line", "own line"), (True, False), (True, False)
    )
)


def _marked(ruling, links, dated, cards, cut) -> bool:
    """Whether the copy still shows a mark of a ruling: its cards, the committee's ruling
    links, a date after the title or an ``Example:`` paragraph (a title line and one
    paragraph, with none of these, is no different from an article's opening)."""
    examples = any(p.startswith("Example:") for p in ruling[2])
    return bool(cards and cut is None or links != "none" or dated != "none" or examples)


def _is_its_text(text: str, ruling) -> bool:
    """Whether ``text`` is the ruling's text, or (on a copy cut off) its first part."""
    read, whole = " ".join(text.split()), " ".join(" ".join(ruling[2]).split())
    return len(read) >= 40 and whole.startswith(read)


def _read(ruling, case, cut):
    page = _page(ruling, *case)
    if cut is not None:
        if len(page) <= cut:
            return None, None
        page = page[:cut]
    try:
        return page, read_text(page)
    except UnknownShape as error:
        return page, error


@pytest.mark.skipif(not FEED.is_file(), reason="shared examples not here")
@pytest.mark.parametrize("cut", [None, 900, 600])
def test_every_copy_of_a_single_ruling_page_reads_as_its_ruling(cut):
    wrong, checked = [], 0
    for ruling in _rulings():
        for case in CASES:
            menu, edition, links, dated, cards, footer = case
            page, document = _read(ruling, case, cut)
            if page is None or not _marked(ruling, links, dated, cards, cut):
                continue
            checked += 1
            label = (ruling[0], *case, cut)
            if isinstance(document, UnknownShape):
                wrong.append((label, f"refused: {str(document)[:80]}"))
                continue
            titles = [e.title for e in document.entries]
            doubts = [w.message[:60] for w in document.warnings if w.doubt]
            if titles != [ruling[0]] or not _is_its_text(document.entries[0].text, ruling):
                wrong.append((label, f"read {titles}, doubts {doubts}"))
            # The committee's whole page (its links, its cards) reads without a doubt; a copy
            # with nothing but "Example:" paragraphs to go by asks for the title's check, and
            # one cut off inside its footer may ask about the fragment left.
            elif doubts and cut is None and (links != "none" or cards):
                wrong.append((label, f"doubted: {doubts}"))
    assert checked > 100
    assert not wrong, f"{len(wrong)} of {checked} copies misread, e.g. {wrong[:4]}"


@pytest.mark.skipif(not FEED.is_file(), reason="shared examples not here")
def test_a_title_and_a_paragraph_with_no_mark_of_a_ruling_are_refused_not_guessed():
    bare = [r for r in _rulings() if not any(p.startswith("Example:") for p in r[2])]
    assert bare
    for ruling in bare:
        page, document = _read(ruling, ("none", "none", "none", "none", False, False), None)
        assert isinstance(document, UnknownShape), document.entries
        assert "no entries found" in str(document)


@pytest.mark.skipif(not FEED.is_file(), reason="shared examples not here")
@pytest.mark.parametrize("title", ["Abandon Ship!", "playing an affiliation (non-Borg)"])
@pytest.mark.parametrize("gap", ["\n", ""])
@pytest.mark.parametrize("links", ["run-together", "short"])
def test_a_title_ending_in_a_bang_or_bracket_under_the_links_is_the_title(title, gap, links):
    # A title ending in "!" or ")" right under "RulingsPrint Rulings" was taken for the
    # ruling's first line, and the links line for its title, without a doubt
    _, date, paragraphs = _rulings()[0]
    page = f"Second Edition\n{LINKS[links]}{gap}{title}\n\n\n" + "\n\n".join(paragraphs) + "\n"
    document = read_text(page)
    assert [e.title for e in document.entries] == [title]
    assert _is_its_text(document.entries[0].text, (title, date, paragraphs))


@pytest.mark.parametrize(
    ("title", "read_as"),
    [
        # a title set in capitals by the site's style, copied as shown: a title, not a menu
        ("DILEMMAS REQUIRING AN ADDITIONAL OR ANOTHER PERSONNEL", True),
        # a menu in capitals holds no two small words: still the site's
        ("HOME NEWS CARDS RULES FORUMS TOURNAMENTS ABOUT CONTACT", False),
    ],
)
def test_a_title_in_capitals_is_the_rulings_title_and_a_menu_in_capitals_is_not(title, read_as):
    page = (
        f"{MENU}\nSecond Edition\nCardlistsList RulingsPrint Rulings\n\n{title}\n\n\n"
        "Dilemma game text that requires a player to stop an additional personnel is not "
        "dependent on the first action.\n\nApplicable Cards: Necessary Execution;\n"
    )
    (entry,) = read_text(page).entries
    # a menu is set aside: the page prints no title, and its one card titles the ruling
    assert entry.title == (title if read_as else "Necessary Execution")
    assert entry.text.startswith("Dilemma game text")


def test_an_applicable_cards_list_wrapped_on_to_the_next_line_keeps_every_card():
    # printed to a PDF, the list wraps inside a card's name: the rest was set aside as
    # "text after the applicable cards", two cards lost and one cut in half
    page = (
        "Dilemmas With Conditional Requirements\n\n"
        "When a dilemma's requirements check a condition that was never determined, its "
        'value is "None", or zero.\n\n'
        "Applicable Cards: Code Forty-Seven; Gorgan; Healing Hand; Memory Invasion; Nonlinear\n"
        "Existence; You Vant to Go Back?;\n"
    )
    (entry,) = read_text(page).entries
    assert entry.cards == [
        "Code Forty-Seven",
        "Gorgan",
        "Healing Hand",
        "Memory Invasion",
        "Nonlinear Existence",
        "You Vant to Go Back?",
    ]


def _mail_wrapped(page: str, width: int = 72) -> str:
    """``page`` as a mail program sends it: each line longer than ``width`` wrapped."""
    return "\n".join(
        "\n".join(textwrap.wrap(line, width, break_on_hyphens=False)) if len(line) > width else line
        for line in page.split("\n")
    )


@pytest.mark.skipif(not FEED.is_file(), reason="shared examples not here")
@pytest.mark.parametrize("width", [72, 60])
def test_a_single_ruling_page_a_mail_program_wrapped_reads_as_its_ruling(width):
    # A ruling's text wrapped was refused when a wrapped line opened on a word and a colon
    # ("Otherwise: Probe …"), read as a review's label; an untitled ruling's first line,
    # its sentence going on below, was read as its title.
    wrong, checked = [], 0
    for ruling in _rulings():
        for links, dated, cards in itertools.product(LINKS, ("none", "own line"), (True, False)):
            case = ("line", "heading", links, dated, cards, True)
            if not _marked(ruling, links, dated, cards, None):
                continue
            checked += 1
            try:
                document = read_text(_mail_wrapped(_page(ruling, *case), width))
            except UnknownShape as error:
                wrong.append((ruling[0], case, f"refused: {str(error)[:80]}"))
                continue
            titles = [e.title for e in document.entries]
            if titles != [ruling[0]] or not _is_its_text(document.entries[0].text, ruling):
                wrong.append((ruling[0], case, f"read {titles}"))
    assert checked > 40
    assert not wrong, f"{len(wrong)} of {checked} copies misread, e.g. {wrong[:4]}"


@pytest.mark.parametrize(
    ("page", "title"),
    [
        ("sweep1/1e-single-ruling-chula-crossroads-trekcc-145.txt", "Chula: Crossroads"),
        # the page prints no title: its one applicable card names the ruling
        ("sweep1/1e-single-ruling-lineup-no-title-trekcc-236.txt", "Lineup"),
    ],
)
def test_the_committees_ruling_page_a_mail_program_wrapped_reads_as_its_ruling(page, title):
    text = (Path(__file__).resolve().parent / page).read_text(encoding="utf-8")
    saved = read_text(text)
    wrapped = read_text(_mail_wrapped(text))
    assert [e.title for e in saved.entries] == [e.title for e in wrapped.entries] == [title]
    assert " ".join(wrapped.entries[0].text.split()) == " ".join(saved.entries[0].text.split())
    assert not [w for w in wrapped.warnings if w.doubt]

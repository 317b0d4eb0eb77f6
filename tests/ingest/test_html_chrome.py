"""Issue 38: a page saved as HTML from a site the reader has not seen. The elements the
markup marks as the site's chrome (navigation, sidebars, footers, cookie notices, share
bars) are left out by the markup's own words and said so; an entry run into the text of
the entry before it is doubted on any shape."""

from __future__ import annotations

import pytest

from bot.ingest.reader import UnknownShape, chrome, feed, html, read_document
from bot.ingest.reader.common import check
from bot.ingest.reader.corrections import apply
from bot.ingest.reader.model import ReadEntry

ENTRY = (
    "<h1>Skills</h1><p><b>Skills</b> – A skill is a word or phrase in a personnel's skills box, "
    "such as Diplomacy or Medical. A personnel with a skill twice has that skill at x2.</p>"
)


def _wiki_page(body: str, content_class: str = "page__main") -> bytes:
    return (
        "<!DOCTYPE html><html><head><title>Skills | Star Trek CCG Wiki</title></head><body>"
        '<div id="cookie-notice">We use cookies to give you the best experience.</div>'
        "<nav><ul><li>Explore</li><li>Main Page</li><li>All Pages</li><li>Community</li></ul></nav>"
        f'<main class="{content_class}">{body}</main>'
        '<aside class="right-rail"><h2>Fan Feed</h2><p>More Star Trek CCG Wiki pages, every '
        "day, for fans of the game and its cards.</p><ul><li>1 Borg</li><li>2 Dilemmas</li></ul>"
        '</aside><div class="share-bar">Share: Facebook Twitter Email</div>'
        "<footer><p>Community content is available under CC-BY-SA.</p></footer></body></html>"
    ).encode()


def test_a_wiki_pages_chrome_is_left_out_and_said_so():
    document = read_document(_wiki_page(ENTRY), "skills.html")
    assert [e.title for e in document.entries] == ["Skills"]
    assert document.entries[0].text.startswith("A skill is a word or phrase")
    (note,) = [w for w in document.warnings if "were left out" in w.message]
    assert not note.doubt
    assert "'We use cookies" in note.message and "'Fan Feed" in note.message
    assert document.metadata.title == "Skills"  # the page, not "Skills | Star Trek CCG Wiki"


def test_chrome_words_in_a_class_do_not_drop_the_pages_content():
    # A site may name its content's element after its layout ("nav-offset"): an element
    # holding most of the page's text is the content, whatever it is called.
    text = html.to_text(_wiki_page(ENTRY, content_class="main nav-offset").decode())
    assert "A skill is a word or phrase" in text
    assert "Fan Feed" not in text and "Main Page" not in text


def test_an_articles_own_footer_is_kept():
    page = (
        "<html><body><nav>Home · Rules</nav><article><h1>Rules Update, April</h1><p>This month "
        "we clarify a question.</p><footer>Posted 2 April 2024 by the Rules Manager</footer>"
        "</article><footer>© The Continuing Committee</footer></body></html>"
    )
    text = html.to_text(page)
    assert "Posted 2 April 2024" in text
    assert "Continuing Committee" not in text and "Home" not in text


def test_a_known_title_run_into_the_text_before_it_is_doubted():
    entry = ReadEntry(
        title="winning the game",
        text=(
            "A player wins the game when he or she has 100 points.\n\nThe rest of the entry "
            "does not change. Klingon Tea Ceremony – If a single action downloads multiple "
            "cards simultaneously, it will trigger the event once."
        ),
        line=1,
    )
    doubts = [w for w in check([entry]) if w.doubt]
    assert len(doubts) == 1 and "'Klingon Tea Ceremony'" in doubts[0].message


def test_a_known_title_named_in_a_sentence_is_no_head():
    entry = ReadEntry(
        title="winning the game",
        text=(
            "A player wins the game when he or she has 100 points. Klingon Tea Ceremony does "
            "not change this, even when it downloads multiple cards – as it may."
        ),
        line=1,
    )
    assert [w for w in check([entry]) if w.doubt] == []


def test_a_layout_tables_menu_cell_is_left_out_and_its_glossary_table_read():
    # An old site lays its page out in a table: its menu is a cell marked "menu", and the
    # glossary is a table of term and text
    page = (
        b"<html><head><title>Glossary - card database</title></head><body><table><tr><td "
        b'class="header">header</td></tr><tr><td class="menu"><a>home</a> <a>strategy</a> '
        b"<a>rules</a> <a>cards</a></td></tr></table><h1>Glossary</h1><table>"
        b"<tr><td>matching commander</td><td>A personnel is a matching commander for a ship "
        b"when the ship lists that personnel as its commander.</td></tr>"
        b"<tr><td>mis-seeds</td><td>If you and your opponent each seed a copy of the same card "
        b"under one mission, each has its normal effect.</td></tr>"
        b"<tr><td>Q-Flash</td><td>When a Q-Flash is encountered, the crew faces the cards of "
        b"the Q-Continuum side deck.</td></tr></table></body></html>"
    )
    assert "strategy" not in html.to_text(page.decode())
    document = read_document(page, "glossary.html")
    assert [e.title for e in document.entries] == ["matching commander", "mis-seeds", "Q-Flash"]
    assert not [w for w in document.warnings if w.doubt]


TWO_ROWS = (
    "<table><tr><td>matching commander</td><td>A personnel is a matching commander for a ship "
    "when the ship lists that personnel as its commander.</td></tr>"
    "<tr><td>mis-seeds</td><td>If you and your opponent each seed a copy of the same card "
    'under one mission, each has its normal effect (as the rulebook says, "normal.")'
    "</td></tr></table>"
)


def test_a_saved_table_of_two_rulings_is_read_as_a_glossary_table():
    # Two rows of a term and a text that reads as an entry's are a table of rulings saved
    # as HTML, as two rows copied with tabs are
    document = read_document(_wiki_page(TWO_ROWS), "glossary.html")
    assert document.shape == "glossary-table"
    assert [e.title for e in document.entries] == ["matching commander", "mis-seeds"]
    assert document.entries[1].text.startswith("If you and your opponent each seed")


ONE_ROW_CUT = (
    # a page cut inside a long entry: the row above is that entry's tail (no term), and the
    # one whole row is a term the project knows over its text
    "<table><tr><td></td><td>are the same locations as the missions they correct.</td></tr>"
    "<tr><td>matching commander</td><td>When specified in the ship's lore, only the named "
    "personnel is the matching commander; another version of the persona cannot serve.</td>"
    "</tr></table>"
)


def test_one_saved_row_of_a_known_term_over_prose_is_a_table_of_rulings():
    # a table cut after one row is still a table: the term is the project's, its cell prose
    document = read_document(_wiki_page(ONE_ROW_CUT), "glossary.html")
    assert document.shape == "glossary-table"
    assert [e.title for e in document.entries] == ["matching commander"]
    assert document.entries[0].text.startswith("When specified in the ship's lore")
    # one row alone may be a layout's cell naming a card over a review: a doubt, which the
    # moderator settles by confirming the entry
    line = document.entries[0].line
    assert [w.line for w in document.warnings if w.doubt] == [line]
    confirmed = apply(document, [{"line": line, "confirm": True}])
    assert not [w for w in confirmed.warnings if w.doubt]
    # the row with no term above it is said to be the cut entry's tail, in words, not pipes
    tail = next(w.message for w in document.warnings if "are the same locations" in w.message)
    assert "starts inside an entry" in tail and "|" not in tail


def test_one_saved_row_of_an_unknown_term_is_no_table_of_rulings():
    # a term the project does not know, in one row: a layout table's cell of an article
    row = ONE_ROW_CUT.replace("matching commander", "Weekly spotlight")
    with pytest.raises(UnknownShape):
        read_document(_wiki_page(row), "article.html")


def test_a_saved_table_of_two_rows_of_short_cells_is_no_glossary():
    # a layout's two rows of links and labels hold no entry's text
    rows = (
        "<table><tr><td>Rules</td><td>Rulebook, Glossary, Current Rulings</td></tr>"
        "<tr><td>Cards</td><td>Card database and card lists</td></tr></table>"
    )
    with pytest.raises(UnknownShape):
        read_document(_wiki_page(rows), "links.html")


@pytest.mark.parametrize(
    "tail",
    [
        '"wife", "mate", "married", "imzadi", "widow", "divorced".',
        "2370. Decent poker player. His grandfather was Canadian.",
    ],
)
def test_a_pages_own_title_over_a_cut_entrys_tail_is_no_entry_though_in_order(tail):
    # The wiki's heading "Rules" over the tail of an entry cut above, which opens with a
    # quote or a number: it sorts before the terms below, but it is the page's title, not a
    # term, and its tail no ruling
    body = (
        f"<h1>Rules</h1><p>{tail}</p>"
        "<h3>Sam Lavelle</h3><p>This card has updated lore: a typical Starfleet ensign.</p>"
        "<h3>scouting location</h3><p>You may only scout a location that has a point box.</p>"
        "<h3>seed phase</h3><p>The only actions you may take during the seed phases are "
        "seeding cards and special downloads.</p>"
        "<h3>special equipment</h3><p>When a card refers to a ship's special equipment, it "
        "means the equipment the ship's game text lists.</p>"
    )
    document = read_document(_wiki_page(body), "rules.html")
    assert [e.title for e in document.entries] == [
        "Sam Lavelle",
        "scouting location",
        "seed phase",
        "special equipment",
    ]


def test_a_bold_title_run_into_its_text_opens_an_entry():
    page = (
        b"<html><head><title>Glossary</title></head><body><h1>Glossary</h1>"
        b"<p><strong>matching commander</strong> A personnel is a matching commander for a "
        b"ship when the ship lists that personnel.</p>"
        b"<p><strong>mis-seeds</strong> If you and your opponent each seed a copy of the same "
        b"card under one mission, each has its effect.</p>"
        b"<p><b>Q-Flash</b> When a Q-Flash is encountered, the crew faces the cards of the "
        b"Q-Continuum side deck.</p></body></html>"
    )
    document = read_document(page, "glossary.html")
    assert [e.title for e in document.entries] == ["matching commander", "mis-seeds", "Q-Flash"]
    assert document.entries[0].text.startswith("A personnel is a matching commander")


def test_bold_that_is_a_label_or_a_sentence_is_left_as_it_is():
    # "Note:" brings its own separator; a bold sentence ends in its stop; bold inside a
    # paragraph is emphasis
    text = html.to_text(
        "<p><b>Note:</b> this page is kept by fans.</p>"
        "<p><b>Play it early.</b> It pays off.</p>"
        "<p>You may <b>always</b> respond.</p>"
    )
    assert "–" not in text


@pytest.mark.parametrize(
    ("page", "title"),
    [
        ("<html><head><title>Skills | Star Trek CCG Wiki | Fandom</title></head>", "Skills"),
        ("<TITLE>\n  Rules &amp; Rulings\n</TITLE>", "Rules & Rulings"),
        ("<div class='titlebar'><titlebar>Menu</titlebar></div><title>Borg</title>", "Borg"),
        ("<html><body><p>no title at all</p></body></html>", None),
        ("<html><title>never closed", None),
    ],
)
def test_the_pages_title_is_read_from_its_head_without_a_parse(page, title):
    assert html.page_title(page) == title


def test_a_lists_items_stay_items_inside_their_entry():
    # a saved page's list inside an entry: each item was a paragraph of its own, and the
    # short ones that end no sentence were read as titles over the next item
    page = (
        "<html><body><h1>Current Rulings</h1>"
        "<p><b>species –</b></p><p>Replace this entry with the following:</p>"
        "<p>In general, a personnel's species can be determined by looking at the card.</p>"
        "<p>Exceptions and clarifications:</p><ul>"
        "<li>Commander Data and all Cravic and Pralor Units are Androids</li>"
        "<li>Tora Ziyal is Bajoran and Cardassian</li><li>Phlox is a Denobulan</li>"
        "<li>Stefan deSeve is Human</li><li>Vina is Orion</li></ul>"
        "<p><b>stopped –</b></p><p>A stopped card cannot be used until it is unstopped.</p>"
        "<p><b>time location –</b></p><p>A time location is no mission.</p>"
        "</body></html>"
    )
    document = read_document(page.encode(), "crd.html")
    assert [e.title for e in document.entries] == ["species", "stopped", "time location"]
    items = [line for line in document.entries[0].text.split("\n") if line.startswith("- ")]
    assert items[1:3] == ["- Tora Ziyal is Bajoran and Cardassian", "- Phlox is a Denobulan"]


@pytest.mark.parametrize(
    "line",
    [
        "11/28/26, 10:17 PM Rulings",
        "11/28/2026, 22:17 Second Edition Current Rulings Document",
        "https://www.trekcc.org/2e/rulings.php 1/3",
        "file:///home/mod/Downloads/rulings.html 2/2",
    ],
)
def test_what_a_browser_prints_at_a_pages_top_and_foot_is_chrome(line):
    # a moderator who saves the committee's page as a PDF gets the date, time and title at
    # its top, the address and page number at its foot: the page's, no ruling's
    assert chrome.kind_of(line) is not None


@pytest.mark.parametrize(
    "line",
    [
        "On 11/28/26 the committee ruled that a download may be responded to.",
        "11/28/26 Rulings Update",
        "See https://www.trekcc.org/2e/rulings.php for every ruling.",
    ],
)
def test_a_line_that_only_mentions_a_date_or_an_address_is_no_print_chrome(line):
    assert chrome.kind_of(line) is None


# The rulings page saved with each ruling's date in a span of its own, set apart by the
# page's style only: its text runs the date into the title ("Naming a Number2017-06-06")
STYLED_DATES = """<html><body><nav><a href="/">What's New</a> <a href="/f">Forums</a></nav>
<h2>Second Edition</h2>
<h3>Naming a Number<span class="date">2017-06-06</span></h3>
<p>When a player names a number, he or she must choose zero or a positive integer.</p>
<h3>Set Up<span class="date">2016-09-19</span></h3>
<p>When this event's text is used on a random selection involving more than one personnel,
the player using Set Up chooses one personnel to be included in the selection.</p>
<h3>Abandon Ship!<span class="date">2016-08-01</span></h3>
<p>If the ship is not damaged, discard the dilemma and continue to the next.</p>
</body></html>"""


def test_a_rulings_date_styled_apart_from_its_title_dates_it():
    document = read_document(STYLED_DATES.encode(), "rulings.html")
    assert document.shape == "rulings-feed"
    assert [(e.title, e.date) for e in document.entries] == [
        ("Naming a Number", "2017-06-06"),
        ("Set Up", "2016-09-19"),
        ("Abandon Ship!", "2016-08-01"),
    ]
    assert not [w for w in document.warnings if w.doubt]


@pytest.mark.parametrize("line", ["Rule 12017-06-06", "Updated:2017-06-06", "2017-06-06"])
def test_a_date_run_into_figures_or_a_label_is_no_title_and_date(line):
    # the date's figures after a figure part nothing ("Rule 12017-06-06"); a label's date
    # dates the page, and a date alone titles nothing
    assert feed.title_match(line) is None

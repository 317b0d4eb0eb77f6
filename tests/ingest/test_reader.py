"""The reader: real documents recognised by their content, awkward bytes read or refused.

Expected tables were written by reading the example files in shared/sources/examples and
the bundled sources (rulings_data/documents.yaml names each one's parser).
"""

from __future__ import annotations

import codecs
import time
from pathlib import Path

import pytest
import yaml

from bot.ingest.parsers import get_parser
from bot.ingest.reader import UnknownShape, UnreadableDocument, read_document, read_text
from bot.ingest.reader.corrections import apply as apply_corrections
from bot.normalize import plain_spaces

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "rulings_data" / "sources"
EXAMPLES = Path("/work/shared/sources/examples")
if not EXAMPLES.is_dir():  # CI: shared/ sits beside the clone
    EXAMPLES = ROOT.parent / "shared" / "sources" / "examples"
needs_examples = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="shared examples not here")

FEED = "2e-rulings-2016-2017-partial.txt"
DECIPHER = "1e-current-rulings-2001-09-24-partial.txt"

FEED_ENTRIES = [
    (
        "Naming a Number",
        "2017-06-06",
        2,
        "When a player names a number, he or she must choose zero or a positive integer.",
    ),
    (
        "Examining a Card",
        "2016-11-02",
        5,
        'When a card instructs you to "examine" a card or set of cards, the examined cards do '
        "not change location until and unless a card instructs you to change their locations."
        "\n\nExample: If you play The Pillage of Bajor, the examined cards are still considered "
        "to be the top cards of your deck. If you choose to discard Tajor using The Pillage of "
        "Bajor's text, Tajor is considered to have been discarded from the top of your deck and "
        "you may place him at your Cardassia Prime.",
    ),
    (
        "Set Up",
        "2016-09-19",
        11,
        "When this event's text is used on a random selection involving more than one "
        "personnel, the player using Set Up chooses one personnel to be included in the "
        "selection, then the remainder of that random selection occurs as usual (multiple "
        "copies would each select one personnel to be included). A random selection that "
        "chooses more than one personnel is executed as a single action; Set Up triggers "
        "before any selections are made.\n\nExample: Cliff attempts a mission with six "
        "personnel, and Sara commands Set Up in her core. Sara chooses dilemmas and forms her "
        "dilemma stack, revealing Becalmed first. Set Up's trigger occurs when Becalmed is "
        "about to select three personnel. Sara reveals her Infiltrator personnel at that "
        "mission, then destroys Set Up to pay its cost, choosing one personnel from among all "
        "six. Cliff then shuffles the remaining personnel, and two more are selected randomly "
        "to fulfill the dilemma's instructions.",
    ),
]

DECIPHER_ENTRIES = [
    (
        "35th Rule of Acquisition",
        None,
        5,
        "You may not use this event for a download or card draw at the end of your first "
        'turn. "35th Rule nullifies every 34th Rule, and vice versa" means that playing a 35th '
        "Rule card nullifies all 34th Rule cards already in play, and vice versa. A 35th Rule "
        "card in play does not prevent the play of a 34th Rule card (or vice versa). See turn.",
    ),
    (
        "62nd Rule of Acquisition",
        None,
        7,
        "This event is nullified if you begin an attempt of the mission on which it is played "
        "with <3 or >7 personnel, or if you play or have played Scan or Full Planet Scan on any "
        "mission. Attempts of other missions have no effect on this event.",
    ),
    (
        "A Fast Ship Would Be Nice",
        None,
        9,
        "When encountering this dilemma, you may not substitute a ship for the victim if your "
        "opponent is playing Borg. See commandeering.",
    ),
    (
        "actions - step 1: initiation",
        None,
        11,
        "Once you begin to choose targets for an action, you must complete the initiation of "
        "that action (if legal). For example, if you start looking through your draw deck for a "
        "target card to download with the Ops text, you may not decide to abort the download by "
        "not selecting a target; you must select a target card and complete the download if "
        "you have any valid target card in your deck, Q's Tent, hand, or Zalkonian Storage "
        "Capsule.",
    ),
]


def example(name: str) -> bytes:
    return (EXAMPLES / name).read_bytes()


def summary(document) -> list[tuple]:
    return [(e.title, e.date, e.line, e.text) for e in document.entries]


def texts(document) -> list[tuple[str, str]]:
    return [(e.title, e.text) for e in document.entries]


def expected_texts(table) -> list[tuple[str, str]]:
    return [(title, text) for title, _, _, text in table]


# --- real material ------------------------------------------------------------------------


@needs_examples
@pytest.mark.parametrize(
    ("name", "shape", "entries"),
    [
        (FEED, "rulings-feed", FEED_ENTRIES),
        (DECIPHER, "decipher-current-rulings", DECIPHER_ENTRIES),
    ],
    ids=["feed", "decipher"],
)
def test_examples_read_whole_with_exact_text(name, shape, entries):
    document = read_document(example(name), name)
    assert document.shape == shape
    assert document.encoding == "utf-8"
    assert summary(document) == entries
    assert document.warnings == []


@needs_examples
def test_example_metadata_as_printed():
    decipher = read_document(example(DECIPHER)).metadata
    assert (decipher.date, decipher.kind) == ("2001-09-24", "current rulings")
    assert read_document(example(FEED)).metadata.edition == "2E"


def _bundled():
    documents = yaml.safe_load((ROOT / "rulings_data" / "documents.yaml").read_text())
    return [(d["file"].split("/")[-1], d["parser"], d) for d in documents["documents"]]


SHAPE_OF_PARSER = {
    "crd-2e-text": "crd-2e-text",
    "crd-2e-markdown": "crd-markdown",
    "crd-1e-markdown": "crd-markdown",
    "glossary-table": "glossary-table",
    "opencards-terms": "opencards-terms",
}


@pytest.mark.parametrize(("name", "parser", "record"), _bundled(), ids=lambda v: str(v)[:30])
def test_every_bundled_source_is_its_own_shape(name, parser, record):
    content = (SOURCES / name).read_bytes()
    document = read_document(content, name)
    assert (document.shape, document.parser) == (SHAPE_OF_PARSER[parser], parser)
    # the importer's own read of the source: its spaces plain, as an upload's are
    direct = get_parser(parser)(plain_spaces(content.decode("utf-8")), name)
    assert texts(document) == [(e.title, e.text) for e in direct.entries]
    assert document.metadata.date == (str(record["date"]) if record["date"] else None)
    if record["edition"] == "1E" or record["kind"] == "current rulings":
        assert document.metadata.edition in (record["edition"], None)


def test_the_file_name_never_chooses_the_shape():
    content = (SOURCES / "2e-current-rulings-2011-10-05.md").read_bytes()
    for name in ("upload.txt", "upload.md", "upload.html", None):
        assert read_document(content, name).parser == "crd-2e-markdown"


# --- awkward bytes made from real text ---------------------------------------------------


@needs_examples
@pytest.mark.parametrize(
    ("encode", "encoding"),
    [
        (lambda t: t.replace("\n", "\r\n").encode(), "utf-8"),
        (lambda t: t.replace("\n", "\r").encode(), "utf-8"),
        (lambda t: codecs.BOM_UTF8 + t.encode(), "utf-8-sig"),
        (lambda t: t.encode("utf-16"), "utf-16"),
        (lambda t: t.encode("utf-16-be").join([codecs.BOM_UTF16_BE, b""]), "utf-16"),
    ],
    ids=["crlf", "cr", "utf8-bom", "utf16-le-bom", "utf16-be-bom"],
)
@pytest.mark.parametrize("name", [FEED, DECIPHER])
def test_encodings_and_line_endings_keep_every_entry(encode, encoding, name):
    table = FEED_ENTRIES if name == FEED else DECIPHER_ENTRIES
    document = read_document(encode(example(name).decode()), name)
    assert document.encoding == encoding
    assert summary(document) == table  # a BOM does not drop or rename the first entry
    assert document.warnings == []


@needs_examples
def test_cp1252_smart_quotes_are_detected_and_kept():
    smart = example(FEED).decode().replace('"examine"', "“examine”").replace("'s", "’s")
    document = read_document(smart.encode("cp1252"))
    assert document.encoding == "cp1252"
    assert document.shape == "rulings-feed"
    assert "“examine”" in document.entries[1].text
    assert document.entries[2].text.startswith("When this event’s text")
    assert [e.title for e in document.entries] == [t for t, *_ in FEED_ENTRIES]


def _feed_html(text: str) -> str:
    blocks = text.split("\n\n")
    body = "".join(f"<p>{block.replace(chr(10), '<br />')}</p>\n" for block in blocks)
    return (
        "<!DOCTYPE html>\n<html><head><title>2E Rulings</title><style>p {}</style></head>\n"
        f'<body><div class="nav">Home</div>\n{body}</body></html>'
    )


@needs_examples
def test_feed_saved_as_html_with_br():
    text = example(FEED).decode().replace("Second Edition\n", "")
    text = text.replace("Naming a Number", "Second Edition\n\nNaming a Number")
    html = _feed_html(text).replace("'", "&#39;").replace('"examine"', "&quot;examine&quot;")
    document = read_document(html.encode(), "rulings.htm")
    assert document.html and document.shape == "rulings-feed"
    assert texts(document) == expected_texts(FEED_ENTRIES)
    assert [e.date for e in document.entries] == [d for _, d, *_ in FEED_ENTRIES]
    # "Home" (a navigation element by its class) is left out, and said so, not silently
    assert [w.message for w in document.warnings if "left out: 'Home'" in w.message]
    assert all("Home" not in e.text for e in document.entries)


@needs_examples
def test_feed_saved_as_an_html_table():
    rows = "".join(
        f"<tr><td>{title}</td><td>{date}</td><td>{text.replace(chr(10) * 2, '<br /><br />')}</td></tr>"
        for title, date, _, text in FEED_ENTRIES
    )
    html = f"<html><body><table><tr><th>Title</th><th>Date</th><th>Text</th></tr>{rows}</table></body></html>"
    document = read_document(html.encode())
    assert document.shape == "rulings-feed-table"
    assert texts(document) == expected_texts(FEED_ENTRIES)
    assert document.warnings == []


@pytest.mark.parametrize("separator", ["markdown", "tab"])
def test_feed_as_a_table(separator):
    if separator == "markdown":
        lines = ["| Title | Date | Text |", "| --- | --- | --- |"]
        lines += [
            f"| {t} | {d} | {x.replace(chr(10) * 2, '<br><br>')} |" for t, d, _, x in FEED_ENTRIES
        ]
    else:
        lines = [f"{t}\t{d}\t{x.replace(chr(10) * 2, '<br><br>')}" for t, d, _, x in FEED_ENTRIES]
    document = read_document("\n".join(lines).encode())
    assert document.shape == "rulings-feed-table"
    assert texts(document) == expected_texts(FEED_ENTRIES)
    assert [e.date for e in document.entries] == ["2017-06-06", "2016-11-02", "2016-09-19"]


def _title_rows_over_text_rows(close_only: bool) -> str:
    """The committee's rulings page: each ruling's title and date in one row, its text in
    the row below (a paragraph break kept as ``<br><br>``). ``close_only``: as a copy
    that closes each cell with " |" and opens none."""
    rows = []
    for title, date, _, text in FEED_ENTRIES:
        text = text.replace("\n\n", "<br><br>")
        rows += (
            [f"{title} | {date} |", f"{text} | |"]
            if close_only
            else [
                f"| {title} | {date} |",
                f"| {text} |  |",
            ]
        )
    return "\n".join(["Page 1 • Page 2 • Page 3 | |", "---|---|", *rows])


@pytest.mark.parametrize("close_only", [True, False], ids=["cells-closed", "cells-opened"])
def test_feed_as_a_table_whose_text_is_in_the_row_below_its_title(close_only):
    document = read_document(_title_rows_over_text_rows(close_only).encode())
    assert document.shape == "rulings-feed-table"
    assert texts(document) == expected_texts(FEED_ENTRIES)
    assert [e.date for e in document.entries] == ["2017-06-06", "2016-11-02", "2016-09-19"]
    # the page's pager above the table is noted, not read
    (note,) = document.warnings
    assert note.line == 1 and "before the table" in note.message and not note.doubt


def test_feed_table_cut_inside_its_last_cell_keeps_the_cut_text():
    # A page store's cut ends the copy inside the last ruling's cell, before its closing bar.
    page = _title_rows_over_text_rows(True).rsplit(" | |", 1)[0][:-40]
    document = read_document(page.encode())
    assert [e.title for e in document.entries] == [t for t, *_ in FEED_ENTRIES]
    assert FEED_ENTRIES[-1][3].startswith(document.entries[-1].text)
    assert document.entries[-1].text


def test_feed_table_cell_copied_a_line_each_is_one_rulings_text():
    # A copy that puts a cell's paragraphs and wrapped lines a line each closes only the last.
    (_, _, _, text), (title, date, *_) = FEED_ENTRIES[1], FEED_ENTRIES[2]
    first, second = text.split("\n\n")
    wrapped = first.replace(" a card or set", "\na card or set")
    page = (
        f"Examining a Card | 2016-11-02 |\n{wrapped}\n{second} | |\n{title} | {date} |\nWhen. | |"
    )
    document = read_document(page.encode())
    assert [(e.title, e.text) for e in document.entries][0] == ("Examining a Card", text)


def test_feed_table_title_row_with_no_text_under_it_is_a_doubt():
    page = "Naming a Number | 2017-06-06 |\nExamining a Card | 2016-11-02 |\nWhen a card instructs you to examine a card, the cards stay. | |\n"
    document = read_document(page.encode())
    assert [(e.title, bool(e.text)) for e in document.entries] == [
        ("Naming a Number", False),
        ("Examining a Card", True),
    ]
    assert [(w.line, w.doubt) for w in document.warnings if "has no text" in w.message] == [
        (1, True)
    ]


@needs_examples
def test_three_megabytes_of_real_entries_read_quickly():
    entries = example(FEED).decode().split("\n", 1)[1]
    copies = []
    n = 0
    while sum(map(len, copies)) < 3_000_000:
        n += 1
        copies.append(entries.replace(" 20", f" {n} 20").rstrip("\n") + "\n\n")
    content = ("Second Edition\n" + "".join(copies)).encode()
    assert len(content) >= 3_000_000
    # CPU time, not wall-clock: a busy machine must not fail it; a quadratic read would
    # still take minutes of CPU here.
    start = time.process_time()
    document = read_document(content)
    elapsed = time.process_time() - start
    assert document.shape == "rulings-feed"
    assert len(document.entries) == 3 * n
    assert document.entries[-1].text == FEED_ENTRIES[-1][3]
    assert document.warnings == []
    assert elapsed < 5, f"reading 3 MB took {elapsed:.1f} s of CPU"


@needs_examples
def test_cut_off_document_warns_that_it_is_partial():
    text = example(FEED).decode()
    cut = text[: text.index("two more are selected")]
    document = read_document(cut.encode())
    assert len(document.entries) == 3
    (warning,) = document.warnings
    assert "Set Up" in warning.message and "partial" in warning.message
    assert warning.line == 11


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (bytes(range(256)) * 40, "binary"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "PDF"),
        (b"PK\x03\x04\x14\x00\x06\x00", "Word"),
        (codecs.BOM_UTF8 + b"abc \xff\xfe def", "UTF-8"),
    ],
    ids=["empty", "blank", "binary", "pdf", "docx", "bad-utf8-bom"],
)
def test_unreadable_input_is_refused_with_advice(content, says):
    with pytest.raises(UnreadableDocument) as caught:
        read_document(content, "upload.txt")
    message = str(caught.value)
    assert says in message and "upload.txt" in message
    assert "plain text" in message or "upload" in message.split(":", 1)[1]


def test_unknown_shape_lists_the_shapes_and_quotes_the_first_lines():
    content = b"id,title,edition\n1,Kira Nerys,2E\n2,Set Up,2E\n"
    with pytest.raises(UnknownShape) as caught:
        read_document(content, "cards.csv")
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert "id,title,edition" in message and "1,Kira Nerys,2E" in message
    for shape in ("rulings-feed", "decipher-current-rulings", "faq", "crd-markdown"):
        assert shape in message
    assert "Upload" in message


def test_a_readme_is_not_mistaken_for_rules():
    with pytest.raises(UnknownShape):
        read_document((SOURCES / "README.md").read_bytes())


# --- the shapes, each on made text -------------------------------------------------------


def test_decipher_capitals_run_together_and_significant_changes():
    text = (
        "Rulings Updated 09/24/01\n\nRULINGS\n\n"
        "ACTIONS - STEP 1: INITIATION - Once you begin, you must finish. See turn. "
        "ATTACKING - You may attack only once. Borg Ship - Treat it as a ship.\n\n"
        "SIGNIFICANT RULINGS CHANGES\n\n"
        "Q's Tent - You may not download from it during your first turn.\n"
    )
    document = read_document(text.encode())
    assert document.shape == "decipher-current-rulings"
    assert [(e.title, e.text, e.line, e.marked_new) for e in document.entries] == [
        ("ACTIONS - STEP 1: INITIATION", "Once you begin, you must finish. See turn.", 5, False),
        ("ATTACKING", "You may attack only once.", 5, False),
        ("Borg Ship", "Treat it as a ship.", 5, False),
        ("Q's Tent", "You may not download from it during your first turn.", 9, True),
    ]
    assert document.warnings == []


def test_decipher_warns_about_preamble_duplicates_and_unknown_amendments():
    text = (
        "Rulings Updated 9/24/2001\n\nThese rulings replace all earlier ones.\n\n"
        "BATTLE - Both sides fire at once.\n\n"
        "Insert the following sentence after the second bullet: Shields hold.\n\n"
        "Battle - A second entry for battle.\n"
    )
    document = read_document(text.encode())
    messages = [(w.line, w.message) for w in document.warnings]
    assert document.metadata.date == "2001-09-24"
    assert any(line == 3 and "before the first entry" in m for line, m in messages)
    assert any(line == 9 and "duplicate title 'Battle'" in m for line, m in messages)
    assert any("amendment instruction not understood" in m for _, m in messages)


def test_feed_entry_with_a_title_like_line_is_warned():
    text = (
        "Naming a Number 2017-06-06\nWhen a player names a number, he or she must choose.\n\n"
        "Examining a Card\n\nWhen a card instructs you to examine a card, it stays put.\n"
    )
    document = read_document(text.encode())
    assert len(document.entries) == 1
    assert any("looks like a title: 'Examining a Card'" in w.message for w in document.warnings)


def test_single_ruling_page_gives_its_cards():
    text = (
        "Set Up 2016-09-19\n\nWhen this event's text is used on a random selection, the "
        "player chooses one personnel.\n\nExample: Sara chooses Becalmed.\n\n"
        "Applicable Cards:\nSet Up\nKira Nerys, Iliana Ghemor\n"
    )
    document = read_document(text.encode())
    assert document.shape == "single-ruling-page"
    (entry,) = document.entries
    assert (entry.title, entry.date, entry.kind) == ("Set Up", "2016-09-19", "card ruling")
    assert entry.cards == ["Set Up", "Kira Nerys, Iliana Ghemor"]
    assert entry.text.endswith("one personnel.\n\nExample: Sara chooses Becalmed.")


def test_single_ruling_page_with_cards_on_one_line():
    text = "Examining a Card\nCards that are examined stay put.\nApplicable Cards: The Pillage of Bajor; Tajor\n"
    (entry,) = read_document(text.encode()).entries
    assert entry.cards == ["The Pillage of Bajor", "Tajor"]
    assert entry.text == "Cards that are examined stay put."


def test_faq_each_pair_an_entry_under_its_topic():
    text = (
        "DILEMMAS -- Q: May I look at my dilemmas? A: Yes, at any time.\n"
        "Q: May my opponent look at them? A: No.\n\n"
        "SET UP --\nQ: Does Set Up choose first?\nA: Yes.\n"
    )
    document = read_document(text.encode())
    assert document.shape == "faq"
    assert [(e.title, e.text, e.line) for e in document.entries] == [
        # The question without its "Q:" marker, as the "Q: TOPIC -- question" form reads it.
        ("DILEMMAS", "May I look at my dilemmas? A: Yes, at any time.", 1),
        ("DILEMMAS", "May my opponent look at them? A: No.", 2),
        ("SET UP", "Does Set Up choose first?\n\nA: Yes.", 5),
    ]
    assert document.warnings == []


def test_text_read_past_is_one_warning_naming_how_much_and_how_it_begins():
    text = (
        "Collected by a fan, 1995.\nPlease share.\n\n"
        "Q: DILEMMAS -- May I look at my dilemmas?\nA: Yes, at any time.\n"
    )
    document = read_document(text.encode())
    assert document.shape == "faq"
    assert [(w.line, w.message) for w in document.warnings] == [
        (1, "text before the first question (2 lines), ignored: 'Collected by a fan, 1995.'")
    ]


def test_faq_quoted_topic_and_a_contents_line_that_asks_its_question():
    # Decipher's FAQ section "The Colon Rule": its contents list the questions (one of them
    # with its text), then each is asked and answered under its quoted topic
    text = (
        "FAQs\n\n"
        'Q: "THE COLON RULE": Can Countermanda be nullified by Amanda Rogers?\n'
        "Q: TASHA YAR or MAJOR RAKAL\n\n"
        'Q: "THE COLON RULE" -- Can Countermanda be nullified by Amanda Rogers?\n\n'
        "A: Yes. Cards whose names share what comes before the colon are grouped together.\n"
    )
    document = read_document(text.encode())
    assert document.shape == "faq"
    assert [(e.title, e.line) for e in document.entries] == [('"THE COLON RULE"', 6)]
    assert document.entries[0].text.startswith("Can Countermanda be nullified")
    assert not [w for w in document.warnings if w.doubt]
    (contents,) = [w for w in document.warnings if "table of contents" in w.message]
    assert contents.line == 3 and "(2 lines)" in contents.message


def test_faq_answers_under_no_topic_are_doubted_not_set_aside_as_contents():
    # a copy of Decipher's FAQ that lost a group's "Q: TOPIC" line: its numbered questions
    # and answers stand before the first answered topic, where a contents list stands; the
    # answers are ruling text that cannot be imported without a topic, so the moderator is
    # asked, not told they were a table of contents
    text = (
        "FAQs\n\n"
        "Q: DRAW DECK -- What happens if you run out of cards to draw?\n\n"
        "  1. Can you look through your discard pile during a game?\n\n"
        "  1. No, unless a special card allows it.\n\n"
        "Q: DRAW DECK -- What happens if you run out of cards to draw?\n\n"
        "A: The game ends as soon as either player's draw deck runs out.\n"
    )
    document = read_document(text.encode())
    assert document.shape == "faq"
    assert [e.title for e in document.entries] == ["DRAW DECK"]
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert doubt.line == 3 and "No, unless a special card" in doubt.message
    assert "{line: 3, confirm: true}" in doubt.message
    assert not [w for w in document.warnings if "table of contents" in w.message]
    settled = apply_corrections(document, [{"line": 3, "confirm": True}])
    assert not [w for w in settled.warnings if w.doubt]


def test_faq_topic_printed_with_signs_is_a_topic():
    # from a blind set: Decipher's FAQ asks about the "<" and ">" of a card's requirements
    # under the topic "< AND > MARKS"; the topic's signs are part of it
    text = (
        "FAQs\n\n"
        "Q: < AND > MARKS -- How do you read these? If the card states CUNNING>35, is it "
        "each personnel's or the total?\n\n"
        "A: The total CUNNING of the personnel present must be greater than 35.\n\n"
        "Q: DISCARD PILE -- Can you look through your discard pile during a game?\n\n"
        "A: No, unless a special card allows it.\n"
    )
    document = read_document(text.encode())
    assert document.shape == "faq"
    assert [e.title for e in document.entries] == ["< AND > MARKS", "DISCARD PILE"]
    assert document.entries[0].text.startswith("How do you read these?")
    assert not [w for w in document.warnings if w.doubt]


def test_faq_topic_on_a_card_with_its_small_words_in_lower_case_is_read():
    # a later part of Decipher's FAQ page (blind set fresh141): the topic names a card and
    # leaves its small words in lower case, and the answer uses none of the words the game's
    # rules use most (dilemma, mission, personnel…): it is still no other game's FAQ
    text = (
        'Q: DEVIDIAN DOOR and ITS TIME LIMIT -- Is the time limit for "showing" the Devidian '
        "Door on your next turn a general time frame, or a specific game instruction?\n"
        "A: The time period in which you must show the Devidian Door begins at the start of "
        "your next turn, and ends at the end of that turn. For example, he could play Masaka "
        "Transformations on you, forcing you to discard your entire hand. "
        + "If this happens to you, you lose the game unless you get that card back in your "
        "hand and show it to the opponent by the end of your next turn. " * 5 + "\n"
    )
    document = read_document(text.encode())
    assert document.shape == "faq"
    assert [e.title for e in document.entries] == ["DEVIDIAN DOOR and ITS TIME LIMIT"]
    # the same answer under a topic that names no card of the game is another game's
    other = text.replace("DEVIDIAN DOOR and ITS TIME LIMIT", "PORTAL CARDS and THE TIMER")
    with pytest.raises(UnknownShape, match="does not read as the Star Trek CCG's rules"):
        read_document(other.replace("Devidian Door", "Portal").encode())


def test_wiki_entry_one_known_title_one_text():
    text = (
        "Kira Nerys\nFrom the Memory Alpha wiki\n\nKira Nerys is a Bajoran personnel in both "
        "editions.\n\nShe was printed in many sets.\n"
    )
    document = read_document(text.encode())
    assert document.shape == "general"  # the title is a card the project knows
    (entry,) = document.entries
    assert entry.title == "Kira Nerys"
    assert (
        entry.text
        == "Kira Nerys is a Bajoran personnel in both editions.\n\nShe was printed in many sets."
    )


def test_glossary_table_with_pipe_runs_and_navigation():
    text = (
        "|||\nHome | Rules | Glossary | Contact\n|||\nGlossary - M |\n|||\n"
        "Madam Pulaski |\n||||\nmatching commander This personnel commands the ship. |\n|||\n"
    )
    document = read_document(text.encode())
    assert document.shape == "glossary-table"
    assert [(e.title, e.text) for e in document.entries] == [
        ("Madam Pulaski", ""),
        ("matching commander", "This personnel commands the ship."),
    ]


def test_glossary_two_cell_rows():
    text = (
        "Home | Rules | Glossary\n\n| Term | Text |\n| --- | --- |\n"
        "| mission | A location.<br><br>See planet. |\n| Borg | A species. |\n| cloaked | Hidden. |\n"
    )
    document = read_document(text.encode())
    assert document.shape == "glossary-table"
    assert [(e.title, e.text) for e in document.entries] == [
        ("mission", "A location.\n\nSee planet."),
        ("Borg", "A species."),
        ("cloaked", "Hidden."),
    ]
    assert document.warnings == []


INGEST = Path(__file__).parent


@pytest.mark.parametrize(
    "page",
    [
        "sweep1/2e-single-ruling-pending-effects-trekcc-29.txt",  # the committee's page
        "corpus/1e-dual-personnel-reference-heardworld-a.txt",  # "Title: text" heads
        "corpus/1e-glossary-html-yumpu-p22.txt",  # a flip-book's "Title – text" lines
    ],
)
@pytest.mark.parametrize(
    "copied",
    [
        lambda t: t.replace("\n", "\r\n"),  # saved on Windows
        lambda t: t.replace("\n", "  \n"),  # spaces left at each line's end
        lambda t: "\n".join("    " + line if line else line for line in t.split("\n")),
        lambda t: t.replace(" – ", "\u00a0– ").replace(": ", ":\u00a0"),  # no-break spaces
        lambda t: t.replace(" – ", "\t– "),  # a word processor's tab stop before the dash
    ],
    ids=["crlf", "trailing-spaces", "indented", "no-break-spaces", "tab-before-dash"],
)
def test_a_page_reads_the_same_however_its_spaces_and_line_ends_were_copied(page, copied):
    text = (INGEST / page).read_text(encoding="utf-8")
    clean = read_document(text.encode())
    copy = read_document(copied(text).encode())
    # the same entries, word for word (a no-break space is kept where the copy printed one)
    assert [_spaced(e) for e in copy.entries] == [_spaced(e) for e in clean.entries]
    assert clean.entries and copy.shape == clean.shape


def _spaced(entry) -> tuple[str, list[str]]:
    return " ".join(entry.title.split()), entry.text.split()


def test_a_tab_tables_cell_goes_on_over_the_lines_a_browser_copies_it_in():
    # a browser copies a cell's paragraphs and wrapped lines a line each, with no tab
    text = (
        "Glossary\n\nmission\tA location on the spaceline.\nSee planet.\n"
        "Borg\tA species whose ships\nassimilate others.\n"
        "cloaked\tHidden from\nother players.\nHome | Rules | Glossary | Contact\n"
        "Copyright 2024 The Continuing Committee.\n"
    )
    document = read_document(text.encode())
    assert document.shape == "glossary-table"
    assert [(e.title, e.text) for e in document.entries] == [
        ("mission", "A location on the spaceline.\n\nSee planet."),
        ("Borg", "A species whose ships assimilate others."),
        ("cloaked", "Hidden from other players."),
    ]
    # above the first row and after the last row's sentence: the page's, named, not read
    notes = [w.message for w in document.warnings]
    assert any("outside the table" in m and "Glossary" in m for m in notes)
    assert any("outside the table" in m and "Copyright" in m for m in notes)


@needs_examples
def test_three_megabytes_of_html_stays_linear():
    entries = example(FEED).decode().split("\n", 1)[1]
    text = "".join(entries.replace(" 20", f" {n} 20") + "\n\n" for n in range(2000))
    body = "".join(f"<p>{p.replace(chr(10), '<br />')}</p>" for p in text.split("\n\n"))
    content = f"<html><body>{body}</body></html>".encode()
    assert len(content) >= 3_000_000
    start = time.process_time()  # CPU time: a busy machine must not fail it
    document = read_document(content)
    assert len(document.entries) == 6000 and document.warnings == []
    assert time.process_time() - start < 15  # was a minute while the tree was edited in place


def test_decipher_entry_marked_new_inside_a_continued_line_loses_its_mark():
    # "*POINT BOX" run into the second line of the entry before: its "*" marks it new, as on
    # an entry's own line, and is no part of its title
    document = read_document(
        b"Rulings Updated: 03/26/01\n\nRULINGS\n\n"
        b"POINT AREA - The point area is where a player keeps the points scored.\n"
        b"It counts all points. *POINT BOX - A point box is the box on a card that shows "
        b"its points.\n\n"
        b"POST GARRISON - This objective may be played on any outpost you command.\n"
    )
    assert [(e.title, e.marked_new) for e in document.entries] == [
        ("POINT AREA", False),
        ("POINT BOX", True),
        ("POST GARRISON", False),
    ]


def _decipher_print(*paragraphs: str) -> str:
    """A Current Rulings page in Decipher's print, cut at its top: ``paragraphs``, then one
    entry in capitals."""
    last = "POINT BOX - A point box is the box on a card that shows its points."
    return "RULINGS\n\n" + "\n\n".join([*paragraphs, last]) + "\n"


@pytest.mark.parametrize("close", ['"', "\u201d"])
def test_a_quotations_tail_at_the_cut_is_no_entry(close):
    # The copy starts inside a sentence that quoted ("…see Stopped notes" - Your cards…"):
    # a closing quote with no opening one ends a quotation, it titles nothing
    page = _decipher_print(
        f"notes{close} - Your cards aboard your ship when it becomes unstopped are unstopped.",
        "time location - A card type representing a location in the past or future.",
    )
    document = read_document(page.encode())
    assert [e.title for e in document.entries] == ["time location", "POINT BOX"]
    assert any("notes" in w.message and "ignored" in w.message for w in document.warnings)
    # A title's quotes that pair up are the title's own, whole or inside a name
    for title in ('"here"', 'Weyoun, "Defective" Clone'):
        paired = read_document(page.replace(f"notes{close}", title).encode())
        assert [e.title for e in paired.entries] == [title, "time location", "POINT BOX"]


@pytest.mark.parametrize(
    ("tail", "doubted"),
    [
        # an instruction cut before its first words ("Add the following bullet point to"):
        # it still opens like an entry, so it is named for a moderator to look at
        ('the section "some additional notes" - Your cards aboard your ship are unstopped.', True),
        # ... or cut after its "the": lower-case words and a quoted phrase name a part of
        # the document, not an entry
        ('section "some additional notes" - Your cards aboard your ship are unstopped.', True),
        # a cross reference cut after its "(See": a known title and a full stop names an
        # entry and opens none, so nothing is left to doubt
        ("actions \u2013 step 1: initiation.", False),
    ],
)
def test_a_sentences_tail_at_the_top_of_decipher_print_is_no_entry(tail, doubted):
    page = _decipher_print(
        tail, "persona - You may not use persona replacement to exchange missions."
    )
    document = read_document(page.encode())
    assert [e.title for e in document.entries] == ["persona", "POINT BOX"]
    assert any(tail[:20] in w.message for w in document.warnings)  # listed, not dropped
    assert any(w.doubt for w in document.warnings) == doubted


@pytest.mark.parametrize(
    ("cut", "doubted"),
    [
        # a copy that stops one word into its last entry ("BATTLE - AFFILIATIO"): imported,
        # that word would stand for the whole entry, so a moderator drops or confirms it
        ("AFFILIATIO", True),
        ("Personnel of different affiliations", True),
        # enough of a ruling is left to be worth a look: a note, taken with the others
        ("Personnel of different affiliations may not", False),
    ],
)
def test_a_last_entry_cut_after_a_few_words_is_a_doubt(cut, doubted):
    page = f"RULINGS\n\nPOINT BOX - A point box shows a card's points.\n\nBATTLE - {cut}\n"
    document = read_document(page.encode())
    assert [(e.title, e.text) for e in document.entries][-1] == ("BATTLE", cut)
    (warning,) = [w for w in document.warnings if "'BATTLE' ends mid-sentence" in w.message]
    assert warning.doubt == doubted and ("drop: true" in warning.message) == doubted
    if doubted:  # the way on it names works: dropped, nothing is left to doubt
        fixed = apply_corrections(document, [{"line": warning.line, "drop": True}])
        assert [e.title for e in fixed.entries] == ["POINT BOX"]
        assert not any(w.doubt for w in fixed.warnings)


def test_an_opencards_term_cut_before_its_source_is_noted_once():
    # "the entry None": a cut-off term has no source to compare with the table's
    page = (SOURCES / "2e-terms-overview-opencards.txt").read_text(encoding="utf-8")
    cut = page[: page.index("Taken from", len(page) // 3)]
    document = read_document(cut.encode())
    assert document.shape == "opencards-terms"
    last = document.entries[-1].title
    about_last = [w.message for w in document.warnings if repr(last) in w.message]
    assert about_last == [
        f"term {last!r} has no 'Taken from' line: the copy looks cut off (partial)"
    ]


def test_rule_history_a_short_statement_after_a_history_list_is_its_own_rule():
    # "Second rule" / "Short statement here" stand over their own status line: they are a
    # rule, not two more items of the first rule's "Modified by:" list
    page = (
        "Rule Changes\n\nFirst rule\nThe first rule's statement is a whole sentence of the "
        "rules.\nOriginal | Active\nPremiere Rulebook (10 Nov 1994)\nModified by:\n"
        "Later change (2016 Mar)\nSecond rule\nShort statement here\nOriginal | Active\n"
        "Premiere Rulebook (10 Nov 1994)\n"
    )
    document = read_document(page.encode())
    assert document.shape == "rule-history"
    assert [e.title for e in document.entries] == ["First rule", "Second rule"]
    assert "Second rule" not in document.entries[0].text


def test_a_feed_copied_with_each_title_run_into_its_text_reads_every_ruling():
    # a copy that joined each "Title YYYY-MM-DD" line to its text, the page's heading to the
    # first: only the one title left on a line of its own was read, the others in its
    # text, with no doubt
    page = (
        "Second Edition Naming a Number 2017-06-06 When a player names a number, he or she "
        "must choose zero or a positive integer.\n\n"
        "Examining a Card 2016-11-02\n\n"
        "When a card instructs you to examine a card, the examined cards do not move.\n\n"
        "Set Up 2016-09-19 When this event's text is used on a random selection, the player "
        "using Set Up chooses one personnel to be included in the selection.\n\n"
        "Effective 2017-01-01 This ruling replaces the one before it.\n"
    )
    document = read_text(page)
    assert document.shape == "rulings-feed"
    assert [(e.title, e.date) for e in document.entries] == [
        ("Naming a Number", "2017-06-06"),
        ("Examining a Card", "2016-11-02"),
        ("Set Up", "2016-09-19"),
    ]
    assert document.entries[2].text.startswith("When this event's text is used")
    # one word before a date opens a sentence, no ruling
    assert "Effective 2017-01-01 This ruling" in document.entries[2].text

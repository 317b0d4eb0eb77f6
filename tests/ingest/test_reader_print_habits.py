"""Issue 38: print habits of other hands. A glossary printed as bold terms in Markdown
("**cloaking device**: …", "- **Brilgar** – …") or in a forum post's BBCode ("[b]Tongo[/b]
- …"): the marks are no part of the title ("*Bajoran Wormhole**" was read as a title, with
no doubt, and a list of bold terms was refused as a list's items). An em dash set with no
space around it, as American print sets one ("Brilgar—This card …")."""

from __future__ import annotations

import re
import string
import textwrap
from pathlib import Path

import pytest
import yaml

from bot.ingest.reader import UnknownShape, UnreadableDocument, markdown, read_document, read_text
from bot.ingest.reader.common import paragraphs, unwrapped
from bot.ingest.reader.decode import references_read, unmangled
from bot.ingest.reader.head_forms import inline
from bot.ingest.reader.metadata import guess_metadata
from bot.normalize import plain_spaces
from tests.ingest import copies

TERMS = [
    ("Bajoran Wormhole", "Whenever you play or download this doorway, you must download another."),
    ("cloaking device", "This special equipment allows a ship or facility to cloak."),
    ("Brilgar", "This card has updated lore, as the other printings have it."),
]


def _read(name: str, text: str) -> list[tuple[str, str]]:
    document = read_document(text.encode(), name)
    return [(entry.title, entry.text) for entry in document.entries]


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("glossary.md", "**{title}**: {text}\n\n"),
        ("glossary.md", "- **{title}** – {text}\n"),
        ("glossary.md", "__{title}__ - {text}\n\n"),
        ("post.txt", "[b]{title}[/b] - {text}\n\n"),
    ],
)
def test_bold_terms_are_read_under_their_titles_without_the_marks(name, line):
    page = "# Glossary\n\n" + "".join(line.format(title=t, text=x) for t, x in TERMS)
    assert _read(name, page) == TERMS


def test_a_list_of_plain_items_is_still_a_lists_items():
    # a bullet before plain text is an item of a list (a comment, a step), not an entry
    page = "# Glossary\n\n" + "".join(f"- {t}: {x}\n" for t, x in TERMS)
    with pytest.raises(UnknownShape):
        read_document(page.encode(), "glossary.md")


def test_bold_words_inside_a_sentence_keep_their_marks():
    # only a term that opens the line is a title's mark; emphasis in the text is the text's
    page = "".join(f"{t} – {x} It is **not** optional.\n\n" for t, x in TERMS)
    texts = [text for _, text in _read("glossary.md", page)]
    assert all(text.endswith("It is **not** optional.") for text in texts)


def test_an_em_dash_with_no_space_around_it_separates_a_title_from_its_text():
    page = "".join(f"{t}—{x}\n\n" for t, x in TERMS)
    assert _read("glossary.txt", page) == TERMS


def test_an_em_dash_inside_a_sentence_separates_nothing():
    # "the doorway—which…": the dash opens an aside in lower case, no entry's text
    page = "".join(f"{t} – {x} The card—which stays—counts.\n\n" for t, x in TERMS)
    texts = [text for _, text in _read("glossary.txt", page)]
    assert len(texts) == 3 and all(text.endswith("The card—which stays—counts.") for text in texts)


@pytest.mark.parametrize("between", ["Page {n}", "Star Trek CCG Current Rulings – page {n}"])
def test_page_numbers_and_running_headers_between_entries_are_no_entrys_text(between):
    # a PDF's copy prints its page numbers (and headers) between the entries: chrome,
    # whichever reader the page's shape calls for
    titles = [*TERMS, ("Q-Flash", "When you encounter this doorway, you face the cards.")]
    page = "".join(f"{t} - {x}\n\n{between.format(n=n)}\n\n" for n, (t, x) in enumerate(titles, 12))
    document = read_document(page.encode(), "rulings.txt")
    assert [(e.title, e.text) for e in document.entries] == titles
    assert not [w for w in document.warnings if w.doubt]
    assert any("page chrome removed" in w.message for w in document.warnings)


def test_a_head_broken_after_its_dash_is_titled_without_the_dash():
    # a wrap right after the dash leaves "Bajoran Wormhole –" on a line of its own
    page = "".join(f"{t} –\n{x}\n\n" for t, x in TERMS)
    assert _read("glossary.txt", page) == TERMS


@pytest.mark.parametrize(
    "paste",
    [
        # a Discord quote of a glossary in bold
        "".join(f"> **{t}** – {x}\n>\n" for t, x in TERMS),
        # a mail quoting a Current Rulings page under its sender's line
        "On Mon, Rakal wrote:\n" + "".join(f"> {t} - {x}\n> \n" for t, x in TERMS),
        # a page pasted into Discord as a code block
        "```\n" + "".join(f"{t} – {x}\n\n" for t, x in TERMS) + "```\n",
    ],
)
def test_a_quoted_or_fenced_paste_reads_as_the_page_it_quotes(paste):
    assert _read("paste.txt", paste) == TERMS


def test_a_post_that_quotes_one_line_keeps_its_quote_mark():
    # most of the page is the poster's own: the quote is part of the discussion
    post = "> Is this right?\n\n" + "".join(f"{t} – {x}\n\n" for t, x in TERMS)
    document = read_document(post.encode(), "post.txt")
    assert [e.title for e in document.entries] == [t for t, _ in TERMS]
    assert any("> Is this right?" in w.message for w in document.warnings)


def test_one_row_of_a_table_copied_with_its_tab_is_an_entry_with_a_doubt():
    # the page store's cut leaves one row of a glossary's table under an entry's tail:
    # a known term, a tab, its text; alone, it is as weak a head as a colon's
    page = "of any universal mission or time location.\n" + "\t".join(TERMS[1]) + "\n"
    document = read_document(page.encode(), "table.txt")
    assert [(e.title, e.text) for e in document.entries] == [TERMS[1]]
    assert [w.line for w in document.warnings if w.doubt] == [2]


def test_rows_of_a_card_list_copied_with_tabs_are_no_entries():
    # "Name<tab>Type<tab>Rarity": the row holds no sentence after its first tab
    page = "".join(f"{t}\tPersonnel\tRare\n" for t, _ in TERMS)
    with pytest.raises(UnknownShape):
        read_document(page.encode(), "cards.txt")


def test_one_bold_lead_in_is_a_paragraphs_emphasis_not_a_term():
    # from the last blind set: a developer's notes, one paragraph opening in bold over a
    # dash; only a page of two or more bold terms is a glossary of them
    page = (
        "# Errata coverage\n\n"
        "**Not yet audited** — The table below was not checked against the rulebook's text.\n\n"
        "Entries: **834**, by severity as the rulebook lists them.\n"
    )
    with pytest.raises(UnknownShape):
        read_document(page.encode(), "notes.md")


CHANGELOG = """# Changelog

## Version 1.4.2 2026-09-05

- Fixed the deck builder when a card has no image.
- The search now finds cards by their subtitle.

## Version 1.4.1 2026-08-20

- The rules page shows the Glossary entries for dilemmas and missions.
- Players can export a deck as text for the tournament.
"""


@pytest.mark.parametrize(
    "page",
    [
        CHANGELOG,
        CHANGELOG.replace("## ", ""),  # the same as plain text
        CHANGELOG.replace("## Version ", "v"),
        CHANGELOG.replace("## Version ", "## "),  # a Markdown heading is no feed's title
    ],
)
def test_a_changelogs_dated_releases_are_no_rulings(page):
    # "Version 1.4.2 2026-09-05" reads as the committee's "Title YYYY-MM-DD" feed: a
    # release's name dates a program's section, as no ruling's title does
    with pytest.raises(UnknownShape):
        read_document(page.encode(), "CHANGELOG.md")


INGEST = Path(__file__).parent


@pytest.mark.parametrize(
    ("page", "title", "bold"),
    [
        # the committee's ruling page, its title line pasted in bold
        ("sweep1/1e-single-ruling-dead-end-trekcc-170.txt", "Dead End", "**Dead End**"),
        # a card database's page: the bold title runs into the card's data on its line
        ("fresh11/1e-card-page-dead-end-opencards.txt", "Dead End", "**Dead End**"),
        # a wiki's one entry: one bold lead-in, a title the project knows
        (
            "fresh24/1e-wiki-glossary-unique-and-universal-wikia.txt",
            "unique and universal",
            "**unique and universal**",
        ),
        # a wiki's one entry whose title the project does not know: its bold opens the page
        ("fresh29/1e-outpost-wikia-glossary.txt", "Outpost", "**Outpost**"),
        ("fresh25/1e-wiki-glossary-facility-wikia.txt", "Facility", "__Facility__"),
        # a forum's BBCode bold
        ("sweep1/1e-single-ruling-dead-end-trekcc-170.txt", "Dead End", "[b]Dead End[/b]"),
    ],
)
def test_a_page_whose_title_is_bold_reads_as_the_page_as_saved(page, title, bold):
    text = (INGEST / page).read_text(encoding="utf-8")
    at = next(i for i, line in enumerate(text.split("\n")) if line.lstrip().startswith(title))
    lines = text.split("\n")
    lines[at] = lines[at].replace(title, bold, 1)
    assert _read(page, "\n".join(lines)) == _read(page, text)
    assert _read(page, text)[0][0] == title


def test_a_bold_icon_term_followed_by_its_images_alt_text_reads_as_saved():
    # a letter page's "**Gamma Quadrant icon** Gamma Quadrant": the alt text is not bold
    page = "fresh29/1e-glossary-g-opencards.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    line = "\nGamma Quadrant icon Gamma Quadrant\n"
    assert text.count(line) == 1
    bold = text.replace(line, "\n**Gamma Quadrant icon** Gamma Quadrant\n")
    assert _read(page, bold) == _read(page, text)
    assert "Gamma Quadrant icon" in [title for title, _ in _read(page, text)]


def test_decipher_print_with_its_titles_in_bold_reads_as_saved_and_marks_nothing_new():
    # "**D'DERIDEX ADVANCED** - …": the first "*" is bold's, not Decipher's new-entry mark
    page = "corpus/1e-decipher-current-rulings-1999-08-30-def.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    bold = text.replace("\nD'DERIDEX ADVANCED - ", "\n**D'DERIDEX ADVANCED** - ").replace(
        "\nDAMAGE MARKERS - ", "\n**DAMAGE MARKERS** - "
    )
    assert bold.count("**") == 4
    document = read_document(bold.encode(), page)
    assert _read(page, bold) == _read(page, text)
    assert not any(entry.marked_new for entry in document.entries)


def test_a_cut_capitals_term_with_text_after_its_colon_is_an_entry_not_a_heading():
    # Decipher's "battle: Y", cut after one word, copied with its terms in capitals: the
    # line was taken for a section heading ("RULINGS A-G") and went without a word
    page = "corpus/1e-decipher-current-rulings-2000-07-31.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    assert text.rstrip().endswith("\nbattle: Y")
    document = read_document(text.replace("\nbattle: Y", "\nBATTLE: Y").encode(), page)
    assert [e.title for e in document.entries][-1] == "BATTLE"
    assert any(w.doubt and "'BATTLE'" in w.message for w in document.warnings)


def test_a_markdown_tables_header_row_is_no_entry():
    # "| Word | Meaning |" over "|---|---|": the table's header, whatever its words
    page = (
        "| Word | Meaning |\n|---|---|\n"
        "| Dead End | Place on a mission. Unless Kevin Uxbridge is in play, kills the crew. |\n"
        "| Data | Data may not be killed by a dilemma that kills one personnel at random. |\n"
    )
    document = read_document(page.encode(), "glossary.md")
    assert [e.title for e in document.entries] == ["Dead End", "Data"]
    assert any("header" in w.message for w in document.warnings)


def test_ligatures_a_pdf_viewer_copies_are_spelt_out():
    # copied from a PDF viewer, "ff", "fi" and "ffi" come as one character each
    page = (
        "conditional e\ufb00ects – If game text has a conditional, any game text that "
        "follows is subject to it unless speci\ufb01ed otherwise.\n\n"
        "exchange – When one card is exchanged for another, the e\ufb00ects on it end, "
        "as on Worf, First O\ufb03cer.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["conditional effects", "exchange"]
    assert "specified otherwise" in document.entries[0].text
    assert "First Officer" in document.entries[1].text


def test_a_word_processors_symbol_font_bullets_are_bullets():
    # copied from a Word PDF, a list's bullets are Symbol's and Wingdings' glyphs in the
    # private-use area, each followed by a tab: each item, a paragraph of its own, was read
    # as an entry's title (the next item its text), with no doubt
    page = (
        "RULINGS – General\n\nspecies –\n\nExceptions and clarifications:\n\n"
        "\uf0b7\tTora Ziyal is Bajoran and Cardassian\n\n\uf0a7\tPhlox is a Denobulan\n\n"
        "\uf0d8\tVina is Orion\n\nstopped –\n\nA stopped personnel cannot be used.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["species", "stopped"]
    assert "\n- Phlox is a Denobulan\n" in document.entries[0].text
    # Wingdings' diamond is the "❖" a universal card is named with, and without
    assert read_text("\uf076Nebula – Delete the second paragraph.\n").entries[0].title == ("Nebula")


@pytest.mark.parametrize(
    "top",
    [
        "First Edition Current Rulings Document (03 November 2014)",
        # a narrow column (a PDF's) wraps the title's date on to a line of its own
        "First Edition Current Rulings Document (03 November\n2014)",
    ],
)
def test_a_title_of_capitalised_words_and_a_date_in_brackets_titles_the_document(top):
    # seven capitalised words and no sentence's mark read as a site's menu line, so the
    # committee's own title was passed over for "THE CONTINUING COMMITTEE"
    meta = guess_metadata(f"THE CONTINUING COMMITTEE\n\n{top}\n\nCurrent Rulings are updates.\n")
    assert meta.title == "First Edition Current Rulings Document (03 November 2014)"
    assert meta.date == "2014-11-03" and meta.kind == "current rulings"


@pytest.mark.parametrize(
    ("page", "title", "date"),
    [
        # its line breaks lost: the title runs on into the preamble on one line
        (
            "1e-crd-pdf-text-2010-06-11-docslib.txt",
            "First Edition Current Rulings Document (11 June 2010)",
            "2010-06-11",
        ),
        # cut inside an entry: the title stands under that entry's tail
        ("2e-crd-pdf-text-2007-09-21-scribd.txt", "Current Rulings (9/21/07)", "2007-09-21"),
    ],
)
def test_a_crds_dated_title_in_a_copy_of_its_pdf_titles_it(page, title, date):
    # both were titled by nothing (the file's name stood), their kind unknown
    document = read_document((INGEST / "corpus" / page).read_bytes(), page)
    meta = document.metadata
    assert (meta.title, meta.date, meta.kind) == (title, date, "current rulings")
    # prose that names a document opening a line is no title, below the text's first line
    # or running on for a sentence only
    words = " and more" * 30
    for prose in (
        f"Some page\n\nThe Current Rulings Document (11 June 2010) says so{words}.\n",
        "The Current Rulings Document (11 June 2010) says so, and more.\n\nSome page\n",
    ):
        assert guess_metadata(prose).title != "The Current Rulings Document (11 June 2010)"


@pytest.mark.parametrize(
    ("top", "date"),
    [
        ("Current Rulings (9/21/07)", "2007-09-21"),
        ("Star Trek CCG Current Rulings 02/13/98", "1998-02-13"),
        # a preamble's list of the documents the rules consist of, each with its own date
        ("Rulebook Version 1.7 (8/1/00)\nCurrent Rulings (10/29/01)", None),
        ("Current Rulings (2/30/01)", None),  # no real date
    ],
)
def test_a_documents_title_ending_on_its_date_in_figures_dates_it(top, date):
    # Three Current Rulings pages were undated, so an import of them would have ranked
    # below every dated document of their edition
    meta = guess_metadata(f"{top}\n\nThese rulings take effect at once.\n")
    assert meta.date == date


@pytest.mark.parametrize(
    "index",
    [
        "General Federation Klingon Romulan Non-Aligned\n",
        # the index goes on on a line of its own
        "General Federation Klingon Romulan Non-Aligned Dual-Affiliated\nHolograms, Androids\n",
    ],
)
def test_a_pages_index_of_its_sections_titles_no_document(index):
    # Decipher's FAQ pages were titled by their index of affiliations, whose first item is
    # the first section's heading under it
    page = f"FAQs\n\nSHIPS\n{index}\nGeneral\n\nQ: TRACTOR BEAMS\nA: A ship may tow one ship.\n"
    assert guess_metadata(page).title is None
    # a title over the crumb that repeats its first word is still the title
    assert guess_metadata("Glossary - H\n\nGlossary\n\nhand – Your cards.\n").title == (
        "Glossary - H"
    )


def test_a_sentences_first_line_wrapped_into_the_next_titles_no_document():
    # A Current Rulings page's preamble, wrapped: "The Current Rulings are periodic rules
    # updates that come directly from real play" titled the document in the preview.
    preamble = (
        "The Current Rulings are periodic rules updates that come directly from real play\n"
        "situations not currently addressed by the FAQ. Each set is listed by its date.\n\n"
    )
    meta = guess_metadata(preamble + "Current Rulings are updates.\n")
    assert meta.title is None and meta.kind_mentioned == "current rulings"
    # a short heading over a Glossary's lower-case term is still the title
    assert guess_metadata("Glossary - A\nabduction – A card may capture.\n").title == (
        "Glossary - A"
    )


def test_a_preambles_list_of_documents_titles_no_document():
    # "the following documents: Rulebook Version 1.7 (August 2000) / Glossary Version 1.7
    # (August 2000) / Current Rulings (12/05/01)": a Current Rulings update was titled, and
    # kinded, as the Glossary it lists
    top = (
        "A complete set of rules consists of the following documents:\n"
        "Rulebook Version 1.7 (August 2000)\nGlossary Version 1.7 (August 2000)\n"
        "Current Rulings (12/05/01 - full version)\n\n"
    )
    meta = guess_metadata(top + "assimilation - Correction to assimilation.\n", first_entry=6)
    assert meta.title is None and meta.kind is None  # none of the three it lists


# One ruling as the committee's page prints it, its text copied two ways: wrapped to a
# page's width (a PDF's or a mail's lines, a sentence's end at a line's end or not), and as
# a web page keeps it (each paragraph a line, no blank line between them)
_WRAPPED_RULING = """Alpha 5 Approach

This mission does not list any specific skills in its printed requirements. When a card
references its requirements, no specific skills may be named, chosen, gained or required.
When a skill requirement is added to its requirements, it is treated separately from the
printed 16 skill requirement. Since the mission requires players to select 16 different
skills, a player who selects one of the added skills needs two of that skill.

Applicable Cards: Alpha 5 Approach;
"""


def test_a_paragraph_wrapped_to_a_width_is_one_paragraph_whatever_its_lines_open_with():
    document = read_text(_WRAPPED_RULING)
    assert [e.title for e in document.entries] == ["Alpha 5 Approach"]
    assert "\n" not in document.entries[0].text  # "When a skill…", "printed 16…" run on


def test_a_web_pages_paragraphs_a_line_each_stay_apart():
    sentences = [
        "This mission does not list any specific skills in its printed requirements.",
        "When a skill requirement is added, it is treated apart from the printed one.",
        "Example: If you play Spatial Reconfiguration on it, you gain no skills from it.",
    ]
    text = (
        "Alpha 5 Approach\n\n" + "\n".join(sentences) + "\n\nApplicable Cards: Alpha 5 Approach;\n"
    )
    document = read_text(text)
    assert document.entries[0].text.split("\n\n") == sentences


def test_a_wiki_pages_term_printed_with_wrapped_lines_is_still_its_term():
    # A wiki's page for one term, printed to PDF: its paragraphs wrapped to the page's
    # width, so few lines end a sentence. It is still the page of that term (doubted, as the
    # project does not know it), not an article refused
    page = (
        "Dilemma Side Deck\n\n"
        "Your Dilemma side deck is an optional customized side deck of dilemma cards separate\n"
        "from, and in addition to, your normal game deck. It is placed face down on the table,\n"
        "then opened during the doorway seed phase by the Dyson Sphere Door card, and its cards\n"
        "do not count toward the seed cards you may seed at the start of the game.\n\n"
        "Your Dilemma side deck is stocked with up to 13 dilemma cards. When another card such\n"
        "as Shore Leave allows you to download dilemmas into the game, you must select them\n"
        "from here, and it may hold several copies of the same card, unlike other side decks.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Dilemma Side Deck"]
    assert any(w.doubt and w.line == 1 for w in document.warnings)


def test_a_cards_data_line_wrapped_onto_a_second_line_is_still_the_cards_data():
    # A card's page printed to PDF: its long Lore line wraps; the wrapped part is the card's
    # data, not the first words of its ruling
    page = (
        "Alien Parasites\n\nName: Alien Parasites\n\nType: Dilemma\n\nSet: Premiere\n\n"
        'Lore: "Intelligent parasites enter and take control of a humanoid. Their presence can\n'
        "be detected by a gill-like protrusion on the back of the host's neck.\"\n\n"
        "Gameplay: Unless INTEGRITY>32, Away Team infected.\n\n"
        "When you encounter this dilemma and fail to meet its conditions, the mission or "
        "scouting attempt immediately ends.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Alien Parasites"]
    assert document.entries[0].text.startswith("When you encounter this dilemma")


@pytest.mark.parametrize(
    "block",
    [
        # a table's rows, as wide as each other
        "| Federation | An interstellar alliance dedicated to peace and to progress |\n"
        "| Klingon | An honour-driven warrior race, and the Federation's old rival too |",
        # a list's items, one to a line
        "• is a valid response to the first action or one of its sub-actions; or\n"
        "• explicitly suspends play according to a card's text or to a rule of the game.",
    ],
)
def test_a_tables_rows_and_a_lists_items_are_no_wrapped_paragraph(block):
    rows = list(enumerate(block.split("\n"), 1))
    assert [text for _, text in paragraphs(rows)] == block.split("\n")
    assert unwrapped(rows) == rows  # as the card's data is looked for


# The 2E Current Rulings as a PDF viewer copies its text: lines wrapped to the column, and
# no blank line between entries, where an entry closing without a full stop ("The rest of
# the entry does not change") runs into the next one's head
_VIEWER_COPY = """Second Edition Current Rulings Document
Current Rulings are periodic updates to the Second Edition Rulebook.
abilities – Personnel may have one or more abilities. Each keyword
is an ability.
building a deck – Replace the first bullet with the following: at
least 60 cards. The rest of the entry
does not change
cannot / may not – Game text which specifically forbids
an action cannot be overridden except by game text which
specified what forbidding text is being overridden.
cost – When the cost of a card is looked for and that card
does not have a cost printed on it, that card's cost is zero.
exchange – When a card is exchanged for another, the effects
on it end.
infinite loops – If a player intends to perform a repeatable
series of actions many times, he or she may adjust the game.
"""


def test_a_known_head_run_into_the_entry_above_in_a_viewers_copy_is_a_doubt():
    # the line above ends no sentence: the head is not seen as one, and a doubt names it
    page = _VIEWER_COPY.replace(
        "least 60 cards. The rest of the entry\ndoes not change", "least 60 cards of"
    )
    document = read_text(page)
    titles = [e.title for e in document.entries]
    assert "cannot / may not" not in titles
    doubts = [w for w in document.warnings if w.doubt]
    assert any("'cannot / may not'" in w.message for w in doubts)


def test_the_instruction_that_closes_an_entry_ends_it_in_a_viewers_copy():
    # "The rest of the entry does not change", no full stop, a wrap splitting it: it closes
    # "building a deck", so "cannot / may not" opens its own entry, with no doubt
    document = read_text(_VIEWER_COPY)
    entries = {e.title: e for e in document.entries}
    assert "cannot / may not" in entries
    assert entries["building a deck"].text.endswith("The rest of the entry does not change")
    assert not [w for w in document.warnings if w.doubt]


def test_a_cards_name_and_subtitle_after_a_dash_are_no_head_run_in():
    page = _VIEWER_COPY.replace(
        "cost – When the cost", "cost – When you draw with Kivas Fajo – Collector, the cost"
    )
    document = read_text(page)
    assert not any("Kivas Fajo" in w.message for w in document.warnings)


def test_a_page_pasted_a_paragraph_a_line_without_blank_lines_keeps_its_run_in_heads():
    # A forum or a chat paste drops the blank lines between paragraphs: each paragraph is
    # then one long line. A title run into its text ("Tongo To declare a move …") opens a
    # paragraph there too; the page was refused as prose with no heads.
    page = INGEST / "fresh16" / "1e-holodeck-adventures-rules-supplement-vdocuments.txt"
    text = page.read_text(encoding="utf-8")
    saved = read_text(text, page.name)
    blankless = read_text("\n".join(line for line in text.split("\n") if line.strip()), page.name)
    as_saved = [(e.title, e.text) for e in saved.entries]
    assert [title for title, _ in as_saved] == [
        "Holographic personnel",
        "Captain Proton cards",
        "Tongo",
        "Holo-projectors",
    ]
    # the first entry's line follows the page's heading, not a sentence: it stays unplaced
    assert [(e.title, e.text) for e in blankless.entries] == as_saved[1:]
    assert any(warning.doubt for warning in blankless.warnings)


def test_a_short_line_ending_a_sentence_without_a_blank_line_ends_no_paragraph():
    # The last line of a paragraph wrapped to a page's width may end a sentence with the next
    # line still in it: only a line longer than any page wraps to is a whole paragraph.
    page = INGEST / "fresh16" / "1e-holodeck-adventures-rules-supplement-vdocuments.txt"
    lines = [line for line in page.read_text(encoding="utf-8").split("\n") if line.strip()]
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Tongo "))
    lines[at - 1] = "    the last wrapped line of the paragraph above, and it ends a sentence."
    try:
        titles = [e.title for e in read_text("\n".join(lines), page.name).entries]
    except UnknownShape:
        titles = []
    assert "Tongo" not in titles


@pytest.mark.parametrize(
    "page",
    [
        "corpus/1e-glossary-table-opencards-a.txt",
        "fresh10/1e-faq-decipher-events-klauser-faq17.txt",
        "fresh134/2e-rulings-list-https-later-trekcc.txt",
    ],
)
@pytest.mark.parametrize("space", ["\u00a0", "\u2009", "\u202f"])
def test_a_page_whose_spaces_are_no_break_or_thin_spaces_reads_as_typed(page, space):
    # A web page's "&nbsp;" between every word, or a typesetter's thin spaces: a reader
    # looking for ": " and " – " found a sixth fewer entries on such copies of the real pages.
    text = (INGEST / page).read_text(encoding="utf-8")
    typed = _read(page, text)
    assert typed
    assert _read(page, text.replace(" ", space)) == typed


def _hyphenated(text: str) -> str:
    """Soft hyphens in every long word, as a web page that hyphenates its text sets them."""
    return re.sub(r"\b([A-Za-z]{4})([a-z]{4,})", lambda m: f"{m[1]}\u00ad{m[2]}", text)


@pytest.mark.parametrize(
    "page",
    [
        "corpus/1e-glossary-table-opencards-a.txt",
        "fresh10/1e-faq-decipher-events-klauser-faq17.txt",
        "fresh134/2e-rulings-list-https-later-trekcc.txt",
        "sweep2/1e-decipher-current-rulings-1999-08-30-pqr.txt",
    ],
)
@pytest.mark.parametrize(
    "marked",
    [
        _hyphenated,
        lambda text: text.replace(" ", "\u200b "),  # one between every two words
        lambda text: text.replace(" ", "\u2060 "),  # a word joiner's habit
    ],
    ids=["soft-hyphens", "zero-width-spaces", "word-joiners"],
)
def test_a_page_with_invisible_marks_in_its_words_reads_as_typed(page, marked):
    # A soft hyphen inside a title ("Dilem\u00adma") or a zero-width space before its dash
    # left in the title: copies of the real pages found a sixth of their entries (99 of 594),
    # with 84 wrong reads undoubted, the titles no card or topic the project knew.
    text = (INGEST / page).read_text(encoding="utf-8")
    typed = read_text(text, page)
    copy = marked(text)
    assert copy != text and typed.entries
    read = read_text(copy, page)
    assert [(e.title, e.text, e.line) for e in read.entries] == [
        (e.title, e.text, e.line) for e in typed.entries
    ]
    assert [w.message for w in read.warnings] == [w.message for w in typed.warnings]


@pytest.mark.parametrize(
    "page",
    [
        "sweep2/1e-decipher-current-rulings-1999-08-30-pqr.txt",  # wrapped lines
        "fresh134/2e-rulings-list-https-later-trekcc.txt",
    ],
)
@pytest.mark.parametrize(
    "broken",
    [
        lambda text: text.replace("\n", "\x0b"),  # a word processor's line break (Shift+Enter)
        lambda text: text.replace("\n", "\u2028"),  # Unicode's line separator
        lambda text: text.replace("\n\n", "\u2029").replace("\n", "\u2028"),  # and paragraph
    ],
    ids=["vertical-tabs", "line-separators", "paragraph-separators"],
)
def test_a_page_whose_line_breaks_another_tool_wrote_reads_as_typed(page, broken):
    # A page whose lines a word processor broke with vertical tabs was refused as a binary
    # file; with Unicode's separators it was one line, refused past the line limit or read
    # as a few entries (190 of 594 on copies of the real pages).
    text = (INGEST / page).read_text(encoding="utf-8")
    typed = read_document(text.encode(), page)
    read = read_document(broken(text).encode(), page)
    assert typed.entries
    assert [(e.title, e.text, e.line) for e in read.entries] == [
        (e.title, e.text, e.line) for e in typed.entries
    ]


@pytest.mark.parametrize(
    "page",
    [
        "fresh16/1e-borg-rules-supplement-wiki-wikia.txt",  # rulings with lists in them
        "heldout/1e-wiki-glossary-skill-wikia.txt",
        "fresh48/1e-other-game-star-trek-adversaries-keywords-gameplay-tips.txt",  # refused
    ],
)
@pytest.mark.parametrize("bullet", ["\u25cf ", "\u25aa ", "\u25e6 ", "\u2023 ", "\u00b7\t", "•\t"])
def test_a_lists_bullets_drawn_by_another_tool_are_bullets(page, bullet):
    # A word processor's black circle or square, a web page's triangle: the items of another
    # game's keyword list were read as three entries, where with bullets it is refused.
    text = (INGEST / page).read_text(encoding="utf-8")
    drawn = re.sub(r"^(\s*)• ", lambda m: f"{m[1]}{bullet}", text, flags=re.M)
    assert drawn != text
    try:
        typed = [(e.title, e.text, e.line) for e in read_text(text, page).entries]
    except UnknownShape:
        with pytest.raises(UnknownShape):
            read_text(drawn, page)
        return
    assert [(e.title, e.text, e.line) for e in read_text(drawn, page).entries] == typed


def _mojibake(text: str) -> str:
    """``text``'s UTF-8 read as the Windows Western code page (Latin-1 where it has no
    character), as a mis-set site or an archive prints it: "â€“" for "–"."""
    spelt = []
    for char in text:
        raw = char.encode("utf-8")
        try:
            spelt.append(raw.decode("cp1252"))
        except UnicodeDecodeError:
            spelt.append(raw.decode("latin-1"))
    return "".join(spelt)


@pytest.mark.parametrize(
    "page",
    [
        "corpus/1e-glossary-html-yumpu-p14.txt",
        "fresh134/2e-rulings-list-https-later-trekcc.txt",
        "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt",
        "fresh143/1e-card-page-colony-erratum-clarification-opencards-card-499.txt",  # ❖, “”
    ],
)
def test_a_page_whose_utf8_was_read_as_windows_western_reads_as_typed(page):
    # "Actions â€“ Group", "Kiraâ€™s": copies of the real pages found 468 of 595 entries,
    # 23 wrong reads undoubted, titles ending in "â€" and dashes no dash.
    text = (INGEST / page).read_text(encoding="utf-8")
    mangled = _mojibake(text)
    assert mangled != text
    typed = read_document(text.encode(), page)
    read = read_document(mangled.encode(), page)
    assert typed.entries
    assert [(e.title, e.text, e.line) for e in read.entries] == [
        (e.title, e.text, e.line) for e in typed.entries
    ]


@pytest.mark.parametrize(
    "page",
    [
        "corpus/1e-glossary-html-yumpu-p14.txt",
        "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt",
        "fresh143/1e-card-page-colony-erratum-clarification-opencards-card-499.txt",
    ],
)
@pytest.mark.parametrize(
    "escaped",
    [
        lambda text: text.replace("–", "&ndash;").replace("’", "&rsquo;").replace("“", "&ldquo;"),
        lambda text: text.replace("–", "&#8211;").replace("’", "&#x2019;").replace(" ", "&nbsp;"),
    ],
    ids=["named", "numbered"],
)
def test_character_references_left_in_a_pages_text_read_as_their_characters(page, escaped):
    # An RSS feed's escaped text, a page's source copied: "Actions &ndash; Group" had no
    # dash between title and text; copies of the real pages found 474 of 595.
    text = (INGEST / page).read_text(encoding="utf-8")
    copy = escaped(text)
    assert copy != text
    typed = read_document(text.encode(), page)
    read = read_document(copy.encode(), page)
    assert [(e.title, e.text, e.line) for e in read.entries] == [
        (e.title, e.text, e.line) for e in typed.entries
    ]


def test_only_a_closed_reference_is_read_and_a_pages_html_source_is_not_unescaped():
    assert references_read("Q&A &para 2 &ndash; R&D;") == "Q&A &para 2 – R&D;"
    page = (
        "<html><body><h1>Glossary</h1><p>Kira Nerys &ndash; Shows &lt;b&gt; as text, "
        "not bold. She is a personnel of the game.</p></body></html>"
    )
    (entry,) = read_document(page.encode(), "page.html").entries
    assert "Shows <b> as text" in entry.text


@pytest.mark.parametrize(
    ("dash", "read"),
    [("\u2010", "-"), ("\u2011", "-"), ("\u2212", "-"), ("\u2012", "–"), ("\u2015", "—")],
    ids=["hyphen", "non-breaking-hyphen", "minus", "figure-dash", "horizontal-bar"],
)
def test_a_rarer_dash_between_title_and_text_is_a_dash(dash, read):
    # A PDF's text layer or a word processor may print the spaced dash as a Unicode hyphen,
    # a minus or a figure dash: none was a head's dash, and a Glossary page read one of its
    # five entries.
    page = "corpus/1e-glossary-html-yumpu-p14.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    saved = read_text(text, page)
    copy = read_text(text.replace(" – ", f" {dash} "), page)
    assert [e.title for e in copy.entries] == [
        e.title.replace(" – ", f" {read} ") for e in saved.entries
    ]


def test_a_cards_name_with_a_non_breaking_hyphen_is_the_cards_name():
    page = "U.S.S. Enterprise\u2011E – This ship may not be the target of a dilemma's text.\n"
    assert [e.title for e in read_text(page, "page.txt").entries] == ["U.S.S. Enterprise-E"]


@pytest.mark.parametrize(
    "page",
    [
        "fresh5/1e-current-rulings-2001-02-26-ag-wrapped.txt",  # Decipher's own shape
        "fresh29/2e-ruling-replacing-a-personnel-trekcc.txt",  # a committee's ruling page
        "corpus/1e-glossary-table-opencards-a.txt",
    ],
)
@pytest.mark.parametrize("tag", ["b", "strong", 'a href="https://www.trekcc.org/"'])
def test_html_inline_tags_left_in_a_texts_titles_are_marks(page, tag):
    # "<b>35th Rule of Acquisition</b> - On …" (a page's source copied, a CMS's export):
    # the tags were read as part of the titles, or no title was found (a third of the
    # entries of copies of the real pages, 21 wrong reads undoubted).
    text = (INGEST / page).read_text(encoding="utf-8")
    saved = read_text(text, page)
    close = tag.split()[0]
    titled = text
    for entry in saved.entries:
        titled = titled.replace(entry.title, f"<{tag}>{entry.title}</{close}>", 1)
    assert titled != text
    assert [(e.title, e.text) for e in read_text(titled, page).entries] == [
        (e.title, e.text) for e in saved.entries
    ]


def test_words_in_angle_brackets_and_an_html_pages_escaped_tags_stay():
    page = "Brig – Play on <a specified brig module> of your ship; see <SF> icons.\n"
    (entry,) = read_text(page, "page.txt").entries
    assert "<a specified brig module>" in entry.text and "<SF>" in entry.text


_LATIN1_OF_WINDOWS = {0x2013: 0x96, 0x2014: 0x97, 0x2018: 0x91, 0x2019: 0x92, 0x201C: 0x93}


@pytest.mark.parametrize(
    "page",
    [
        "corpus/1e-glossary-html-yumpu-p14.txt",
        "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt",
        "fresh143/1e-card-page-colony-erratum-clarification-opencards-card-499.txt",
    ],
)
def test_a_pages_windows_dashes_and_quotes_read_as_latin1_read_as_typed(page):
    # A page read as ISO-8859-1 where Windows-1252 was meant holds C1 controls for its
    # dashes and quotes (U+0096 for "–"): copies of the real pages found 473 of 595.
    text = (INGEST / page).read_text(encoding="utf-8")
    controls = text.translate(_LATIN1_OF_WINDOWS)
    assert controls != text
    typed = read_document(text.encode(), page)
    read = read_document(controls.encode(), page)
    assert [(e.title, e.text, e.line) for e in read.entries] == [
        (e.title, e.text, e.line) for e in typed.entries
    ]


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        # letters and symbols of their own
        ("São Paulo, naïve, café, 2½ points", "São Paulo, naïve, café, 2½ points"),
        # a letter before a quote or a dash: no other script's letter
        ("„GRÜ“ and Ö–Ä", "„GRÜ“ and Ö–Ä"),
        ("Ã©©", "é©"),  # the first two are "é"; the third is its own "©"
    ],
)
def test_text_that_reads_as_no_mis_decoded_utf8_is_left(text, meant):
    assert unmangled(text) == meant


def test_other_control_characters_between_lines_are_still_a_binary_files():
    text = (INGEST / "sweep2/1e-decipher-current-rulings-1999-08-30-pqr.txt").read_text("utf-8")
    with pytest.raises(UnreadableDocument, match="binary"):
        read_document(text.replace("\n", "\x01\n").encode(), "page.txt")


def test_a_run_of_spaces_holding_a_no_break_space_is_one_space_and_two_plain_ones_stay():
    # "action&nbsp; more" is one space between words, not the two spaces that mark an icon
    # the source lost ("download one  card"), which a reply words as "(icon)"
    assert plain_spaces("response action\u00a0 more, and \u00a0may be") == (
        "response action more, and may be"
    )
    assert plain_spaces("download one  card") == "download one  card"
    assert plain_spaces("a\u2009\u2009b\u3000c") == "a b c"
    assert plain_spaces("Dilem\u00adma\u200b \u2013 Ne\u200brys\ufeff") == "Dilemma \u2013 Nerys"


@pytest.mark.parametrize(
    "page",
    [
        "corpus/1e-glossary-html-yumpu-p34.txt",  # a Glossary PDF's page as a flip-book
        "fresh14/1e-first-contact-rules-supplement-docslib.txt",  # heads run into one line
        "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt",  # a title running on
    ],
)
def test_a_page_whose_dashes_are_typed_as_two_hyphens_reads_as_saved(page):
    # Plain text types a dash as " -- " (Decipher's FAQ files, mail): the Glossary page
    # read one entry of six, the supplement none of four, and a title running on past its
    # own dash lost its doubt.
    text = (INGEST / page).read_text(encoding="utf-8")
    typed = text.replace(" – ", " -- ").replace(" — ", " -- ")
    assert typed != text
    saved, hyphens = read_text(text, page), read_text(typed, page)
    # a title with parts keeps the dash its copy prints ("Actions -- Sequence of Steps")
    titles = [e.title.replace(" -- ", " – ") for e in hyphens.entries]
    assert titles == [e.title for e in saved.entries]
    assert [w.doubt for w in hyphens.warnings] == [w.doubt for w in saved.warnings]


@pytest.mark.parametrize("dash", [" — ", "—"])
@pytest.mark.parametrize(
    "page",
    [
        "corpus/1e-glossary-html-yumpu-p14.txt",  # after "[BO]" and a title in quotes too
        "corpus/1e-glossary-html-yumpu-p24.txt",
        "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt",  # a title running on
    ],
)
def test_a_glossary_page_whose_dashes_are_em_dashes_reads_as_saved(page, dash):
    # A Glossary page's en dashes printed as em dashes, spaced or set close as American
    # print sets them ("Founder—This characteristic …"): the flip-book pages read a third
    # of their entries, and a title running on past its dash lost its doubt.
    text = (INGEST / page).read_text(encoding="utf-8")
    typed = text.replace(" – ", dash)
    assert typed != text
    saved, em = read_text(text, page), read_text(typed, page)
    # a title with parts keeps the dash its copy prints ("Actions—Sequence of Steps")
    assert [e.title.replace(dash, " – ") for e in em.entries] == [e.title for e in saved.entries]
    assert [w.doubt for w in em.warnings] == [w.doubt for w in saved.warnings]


def test_an_em_dash_inside_a_glossary_pages_sentence_opens_no_entry():
    # The Glossary sets em dashes inside its sentences, after an abbreviation's full stop
    # too ("… matching commanders for U.S.S. / Sao Paulo — but substitutes …"): a known
    # card's name before it is no head where the text after it goes on in lower case.
    page = "corpus/1e-glossary-html-yumpu-p34.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    inserted = text.replace(
        "means that does not require use of RANGE<br />",
        "means that does not require use of U.S.S.<br />\n\n"
        "Sao Paulo — but substitutes like Ben Sisko<br />\n\n"
        "means that does not require use of RANGE<br />",
    )
    assert inserted != text
    titles = [e.title for e in read_text(inserted, page).entries]
    assert titles == [e.title for e in read_text(text, page).entries]


def test_a_heads_line_wrapped_as_a_mail_wraps_it_goes_on_in_one_paragraph():
    # "A Fast Ship Would Be Nice: Opponent may target one personnel on a" / "dual-personnel
    # card (rule 1). …": the text on the head's line and the line under it were two
    # paragraphs, a sentence broken in two on a phone. A wiki page's own wrapped lines read
    # so too ("Actions – Sequence of Steps – Every action" / "has three steps …").
    page = "corpus/1e-dual-personnel-reference-heardworld-a.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    assert _read(page, _mail_wrapped(text)) == _read(page, text)
    wiki = "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt"
    (entry,) = read_text((INGEST / wiki).read_text(encoding="utf-8"), wiki).entries
    assert entry.text.split("\n\n")[0].endswith(
        "Every action has three steps that must occur in order:"
    )


def _mail_wrapped(text: str) -> str:
    return "\n".join(
        "\n".join(textwrap.wrap(line, 72, break_on_hyphens=False)) if len(line) > 72 else line
        for line in text.split("\n")
    )


@pytest.mark.parametrize(
    "page",
    [
        # its first question wrapped onto a second line ("… or just the" / "crew?") was
        # set aside with the preamble, its answer with it
        "fresh10/1e-current-rulings-1997-09-25-qa-excelsior.txt",
        # a ruling page without its title line: the first line wrapped after a comma was
        # taken as the title, with no doubt
        "sweep1/1e-single-ruling-alice-no-title-trekcc-110.txt",
    ],
)
def test_a_page_wrapped_as_a_mail_wraps_it_keeps_its_titles(page):
    text = (INGEST / page).read_text(encoding="utf-8")
    wrapped = _mail_wrapped(text)
    assert wrapped != text
    titles = [e.title for e in read_text(wrapped, page).entries]
    assert titles == [e.title for e in read_text(text, page).entries]


@pytest.mark.parametrize(
    ("page", "term"),
    [
        ("fresh11/1e-wiki-glossary-actions-group-wikia.txt", "actions – group"),
        ("fresh135/1e-wiki-glossary-skills-using-wikia.txt", "Skills – using"),
    ],
)
def test_a_glossary_terms_part_in_title_case_stays_in_its_title(page, term):
    # The wiki's "actions – group – An action …" printed in title case ("Actions – Group –
    # …") was read as "Actions", the part taken for the text (with a doubt): a known term
    # runs on into a part of its own in title case, as into a numbered step.
    text = (INGEST / page).read_text(encoding="utf-8")
    titled = string.capwords(term, " ")
    typed = text.replace(term, titled, 1)
    assert typed != text
    assert [e.title for e in read_text(typed, page).entries] == [titled]


def test_a_title_part_over_a_line_wrapped_two_words_into_its_text_stays_in_the_title():
    # "Actions – Sequence of Steps – Every action" / "has three steps …": two words on the
    # line were too few to tell a sentence from a title's part, so the title was read as
    # "Actions", the part taken for its text. Joined with its wrapped line, the head reads
    # as the line unwrapped does: the same title, the same confidence and doubts.
    wiki = "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt"
    text = (INGEST / wiki).read_text(encoding="utf-8")
    unwrapped = text.replace("Every action\nhas three", "Every action has three", 1)
    assert unwrapped != text
    wrapped, whole = read_text(text, wiki), read_text(unwrapped, wiki)
    assert [e.title for e in wrapped.entries] == ["Actions – Sequence of Steps"]
    assert [(e.title, e.text, e.confidence) for e in wrapped.entries] == [
        (e.title, e.text, e.confidence) for e in whole.entries
    ]
    assert [(w.doubt, w.message) for w in wrapped.warnings] == [
        (w.doubt, w.message) for w in whole.warnings
    ]
    # a card over its type, wrapped so, is still the card's entry
    card = "Dead End – Dilemma – Place this\ndilemma on a planet mission. It is discarded.\n"
    assert [e.title for e in read_text(card, "card.txt").entries] == ["Dead End"]


def test_a_cards_name_does_not_run_on_into_its_type():
    # "Dead End – Dilemma – …" (a card list's line): the card is the title, its type no part
    assert inline("Dead End – Dilemma – Place this dilemma on a planet mission.") == (
        "Dead End",
        "Dilemma – Place this dilemma on a planet mission.",
        "dash",
    )


def test_a_sections_item_under_the_line_introducing_it_opens_with_no_blank_line_between():
    # Decipher's page with its blank lines lost (a paragraph a line): "… see the following
    # listings:" / "battle: Y" ran into the entry above, which read on to the page's end
    # with no doubt.
    page = (INGEST / "corpus/1e-decipher-current-rulings-2000-07-31.txt").read_text(
        encoding="utf-8"
    )
    lost = "\n".join(line for line in page.split("\n") if line.strip())
    saved, copied = read_text(page), read_text(lost)
    assert [e.title for e in copied.entries] == [e.title for e in saved.entries]
    assert [e.title for e in saved.entries] == ["The Trouble With Tribbles", "battle"]
    assert copied.entries[1].text == "Y"


@pytest.mark.parametrize(
    "page",
    [
        "fresh5/2e-single-ruling-trekcc-503.txt",  # the committee's ruling page
        "fresh143/1e-card-page-colony-erratum-clarification-opencards-card-499.txt",
        "fresh68/1e-dual-personnel-reference-heardworld-f.txt",
    ],
)
def test_text_copied_out_of_a_pdf_viewer_reads_its_broken_words_whole(page):
    # A typesetter breaks a long word at a line's end ("determi-" / "ned condition"); copied
    # out of a PDF viewer, the text kept the break, so the ruling read "determi- ned" and
    # its first words matched no expectation, with no doubt.
    text = (INGEST / page).read_text(encoding="utf-8")
    typeset = copies._typeset(text)
    assert re.search(r"[a-z]-\n[a-z]", typeset)
    saved, copied = read_text(text), read_text(typeset)
    assert [(e.title, " ".join(e.text.split())) for e in copied.entries] == [
        (e.title, " ".join(e.text.split())) for e in saved.entries
    ]


def test_a_words_own_hyphen_at_a_lines_end_is_kept():
    # "multi-" over "function card": a word printed with its hyphen stays hyphenated
    page = "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    assert "multi-\nfunction" in text
    assert "multi-function card" in read_text(text).entries[0].text


@pytest.mark.parametrize(
    ("habit", "page"),
    [
        # a web clipper's Markdown: Decipher's new-entry mark escaped ("\* 35th Rule of
        # Acquisition - …"), once; mid-line, where a lost line break ran it into the entry
        # before ("… ship. \*PERSONA"); the others its copy read otherwise, a wrong read
        # undoubted among them
        ("clipped-as-markdown", "fresh28/1e-current-rulings-2001-03-ag-decipher-archive.txt"),
        ("clipped-as-markdown", "sweep2/1e-decipher-current-rulings-1999-08-30-pqr.txt"),
        ("clipped-as-markdown", "corpus/1e-dual-personnel-reference-heardworld-a.txt"),
        ("clipped-as-markdown", "corpus/1e-glossary-html-yumpu-p14.txt"),
        ("clipped-as-markdown", "corpus/2e-crd-pdf-text-2007-09-21-scribd.txt"),
        ("clipped-as-markdown", "fresh7/1e-current-rulings-update-2001-12-05-forum-turnier.txt"),
        # quoted in a forum post, '[quote="…"]' glued to the first line
        ("forum-quoted", "sweep1/1e-single-ruling-dead-end-trekcc-170.txt"),
        ("forum-quoted", "corpus/1e-decipher-current-rulings-2001-09-24-ag.txt"),
        ("forum-quoted", "fresh105/1e-current-rulings-1999-10-25-decipher-archive.txt"),
    ],
)
def test_a_page_a_tool_marked_up_reads_as_the_page_as_saved(habit, page):
    text = (INGEST / page).read_text(encoding="utf-8")
    marked = copies.COPIES[habit](text)
    assert marked != text and ("\\" in marked or "[quote=" in marked)
    assert _read(page, marked) == _read(page, text)


def test_quotes_a_site_printed_with_backslashes_are_read_as_quotes():
    # the committee's 2E ruling page prints the Rulebook's words as \"When one card …\"
    page = "fresh29/2e-ruling-replacing-a-personnel-trekcc.txt"
    (entry,) = read_document((INGEST / page).read_bytes(), page).entries
    assert '"When one card replaces another' in entry.text
    assert "\\" not in entry.text


_RULING_PAGE = "sweep1/1e-single-ruling-dead-end-trekcc-170.txt"  # the committee's page
_RULE_HISTORY = "fresh13/1e-rule-changes-history-trekcc.txt"  # the committee's rule history


@pytest.mark.parametrize(
    ("habit", "page"),
    [
        # titles as links: "[Borg Use Only icon [BO]](#23) – A card …" (an icon in the words)
        ("linked-titles", "corpus/1e-glossary-html-yumpu-p14.txt"),
        ("linked-titles", "corpus/1e-decipher-current-rulings-2001-09-24-ag.txt"),
        ("bbcode-linked-titles", "corpus/1e-glossary-html-yumpu-p14.txt"),
        ("bbcode-linked-titles", "corpus/1e-decipher-current-rulings-2001-09-24-ag.txt"),
        # lone title lines a web clipper saved as headings ("### Dead End")
        ("heading-titles", _RULING_PAGE),
        ("heading-titles", "sweep1/2e-single-ruling-pending-effects-trekcc-29.txt"),
        ("heading-titles", _RULE_HISTORY),
        # title lines typed as a list's items ("- Dead End", "* Dead End")
        ("bulleted-titles", _RULING_PAGE),
        ("bulleted-titles", _RULE_HISTORY),
        ("star-bulleted-titles", _RULING_PAGE),
        ("star-bulleted-titles", _RULE_HISTORY),
    ],
)
def test_a_page_whose_titles_a_tool_marked_reads_as_the_page_as_saved(habit, page):
    folder, name = page.split("/")
    expected = yaml.safe_load((INGEST / folder / "expected.yaml").read_text("utf-8"))
    text = (INGEST / page).read_text(encoding="utf-8")
    marked = copies.HEADS[habit](text, expected["files"][name]["entries"])
    assert marked != text
    assert _read(page, marked) == _read(page, text)


def test_forum_marks_come_off_but_an_icon_in_brackets_stays():
    text = (
        "Dead End – [i]Borg[/i] may [url=https://www.trekcc.org/x]see[/url] this [S] dilemma"
        " ([s]old text[/s]); [b]Note[/b]:\n[list]\n[*]one\n[/list]\n"
        'Q\'s Tent – See [Dead End](https://www.trekcc.org/1e/?id=1 "Dead End") [Bor] [S].'
    )
    assert markdown.without_forum_marks(text).split("\n") == [
        "Dead End – Borg may see this [S] dilemma (old text); **Note**:",
        "",
        "• one",
        "",
        "Q's Tent – See Dead End [Bor] [S].",
    ]
    # without a closing tag, brackets are the page's own: icons, "[sic]"
    assert markdown.without_forum_marks("[S] and [i] [sic]") == "[S] and [i] [sic]"


def test_a_heading_that_prints_a_dash_is_no_title_and_text():
    # "### Actions – Sequence of Steps": the heading is the title whole; read as the title
    # "Actions" over the text "Sequence of Steps …" it would pass without a doubt
    page = "fresh138/1e-wiki-glossary-actions-sequence-of-steps-wikia.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    assert text.startswith("Actions – Sequence of Steps – ")
    headed = text.replace(
        "Actions – Sequence of Steps – ", "### Actions – Sequence of Steps\n\n", 1
    )
    try:
        document = read_document(headed.encode(), page)
    except UnknownShape:
        return
    titles = [entry.title.lstrip("# ") for entry in document.entries]
    assert "Actions" not in titles


def test_a_decipher_ruling_under_a_heading_line_of_its_title_is_a_doubt_not_a_loss():
    # "SCORCHED HAND" on a line of its own over its ruling: the heading ends the entry
    # before it, so the ruling's text is outside any entry. Ignored, it was lost without a
    # doubt, and with it the entries run together after it on its lines.
    page = "fresh16/1e-current-rulings-1999-s-t-starshipexcelsior.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    assert text.count("SCORCHED HAND - You may ask") == 1
    headed = text.replace("SCORCHED HAND - You may ask", "SCORCHED HAND\nYou may ask")
    document = read_document(headed.encode(), page)
    saved = [title for title, _ in _read(page, text)]
    assert [entry.title for entry in document.entries] == [t for t in saved if t != "SCORCHED HAND"]
    (doubt,) = [warning for warning in document.warnings if warning.doubt]
    assert "You may ask your opponent" in doubt.message
    assert doubt.line == text[: text.index("SCORCHED HAND")].count("\n") + 2

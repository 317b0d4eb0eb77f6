"""Issue 38: what the reader cannot place is listed by line, and a moderator can say where
entries begin. A page refused as holding no entry names the lines that open like one; a
correction ``{line: N, head: true}`` (or ``head: Title``) reads the page again with that line
as an entry's head, and a title-like line inside an entry is named by its line so that the
entry can be split the same way."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.answers.imports import read_upload
from bot.answers.moderation import ModerationError
from bot.ingest.reader import UnknownShape, read_document, read_text
from bot.ingest.reader.corrections import CorrectionError, apply, heads_of, parse
from bot.ingest.reader.metadata import guess_metadata

# A rulebook's page: section headings the project does not know, each over prose. Without a
# known head, an alphabetical order or a byline-free convention the reader confirms, it is
# refused (it reads exactly like an article with headings).
RULEBOOK_PAGE = """Rulebook, chapter four

Grappling Hooks
A hook thrown at a ship in orbit is placed beside it until the end of the turn.

Lantern Signals
Signals are revealed one at a time; the player who shows one may not take it back.

Ration Packs
Each personnel who holds a ration pack may stay aboard a disabled ship one more turn.
"""


def test_a_refused_page_lists_the_lines_that_open_like_an_entry():
    with pytest.raises(UnknownShape) as refused:
        read_text(RULEBOOK_PAGE)
    message = str(refused.value)
    assert "no entries found" in message
    for line in ("line 3: Grappling Hooks", "line 6: Lantern Signals", "line 9: Ration Packs"):
        assert line in message
    assert "{line: 3, head: true}" in message
    assert "line 1:" not in message  # the page's own title line is not offered


def test_heads_given_by_line_read_the_refused_page_with_confirmed_entries():
    document = read_text(RULEBOOK_PAGE, heads={3: None, 6: None, 9: "Ration packs"})
    assert document.shape == "general"
    assert [(e.title, e.line, e.confidence) for e in document.entries] == [
        ("Grappling Hooks", 3, 1.0),
        ("Lantern Signals", 6, 1.0),
        ("Ration packs", 9, 1.0),
    ]
    assert document.entries[1].text.startswith("Signals are revealed one at a time")
    assert not [w for w in document.warnings if w.doubt]


# An FAQ copy that lost its topic lines: each group opens with its numbered question.
UNTITLED = """Miscellaneous Questions

  1. Can you look through your discard pile during a game?
  1. No, unless a special card allows it.

  1. What happens if you run out of cards to draw?
  1. The game ends as soon as either player's draw deck runs out.
"""


def test_a_title_given_to_a_line_of_text_heads_it_and_keeps_its_words():
    # the moderator names each group's topic at its question: the question is the entry's
    # text, not a title to be replaced (it was lost under the title given)
    document = read_text(UNTITLED, heads={3: "Looking at cards", 6: "Running out of cards"})
    assert [(e.title, e.line) for e in document.entries] == [
        ("Looking at cards", 3),
        ("Running out of cards", 6),
    ]
    assert document.entries[0].text.startswith("1. Can you look through your discard pile")
    assert document.entries[1].text.startswith("1. What happens if you run out of cards")
    assert "The game ends as soon as" in document.entries[1].text


INGEST = Path(__file__).parent


@pytest.mark.parametrize(
    "page",
    [
        "fresh20/1e-faq-decipher-personnel-klauser-faq15.txt",  # Decipher's FAQ
        "fresh21/1e-decipher-current-rulings-1998-02-13-newsgroup.txt",  # Current Rulings
        "fresh21/1e-qcard-page-pla-net-opencards-st1e.txt",  # a card's page
    ],
)
def test_a_head_a_doubt_offers_splits_its_entry_and_keeps_the_pages_read(page):
    # the doubt says "split them: {line: N, head: true}"; doing so read the page again with
    # the general reader, which lost every entry the page's own shape had read
    path = INGEST / page
    document = read_document(path.read_bytes(), path.name)
    offered = next(
        int(m.group(1))
        for w in document.warnings
        if w.doubt and (m := re.search(r"\{line: (\d+), head: true\}", w.message))
    )
    split = read_document(path.read_bytes(), path.name, heads={offered: None})
    assert split.shape == document.shape
    kept = [(e.title, e.line) for e in split.entries if e.line != offered]
    assert kept == [(e.title, e.line) for e in document.entries]
    (new,) = [e for e in split.entries if e.line == offered]
    owner = next(e for e in reversed(document.entries) if e.line < offered)
    cut = next(e for e in split.entries if e.line == owner.line)
    # the owner's text now ends where the new entry's line begins, and nothing is lost
    assert owner.text.startswith(cut.text) and len(cut.text) < len(owner.text)
    said = " ".join(owner.text.split())
    assert " ".join((cut.text + " " + new.title + " " + new.text).split()) == said


def test_two_heads_inside_one_entry_split_it_in_three_in_order():
    page = (
        "Kevin Uxbridge - A Douwd who may nullify one card, as the card says.\n\n"
        "Signal Lanterns\nSignals are revealed one at a time, in the order shown.\n\n"
        "Ration Packs\nEach personnel holding one may stay aboard one more turn.\n"
    )
    document = read_text(page)
    assert [e.line for e in document.entries] == [1]  # both headings read into its text
    split = read_text(page, heads={3: None, 6: "Ration packs"})
    assert [(e.title, e.line, e.text) for e in split.entries] == [
        ("Kevin Uxbridge", 1, "A Douwd who may nullify one card, as the card says."),
        ("Signal Lanterns", 3, "Signals are revealed one at a time, in the order shown."),
        ("Ration packs", 6, "Each personnel holding one may stay aboard one more turn."),
    ]


# Two known heads and, inside the second entry, a heading the project does not know.
GLUED = """Kevin Uxbridge - A Douwd who may nullify one card, as the card says.

Q-Flash - A doorway that opens the Q-Continuum side deck.

Signal Lanterns
Signals are revealed one at a time; the player who shows one may not take it back.
"""


def test_a_title_like_line_inside_an_entry_is_named_by_its_line_and_can_be_split_off():
    document = read_text(GLUED)
    assert [e.title for e in document.entries] == ["Kevin Uxbridge", "Q-Flash"]
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert "'Signal Lanterns' (line 5)" in doubt.message
    assert "{line: 5, head: true}" in doubt.message
    split = read_text(GLUED, heads={5: None})
    assert [(e.title, e.line) for e in split.entries] == [
        ("Kevin Uxbridge", 1),
        ("Q-Flash", 3),
        ("Signal Lanterns", 5),
    ]
    assert split.entries[1].text == "A doorway that opens the Q-Continuum side deck."
    assert not [w for w in split.warnings if w.doubt]


def test_a_head_on_a_blank_or_missing_line_is_refused_by_name():
    with pytest.raises(CorrectionError, match="line 2: no text there"):
        read_text(RULEBOOK_PAGE, heads={2: None})
    with pytest.raises(CorrectionError, match="line 400: no text there"):
        read_text(RULEBOOK_PAGE, heads={3: None, 400: None})


def test_head_corrections_are_checked_and_kept_with_the_others():
    items = parse("- {line: 3, head: true}\n- {line: 6, head: Signals}\n")
    assert heads_of(items) == {3: None, 6: "Signals"}
    document = read_text(RULEBOOK_PAGE, heads=heads_of(items))
    fixed = apply(document, items)
    assert [(e.title, e.confidence) for e in fixed.entries] == [
        ("Grappling Hooks", 1.0),
        ("Signals", 1.0),
    ]
    assert fixed.entries[1].text.endswith("one more turn.")  # the third heading stays text
    for bad in ("- {line: 3, head: 7}\n", "- {line: 3, head: true, drop: true}\n"):
        with pytest.raises(CorrectionError):
            parse(bad)


def test_an_upload_with_heads_is_read_in_the_worker_with_them():
    content = RULEBOOK_PAGE.encode()
    with pytest.raises(ModerationError, match="line 3: Grappling Hooks"):
        read_upload(content, "rulebook.txt")
    read = read_upload(
        content, "rulebook.txt", [{"line": 3, "head": True}, {"line": 6, "head": True}]
    )
    assert [e.title for e in read.entries] == ["Grappling Hooks", "Lantern Signals"]
    assert read.entries[1].text.endswith("one more turn.")  # the third heading stays text
    with pytest.raises(ModerationError, match="Corrections not applied: line 2"):
        read_upload(content, "rulebook.txt", [{"line": 2, "head": True}])


# The document's title, as the preview and every answer's source show it: what the page prints
# above its first entry, never a site's menu, a breadcrumb, a date or a glued link line.
TITLED = """main navigationstar trek main navigation
You are here
Go back
DECIPHER.com > star trek ccg > rules and current rulings
Thursday, August 9, 2007
{heading}

Kevin Uxbridge - A Douwd who may nullify one card, as the card says.

Q-Flash - A doorway that opens the Q-Continuum side deck.
"""


def test_the_documents_title_is_the_heading_it_prints_not_the_sites_chrome():
    titled = read_text(TITLED.format(heading="Glossary - K and Q"))
    assert titled.metadata.title == "Glossary - K and Q"
    untitled = read_text(TITLED.format(heading=""))
    assert untitled.metadata.title is None  # the moderator names it; the file's name stands


def test_a_page_of_one_ruling_is_titled_by_it_when_it_prints_no_kind_of_document():
    page = (
        "CardlistsList RulingsPrint Rulings\nSecond Edition\n\nPending Effects\n\n"
        "A pending effect waits until the action that started it is complete, then resolves.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Pending Effects"]
    assert document.metadata.title == "Pending Effects"


def test_a_flip_book_copy_read_by_its_heads_loses_the_sites_markup():
    # a rules supplement's flip-book page: every line ends "<br />" and the site bolds
    # words ("Blaze <strong>of</strong> Glory"); the head read the title with its markup
    page = INGEST / "fresh16/1e-blaze-of-glory-rules-supplement-yumpu.txt"
    document = read_document(page.read_bytes(), page.name, heads={26: None})
    (entry,) = document.entries
    assert entry.title == "BATTLE BRIDGE SIDE DECK"
    assert entry.text.startswith("Blaze of Glory introduces more exciting and realistic")
    assert "<" not in entry.text


def test_a_rules_update_read_by_its_heads_is_named_dated_and_kinded_as_it_prints():
    # the committee's monthly article, read with the heads its refusal lists: it was titled
    # by a section's heading ("Monthly Rulings"), called a glossary (it quotes a Glossary
    # entry) and left undated (it prints "2nd April 2024" on a line of its own)
    page = INGEST / "fresh20/1e-rules-update-2024-04-trekcc-3607.txt"
    document = read_document(page.read_bytes(), page.name, heads={15: None, 23: None, 29: None})
    meta = document.metadata
    assert (meta.title, meta.kind, meta.date) == (
        "Rules Update, April 2024",
        "rulings feed",
        "2024-04-02",
    )


@pytest.mark.parametrize(
    ("top", "named", "mentioned"),
    [
        # the kind the title names wins over a word of the text below it
        ("Q-Continuum Rules Supplement\n\nSee the Glossary for older rules.", "rulebook", None),
        ("Rulebook Glossary - M\n\nThese Current Rulings entries moved here.", "glossary", None),
        # a word of the text only suggests a kind
        ("A page of notes\n\nSee the Current Rulings for the rest.", None, "current rulings"),
    ],
)
def test_the_kind_a_title_names_comes_before_the_words_of_the_text(top, named, mentioned):
    meta = guess_metadata(top)
    assert (meta.kind, meta.kind_mentioned) == (named, mentioned or named)


@pytest.mark.parametrize(
    ("line", "date"),
    [
        ("2nd April 2024", "2024-04-02"),
        ("4 October 2021", "2021-10-04"),
        ("April 2, 2024", "2024-04-02"),
        ("Thursday, August 9, 2007", "2007-08-09"),
        ("31st February 2024", None),  # no real date
        ("Printed 2nd April 2024 for the players", None),  # not a line of only a date
        # in figures, as Decipher's Current Rulings printed their date under the title
        ("7/31/00", "2000-07-31"),
        ("2016-09-19", "2016-09-19"),
        ("31/07/00", None),  # a day first: no date the project can tell, so none
        # the date's line glued to the next by a copy that lost the line break
        ('12/05/01This special "update" document contains only new rulings', "2001-12-05"),
        ("12/05/01 rulings were issued on that day", None),  # a sentence, not a date's line
    ],
)
def test_a_line_of_only_a_date_above_the_entries_dates_the_page(line, date):
    page = f"Rules Update\n\n{line}\n\nSome text about the month's rulings.\n"
    meta = guess_metadata(page)
    assert meta.date == date
    assert meta.title != line


def rulebook_ingest(store_copy: Path, tmp_path: Path) -> tuple[list[str], Path]:
    """The command line of ``rulings ingest`` on :data:`RULEBOOK_PAGE` saved in
    ``tmp_path`` (1E, a rulebook), on ``store_copy`` and the bundled data; and its data."""
    data = Path(__file__).resolve().parents[2] / "rulings_data"
    page = tmp_path / "rulebook.txt"
    page.write_text(RULEBOOK_PAGE, encoding="utf-8")
    argv = ["--data", str(data), "--db", str(store_copy), "ingest", str(page)]
    return [*argv, "--edition", "1E", "--kind", "rulebook"], data


def test_a_moderator_imports_a_refused_page_by_naming_its_heads(store_copy, tmp_path, capsys):
    from bot.cli.main import main

    argv, data = rulebook_ingest(store_copy, tmp_path)
    assert main(argv) == 2
    refusal = capsys.readouterr().err
    assert "line 3: Grappling Hooks" in refusal and "head: true" in refusal
    fixes = tmp_path / "heads.yaml"
    fixes.write_text("- {line: 3, head: true}\n- {line: 6, head: true}\n- {line: 9, head: true}\n")
    assert main([*argv, "--corrections", str(fixes), "--apply", "--accept-warnings"]) == 0
    assert "import" in capsys.readouterr().err
    found = main(["--data", str(data), "--db", str(store_copy), "search", "grappling hooks"])
    assert found == 0
    assert "Grappling Hooks (1E) — Rulebook, chapter four" in capsys.readouterr().out


def test_a_pasted_page_that_prints_no_title_asks_for_one(rulings):
    from bot.answers.imports import PASTED

    page = GLUED.split("\n\nSignal Lanterns")[0].encode()  # two entries, no title above them
    with pytest.raises(
        ModerationError, match="prints no title the reader can tell: give the document.s title"
    ):
        rulings.preview_import(page, PASTED, edition="1E", kind="glossary")
    named = rulings.preview_import(page, PASTED, edition="1E", kind="glossary", title="Q cards")
    assert named.document["title"] == "Q cards"
    uploaded = rulings.preview_import(page, "q-cards.txt", edition="1E", kind="glossary")
    assert uploaded.document["title"] == "q-cards.txt"  # a file's own name stands in


def test_a_refused_page_run_together_on_one_line_says_how_to_upload_it():
    # Heads inside one line cannot be named by their line: the page needs its breaks back
    prose = "This section of the rules goes on without any title that the reader knows. " * 30
    with pytest.raises(UnknownShape) as refused:
        read_text(prose.strip() + "\n")
    assert "Line 1 runs 2,249 characters without a break" in str(refused.value)
    assert "put a line break before each entry's title" in str(refused.value)
    # a page of ordinary paragraphs gets no such advice
    with pytest.raises(UnknownShape) as paragraphs:
        read_text(prose.replace(". ", ".\n\n"))
    assert "without a break" not in str(paragraphs.value)


# A rulebook page whose headings the reader does not take: one over a paragraph a wrap cut
# short of a sentence on its first line, one in Title Case ending with an abbreviation's
# full stop, one over a question introduced by a lead-in line, and one heading that holds a
# colon, which a head named by its listed title keeps whole.
LISTED_PAGE = """Rulebook, part two

The First Ultra-Rare Card
Issued by popular demand,
the first ultra-rare card can be found in this set at one in
every hundred packs.

The Meaning Of Capture, Cumulative, Etc.
Sometimes, you may capture cards from an opponent. They are returned after the game.

Choose to be Stopped

a player asks:

May a personnel chosen to be stopped still be selected for a battle later that turn?

Phase One: Customizing a Deck
Each player builds a deck of sixty cards before the game begins.
"""


def test_a_refusal_lists_headings_over_wrapped_or_introduced_text_and_title_case_ones():
    with pytest.raises(UnknownShape) as refused:
        read_text(LISTED_PAGE)
    assert refused.value.heads == [
        (3, "The First Ultra-Rare Card"),
        (8, "The Meaning Of Capture, Cumulative, Etc."),
        (11, "Choose to be Stopped"),
        (17, "Phase One: Customizing a Deck"),
    ]
    for line, title in refused.value.heads:
        assert f"line {line}: {title}" in str(refused.value)


def test_a_head_named_by_its_listed_title_keeps_the_title_whole_and_the_text_apart():
    document = read_document(
        LISTED_PAGE.encode(), "rulebook.txt", heads={17: "Phase One: Customizing a Deck"}
    )
    (entry,) = document.entries
    assert entry.title == "Phase One: Customizing a Deck"
    assert entry.text == "Each player builds a deck of sixty cards before the game begins."


def test_a_title_run_into_its_text_is_taken_off_the_text_when_named():
    page = (
        "Introduction Welcome to the game. This set gives you the cards to begin.\n"
        "The Affiliations It is possible for a member of one species to serve another.\n"
        "Cloaked Ships Most Romulan ships may cloak once each turn.\n"
    )
    named = {2: "The Affiliations", 3: "Cloak"}  # "Cloak" ends inside the line's first word
    document = read_document(page.encode(), "rulebook.txt", heads=named)
    assert [(e.title, e.text) for e in document.entries] == [
        ("The Affiliations", "It is possible for a member of one species to serve another."),
        ("Cloak", "Cloaked Ships Most Romulan ships may cloak once each turn."),
    ]

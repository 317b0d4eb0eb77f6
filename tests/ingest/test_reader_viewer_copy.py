"""Issue 38: the committee's Current Rulings Document copied out of a PDF viewer. The copy
keeps each printed line and loses the blank lines between paragraphs. So a short line ending
a sentence is the only sign that a paragraph ended, and a title printed on a line of its own
("Borg", "stopped –") stands between two paragraphs with nothing around it.

Before, the reader joined such a copy's lines into one paragraph per entry. "Borg" and its
amendment ran into the text of "battle – affiliation restrictions", and no doubt said so.
Now:
- each paragraph is kept;
- a title alone on its line is named by a doubt with the line to split at (a term's line
  over its dash, "stopped –", too), and so is each head the copy ran into the text before
  the first entry;
- the split gives the title without its dash or its "new" mark ("*Lore Returns")."""

from __future__ import annotations

import difflib
import re
import textwrap
from pathlib import Path

import pytest
import yaml

from bot.answers.imports import read_upload
from bot.ingest.reader import read_text
from bot.ingest.reader.common import check, doubt_missed_heads, title_like
from bot.ingest.reader.corrections import parse
from bot.ingest.reader.general import given_head
from bot.ingest.reader.metadata import guess_metadata
from bot.ingest.reader.model import Parsed, ReadEntry
from tests.ingest.synthetic import titles_unknown

DATA = Path(__file__).resolve().parents[2] / "rulings_data"
SOURCE = DATA / "sources" / "1e-current-rulings-2014-11-03.md"
ENTRIES = DATA / "entries" / "1e-crd-2014-11-03.yaml"
WIDTH = 110  # the characters of a printed line of the document, as a viewer copies it


def viewer_copy(markdown: str, width: int = WIDTH) -> str:
    """``markdown`` as a PDF viewer copies its print: each paragraph wrapped to the page's
    width, no blank line anywhere, emphasis marks gone (a new entry's "*" kept, as printed),
    a list's items after a bullet."""
    lines: list[str] = []
    for line in markdown.split("\n"):
        # "***Lore Returns**", "**\\*cost reduction**": a new entry's mark, then bold
        new = line.startswith(("***", "**\\*"))
        line = line.replace("\\*", "")
        line = re.sub(r"\*\*|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)|[<>]", "", line).strip()
        line = re.sub(r"^- ", "• ", re.sub(r"^#+ ", "", line))  # a heading, as printed
        if line:
            lines += textwrap.wrap(("*" if new else "") + line, width, break_on_hyphens=False)
    return "\n".join(lines)


def paginated(copy: str, every: int = 55) -> str:
    """``copy`` with the page breaks a viewer copies (the page's number, the running title),
    one every ``every`` lines and one after the term's line "stopped –", as the print has."""
    out: list[str] = []
    for number, line in enumerate(copy.split("\n"), 1):
        out.append(line)
        if number % every == 0 or line.strip() == "stopped –":
            out += [f"Page {len(out) // every + 1}", "", "First Edition Current Rulings", ""]
    return "\n".join(out)


def _bundled(entries: Path = ENTRIES) -> dict[str, str]:
    loaded = yaml.safe_load(entries.read_text(encoding="utf-8"))["entries"]
    return {entry["title"]: entry["text"] for entry in loaded}


def _named(title: str, text: str, doubts: str) -> bool:
    """Whether a doubt names the entry: its title as printed ("'*Lore Returns'", a new
    entry's), the words before the title's own dash ("'actions'"), or the text a doubt set
    aside ("References in lore to …")."""
    lead = title.split(" – ")[0]
    named = (f"'{title}'", f"'*{title}'", f"'{lead}'", text[:30])
    return any(words in doubts for words in named)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[*_<>]", "", text).split())


# The bundled documents a viewer's copy is made of (the openCards terms table is no print),
# with the share of their entries a copy of each reads under the titles without help.
COPIED = [
    ("1e-current-rulings-2014-11-03.md", "1e-crd-2014-11-03.yaml", 0.85),
    ("2e-current-rulings-2011-10-05.md", "2e-crd-2011-10-05.yaml", 0.8),
    ("2e-current-rulings-2014-07-07.txt", "2e-crd-2014-07-07.yaml", 0.9),
    ("1e-glossary-m.txt", "1e-glossary-m.yaml", 0.9),
]


@pytest.mark.parametrize("width", [80, WIDTH])
@pytest.mark.parametrize(("source", "entries", "share"), COPIED, ids=[c[0] for c in COPIED])
def test_no_entry_of_a_copied_document_is_lost_without_a_doubt_naming_it(
    source, entries, share, width
):
    copy = viewer_copy((DATA / "sources" / source).read_text(encoding="utf-8"), width)
    document = read_text(copy, filename="copy.txt")
    read = {entry.title for entry in document.entries}
    doubts = " ".join(w.message for w in document.warnings if w.doubt)
    bundled = _bundled(DATA / "entries" / entries)
    # an entry's head the copy ran into other text is named in a doubt, never lost
    silent = [t for t, text in bundled.items() if t not in read and not _named(t, text, doubts)]
    assert not silent
    assert len(read & set(bundled)) >= share * len(bundled)


def test_a_short_line_ending_a_sentence_ends_its_paragraph_in_a_copy_without_blank_lines():
    document = read_text(viewer_copy(SOURCE.read_text(encoding="utf-8")), filename="crd.txt")
    bundled = _bundled()
    # each entry read as the bundled one opens keeps its paragraphs (a list's items aside:
    # a copy prints each on a line, a paragraph of its own). A paragraph whose last line the
    # wrap filled cannot be told from one that goes on: most, not all.
    kept = compared = 0
    for entry in document.entries:
        want = [p for p in bundled.get(entry.title, "").split("\n\n") if p.strip()]
        got = [p for p in entry.text.split("\n\n") if p.strip()]
        if len(want) < 2 or _words(got[0])[:30] != _words(want[0])[:30]:
            continue
        if any(p.lstrip().startswith(("- ", "•")) for p in want):
            continue
        compared += 1
        kept += len(got) == len(want)
    assert compared >= 8
    assert kept >= 0.8 * compared


def test_a_title_split_off_where_the_doubt_says_loses_its_dash_and_new_mark():
    # a new document (none of its titles known yet), a page break after "stopped –": the
    # doubt names "Stop First Contact –" and "stopped" inside the entry above
    copy = paginated(viewer_copy(SOURCE.read_text(encoding="utf-8")))
    with titles_unknown(list(_bundled())):
        document = read_text(copy, filename="crd.txt")
        offered = _offered(document)
        split = read_text(copy, filename="crd.txt", heads={n: None for n in offered})
    heads = {entry.title for entry in split.entries if entry.line in offered}
    assert heads == {"Stop First Contact", "stopped"}
    # the star a Current Rulings Document prints before a new entry's title marks it new
    starred = given_head(0, 9, "*Lore Returns", None)
    assert (starred.title, starred.marked_new) == ("Lore Returns", True)
    assert given_head(0, 9, "stopped –", None).title == "stopped"


def test_a_term_on_a_line_of_its_own_over_its_text_reads_as_a_title_line():
    assert title_like("stopped –", alone=True) == "stopped"
    assert title_like("couple –", alone=True) == "couple"
    # not inside a paragraph, and not a sentence a wrap broke at its dash
    assert title_like("stopped –", alone=False) is None
    assert title_like("when your crew or Away Team –", alone=True) is None


def test_an_entry_holding_a_terms_line_over_more_text_is_doubted_with_its_line():
    text = (
        "This entry is replaced with: See timeline disruption.\n\nstopped –\n\n"
        'Add the following bullet point to the section "some additional notes".'
    )
    lines = ["Stop First Contact –", *text.split("\n")]
    entry = ReadEntry(title="Stop First Contact", text=text, line=1)
    (doubt,) = [w for w in check([entry], lines=lines) if w.doubt]
    assert "'stopped'" in doubt.message and "{line: 4, head: true}" in doubt.message


def test_every_line_before_the_first_entry_that_opens_like_one_is_named():
    before = [
        (16, "actions – step 1: initiation – Add the following before the paragraph:"),
        (18, "Some actions require a specific card to be played as a cost in order to resolve."),
        (27, "Alien Parasites"),
        (28, "replace the first sentence of the final paragraph with the following:"),
    ]
    result = Parsed()
    doubt_missed_heads(result, before, "before the first entry")
    (doubt,) = result.warnings
    assert doubt.doubt and doubt.line == 16
    assert "'actions' (line 16)" in doubt.message
    assert "'Alien Parasites' (line 27)" in doubt.message


def test_a_known_title_over_no_text_before_the_first_entry_is_a_posts_line_not_a_head():
    # a newsgroup post's author, a card's name too, over the post's header lines
    before = [(6, "Major Rakal"), (8, "unread,"), (9, "Feb 13, 1998, 2:00:00 AM")]
    result = Parsed()
    doubt_missed_heads(result, before, "before the first entry")
    assert not result.warnings


def _offered(document) -> set[int]:
    """The lines a document's doubts name as possible heads."""
    found = set()
    for warning in document.warnings:
        if warning.doubt:
            for pair in re.findall(r"\(line (\d+)\)|\{line: (\d+), head: true\}", warning.message):
                found |= {int(number) for number in pair if number}
    return found


@pytest.mark.parametrize("paged", [False, True], ids=["one page", "paginated"])
def test_naming_the_lines_the_doubts_name_reads_every_entry_of_the_document(paged):
    # The committee's next document, none of its titles known yet. Before, a head named in
    # text the shape set aside read the whole page again with the general reader, which
    # lost entries the shape had read.
    copy = viewer_copy(SOURCE.read_text(encoding="utf-8"))
    copy = paginated(copy) if paged else copy
    with titles_unknown(list(_bundled())):
        document = read_text(copy, filename="crd.txt")
        named = read_text(copy, filename="crd.txt", heads={n: None for n in _offered(document)})
    assert named.shape == document.shape
    assert set(_bundled()) <= {entry.title for entry in named.entries}
    assert not _offered(named)  # no doubt offers a head still


def test_an_editing_instruction_goes_with_the_entry_split_off_with_it():
    # a page break after "stopped –" left "Stop First Contact" and "stopped" inside
    # "Comparing species", with their instructions ("This entry is replaced with: …",
    # "Add the following bullet point …"): a split left them with the entry above
    copy = paginated(viewer_copy(SOURCE.read_text(encoding="utf-8")))
    document = read_text(copy, filename="crd.txt")
    named = read_text(copy, filename="crd.txt", heads={n: None for n in _offered(document)})
    bundled = yaml.safe_load(ENTRIES.read_text(encoding="utf-8"))["entries"]
    want = {e["title"]: [a["action"] for a in e.get("amendments", [])] for e in bundled}
    got = {e.title: [a.action for a in e.amendments] for e in named.entries}
    assert got["Comparing species"] == []
    assert got["Stop First Contact"] == want["Stop First Contact"] == ["replace entry"]
    assert got["stopped"] == want["stopped"] == ["add"]
    same = [title for title in want if got.get(title) == want[title]]
    assert len(same) >= 0.9 * len(want)


# Decipher's Current Rulings as a board copied it: a ruling whose title the page printed as
# a heading in capitals, over its text
HEADED = """Rulings Updated 09/24/01

RULINGS

ASSIMILATION - Assimilating a personnel does not take the personnel out of play.

BATTLE - Each player's ships in a battle fire at once; damage is then applied.

SCORCHED HAND

This dilemma is discarded after its effect, even where the Away Team is stopped by it.

CLOAKING - A cloaked ship may not fire, and may not be fired upon.
"""


def test_text_under_a_heading_outside_any_entry_offers_the_heading_as_its_title():
    document = read_text(HEADED, filename="rulings.txt")
    assert document.shape == "decipher-current-rulings"
    (doubt,) = [w for w in document.warnings if w.doubt and "outside any entry" in w.message]
    assert "{line: 9, head: true}" in doubt.message and "'SCORCHED HAND'" in doubt.message
    named = read_text(HEADED, filename="rulings.txt", heads={9: None})
    assert [e.title for e in named.entries] == [
        "ASSIMILATION",
        "BATTLE",
        "SCORCHED HAND",
        "CLOAKING",
    ]
    assert named.entries[2].text.startswith("This dilemma is discarded")
    assert not [w for w in named.warnings if w.doubt]


@pytest.mark.parametrize("width", [80, WIDTH])
def test_the_copy_is_titled_by_the_documents_title_not_its_publishers_name(width):
    # the prose under the title names "Current Rulings" too, with no blank line between:
    # the two were taken for a preamble's list of documents, and the publisher's line above
    # ("THE CONTINUING COMMITTEE") titled the document. At 80 characters the prose's first
    # line ("Current Rulings are periodic updates to the First Edition Rulebook, including")
    # is as short as a title: it wraps into the next line's lower case, so it is prose.
    copy = viewer_copy(SOURCE.read_text(encoding="utf-8"), width)
    metadata = read_text(copy, filename="crd.txt").metadata
    assert metadata.title == copy.split("\n")[1]
    assert metadata.title.startswith("First Edition Current Rulings Document")
    assert (metadata.kind, metadata.date) == ("current rulings", "2014-11-03")


@pytest.mark.parametrize("width", [50, 66, WIDTH])
def test_a_running_header_gives_way_to_the_whole_title_it_cuts_short(width):
    # pdftotext prints a page's running header first: the title cut short. At 66 characters
    # the prose under the title ("Current Rulings are periodic updates to the First
    # Edition") wraps into a capital: it is no document of a list, being no title's case.
    source = SOURCE.read_text(encoding="utf-8")
    copy = "First Edition Current Rulings\n\n" + viewer_copy(source, width)
    metadata = read_text(copy, filename="crd.txt").metadata
    assert metadata.title == "First Edition Current Rulings Document (03 November 2014)"
    # a line naming another document is no fuller title of the header's
    other = "Current Rulings\n\nGlossary Version 1.7 (August 2000)\n\n" + copy.split("\n", 4)[4]
    assert read_text(other, filename="crd.txt").metadata.title == "Current Rulings"
    # a preamble's list of documents is still one, a bracket's words in lower case or not
    listed = (
        "Rulebook Version 1.7 (August 2000)\nGlossary Version 1.7 (August 2000)\n"
        "Current Rulings (12/05/01 - full version)\n"
    )
    assert guess_metadata(listed).title is None


def test_a_title_over_its_date_in_brackets_is_one_title():
    # the 2E document prints "Current Rulings Document", a blank line, "(7 July 2014)"
    source = (DATA / "sources" / "2e-current-rulings-2014-07-07.txt").read_text(encoding="utf-8")
    for text in (source, viewer_copy(source, 80)):
        metadata = read_text(text, filename="crd-2e.txt").metadata
        assert metadata.title == "Current Rulings Document (7 July 2014)"
        assert (metadata.edition, metadata.date) == ("2E", "2014-07-07")
    # a heading that names no document keeps its own line
    assert read_text("Some Heading\n(7 July 2014)\n\n" + source).metadata.title != (
        "Some Heading (7 July 2014)"
    )


@pytest.mark.parametrize("width", [80, WIDTH])
def test_a_title_printed_below_the_first_section_titles_and_dates_the_document(width):
    # the 2011 2E CRD prints its publisher's line, then its "General" section, then its
    # title with its date and the preamble naming the edition (line 140 of an 80-wide copy)
    source = (DATA / "sources" / "2e-current-rulings-2011-10-05.md").read_text(encoding="utf-8")
    meta = read_text(viewer_copy(source, width), filename="crd-2e.txt").metadata
    assert meta.title == "Current Rulings Document (5 October 2011)"
    assert (meta.edition, meta.date, meta.kind) == ("2E", "2011-10-05", "current rulings")
    # a dated line below that names no document, or is set as prose, titles nothing
    for line in ("Rules of the Game (5 October 2011)", "the Current Rulings (5 October 2011)"):
        text = "A Page\n\nSome prose here.\n" + "More prose.\n" * 70 + line + "\n"
        meta = guess_metadata(text)
        assert meta.title == "A Page" and meta.date is None


def test_an_entry_a_copy_printed_above_the_2e_crds_title_is_read_or_named_by_a_doubt():
    # pdftotext printed a two-column page's first entry, under its section's heading, above
    # the document's title: the parser started at the first entry after a sentence's end and
    # read past it with no word. Under its heading it is the first entry now, and the title
    # with its preamble below it is set aside as a section's heading is.
    source = (DATA / "sources" / "2e-current-rulings-2014-07-07.txt").read_text(encoding="utf-8")
    lines = source.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("abilities – "))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].strip())
    moved = ["General", *lines[start:end], *lines[:start], *lines[end:]]
    document = read_text("\n".join(moved), filename="crd-2e.txt")
    assert document.shape == "crd-2e-text"
    entry = document.entries[0]
    assert (entry.title, entry.line) == ("abilities", 2)
    assert entry.text.endswith("Skills are not abilities.")
    assert not [w for w in document.warnings if w.doubt]
    assert any("'Current Rulings Document'" in w.message for w in document.warnings)
    # under a line that is no heading and ends no sentence, it is named by a doubt
    moved[0] = "as the rulebook has it"
    document = read_text("\n".join(moved), filename="crd-2e.txt")
    assert "abilities" not in [entry.title for entry in document.entries]
    (doubt,) = [w for w in document.warnings if w.doubt and "before the first entry" in w.message]
    assert "'abilities'" in doubt.message and doubt.line == 2
    # named, it reads up to the document's title under it, not on into the preamble
    named = read_text("\n".join(moved), filename="crd-2e.txt", heads={2: None})
    (entry,) = [entry for entry in named.entries if entry.line == 2]
    assert entry.title == "abilities" and entry.text.endswith("Skills are not abilities.")
    assert named.shape == document.shape and not [w for w in named.warnings if w.doubt]
    # the committee's documents as published have no such doubt: their title lines, the
    # publisher's ("THE CONTINUING COMMITTEE", a card's name too) and the preamble open none
    for name in ("2e-current-rulings-2014-07-07.txt", "1e-current-rulings-2014-11-03.md"):
        published = read_text((DATA / "sources" / name).read_text(encoding="utf-8"))
        assert not [w for w in published.warnings if "before the first entry" in w.message]


def test_a_known_title_alone_over_an_editing_instruction_is_read_as_its_entry():
    # "Borg" / "Replace the first paragraph of the Objectives subsection …": an instruction
    # opens no text but an entry's, so the title the project knows above it is its head
    copy = viewer_copy(SOURCE.read_text(encoding="utf-8"))
    document = read_text(copy, filename="crd.txt")
    read = {entry.title: entry for entry in document.entries}
    for title in ("Borg", "Alien Parasites"):
        opening = " ".join(_words(_bundled()[title]).split()[:8])
        assert _words(read[title].text).startswith(opening)
        assert read[title].amendments
    # the line the copy printed "Borg" on is no doubt's now
    assert not [w for w in document.warnings if w.doubt and "'Borg'" in w.message]


@pytest.mark.parametrize("paged", [False, True], ids=["one page", "paginated"])
def test_the_committees_crd_copied_out_of_a_viewer_reads_as_published(paged):
    # every entry under its title: "DS9 –" and "stopped –" (a term's line over its text),
    # "actions – step 1: initiation –" (under "RULINGS – General"), "*Lore Returns" (after
    # an erratum that ends on no stop), "Borg" (over its editing instruction); one doubt, on
    # the section "Comparing species" the new text of "species" prints, which a merge settles
    copy = viewer_copy(SOURCE.read_text(encoding="utf-8"))
    copy = paginated(copy) if paged else copy
    document = read_text(copy, filename="crd.txt")
    bundled = _bundled()
    assert set(bundled) <= {entry.title for entry in document.entries}
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert "'Comparing species'" in doubt.message
    merged = read_upload(copy.encode(), "crd.txt", parse(f"- {{line: {doubt.line}, merge: true}}"))
    assert sorted(entry.title for entry in merged.entries) == sorted(bundled)
    assert not [w for w in merged.warnings if w.doubt]
    # each text as published, word for word but for the icons and bullets a copy prints
    # otherwise
    for entry in merged.entries:
        words = _words(entry.text).split(), _words(bundled[entry.title]).split()
        assert difflib.SequenceMatcher(None, *words).ratio() >= 0.9, entry.title


@pytest.mark.parametrize("width", [50, 58, 80, WIDTH])
def test_the_2e_crd_copied_out_of_a_viewer_reads_as_published(width):
    # "building a deck" ends on "The rest of the entry does not change", printed with no
    # full stop: the instruction closes the entry, so "cannot / may not – …" on the next
    # line opens its own (before, it ran into "building a deck", doubted)
    # line. As a PDF print's text copies it, the instruction runs on from the entry's last
    # words and a wrap may split it ("… missions) The rest of the entry does not" /
    # "change"), under the page's running header ("Current Rulings").
    entries = DATA / "entries" / "2e-crd-2014-07-07.yaml"
    source = (DATA / "sources" / "2e-current-rulings-2014-07-07.txt").read_text(encoding="utf-8")
    run_on = re.sub(r"missions\) *\n+The rest", "missions) The rest", source)
    assert run_on != source
    document = read_text(viewer_copy(source, width), filename="crd-2e.txt")
    printed = read_text("Current Rulings\n" + viewer_copy(run_on, width), filename="crd-2e.txt")
    assert printed.metadata.title == "Current Rulings Document (7 July 2014)"
    # the instruction is the paragraph of its own the document prints, and closes the entry
    assert [(e.title, e.text, e.amendments) for e in printed.entries] == [
        (e.title, e.text, e.amendments) for e in document.entries
    ]
    assert not [w for w in printed.warnings if w.doubt]
    bundled = _bundled(entries)
    assert sorted(entry.title for entry in document.entries) == sorted(bundled)
    assert not [w for w in document.warnings if w.doubt]
    for entry in document.entries:
        assert _words(entry.text) == _words(bundled[entry.title]), entry.title
    # an instruction that gives text to come closes nothing: its next line is that text
    copy = "General\nbuilding a deck – Add the following\ncannot / may not – Game text which …"
    assert [e.title for e in read_text(copy, filename="x.txt").entries] == ["building a deck"]


def test_steps_a_copy_moved_from_one_entry_to_another_are_a_doubt_on_both():
    # pdftotext's copy of a two-column print put "3. The card's cost-related game text
    # activates. …" (a step of "playing a card") at the end of "exchange": both entries
    # were read under their titles, their texts wrong, with no doubt
    source = (DATA / "sources" / "2e-current-rulings-2014-07-07.txt").read_text(encoding="utf-8")
    step = (
        "3. The card's cost-related game text activates. Cost-related response actions "
        "process \nbeginning with the AP. \n\n"
    )
    assert step in source
    end = "would have been. \n\n"
    moved = source.replace(step, "").replace(end, end + step, 1)
    document = read_text(moved, filename="crd-2e.txt")
    doubts = [w for w in document.warnings if w.doubt]
    entries = {w.message.split("'")[1]: w.message for w in doubts if w.message.startswith("entry")}
    assert set(entries) == {"exchange", "playing a card"}
    assert "opens its numbered steps at 3" in entries["exchange"]
    assert "numbers its steps 2 then 4" in entries["playing a card"]
    # and the page: two steps out of sequence, as a copy whose columns interleave leaves them
    (page,) = [w for w in doubts if not w.message.startswith("entry")]
    assert "2 numbered or lettered steps run out of sequence" in page.message
    assert "upload the document itself" in page.message
    # confirming each as read settles it
    confirm = "\n".join(f"- {{line: {w.line}, confirm: true}}" for w in doubts)
    confirmed = read_upload(moved.encode(), "crd-2e.txt", parse(confirm))
    assert [w for w in confirmed.warnings if w.doubt] == []
    # an entry that edits another may quote one of its steps
    quoted = (
        "Current Rulings\n\nplaying a card – Replace the third step with the following:\n\n"
        "3. Pay all costs.\n"
    )
    assert not [w for w in read_text(quoted, filename="x.txt").warnings if "steps" in w.message]


def test_an_erratums_label_under_its_title_is_its_kind_as_the_bundled_parser_reads_it():
    # "Brilgar –Erratum:" over the card's new lore: the label was the text's first
    # paragraph, so a re-import of the same document showed each erratum changed
    document = read_text(viewer_copy(SOURCE.read_text(encoding="utf-8")), filename="crd.txt")
    bundled = yaml.safe_load(ENTRIES.read_text(encoding="utf-8"))["entries"]
    errata = {e["title"]: e["text"] for e in bundled if e["kind"] == "erratum"}
    read = {entry.title: entry for entry in document.entries}
    assert len(errata) >= 5
    for title, text in errata.items():
        assert read[title].kind == "erratum", title
        assert _words(read[title].text).split()[:6] == _words(text).split()[:6], title


def test_heads_run_into_an_entrys_text_are_named_by_the_lines_that_open_with_them():
    # the 2E CRD of 2011 copied out of a viewer: "winning the game – …" ran into "skills",
    # whose last sentence the document prints without a full stop; the doubt named it but
    # no line, so no correction could split it
    source = DATA / "sources" / "2e-current-rulings-2011-10-05.md"
    copy = viewer_copy(source.read_text(encoding="utf-8"))
    document = read_text(copy, filename="crd-2e.txt")
    (doubt,) = [w for w in document.warnings if w.doubt and "'skills'" in w.message]
    lines = copy.split("\n")
    number = int(re.search(r"'winning the game' \(line (\d+)\)", doubt.message)[1])
    assert lines[number - 1].startswith("winning the game – ")
    # a card's entry line ("Klingon Tea Ceremony – Clarification:") opens its entry though
    # a web address ends the line above; the "Card-Specific" heading over it, its line
    # broken before a word that would have fitted, is set aside with its note
    titles = [entry.title for entry in document.entries]
    assert "Klingon Tea Ceremony" in titles and "abilities" in titles
    assert any("section heading 'Card-Specific'" in w.message for w in document.warnings)
    named = read_text(copy, filename="crd-2e.txt", heads={n: None for n in _offered(document)})
    bundled = _bundled(DATA / "entries" / "2e-crd-2011-10-05.yaml")
    assert sorted(entry.title for entry in named.entries) == sorted(bundled)
    assert not [w for w in named.warnings if w.doubt]


# Helvetica's widths (thousandths of an em) of the letters whose width differs most from an
# average letter's (556): a proportional font's line holds more or fewer characters.
_NARROW = dict.fromkeys("ijl'|.,:;!", 222) | dict.fromkeys("ftrI ()[]-", 300)
_WIDE = dict.fromkeys("mwMW", 850) | dict.fromkeys("ABCDEFGHKNOPQRSTUVXYZ", 680)


def proportional_copy(page: str, measure: int = 62_000) -> str:
    """``page`` (paragraphs between blank lines) as a viewer copies its print in a
    proportional font: each paragraph wrapped where its words fill ``measure`` (thousandths
    of an em), no blank line left."""

    def width(text: str) -> int:
        return sum(_NARROW.get(c, _WIDE.get(c, 556)) for c in text)

    lines: list[str] = []
    for paragraph in page.split("\n\n"):
        line = ""
        for word in paragraph.split():
            if line and width(f"{line} {word}") > measure:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines += [line] if line else []
    return "\n".join(lines)


@pytest.mark.parametrize("title", ["matching commander", "missions", "named in lore"])
def test_a_proportional_fonts_copy_keeps_its_paragraphs(title):
    # A viewer's copy of a page printed in a proportional font: its lines hold from 110 to
    # 140 characters, so a paragraph's end shows only as a line that stops short of the
    # width or ends a sentence. Each line was read as a paragraph of its own where the block
    # held more than one paragraph. Now every paragraph of the page is one, or more where a
    # line the wrap cut ended a sentence: never two of the page's run together.
    entry = next(
        e for e in yaml.safe_load(ENTRIES.read_text("utf-8"))["entries"] if e["title"] == title
    )
    paragraphs = [" ".join(p.split()) for p in entry["text"].split("\n\n")]
    assert len(paragraphs) >= 3
    copy = proportional_copy("\n\n".join([title, *paragraphs]))
    assert "\n\n" not in copy and len({len(line) for line in copy.split("\n")}) > 5
    (read,) = read_text(copy, filename="copy.txt").entries
    assert read.title == title
    pieces = [" ".join(p.split()) for p in read.text.split("\n\n")]
    assert len(pieces) <= len(paragraphs) + 2  # a few split at a sentence's end, no more
    for paragraph in paragraphs:
        taken = pieces.pop(0)
        while taken != paragraph:
            assert paragraph.startswith(taken) and taken.endswith((".", '."', ".)")), paragraph
            taken = f"{taken} {pieces.pop(0)}"
    assert not pieces

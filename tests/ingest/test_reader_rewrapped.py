"""Issue 38: a copy wrapped a second time, narrower than the page, as a mail program wraps
the lines of a page it quotes (a Current Rulings page wrapped at 80 characters, sent on
wrapped at 72). Each line too long for the new width lost its end to a short line of its
own, and a title that opened a line of the page opened none: five of Decipher's Current
Rulings pages read 5 of their 31 entries. Such a copy reads as the page it was made from,
with a note that its lines were joined."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bot.ingest.reader import UnknownShape, chrome, read_text
from bot.ingest.reader.general import split_run_together
from bot.ingest.reader.spacing import REWRAP_NOTE, wrapped_twice
from tests.ingest.copies import _mail_wrapped, pages

INGEST = Path(__file__).resolve().parent

# Current Rulings pages wrapped at about 80 characters, their entries run together
CURRENT_RULINGS = [
    "sweep2/1e-decipher-current-rulings-1999-08-30-pqr.txt",
    "fresh16/1e-current-rulings-1999-s-t-starshipexcelsior.txt",
    "fresh16/1e-current-rulings-1999-u-v-w-starshipexcelsior.txt",
    "fresh41/1e-decipher-current-rulings-1999-08-30-ghi.txt",
    "fresh105/1e-current-rulings-1999-10-25-decipher-archive.txt",
]


def _read(document) -> list[tuple[str, str]]:
    return [(entry.title, " ".join(entry.text.split())) for entry in document.entries]


def _read_as_saved(page: str, copy) -> tuple:
    """The page read as saved and as ``copy`` makes it, their entries the same."""
    text = (INGEST / page).read_text(encoding="utf-8")
    saved, copied = read_text(text, filename=page), read_text(copy(text), filename=page)
    assert _read(copied) == _read(saved) and len(saved.entries) >= 4
    return saved, copied


@pytest.mark.parametrize("page", CURRENT_RULINGS)
def test_a_page_wrapped_again_by_a_mail_program_reads_as_the_page(page):
    saved, mailed = _read_as_saved(page, _mail_wrapped)
    notes = [w for w in mailed.warnings if w.message == REWRAP_NOTE]
    assert len(notes) == 1 and not notes[0].doubt  # a note to accept, not a doubt
    assert sorted(w.doubt for w in mailed.warnings if w.message != REWRAP_NOTE) == sorted(
        w.doubt for w in saved.warnings
    )
    assert not any(w.message == REWRAP_NOTE for w in saved.warnings)


def test_the_lines_a_second_wrap_cut_are_joined_back_as_the_page_printed_them():
    text = (INGEST / CURRENT_RULINGS[0]).read_text(encoding="utf-8")
    mailed = _mail_wrapped(text)
    assert mailed != text
    assert wrapped_twice(mailed) == text


def test_no_page_as_saved_nor_one_wrapped_once_is_taken_for_a_page_wrapped_twice():
    folders = sorted(path.parent for path in INGEST.glob("*/expected.yaml"))
    saved = [(f"{folder.name}/{name}", text) for folder, name, text, _ in pages(folders)]
    assert len(saved) > 1000
    assert [name for name, text in saved if wrapped_twice(text) is not None] == []
    # a page of a paragraph a line, wrapped once: its short lines end its paragraphs
    once = [name for name, text in saved if max(map(len, text.split("\n"))) > 300]
    assert len(once) > 100
    assert [
        name for name, text in saved if name in once and wrapped_twice(_mail_wrapped(text))
    ] == []


def test_a_heading_under_a_sentences_end_is_not_joined_to_it():
    # A page wrapped at 80 characters, each of its entries a term on a line of its own over
    # its text. A line of 66 characters ending a sentence, over "Gallamites", looks like a
    # line a wrap at 72 cut; but a page's own heading stands there as often.
    entry = [
        "Planet: name unspecified. Sentient, space-faring humanoid species known to the",
        "Federation, distinguished by a transparent skull which reveals the brain within",
        "and by a fondness for deep space trading posts along the Bajoran frontier routes.",
        "It is perhaps the reason its freighter is late one day at the station.",
    ]
    assert len(entry[-1]) == 70 and all(len(line) > 72 for line in entry[:-1])
    page = "\n".join([line for _ in range(4) for line in ["Gallamites", *entry]])
    undone = wrapped_twice(_mail_wrapped(page))
    assert undone is not None
    assert undone.count("\nGallamites\n") == 3 and "station. Gallamites" not in undone
    assert undone == page


def test_a_refusal_of_a_page_wrapped_twice_says_how_its_lines_are_counted():
    page = "fresh133/other-game-intruder-living-rules-errata-scribd-mirror.txt"
    text = (INGEST / page).read_text(encoding="utf-8")
    with pytest.raises(UnknownShape) as refused:
        read_text(_mail_wrapped(text), filename=page)
    assert str(refused.value).endswith(REWRAP_NOTE[:1].upper() + REWRAP_NOTE[1:] + ".")


# Pages whose line breaks were lost (entries run together on one long line), as saved
RUN_TOGETHER = [
    "corpus/1e-decipher-current-rulings-update-2000-11-27-board-post.txt",
    "corpus/2e-crd-pdf-text-2007-09-21-scribd.txt",
    "fresh14/1e-first-contact-rules-supplement-docslib.txt",
]


@pytest.mark.parametrize("page", RUN_TOGETHER)
def test_entries_run_together_then_wrapped_by_a_mail_program_read_as_the_long_line(page):
    # Wrapped at 72, the long line became a paragraph whose heads open inside its lines:
    # the board post and the 2007 CRD read none of their 14 entries.
    saved, mailed = _read_as_saved(page, _mail_wrapped)
    assert sorted(w.doubt for w in mailed.warnings) == sorted(w.doubt for w in saved.warnings)


def _paragraph_to_the_width(title: str, number: int) -> list[str]:
    """An entry's lines wrapped at 72, its last line filled too (68 characters or more), so
    the next entry's head carries on the same wrapped block, as a wrap would have set it."""
    text = f"{title} – This card's ruling number {number} holds while it is in play"
    for word in ("whoever commands it at any time of the game and at any mission " * 4).split():
        lines = textwrap.wrap(f"{text}.", 72)
        if len(lines) >= 3 and len(lines[-1]) >= 68:
            return lines
        text += f" {word}"
    raise AssertionError(f"no filled last line for {title}")


def _wrapped_unevenly(text: str) -> str:
    """``text``'s lines wrapped as a PDF prints them in proportional letters: to a width
    in characters that varies from line to line (100 to 120), so a line's next word often
    would have fitted by count."""
    out = []
    for line in text.split("\n"):
        words, row = line.split(" "), ""
        for word in words:
            width = (100, 120, 108, 114)[len(out) % 4]
            if row and len(row) + 1 + len(word) > width:
                out.append(row)
                row = word
            else:
                row = f"{row} {word}" if row else word
        out.append(row)
    return "\n".join(out)


@pytest.mark.parametrize("page", RUN_TOGETHER)
def test_entries_run_together_in_a_pdfs_print_read_as_the_long_line(page):
    # A browser's print of the page to PDF wraps the long line to the page's width in
    # proportional letters: the same 18 entries were lost as in the mail's copy.
    text = (INGEST / page).read_text(encoding="utf-8")
    assert (
        max(map(len, _wrapped_unevenly(text).split("\n"))) <= 120 < max(map(len, text.split("\n")))
    )
    _read_as_saved(page, _wrapped_unevenly)


def test_a_wrapped_paragraphs_heads_at_its_lines_starts_keep_their_lines():
    # A paragraph is joined only for heads inside its lines; heads that open lines are read
    # there, each at its own line.
    titles = ["Kivas Fajo", "Lore Returns", "Dead End", "Tribble Bomb", "Q-Flash", "Kurlan Naiskos"]
    lines = [line for n, title in enumerate(titles) for line in _paragraph_to_the_width(title, n)]
    rows = list(enumerate(lines, 1))
    assert split_run_together(rows) == (rows, {}, [])
    # entries run together on one line, then wrapped: joined, and split at the heads
    line = " ".join(
        f"{title} – This card's ruling {number} holds while it is in play"
        + " and then" * number * 3
        + "."
        for number, title in enumerate(titles)
    )
    run = textwrap.wrap(line, 72)
    assert not all(any(row.startswith(title) for row in run) for title in titles)
    pieces, heads, split = split_run_together(list(enumerate(run, 1)))
    assert [head.title for head in heads.values()] == titles and split == [1]


def test_a_wrapped_footers_rest_is_chrome_and_no_more_than_a_footers_length():
    # lines of prose wrapped at 72, each one's next word too long to have fitted on it
    prose = [f"{'x' * 60} {'wordy' * 2}{n}" for n in range(8)]
    assert {len(line) for line in prose} == {72}
    footer = textwrap.wrap(
        "Star Trek in all forms is copyright and trademark of CBS Paramount Studios which "
        "has no affiliation with trekcc.org or The Continuing Committee.",
        72,
    )
    kept = chrome.strip("\n".join([*prose, "", *footer, "", *prose])).text.split("\n")
    assert kept == [*prose, "", *[""] * len(footer), "", *prose]
    # a footer's line is 300 characters at most: a wrap carries it on to 4 lines at most,
    # and text run straight into it is kept after those
    glued = chrome.strip("\n".join([*prose, footer[0], *prose])).text.split("\n")
    assert glued[9 + 4 :] == prose[4:]

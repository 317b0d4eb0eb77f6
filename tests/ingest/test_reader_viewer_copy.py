"""Issue 38: the committee's Current Rulings Document copied out of a PDF viewer. The copy
keeps each printed line and loses the blank lines between paragraphs. So a short line ending
a sentence is the only sign that a paragraph ended, and a title printed on a line of its own
("Borg") stands between two paragraphs with nothing around it.

Before, the reader joined such a copy's lines into one paragraph per entry: "Borg" and its
amendment ran into the text of "battle – affiliation restrictions". Now each paragraph is
kept, and a few words alone on a line stay a line of their own."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import yaml

from bot.ingest.reader import read_text

DATA = Path(__file__).resolve().parents[2] / "rulings_data"
SOURCE = DATA / "sources" / "1e-current-rulings-2014-11-03.md"
ENTRIES = DATA / "entries" / "1e-crd-2014-11-03.yaml"
WIDTH = 110  # the characters of a printed line of the document, as a viewer copies it


def viewer_copy(markdown: str, width: int = WIDTH) -> str:
    """``markdown`` as a PDF viewer copies its print: each paragraph wrapped to the page's
    width, no blank line anywhere, emphasis marks gone, a list's items after a bullet."""
    lines: list[str] = []
    for line in markdown.split("\n"):
        line = re.sub(r"\*\*|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)|[<>]", "", line).strip()
        line = re.sub(r"^- ", "• ", line)
        if line:
            lines += textwrap.wrap(line, width, break_on_hyphens=False)
    return "\n".join(lines)


def _bundled() -> dict[str, str]:
    entries = yaml.safe_load(ENTRIES.read_text(encoding="utf-8"))["entries"]
    return {entry["title"]: entry["text"] for entry in entries}


def _words(text: str) -> str:
    return " ".join(re.sub(r"[*_<>]", "", text).split())


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

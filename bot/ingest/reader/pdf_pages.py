"""A PDF's pages as text in reading order: each page's runs and where they are drawn, its
columns read one after the other (``pdf_columns``), its running lines left out.

A page set in no columns keeps pypdf's own extraction (which puts the spaces between a
line's pieces), with a blank line where the lines' positions show a paragraph's gap, as a
copy of the text has it.

A word processor also prints a running header and a page number on every page. Left in, they
stand inside the sentence of any entry that runs on to the next column or page, so the lines
at a page's edges that the pages print alike (but for their numbers) are left out, and named
in the preview's notes; the first one that is no page number may still title and date the
document where its body does not.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bot.ingest.reader.chrome import is_page_number, printed_by_browser
from bot.ingest.reader.known import WHOLE_WORD
from bot.ingest.reader.pdf_columns import column_margins, many_columns, two_columns
from bot.ingest.reader.pdf_lines import Run, grouped, line_text, paragraph_gaps

_EDGE_LINES = 2  # a running header or footer: one of a page's two top or two bottom lines
_DIGITS = re.compile(r"\d+")
# A move to the right inside a line of text, in thousandths of an em: under this, a
# justified line's or a tracked word's spacing, never a word's gap (a quarter of an em in
# a serif font, a fifth where justification squeezes it). A move to the left (kerning:
# "Vo" and "P." drawn closer, by up to a fifth of an em) never parts two words.
_KERNING = 160


@dataclass(frozen=True)
class PageRuns:
    """One PDF page's text runs with their positions, and pypdf's own extraction of it."""

    runs: list[Run]
    plain: str  # kept where the page is not set in columns
    width: float | None


def texts_of(read: list[PageRuns]) -> tuple[list[str], list[str]]:
    """Each page's text, column by column where the page is set in two columns, less its
    running header and footer; and those lines, once each, for the reader's note.

    A running header or footer is a line at a page's top or bottom edge that several pages
    (two, and a third of them) print alike but for their numbers ("Current Rulings – Page
    3"), or a page number alone: left in, it splits the sentence of an entry that runs on
    to the next page or column."""
    each_lines = [grouped(page.runs) for page in read]
    running = _running_keys(each_lines)
    pages: list[tuple[PageRuns, list[Run], list[str]]] = []  # each page, its runs, its edges
    left_out: dict[str, str] = {}
    for page, lines in zip(read, each_lines, strict=True):
        dropped: list[list[Run]] = [
            line for line in _edges(lines) if _page_furniture(line_text(line), running)
        ]
        drop = [line_text(line) for line in dropped]  # top to bottom: the note says them so
        for text in drop:
            left_out.setdefault(running_key(text), text)
        gone = {id(run) for line in dropped for run in line}
        pages.append((page, [run for run in page.runs if id(run) not in gone], drop))
    # A page of a document set in three columns or more whose last columns are empty (its
    # last page) shows too few margins of its own: it is set on another page's.
    found = (column_margins(runs, page.width) for page, runs, _ in pages if page.width)
    margins = next((margins for margins in found if margins), None)
    texts: list[str] = []
    for page, runs, drop in pages:
        columns = None
        if page.width:
            columns = (
                many_columns(runs, page.width)
                or (margins and many_columns(runs, page.width, margins))
                or two_columns(runs, page.width)
            )
        if columns is None:
            columns = _with_gaps(_without_edges(page.plain, drop), runs)
        texts.append(columns)
    return texts, list(left_out.values())


def _page_furniture(line: str, running: set[str]) -> bool:
    """Whether an edge ``line`` is the page's, no text's: a page number, a running line, or
    what a browser prints at the top and foot of a page it saves (on a page of one too)."""
    spelt = unicodedata.normalize("NFKC", line)  # "ﬁle:///…": a ligature in the address
    return is_page_number(line) or printed_by_browser(spelt) or running_key(line) in running


def read_page(page: Any) -> PageRuns:
    """A pypdf page's runs (where each is drawn) and its plain extraction."""
    _without_kerning(page)
    runs: list[Run] = []

    def visit(text: str, cm: list, tm: list, font: Any, size: Any) -> None:
        # A space drawn on its own is a run too: a word processor draws a justified line
        # word by word, each word and each space a text object of its own, and the words'
        # positions alone do not tell a space from a word's end.
        if text := text.replace("\n", ""):
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            scale = math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1])
            em = float(size or 0) * scale if isinstance(size, int | float) else 0.0
            runs.append((x, y, text, em))

    plain = page.extract_text(visitor_text=visit) or ""
    try:
        width, left = float(page.mediabox.width), float(page.mediabox.left)
    except (TypeError, ValueError, AttributeError):
        return PageRuns(runs, plain, None)
    # positions from the page's left edge: a page box need not start at 0 (a cropped page)
    return PageRuns([(x - left, y, text, em) for x, y, text, em in runs], plain, width)


def _without_kerning(page: Any) -> None:
    """``page`` with its kerning left out of its text: the moves a producer makes between
    two letters (``V`` and ``o`` drawn closer) or to place each glyph. pypdf spells any
    move over half a space, left or right, as a space ("V orn", "AP ."); a word's gap
    drawn as a move (a typesetter's, with no space glyph) moves right, further than
    :data:`_KERNING` even where justification squeezes it. The page's content is parsed
    once, as pypdf would parse it to extract its text, and that extraction reads it as
    changed here."""
    from pypdf.generic import ArrayObject, ContentStream, NameObject

    contents = page.get(NameObject("/Contents"))
    if contents is None:
        return
    stream = ContentStream(contents.get_object(), page.pdf, "bytes")  # text kept as bytes
    for operands, operator in stream.operations:
        if operator == b"TJ" and operands and isinstance(operands[0], ArrayObject):
            operands[0][:] = [part for part in operands[0] if not _is_kerning(part)]
    page[NameObject("/Contents")] = stream


def _is_kerning(part: Any) -> bool:
    # in a TJ array a positive number moves the next glyph to the left
    return isinstance(part, int | float) and part > -_KERNING


def running_key(text: str) -> str:
    """A line as its copies on other pages print it: its numbers are the page's."""
    return _DIGITS.sub("#", " ".join(text.split()))


def _edges(lines: list[list[Run]]) -> list[list[Run]]:
    """A page's top and bottom lines, :data:`_EDGE_LINES` of each (none on a page too short
    to have a body to set a header apart from)."""
    if len(lines) <= 2 * _EDGE_LINES:
        return []
    return lines[:_EDGE_LINES] + lines[-_EDGE_LINES:]


def _running_keys(pages: list[list[list[Run]]]) -> set[str]:
    """The edge lines (of ``pages``, each its lines) that at least two pages, and a third of
    them, print alike (a book's pages may alternate two headers: each is on half)."""
    if len(pages) < 2:
        return set()
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({running_key(line_text(line)) for line in _edges(lines)})
    return {key for key, count in counts.items() if count >= max(2, len(pages) / 3)}


def _without_edges(plain: str, drop: list[str]) -> str:
    """``plain`` without the dropped lines at its start or end. A plain extraction may run
    a footer on to the body's last line ("… process. - 1 -"): cut there too."""
    text = plain.strip()
    for _ in range(2 * _EDGE_LINES):  # each pass takes one line off one edge, at most
        before = text
        for line in drop:
            if text.startswith(line):
                text = text[len(line) :].lstrip()
            if text.endswith(line):
                text = text[: -len(line)].rstrip()
        if text == before:
            break
    return text


def _with_gaps(plain: str, runs: list[Run]) -> str:
    """pypdf's own extraction of a page (it puts the spaces between a line's pieces), with a
    blank line where the runs' positions show a paragraph's gap, as a copy of the text has
    it. Only where its lines are the runs' lines, one for one; else as it is. Each line is
    matched with the runs' line of its letters, wherever pypdf put it: a producer may draw a
    line after the text it stands above (a site's heading; a browser its printed date), and
    pypdf puts it after that text. A line whose letters stand in another order than its
    runs' is the runs' line: a glyph from another font (a sign, an icon the text's font
    lacks) is drawn after its line's text, and the extraction puts it where it was drawn
    ("Nebula –◆" for "◆Nebula –")."""
    lines = grouped(runs)
    printed = [line for line in plain.split("\n") if line.strip()]
    if not lines or len(printed) != len(lines):
        return plain
    drawn = [line_text(line) for line in lines]
    where: dict[str, list[int]] = {}
    for index in reversed(range(len(drawn))):  # popped from the end: top to bottom
        where.setdefault("".join(sorted(_letters(drawn[index]))), []).append(index)
    gaps = paragraph_gaps(lines)
    out: list[str] = []
    above = -1
    for text in printed:
        same = where.get("".join(sorted(_letters(text))))
        if not same:
            return plain  # other lines: not one for one
        index = same.pop()
        # a line put elsewhere than under the line above it on the page stands apart too
        if out and (index in gaps or index != above + 1):
            out.append("")
        above = index
        out.append(text if _letters(text) == _letters(drawn[index]) else drawn[index])
    return "\n".join(out)


def _letters(line: str) -> str:
    return "".join(line.split())


# A word broken at a line's end: letters (a hyphenated word's parts), a hyphen, a line
# break, then letters (and the parts hyphenated to them). Linear: a match starts at a
# word's first letter, and its parts are runs of letters between single hyphens.
_BROKEN = re.compile(
    r"(?<![^\W\d_-])([^\W\d_]+(?:-[^\W\d_]+)*)-\n([^\W\d_]+(?:-[^\W\d_]+)*)(\S*)( ?)"
)


def unhyphenated(text: str, known: frozenset[str] = frozenset()) -> str:
    """``text`` with the words broken at a line's end whole again, on the first line. A
    typesetter's break ("at-" over "tempts and …") is "attempts" over "and …" where the
    page elsewhere, or the ``known`` words (in lower case), print the whole word and never
    the word with that hyphen; any other break is at the word's own hyphen ("mirror-" over
    "universe", "non-" over "Borg", as browsers and word processors break lines) and keeps
    it. Left as it was, the line's end became a space inside the word ("mirror- universe")."""
    if "-\n" not in text:
        return text
    words = Counter(word.lower() for word in WHOLE_WORD.findall(text))

    def mend(match: re.Match[str]) -> str:
        head, tail, rest, space = match[1], match[2], match[3], match[4]
        whole, hyphenated = (head + tail).lower(), f"{head}-{tail}".lower()
        # a typesetter's break: what follows is in lower case ("at-" "tempts"), or both
        # parts are in capitals ("CUN-" "NING"), and only the whole word is printed
        broken = tail[0].islower() or (head.isupper() and tail.isupper())
        closed = (words[whole] or whole in known) and not (words[hyphenated] or hyphenated in known)
        word = head + tail if broken and closed else f"{head}-{tail}"
        # the rest of the line stays on its line; a line of the word's end alone is gone
        return f"{word}{rest}\n" if space else f"{word}{rest}"

    return _BROKEN.sub(mend, text)

"""Text copied out of a paginated document (a PDF in a viewer, ``pdftotext``, a page a
browser printed): its pages' own lines taken out and each paragraph a page break cut joined,
as a PDF read here is.

A page break shows in such a copy as a cluster of the pages' own lines between two pages'
text: a page number ("1/2", "Page 3 of 20"), what a browser prints at a page's foot and top
(its address, the date and time, the page's title), a header every page repeats, and
``pdftotext``'s form feed. Left in, they run into the entry a page break cuts ("You choose
the personnel file:///… 1/2 11/29/26, 2:45 AM … in stasis to be killed"). Each test is a
scan of one line; the text is read a few times over: linear."""

from __future__ import annotations

import re
from collections import Counter

from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader.chrome import is_page_number, printed_by_browser
from bot.ingest.reader.pdf_lines import joined
from bot.ingest.reader.pdf_pages import running_key

# A page's number between dashes ("- 4 -"), as a footer prints it
_DASHED_NUMBER = re.compile(r"^[-–—]\s*\d{1,4}\s*[-–—]$")
# The address a browser prints at a page's foot, alone on its line: the page's own beside
# a page's number, else a link the text gives
_ADDRESS = re.compile(r"^(?:https?|file)://\S{1,2000}$")
_RUNNING_CHARS = 100  # a running header or footer is a short line
_NEIGHBOURS = 2  # the lines beside a page's own lines that a repeated header may be
MIN_BREAKS = 2  # the clusters that show a text is paginated (a page of one has two edges)

NOTE = (
    "this copy of a paginated document (a PDF copied as text, or a page a browser printed) "
    "was read without its pages' own lines ({shown}), each paragraph a page break cut "
    "joined, and the line numbers here count its lines without them"
)


def _marks_a_page(line: str) -> bool:
    """Whether ``line`` is one only a page break prints: a page's number with its count or
    its name ("1/2", "Page 3 of 20"; a bare "12" may be a page's own line), the date and
    time a browser prints, a form feed."""
    counted = is_page_number(line) and not line.isdigit()
    return bool(line == "\f" or counted or _DASHED_NUMBER.match(line) or printed_by_browser(line))


def _near(lines: list[str], index: int) -> list[int]:
    """The lines beside ``index``, :data:`_NEIGHBOURS` on each side, blank lines skipped."""
    near: list[int] = []
    for step in (-1, 1):
        at, seen = index + step, 0
        while 0 <= at < len(lines) and seen < _NEIGHBOURS:
            if lines[at]:
                near.append(at)
                seen += 1
            at += step
    return near


def _breaks(marks: list[int], lines: list[str]) -> int:
    """How many page breaks ``marks`` (in order) show: marks a few lines apart are one."""
    count, last = 0, None
    for index in marks:
        between = 0 if last is None else sum(1 for line in lines[last + 1 : index] if line)
        if last is None or between > 2 * _NEIGHBOURS:
            count += 1
        last = index
    return count


def _pages_own(lines: list[str]) -> set[int]:
    """The indexes of the lines the page breaks print, where there are two breaks or more:
    the lines that mark a page, and beside them a bare page number, the page's address and
    the lines two breaks or more print alike (a header, the title a browser prints)."""
    marks = [i for i, line in enumerate(lines) if _marks_a_page(line)]
    if _breaks(marks, lines) < MIN_BREAKS:
        return set()
    marked = set(marks)
    beside = {index: [i for i in _near(lines, index) if i not in marked] for index in marks}
    keys = Counter(
        running_key(lines[i])
        for i in {i for near in beside.values() for i in near}
        if len(lines[i]) <= _RUNNING_CHARS and not ends_sentence(lines[i])
    )
    own = set(marked)
    for index, near in beside.items():
        own.update(
            i
            for i in near
            if is_page_number(lines[i])
            or _ADDRESS.match(lines[i])
            or keys[running_key(lines[i])] >= 2
        )
        if printed_by_browser(lines[index]) and (after := [i for i in near if i > index]):
            # the page's title a browser prints beside the date, on a page of one too
            title = lines[after[0]]
            if len(title) <= _RUNNING_CHARS and not ends_sentence(title):
                own.add(after[0])
    return own


def unpaginated(text: str) -> tuple[str, list[str]] | None:
    """``text`` without its pages' own lines, the pages joined as a PDF's are (a paragraph
    cut mid-sentence runs on), and those lines once each for the note; None where the text
    shows fewer than :data:`MIN_BREAKS` page breaks."""
    if "\f" in text:
        text = text.replace("\f", "\n\f\n")  # pdftotext's form feed, a line of its own
    lines = text.split("\n")
    stripped = [line if line == "\f" else line.strip() for line in lines]
    own = _pages_own(stripped)
    if not own:
        return None
    pages: list[list[str]] = [[]]
    left_out: dict[str, str] = {}
    for index, line in enumerate(lines):
        if index not in own:
            pages[-1].append(line)
            continue
        if stripped[index] != "\f":
            left_out.setdefault(running_key(stripped[index]), stripped[index])
        if any(part.strip() for part in pages[-1]):
            pages.append([])
    texts = ["\n".join(page).strip("\n") for page in pages if any(p.strip() for p in page)]
    return joined(texts), list(left_out.values())


def note(left_out: list[str]) -> str:
    """The note on a page read so: what was taken out, a few of its lines (pdftotext's
    form feed between pages, where that is all)."""
    shown = " · ".join(repr(line[:40]) for line in left_out[:3]) + (
        " · …" if len(left_out) > 3 else ""
    )
    return NOTE.format(shown=shown or "only the form feed between pages")

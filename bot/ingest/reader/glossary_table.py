"""``glossary-table``: a Glossary or Rulebook-glossary page scraped from an HTML table.

Two scrapes are read: separator lines made only of ``|`` (runs of any length: the bundled
1E Glossary page uses ``|`` and ``||``), handed to the bundled ``glossary-table`` parser; and
``| Term | Text |`` rows of two cells. Navigation lines ("Home | Rules | Glossary",
"A - B - C - ...") are not entries.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning, get_parser
from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader import chrome
from bot.ingest.reader.bundled import UPLOAD, convert
from bot.ingest.reader.common import lines_of
from bot.ingest.reader.head_forms import title_ok
from bot.ingest.reader.known import is_known, most_words_from
from bot.ingest.reader.lookalike import holds_a_sentence
from bot.ingest.reader.model import Parsed, ReadEntry

_PIPES = re.compile(r"^\|+$")
_GUESSED = "title guessed as"
_RULE = re.compile(r"^\|?\s*:?-{3,}")
# Navigation items and the text around pipes are told by splitting on "|", not by a pattern:
# the patterns that did this backtracked exponentially on "a  |  |  | …" (issue 36).
_NAV_ITEM = 30  # the longest navigation item, in characters
_TERM_CHARS = 100  # the longest term of a table's first column (a card's title, subtitle)
_BREAKS = re.compile(r"(?<!\s)\s*+<br\s*+/?>(?:\s*+<br\s*+/?>)+\s*+")
_BREAK = re.compile(r"(?<!\s)\s*+<br\s*+/?>\s*+")


# The letter page's own anchors: "ab - ac - ad - ... - aw" (and a lone "ba" before the first).
_ANCHORS = re.compile(r"^[a-z]{1,3}(?:\s+-\s+[a-z]{1,3}){2,}\s*\|?$")
_LETTER_MARKS = ("letter index", "letter heading")  # chrome's kinds that mark a Glossary letter


def _navigation(line: str) -> bool:
    """ "Home | Rules | Glossary | Contact": short items between pipes, no sentence."""
    line = line.strip()
    if _ANCHORS.match(line):
        return True
    if line.startswith("|") or not _navigation_shape(line):
        return False
    items = [item.strip() for item in line.split("|") if item.strip()]
    return len(items) >= 3 and all(len(item.split()) <= 4 for item in items)


def _navigation_shape(line: str) -> bool:
    """Two or more short items each followed by "|", then a short tail: what the pattern
    ``^(?:[^|]{1,30}\\|\\s*){2,}[^|]{0,30}$`` said, in linear time."""
    parts = line.split("|")
    if len(parts) < 3 or not 1 <= len(parts[0]) <= _NAV_ITEM:
        return False
    middle_ok = all(part and len(part.lstrip()) <= _NAV_ITEM for part in parts[1:-1])
    return middle_ok and len(parts[-1].lstrip()) <= _NAV_ITEM


def _cell(line: str) -> str:
    """``line`` without the closing "|" of its table cell."""
    return line[:-1].rstrip() if line.endswith(" |") else line


def _anchor(line: str, next_word: str) -> bool:
    """A letter page's sub-letter anchor on a line of its own ("ta" above "tactic …"): two
    lower-case letters that begin the next entry's first word. Not an entry."""
    return (
        len(line) == 2
        and line.isalpha()
        and line.islower()
        and "".join(c for c in next_word.casefold() if c.isalpha()).startswith(line)
    )


def _next_words(lines: list[str]) -> list[str]:
    """For each line, the first word of the next line with text other than pipes."""
    out = [""] * len(lines)
    word = ""
    for index in range(len(lines) - 1, -1, -1):
        out[index] = word
        stripped = lines[index].strip()
        if stripped and not _PIPES.match(stripped):
            word = stripped.split()[0]
    return out


def _row(line: str) -> tuple[str, str] | None:
    """(term, text) of a "| Term | Text |" row of two cells (the closing "|" optional), or
    of a "Term<tab>Text" row, as a browser copies a table of two columns."""
    if not line.startswith("|"):
        term, tab, text = line.strip().partition("\t")
        # a count is no term ("2<tab>Common Ground": a deck list)
        named = any(c.isalpha() for c in term) and len(term) <= _TERM_CHARS
        if tab and named and text.strip() and "\t" not in text:
            return term.strip(), text.strip()
        return None
    cells = _pipe_cells(line)
    return cells if cells is not None and cells[0] else None


def _pipe_cells(line: str) -> tuple[str, str] | None:
    """The two cells, stripped, of a "| Term | Text |" line (the closing "|" optional), the
    term cell perhaps empty; None for a line of another number of cells."""
    inner = line[1:]
    if inner.count("|") == 2 and inner.endswith("|"):
        inner = inner[:-1]
    if inner.count("|") != 1:
        return None
    term, text = inner.split("|")
    return term.strip(), text.strip()


def _known_title_cut(entry: ReadEntry) -> None:
    """An entry whose whole first line was taken for its title ("Bajoran Wormhole Whenever
    you play or", the text run onto the title's line) ends its title at the longest title
    the project knows, when what follows starts a sentence."""
    words = entry.title.split()
    if len(words) < 4 or ends_sentence(entry.title):
        return
    # no known title is longer than the longest one that starts with this word
    for length in range(min(len(words) - 2, most_words_from(words[0])), 0, -1):
        rest = words[length:]
        if is_known(" ".join(words[:length])) and rest[0][:1].isupper() and rest[1][:1].islower():
            entry.title = " ".join(words[:length])
            entry.text = " ".join(rest) + (" " + entry.text if entry.text else "")
            return


def detect(text: str) -> float:
    rows = [line.strip() for _, line in lines_of(text)]
    if sum(1 for line in rows if _PIPES.match(line) and len(line) >= 2) >= 3:
        return 0.9
    if sum(1 for line in rows if _PIPES.match(line)) >= 6:
        return 0.8
    two = [line for line in rows if _row(line) and not _RULE.match(line)]
    # a cell of a long entry holds the page: two tab rows are a table copied as it is shown,
    # and so are two "| Term | Text |" rows whose text cells are prose (a page saved as HTML)
    tabbed = sum(1 for line in two if not line.startswith("|"))
    prose = [line for line in two if line.startswith("|") and _prose_cell(line)]
    # one such row whose term the project knows: a table cut after its first whole row
    # (a row copied with its tab is read by the general reader, as weak as a colon's head)
    known_row = any(is_known(_row(line)[0]) for line in prose)
    return 0.8 if len(two) >= 3 or tabbed >= 2 or len(prose) >= 2 or known_row else 0.0


_PROSE_CELL_WORDS = 8


def _prose_cell(line: str) -> bool:
    """Whether a "| Term | Text |" row's text cell reads as an entry's text: words enough,
    and a sentence ended in it (the last row's may be cut off)."""
    row = _row(line)
    return row is not None and len(row[1].split()) >= _PROSE_CELL_WORDS and holds_a_sentence(row[1])


def parse(text: str) -> Parsed:
    rows = lines_of(text)
    separators = [line.strip() for _, line in rows if _PIPES.match(line.strip())]
    if separators:
        doubled = any(len(s) >= 2 for s in separators)
        lines = []
        lettered = False  # a Glossary letter's own marks: its letter heading or letter index
        following = _next_words([line for _, line in rows])
        for index, (_, line) in enumerate(rows):
            stripped = line.strip()
            if _anchor(stripped, following[index]):
                lines.append("")
                lettered = True
            elif _PIPES.match(stripped):
                lines.append("||" if len(stripped) >= 2 or not doubled else "|")
            elif _navigation(stripped):
                lines.append("")  # navigation: a menu, the letter page's anchors
                lettered = lettered or bool(_ANCHORS.match(stripped))
            elif kind := chrome.kind_of(_cell(stripped), debris=False):
                lines.append("")  # a letter index, "back to top", a menu
                lettered = lettered or kind in _LETTER_MARKS
            else:
                # A cell's closing "|" at a line's end is table markup, not text: the page
                # heading "Rulebook Glossary - D |" and the letter index must read as such.
                lines.append(_cell(line.rstrip()) if line.rstrip().endswith(" |") else line)
        parsed = convert(get_parser("glossary-table")("\n".join(lines), UPLOAD), "glossary-table")
        for entry in parsed.entries:
            _known_title_cut(entry)
        # Where a title ends was guessed: a doubt about a title, which a moderator confirms.
        parsed.warnings = [
            ParseWarning(w.line, w.message, doubt=True) if w.message.startswith(_GUESSED) else w
            for w in parsed.warnings
        ]
        guessed = [w for w in parsed.warnings if w.message.startswith(_GUESSED)]
        unknown = not any(is_known(e.title) for e in parsed.entries)
        if len(parsed.entries) == 1 and (guessed or not lettered) and unknown:
            # one cell whose title can only be guessed, or whose heading no Glossary letter
            # stands over: an article set in a table (a review "Major Rakal's Romulan Review
            # #25: …", "Mot's Useless Card Review #69: …"), not a glossary
            return _article(parsed, "one cell, whose title the project does not know")
        if parsed.entries and not any(title_ok(e.title) and e.text.strip() for e in parsed.entries):
            # No cell pair is a term over its text: the rows hold a table's lines ("2. | Crew
            # Reassignment | Plays on table.", a card list) or an article's paragraphs.
            parsed.entries = []
            parsed.holds_none = (
                "a table that is no glossary (no term over its text: a card list, or an "
                "article set in a table)"
            )
            return parsed
        if parsed.entries and unknown and not lettered:
            # cells under no Glossary letter's heading or index, none titled as the project
            # knows anything: an article's heading cell over its paragraphs ("Card Extra
            # Deactivation from … |"), another game's glossary
            return _article(
                parsed, "cells under no Glossary letter, none titled as the project knows anything"
            )
        # A title with no text under it is a heading or a cell the scrape lost: a doubt.
        parsed.warnings += [
            ParseWarning(e.line, f"entry {e.title!r} has no text", doubt=True)
            for e in parsed.entries
            if not e.text.strip()
        ]
        return parsed
    return _rows_of_cells(rows)


def _article(parsed: Parsed, why: str) -> Parsed:
    """``parsed`` refused as an article set in a table, with how to read it if it does hold
    rulings: its heads named, for the general reader."""
    line = parsed.entries[0].line
    parsed.entries = []
    parsed.holds_none = (
        f"an article set in a table ({why}). If it does hold rulings, name the lines that "
        f"open them as heads (a corrections item such as {{line: {line}, head: true}})"
    )
    return parsed


def _rows_of_cells(rows: list[tuple[int, str]]) -> Parsed:
    """The entries of a table of two cells a row ("| Term | Text |", "Term<tab>Text"). A
    line between two rows is the first row's cell going on (a browser copies a cell's
    paragraphs and wrapped lines a line each); after the last row, only the sentence that
    row leaves open goes on: the rest is the page's."""
    result = Parsed(parser="glossary-table")
    going_on: list[tuple[int, str]] = []  # lines after a row, before the next
    last_row = 0  # the line of the row read last
    for number, line in rows:
        stripped = line.strip()
        if _RULE.match(stripped) and result.entries and result.entries[-1].line == last_row:
            if not going_on:  # "|---|---|" under a row: that row is the table's header
                result.ignored([(last_row, result.entries.pop().title)], "the table's header")
            continue
        if not stripped or _RULE.match(stripped) or _navigation(stripped):
            continue
        row = _row(stripped)
        if not row:
            if result.entries and chrome.kind_of(stripped) is None:
                going_on.append((number, stripped))
            elif not result.entries and (tail := _termless_cell(stripped)):
                # "| | are the same locations as …": a row with no term above the first, the
                # entry the page store's cut started in
                result.ignored(
                    [(number, tail)], "the page starts inside an entry whose title is not on it"
                )
            else:
                result.warnings.append(_outside(number, stripped))
            continue
        _cell_goes_on(result, going_on)
        going_on = []
        title, body = row
        if title.lower() in ("term", "title", "name") and body.lower() in ("text", "definition"):
            continue
        if not body and (kind := chrome.kind_of(title)):
            result.ignored([(number, stripped)], "a table cell of the site's", f": {kind}")
            continue  # a layout table's one cell ("| header |")
        body = _BREAK.sub("\n", _BREAKS.sub("\n\n", body))
        if not body:
            # as in a scraped glossary: a heading, or a cell the copy lost
            result.warnings.append(ParseWarning(number, f"entry {title!r} has no text", doubt=True))
        result.entries.append(ReadEntry(title=title, text=body, line=number))
        last_row = number
    # after the last row: its cell goes on while its sentence is open
    open_text, taken = (result.entries[-1].text if result.entries else "."), 0
    while taken < len(going_on) and not ends_sentence(open_text):
        open_text = going_on[taken][1]
        taken += 1
    _cell_goes_on(result, going_on[:taken])
    for number, line in going_on[taken:]:
        result.warnings.append(_outside(number, line))
    if len(result.entries) == 1:
        # one row is as weak a table as one "title: text" line is a glossary: a layout's
        # cell may name a card over a review of it
        entry = result.entries[0]
        result.warnings.append(
            ParseWarning(
                entry.line,
                f"entry {entry.title!r} is the page's only table row; check that it is a "
                f"ruling (if so: {{line: {entry.line}, confirm: true}})",
                doubt=True,
            )
        )
    return result


def _termless_cell(line: str) -> str:
    """The text cell of a ``| | text |`` row whose term cell is empty, else ""."""
    cells = _pipe_cells(line) if line.startswith("|") else None
    return cells[1] if cells is not None and not cells[0] else ""


def _outside(number: int, line: str) -> ParseWarning:
    return ParseWarning(number, f"a line outside the table, ignored: {line[:60]!r}")


def _cell_goes_on(result: Parsed, lines: list[tuple[int, str]]) -> None:
    """``lines`` added to the last entry's text: its cell's next lines, a new paragraph
    after a sentence's end, else the same sentence wrapped."""
    if not result.entries:
        return
    entry = result.entries[-1]
    for _, line in lines:
        if not entry.text:
            entry.text = line
        else:
            entry.text += ("\n\n" if ends_sentence(entry.text) else " ") + line

"""A document's metadata where its top prints them: its title, the date it was issued,
its edition and the kind of rules document it is, and the labels that date a page rather
than a ruling ("Last updated: …", a post's byline, a release's name)."""

from __future__ import annotations

import datetime as dt
import re

from bot.ingest.reader.chrome import kind_of, links_glued
from bot.ingest.reader.common import opens_with_a_tail
from bot.ingest.reader.dates import ISO, RULINGS_UPDATED, US_DATE, iso_or_none, us_date
from bot.ingest.reader.known import SMALL_WORDS
from bot.ingest.reader.markdown import heading_level
from bot.ingest.reader.model import Metadata

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
# "(03 November 2014)", perhaps wrapped after the month in a narrow column
_LONG_DATE = re.compile(rf"\((\d{{1,2}})\s+({_MONTHS})\s+(\d{{4}})\)")
_UPDATED = re.compile(RULINGS_UPDATED, re.I)


_ABOUT = re.compile(
    r"(?<![\w-])(?:Current Rulings|Glossary|GLOSSARY|Rulebook|FAQ|Rulings|Rules Update|"
    r"Rules Supplement)(?![\w-])"
)


def names_a_document(text: str) -> bool:
    """Whether ``text`` names a kind of rules document ("Pseudo FAQ v1.3", "Glossary - M")."""
    return bool(_ABOUT.search(text))


def _heading_like(line: str) -> bool:
    return not line.endswith((".", "!", "?", ":", ";", ","))


_TOP_LINES = 60  # the lines of a page's top where it prints its title and date


def _top_lines(text: str, first_entry: int | None) -> list[str]:
    """The page's lines above its first entry, at most :data:`_TOP_LINES` (the rest of the
    text, however long, is not split)."""
    end = min(first_entry - 1 if first_entry else _TOP_LINES, _TOP_LINES)
    return text.split("\n", _TOP_LINES)[:end]


def _unwrapped(lines: list[str]) -> list[str]:
    """``lines`` with a line that opens a bracket joined to the short line after it that
    closes it: a narrow column wraps a title's date ("… Document (03 November" / "2014)");
    and a title joined to its date in brackets on the line under it, or under a blank line
    ("Current Rulings Document" / "(7 July 2014)"). A joined line's place is kept, empty:
    lines are counted by number."""
    out: list[str] = []
    for line in lines:
        if (
            out
            and out[-1].count("(") > out[-1].count(")")
            and line.endswith(")")
            and ("(" not in line and len(line.split()) <= 3)
        ):
            out[-1] = f"{out[-1]} {line}"
            out.append("")
            continue
        above = len(out) - 1 if out and out[-1] else len(out) - 2
        if above >= 0 and names_a_document(out[above]) and _bracketed_date(line):
            out[above] = f"{out[above]} {line}"
            out.append("")
            continue
        out.append(line)
    return out


def _bracketed_date(line: str) -> bool:
    """Whether ``line`` is only a date in brackets: "(7 July 2014)", "(9/21/07)"."""
    inner = line[1:-1].strip()
    return (
        line[:1] == "("
        and line[-1:] == ")"
        and (_only_a_date(inner) or bool(_FIGURES_LINE.fullmatch(inner)))
    )


def _document_title(
    text: str, page_title: str | None, first_entry: int | None, lone_title: str | None
) -> str | None:
    """The title the document prints above its first entry: a heading line naming a kind of
    rules document ("Current Rulings", "Glossary - M"); else the HTML page's title; else, on
    a page of one entry (a ruling's or a card's page), that entry's title; else the first
    heading line (a capital first, two to fourteen words, no sentence's end, no table cell,
    no site chrome); else None (the moderator names it, or the file's name stands)."""
    lines = _unwrapped(
        [line.strip().strip("#*|").strip() for line in _top_lines(text, first_entry)]
    )
    listed = _documents_listed(lines)
    indexing = _section_index(lines)
    plausible = [
        line
        for index, line in enumerate(lines)
        if line
        and _title_line(line)
        and line not in listed
        and not _wraps_into(line, lines[index + 1 : index + 2])
        and index not in indexing
    ][:12]
    if opens_with_a_tail(next((line for line in lines if line), "")):
        # a heading under an entry's tail is the next entry's or a section's, not the
        # document's own title
        plausible = []
    naming = [line for line in plausible if names_a_document(line)]
    named = next(iter(naming), None)
    # A copy out of a PDF opens with the page's running header, the title cut short ("First
    # Edition Current Rulings" over "First Edition Current Rulings Document (03 November
    # 2014)"): the title that carries it whole is the document's.
    if named:
        named = max((line for line in naming if _fuller_title(named, line)), key=len)
    return named or page_title or lone_title or (plausible[0] if plausible else None)


def _fuller_title(header: str, line: str) -> bool:
    """Whether ``line`` is ``header``'s title printed whole: it holds the header's words,
    and the words it adds are set as a title's (:func:`_title_cased`: "Document (7 July
    2014)"), not a sentence's run on ("Current Rulings are periodic updates to the")."""
    at = line.casefold().find(header.casefold())
    if at < 0:
        return False
    return _title_cased(f"{line[:at]} {line[at + len(header) :]}")


def _documents_listed(lines: list[str]) -> set[str]:
    """The lines that stand in a list of documents, each naming one, next to another that
    does ("Rulebook Version 1.7 (August 2000)" / "Glossary Version 1.7 (August 2000)" /
    "Current Rulings (12/05/01)": the set a preamble says the rules consist of): none of
    them is the page's own title. A line of prose under the title that names one too (a
    copy without blank lines: "… Document (03 November 2014)" / "Current Rulings are
    periodic updates to …") lists nothing."""
    named = [
        bool(line) and names_a_document(line) and _title_line(line) and _title_cased(line)
        for line in lines
    ]

    def other_document(index: int, other: int) -> bool:
        # a running header over the title it cuts short ("Current Rulings" / "Current
        # Rulings Document") names one document, not two
        if not (0 <= other < len(lines) and named[other]):
            return False
        one, two = lines[index].casefold(), lines[other].casefold()
        return one not in two and two not in one

    return {
        line
        for index, line in enumerate(lines)
        if named[index] and (other_document(index, index - 1) or other_document(index, index + 1))
    }


def _title_cased(line: str) -> bool:
    """Whether ``line`` is set as a title: no word in lower case but the small ones and
    those in brackets ("(12/05/01 - full version)" qualifies a title). Prose that names a
    document ("Current Rulings are periodic updates to the First Edition") is none, however
    short its line."""
    outside = _BRACKETED.sub(" ", line)
    return all(
        not word[:1].islower() or word.strip(",").lower() in SMALL_WORDS for word in outside.split()
    )


_BRACKETED = re.compile(r"\([^()]*\)")


def _wraps_into(line: str, following: list[str]) -> bool:
    """Whether ``line`` is a sentence's first line that the page wrapped into the next
    ("The Current Rulings are periodic rules updates that come directly from real play" /
    "situations not currently addressed …"): as wide as prose (nine words or more), the
    next line carrying it on in lower case. A short heading over a lower-case Glossary term
    ("Glossary - A" / "abduction – …") is no sentence."""
    return len(line.split()) >= 9 and bool(following) and following[0][:1].islower()


def _section_index(lines: list[str]) -> set[int]:
    """The lines (by index) of the page's index of its sections: a line of them
    (:func:`_indexes_sections`) and the rest of its paragraph."""
    found: set[int] = set()
    for index, line in enumerate(lines):
        if index in found or not line or not _indexes_sections(line, lines[index + 1 :]):
            continue
        while index < len(lines) and lines[index]:
            found.add(index)
            index += 1
    return found


def _indexes_sections(line: str, below: list[str]) -> bool:
    """Whether ``line`` is the page's index of its sections, the first of them the heading
    under it ("General Federation Klingon Romulan Non-Aligned" over "General"): bare words
    (four or more; "Glossary - H" over "Glossary" is a title over its crumb), and the first
    line of the next paragraph (the index may go on on a line of its own) is its first
    words, fewer of them."""
    words = line.split()
    if len(words) < 4 or not all(word.replace("-", "").isalpha() for word in words):
        return False
    after = next((index for index, other in enumerate(below) if not other), len(below))
    heading = next((other for other in below[after:] if other), "").split()
    return 0 < len(heading) < len(words) and words[: len(heading)] == heading


def _title_line(line: str) -> bool:
    words = line.split()
    return (
        2 <= len(words) <= 14
        and len(line) <= 100
        and (line[0].isupper() or line[0].isdigit())
        and _heading_like(line)
        and not any(mark in line for mark in ("|", "•", "[", " > "))  # cells, bullets, crumbs
        and not line.startswith(("Q:", "A:"))  # an FAQ's question, not its title
        and not links_glued(line)  # one link glued to another is a menu's, not a title
        and not _only_a_date(line)  # a post's date: "16th November 2018", "2016-09-19"
        and not _FIGURES_LINE.match(line)  # a date the next line was glued to: "12/05/01This"
        # a letter page's own heading ("Glossary - M") is chrome to the entries, and names
        # the document
        and kind_of(line) in (None, "letter heading")
    )


class ImpossibleDate(ValueError):
    """A document's header prints a date no calendar has ("30 February 2014")."""

    def __init__(self, line: int, printed: str):
        super().__init__(f"date {printed} is not a real date")
        self.line = line


# A line that is only a date, as an article or a post prints its own under its title:
# "2nd April 2024", "4 October 2021", "April 2, 2024", "Thursday, August 9, 2007".
_ORDINAL = r"(?:st|nd|rd|th)?"
_DAY_FIRST = re.compile(rf"^(?:\w+day,? )?(\d{{1,2}}){_ORDINAL} ({_MONTHS}),? (\d{{4}})$")
_MONTH_FIRST = re.compile(rf"^(?:\w+day,? )?({_MONTHS}) (\d{{1,2}}){_ORDINAL},? (\d{{4}})$")
_ISO_LINE = re.compile(rf"^{ISO}$")


# A line of only a date in figures ("7/31/00", "2016-09-19"), or one a copy glued to the
# line under it, its line break lost ("12/05/01This special "update" document …").
_FIGURES_LINE = re.compile(rf"^({US_DATE}|{ISO})(?=$|[A-Z])")
# A title ending on its date in figures: "Current Rulings (9/21/07)", "… Rulings 02/13/98".
_TITLE_DATE = re.compile(rf"[ (]({US_DATE}|{ISO})\)?$")


def _only_a_date(line: str) -> bool:
    """Whether ``line`` prints a date and nothing else, in any of the forms above or ISO."""
    return bool(_DAY_FIRST.match(line) or _MONTH_FIRST.match(line) or _ISO_LINE.match(line))


def _month_number(name: str) -> int:
    return _MONTHS.split("|").index(name) + 1


def _dated_line(text: str, first_entry: int | None) -> str | None:
    """The date of a line above the first entry (within the first 60) that prints only a
    date (or a date in figures glued to the next line), as ISO; None where there is none or
    it is no real date."""
    for line in _top_lines(text, first_entry):
        line = line.strip().strip("*_").strip()
        if found := _FIGURES_LINE.match(line):
            if date := iso_or_none(found.group(1)):
                return date
            continue  # a day first ("31/07/00") is no date the project can tell
        if len(line) > 40:
            continue
        if found := _DAY_FIRST.match(line):
            day, month, year = found.groups()
        elif found := _MONTH_FIRST.match(line):
            month, day, year = found.groups()
        else:
            continue
        try:
            return dt.date(int(year), _month_number(month), int(day)).isoformat()
        except ValueError:
            return None
    return None


def _titled_date(lines: list[str]) -> str | None:
    """The date in figures that ends a line titling a rules document ("Current Rulings
    (9/21/07)"), as ISO; not a line of a list of documents (those a preamble says the rules
    consist of, each with its date), nor a date that is no real one."""
    listed = _documents_listed(lines)
    for line in lines:
        if (
            (found := _TITLE_DATE.search(line))
            and names_a_document(line)
            and _title_line(line)
            and line not in listed
            and (date := iso_or_none(found.group(1)))
        ):
            return date
    return None


def _line_of(text: str, printed: str) -> int:
    """The 1-based line of the text where ``printed`` first appears."""
    return text.count("\n", 0, max(text.find(printed), 0)) + 1


def guess_metadata(
    text: str,
    page_title: str | None = None,
    first_entry: int | None = None,
    lone_title: str | None = None,
) -> Metadata:
    """Title, edition, date and kind where the document prints them near its top (the title
    above ``first_entry``, the line of the first entry's head; ``lone_title``: the title of a
    page's only entry). A printed date that is no real date raises :class:`ImpossibleDate`
    with its line."""
    head = [line.strip().strip("#*").strip() for line in text.split("\n")[:60]]
    head = [line for line in head if line]
    meta = Metadata()
    joined = "\n".join(head)
    if m := _UPDATED.search(joined):
        meta.date = us_date(m.group(1))
        if meta.date is None:
            raise ImpossibleDate(_line_of(text, m.group(1)), m.group(1))
        meta.title = m.group(0).strip()
    elif m := _LONG_DATE.search(joined):
        month = _month_number(m.group(2))
        try:
            meta.date = dt.date(int(m.group(3)), month, int(m.group(1))).isoformat()
        except ValueError:
            printed = m.group(0)[1:-1]
            raise ImpossibleDate(_line_of(text, m.group(0)), printed) from None
    if meta.date is None:
        top = text.split("\n", _TOP_LINES)[:_TOP_LINES]  # below the first entry too
        meta.date = _titled_date([line.strip() for line in top])
    if meta.date is None:
        meta.date = _dated_line(text, first_entry)
    further = _dated_title_below(text)
    if meta.date is None and further is not None:
        meta.date = further[0]
    if meta.date is None and page_title and (m := _LONG_DATE.search(page_title)):
        # a page's title (a PDF's running header) may print the date the body does not
        try:
            meta.date = dt.date(int(m[3]), _month_number(m[2]), int(m[1])).isoformat()
        except ValueError:
            pass  # a title's impossible date dates nothing; the body's own is checked above
    # the first edition the top names (a wrap may split "the Second" / "Edition Rulebook"),
    # else the preamble under a title printed below the top
    tops = [" ".join(line.strip("|").strip() for line in head[:40])]
    for top in tops + ([" ".join(further[2])] if further else []):
        if meta.edition is None and (m := _EDITION.search(top)):
            meta.edition = "1E" if m["first"] else "2E"
    if meta.title is None:
        meta.title = _document_title(text, page_title, first_entry, lone_title)
    if further is not None and not names_a_document(meta.title or ""):
        meta.title = further[1]
    if re.search(r"openCards", f"{meta.title or ''}\n{joined[:2000]}"):
        meta.kind = "community copy"
        return meta
    # the kind the title names; a word of the page's top only suggests one: a rules update
    # that quotes a Glossary entry is no glossary, an FAQ that cites the rulebook no rulebook
    meta.kind = _kind_named(meta.title or "")
    meta.kind_mentioned = meta.kind or _kind_named(joined[:2000])
    return meta


_EDITION = re.compile(r"(?P<first>\bFirst\s+Edition\b|\b1E\b)|\bSecond\s+Edition\b|\b2E\b|\bST2E\b")
_BELOW_LINES = 400  # the lines a text copied out of order may print its title within
_PREAMBLE_LINES = 12  # the lines under that title where its preamble names the edition


def _dated_title_below(text: str) -> tuple[str, str, list[str]] | None:
    """(date, title, the lines under it) of the document's dated title, wherever the first
    :data:`_BELOW_LINES` lines print it: a copy out of a PDF may put a column's entries
    above it ("General" / "abilities – …" / … / "Current Rulings Document (5 October" /
    "2011)"), a cut copy the tail of an entry. A title line naming a kind of rules
    document, set as a title, its date in brackets or in figures at its end ("Current
    Rulings (9/21/07)"); else None."""
    lines = text.split("\n", _BELOW_LINES)[:_BELOW_LINES]
    lines = _unwrapped([line.strip().strip("#*|").strip() for line in lines])
    first = next((index for index, line in enumerate(lines) if len(line) >= 3), None)
    listed = _documents_listed(lines)  # a preamble's list of documents, each dated
    for index, line in enumerate(lines):
        if line in listed:
            continue
        opening = _OPENING_TITLE.match(line) if index == first else None
        if opening and len(line[opening.end(1) :].split()) >= _RUN_ON_WORDS:
            # a copy that lost its line breaks runs its title on into the preamble: the
            # text's first line, of paragraphs, not a sentence that names a document
            line = opening.group(1)
        if not (names_a_document(line) and _title_line(line) and _title_cased(line)):
            continue
        if m := _LONG_DATE.search(line):
            try:
                date = dt.date(int(m[3]), _month_number(m[2]), int(m[1])).isoformat()
            except ValueError:
                return None
        elif m := _TITLE_DATE.search(line):
            date = iso_or_none(m.group(1))
        else:
            continue
        below = [other for other in lines[index + 1 : index + 1 + _PREAMBLE_LINES] if other]
        return (date, line, below) if date else None
    return None


# A title with its date in brackets opening a line the preamble runs on in ("First Edition
# Current Rulings Document (11 June 2010) Current Rulings are periodic updates …")
_RUN_ON_WORDS = 40  # the words a line runs on after its title where its breaks were lost
_OPENING_TITLE = re.compile(rf"^(.{{3,100}}?\(\d{{1,2}}\s+(?:{_MONTHS})\s+\d{{4}}\))\s+\S")


def _kind_named(text: str) -> str | None:
    return next((kind for named, kind in _KINDS if named.search(text)), None)


_KINDS = (
    (re.compile(r"Current Rulings|Rulings Updated|\bRULINGS\b"), "current rulings"),
    # the committee's monthly article of rulings, as its rulings feed posts them
    (re.compile(r"\bRules Update\b"), "rulings feed"),
    (re.compile(r"Glossary|GLOSSARY"), "glossary"),
    # a rules supplement extends the rulebook
    (re.compile(r"Rulebook|Rules Supplement|RULES SUPPLEMENT|Rule Book"), "rulebook"),
)


# Words that date the page, not a ruling, before a date ("Last updated: 2026-09-05",
# "TABLE OF CONTENTS: UPDATED 2000-12-01", "Posted 2016-09-19").
_DATE_LABELS = frozenset("updated update posted date dated revised published modified".split())


# Fields of a byline set apart by a middle dot or a bar ("cringwell · comment · 2021-08-15",
# "By Ann | News | 2020-01-02"): a forum's, a tracker's or a blog's post, not a title.
_BYLINE_FIELD = re.compile(r"\s[·|](?:\s|$)")


# A release's name before its date ("Version 1.4.2", "v2.0", "Release 3", "1.4.2"): a
# changelog's or a program's section, as no ruling's title is.
_RELEASE = re.compile(r"^(?:(?:version|release|build|patch)\s+v?|v)?\d+(?:\.\d+)*[a-z]?$", re.I)


def dating_label(before_date: str) -> bool:
    """Whether the words before a line's date are a label that dates the page (ending with a
    colon or a dating word), a post's byline of fields, or a release's name (a changelog's
    dated sections, perhaps Markdown headings), as no ruling's title is."""
    before = before_date.rstrip(" \t*_")  # a label set in bold: "**Last updated:** 2026-…"
    words = before.rstrip(":").split()
    return (
        before.endswith(":")
        or not words
        or words[-1].casefold() in _DATE_LABELS
        or _BYLINE_FIELD.search(before) is not None
        or heading_level(before) > 0
        or _RELEASE.match(before.strip(" -–—[]()")) is not None
    )

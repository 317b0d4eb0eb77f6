"""Page chrome, found by general means and blanked before any shape reads the text.

A browser's copy of a page (or a saved page turned to text) carries the site around the
document: menus, link lists, letter indexes, "back to top" links, share and cookie lines,
document-host banners, and headers or footers repeated on every page. None of these is a
rules text, and none is recognised by knowing the site: each is told by its form. Chrome
lines become blank lines, so line numbers stay those of the uploaded text, and the lines
removed are kept so the preview can list them.

Every test here is a linear scan or a linear pattern with no nested quantifier.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass

from bot.ingest.parsers import ParseWarning
from bot.ingest.reader import spacing
from bot.ingest.reader.dates import US_DATE
from bot.ingest.reader.known import SMALL_WORDS, is_known

_SENTENCE = re.compile(r"[.!?;:,]")
# Words run together where a menu's links lost their separators: "EditionSecond", "ExtrasSpecial".
_RUN_TOGETHER = re.compile(r"[a-z][A-Z][a-z]")
_INDEX_SEPARATORS = re.compile(r"[\s\-|·•/]+")
_DEBRIS = re.compile(r"^[\s|\-=*_#>~•·]*$")
# "(03 November 2014)", "(12/7/98)", "(03 November" where a narrow column wrapped it
_BRACKETED_DATE = re.compile(rf"\((?:\d{{1,2}}\s+[A-Z][a-z]+(?:\s+\d{{4}})?|{US_DATE})(?:\)|$)")
# What a browser prints at a page's top and foot when it saves a page as a PDF: the date and
# time, perhaps the page's title ("11/28/26, 10:17 PM Rulings"), and the page's address
# with the page's number ("https://www.trekcc.org/2e/rulings.php 1/3").
_PRINTED_BY_BROWSER = re.compile(
    rf"^{US_DATE},? \d{{1,2}}:\d{{2}}(?::\d{{2}})?(?: ?[AP]M)?(?:\s.*)?$|"
    r"^(?:https?|file)://\S+\s+\d{1,4}\s*/\s*\d{1,4}$",
    re.I,
)
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?$", re.I)
_FIXED = re.compile(
    r"^(?:back to top\b.*|top of page\b.*|\^?\s*top|skip to (?:main )?content|main menu|"
    r"jump to:? (?:navigation|search).*|navigation menu|user avatar|"
    r"bookmark and share\b.*|share this\b.*|share on \w+|tweet|print this page|email this page|"
    r"(?:we|this (?:site|website)) uses? cookies\b.*|accept (?:all )?cookies|cookie (?:policy|settings)|"
    r"\+ all categories|home\s*>.*|date post:.*|upload:.*|view: \d+ times|download: \d+ times|"
    r"share this document with a friend|transcript|\d+ views|post on \d.*|"
    r"show (?:more|less)|create successful epaper yourself|turn your pdf publications into .*|"
    r"quick viewing\s*\(text mode\)|"
    r"retrieved from .*|from (?:the )?[\w ]{0,40}wiki\w*|this page was last (?:edited|modified).*|categor(?:y|ies):.*|"
    r"you are here:?|(?:go )?back|torna indietro|zur(?:ü|ue)ck|retour|advertisement|"
    r"\[edit(?: \| edit source)?\]|edit|header|footer|references|external links|"
    r"\d{1,3}\.? ?[↑^].*|\^ .*)$",  # a wiki's references: "1. ↑ Current Rulings, 2014"
    re.I,
)
# A site's licence or trademark notice: "Community content is available under CC-BY-SA
# unless otherwise noted", "Star Trek and all related marks are trademarks of CBS".
_NOTICE = re.compile(
    r"\bavailable under (?:the )?(?:CC|Creative Commons|GNU|a licen[cs]e)|"
    r"\ball related marks are trademarks\b",
    re.I,
)

# A wiki's tagline under the page title: "From Codex Gamicus", "From Memory Alpha".
_TAGLINE = re.compile(r"^From [A-Z][\w'-]*+(?: [A-Z][\w'-]*+){0,3}$")  # possessive: linear


@dataclass
class Chrome:
    """The text with its chrome blanked, and what was blanked: (line, kind, text)."""

    text: str
    removed: list[tuple[int, str, str]]

    def note(self) -> ParseWarning | None:
        """The note that names what was removed, at its first line (None: nothing was)."""
        if not self.removed:
            return None
        kinds = sorted({kind for _, kind, _ in self.removed})
        count = len(self.removed)
        return ParseWarning(
            self.removed[0][0],
            f"page chrome removed ({count} line{'s' if count > 1 else ''}: {', '.join(kinds)})",
        )

    @property
    def share(self) -> float:
        """The part of the page's non-blank lines that were chrome."""
        kept = sum(1 for line in self.text.split("\n") if line.strip())
        return len(self.removed) / max(1, kept + len(self.removed))


def links_glued(line: str) -> int:
    """How many places ``line`` runs two words together as a copied menu does
    ("CardlistsList RulingsPrint Rulings": two)."""
    return len(_RUN_TOGETHER.findall(line))


def _title_in_capitals(words: list[str]) -> bool:
    """Whether ``words`` are a title set in capitals ("DILEMMAS REQUIRING AN ADDITIONAL OR
    ANOTHER PERSONNEL"), not a menu: a menu's links hold no two small words."""
    line = " ".join(words)
    return line.isupper() and sum(1 for w in words if w.casefold() in SMALL_WORDS) >= 2


def is_page_number(line: str) -> bool:
    """Whether ``line`` is a page number alone ("12", "Page 12", "12 of 40", "12/40")."""
    return bool(_PAGE_NUMBER.match(line.strip()))


def printed_by_browser(line: str) -> bool:
    """Whether ``line`` is what a browser prints at a page's top or foot when it saves the
    page as a PDF ("11/28/26, 10:17 PM Rulings", "https://… 1/3")."""
    return bool(_PRINTED_BY_BROWSER.match(line.strip()))


def kind_of(line: str, debris: bool = True) -> str | None:
    """What chrome ``line`` is ("menu", "index", "link", ...), or None for page content.
    ``debris=False`` keeps lines of bare separators ("|||", "----"): table shapes read them."""
    line = line.strip()
    if not line:
        return None
    if _DEBRIS.match(line):
        return "debris" if debris else None
    if len(line) > 300:
        return None
    if _FIXED.match(line):
        return "link"
    if _PAGE_NUMBER.match(line):
        return "page number"
    if _PRINTED_BY_BROWSER.match(line):
        return "page number"  # a browser's print header or footer: the page's, no entry's
    folded = line.casefold()
    if _NOTICE.search(line):
        return "footer"
    if ("copyright" in folded or "©" in line) and (
        "trademark" in folded or "rights reserved" in folded or "affiliation" in folded
    ):
        return "footer"
    words = line.split()
    tokens = [t for t in _INDEX_SEPARATORS.split(line) if t]
    # A letter index: "A - B - C - … - top", "da - dd - de", "ABC DEF GHI", perhaps after a
    # label ("Reference: 0-9 A B … Z").
    short = sum(1 for t in tokens if len(t) <= 3 or t.casefold() in ("top", "main"))
    if len(tokens) >= 4 and (short == len(tokens) or short >= 8 and short >= 0.8 * len(tokens)):
        return "letter index"
    # A letter page's sub-letter anchors, however few: "ab - ac".
    if " - " in line and all(len(t) <= 3 and t.isalpha() and t.islower() for t in tokens):
        return "letter index"
    if _TAGLINE.match(line):
        return "link"
    if is_known(line):
        return None
    if _letter_heading(line):
        return "letter heading"
    # Links run together: "headerhomehomehome…", "First EditionSecond EditionTribblesAll".
    run_together = links_glued(line)
    if run_together >= 3 or run_together == 2 and not _SENTENCE.search(line):
        return "menu"
    if len(words) == 1 and len(line) >= 24 and line.isalpha():
        return "menu"
    # A menu line: many capitalised link words, no sentence punctuation, and no date in
    # brackets ("First Edition Current Rulings Document (03 November 2014)": a title).
    if (
        len(words) >= 7
        and not _SENTENCE.search(line)
        and not _title_in_capitals(words)
        and not _BRACKETED_DATE.search(line)
    ):
        capitalised = sum(1 for w in words if w[:1].isupper() or w[:1].isdigit())
        if capitalised >= 0.8 * len(words):
            return "menu"
    # Links separated by pipes: "Home | Rules | Cards | Forums".
    if "|" in line.strip("|"):
        cells = [c.strip() for c in line.strip("|").split("|")]
        if all(len(c.split()) <= 4 and not _SENTENCE.search(c) for c in cells if c):
            return "link list"
    return None


def _letter_heading(line: str) -> bool:
    """A letter page's own heading ("Glossary - Q", "Rulebook Glossary - D"): a few words,
    a dash, one letter. Not an entry."""
    head, dash, letter = line.rpartition(" - ")
    return bool(dash) and len(letter) == 1 and letter.isalpha() and len(head.split()) <= 4


# A running header's or footer's page number, at the line's start or end ("Glossary –
# page 12", "12 Current Rulings"), and the rest of the line.
_RUNNING_NUMBER = re.compile(r"^(\d{1,4})\s+(.+)$|^(.+?)\s+(\d{1,4})$")
_PAGE_LINES = 4  # the fewest lines between two pages' running headers


def _repeated(lines: list[str]) -> set[str]:
    """The lines of 12 to 100 characters printed three times or more (a header or a
    footer); also a running header that prints the page's number ("… – page 12", "… –
    page 13"): at its start or end, counting up by one or two, its copies a page apart.
    Items that differ by a number elsewhere ("Interrupt window for T1 opens") or by numbers
    that do not count pages ("35th Rule of Acquisition") are the page's own lines."""
    exact: Counter[str] = Counter()
    pages: dict[str, list[tuple[int, int, str]]] = {}
    for index, line in enumerate(lines):
        if not 12 <= len(line := line.strip()) <= 100:
            continue
        exact[line] += 1
        if match := _RUNNING_NUMBER.match(line):
            number, rest = (match[1], match[2]) if match[1] else (match[4], match[3])
            pages.setdefault(rest, []).append((index, int(number), line))
    repeated = {line for line, count in exact.items() if count >= 3}
    for copies in pages.values():
        steps = list(itertools.pairwise(copies))
        if len(copies) >= 3 and all(
            b[0] - a[0] >= _PAGE_LINES and 1 <= b[1] - a[1] <= 2 for a, b in steps
        ):
            repeated.update(line for _, _, line in copies)
    return repeated


# A forum poll's result under each option: its votes ("6", "No votes"), then its share.
_VOTES = re.compile(r"^(?:\d{1,6}|No votes?)$", re.I)
_SHARE = re.compile(r"^\d{1,3}(?:[.,]\d{1,2})?\s?%$")


def _poll(lines: list[str]) -> set[int]:
    """The indexes of a forum poll's lines: each option ("Mixed - Lots I still don't
    understand") over its votes and its share ("No votes" / "0%"), and those two lines."""
    found: set[int] = set()
    for index in range(len(lines) - 2):
        option, votes, share = (line.strip() for line in lines[index : index + 3])
        if option and _VOTES.match(votes) and _SHARE.match(share):
            found.update((index, index + 1, index + 2))
    return found


# The chrome a line long enough to wrap may be: a copyright notice, a site's menu.
_WRAPPED_KINDS = frozenset({"footer", "menu"})
# A line of chrome is 300 characters at most (:func:`kind_of`): wrapped, a few lines more.
_MAX_CARRIED = 4


def strip(text: str, debris: bool = True, keep: frozenset[str] = frozenset()) -> Chrome:
    """Blank the chrome lines of ``text`` (a header or footer repeated three times or more
    included, and a forum poll's options), but for those of the kinds in ``keep``; line
    numbers are unchanged."""
    lines = text.split("\n")
    repeated = _repeated(lines)
    poll = _poll(lines)
    width = spacing.wrap_width(lines)
    removed: list[tuple[int, str, str]] = []
    out: list[str] = []
    carried = None  # the kind of a long chrome line above, which a wrap may carry on
    carried_lines = 0  # the lines it was carried on to so far
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        kind = kind_of(stripped, debris)
        if kind is None and stripped in repeated and not _SENTENCE.search(stripped[-1:]):
            kind = "repeated header"
        if kind is None and number - 1 in poll:
            kind = "poll"
        if (
            kind is None
            and carried
            and carried_lines < _MAX_CARRIED
            and spacing.wrapped_at(lines[number - 2], line, width)
        ):
            # "Star Trek in all forms is copyright and trademark of CBS Paramount" /
            # "Studios which has no affiliation with trekcc.org …": a footer wrapped
            kind, carried_lines = carried, carried_lines + 1
        elif kind in _WRAPPED_KINDS:
            carried, carried_lines = kind, 0
        else:
            carried = None
        if kind is None or kind in keep:
            out.append(line)
            continue
        if kind != "debris" or stripped:
            removed.append((number, kind, stripped))
        out.append("")
    return Chrome("\n".join(out), removed)

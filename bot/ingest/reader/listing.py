"""The lines a refusal lists as opening like an entry: what a moderator may name as heads.

A page no reader confirms is refused, never imported; its lines that open like an entry are
listed by number, and the corrections drafted for the moderator (:mod:`bot.answers.drafts`)
offer each as a head under the title listed. Listing reads nothing as an entry, so it may
be generous where the readers must not: a title the project does not know (a new card's
ruling, a new term), in any of the forms a rules document gives its titles —

- a heading on a line of its own, in capitals, Title Case or a Glossary's lower case, over
  a paragraph of prose (its first lines joined: a wrap may cut the first short);
- ``Title – text``, ``Title: text``, a table's ``Title<tab>text`` and a numbered item's
  ``12) Title: text``, at a paragraph's start;
- a title run into an editing instruction (``species Replace this entry with …``), or into
  its text where a bold face was lost (``mission There are …``, ``The Affiliations It is …``).

Each line is looked at once, with a few lines after it: linear.
"""

from __future__ import annotations

import itertools
import re

from bot.ingest.reader.card_text import game_text_of
from bot.ingest.reader.common import YEAR, bylined, title_like
from bot.ingest.reader.general import GAME_TEXT_CHECKS, page_rows
from bot.ingest.reader.glued import SENTENCE_OPENERS, run_into_text
from bot.ingest.reader.head_forms import is_label, names_no_entry, prose
from bot.ingest.reader.known import SMALL_WORDS
from bot.ingest.reader.numbered import without_number

HEADS_LISTED = 8  # lines a refusal's message lists; the corrections draft offers them all
HEADS_OFFERED = 40  # lines a refusal offers as heads, at most
_LISTED_LEAD = 3  # lines of the paragraph under a listed heading that tell it is prose
_TITLE_WORDS = 6  # words of a title before its separator
# A title's separator: a dash between spaces, a colon, a table's tab (first 70 characters)
_SEPARATOR = re.compile(r"\s[–—-]{1,2}\s|:\s|\t")
# An editing instruction a title runs into ("species Replace this entry with the following")
_INSTRUCTION = re.compile(
    r"\s(?=(?:Add|Replace|Delete|Insert|Change|Remove)\s(?:the|this|these|a|an)\b)"
)
# A paragraph that is itself the instruction ("replace the first sentence …"): no title
_OPENS_INSTRUCTION = re.compile(
    r"(?:add|replace|delete|insert|change|remove)\s(?:the|this|these|a|an)\b", re.I
)


def possible_heads(text: str, limit: int = HEADS_OFFERED) -> list[tuple[int, str]]:
    """Lines of a refused page that open like an entry, (line, title), in the page's order:
    what a moderator may name as heads, never read as entries."""
    rows, _ = page_rows(text)
    content = [(number, line.strip()) for number, line in rows if line.strip()]
    paragraphs = _paragraphs_after(rows)
    opening = _paragraph_starts(rows)
    found: list[tuple[int, str]] = []
    first: list[tuple[int, str]] = []  # the page's first line, where it may head its one ruling
    looked_up = 0  # lines compared with the cards' texts, as many as a page's heads are
    for position, (number, line) in enumerate(content):
        if YEAR.search(line) or bylined([line]):
            continue  # a date or a dated heading; a post's byline
        own = title_like(line, alone=True) or _title_cased(line) or _term_line(line)
        over_prose = own == line and any(prose(p) for p in paragraphs.get(number, ()))
        if position == 0:
            # the page's own title: a ruling's title over its text only on a page of one
            first = [(number, line)] if over_prose and not names_no_entry(line) else []
            continue
        head = own if over_prose else None
        if not head and ("\t" in line[:100] or line.startswith("|")):
            head = _first_cell(line)  # a table's row: its first cell, whatever it holds
        head = head or title_like(line, alone=False)
        if not head and number in opening:
            head = _inline(line)
        if not head or names_no_entry(head):
            continue  # a deck list's count ("1<tab>Armus"), an address
        if head != line and looked_up < GAME_TEXT_CHECKS:
            looked_up += 1
            if game_text_of(line):
                continue  # a card's game text: "Order - Reveal the top four cards …"
        found.append((number, head))
        if len(found) == limit:
            break
    return found or first


def _paragraphs_after(rows: list[tuple[int, str]]) -> dict[int, tuple[str, ...]]:
    """The text each line stands over: the next lines of its paragraph, or after its
    paragraph's last line the next paragraph, and after a lead-in ending in a colon
    ("codewolf asks:") the one after that too; a few lines of each joined, since a wrap cuts
    "Issued by popular demand," short of a sentence. Linear: a few lines a line."""
    blocks = [
        [(number, line.strip()) for number, line in group]
        for blank, group in itertools.groupby(rows, key=lambda row: not row[1].strip())
        if not blank
    ]
    leads = [" ".join(line for _, line in block[:_LISTED_LEAD]) for block in blocks]
    after: dict[int, tuple[str, ...]] = {}
    for at, block in enumerate(blocks):
        for index, (number, _) in enumerate(block[:-1]):
            lines = block[index + 1 : index + 1 + _LISTED_LEAD]
            after[number] = (" ".join(line for _, line in lines),)
        following = tuple(leads[at + 1 : at + 2])
        if following and following[0].endswith(":"):
            following += tuple(leads[at + 2 : at + 3])
        after[block[-1][0]] = following
    return after


def _paragraph_starts(rows: list[tuple[int, str]]) -> set[int]:
    """The lines that open a paragraph: after a blank line, or after a line that ends a
    sentence (a copy without blank lines), or the page's first."""
    starts: set[int] = set()
    before = ""
    for number, line in rows:
        text = line.strip()
        if text and (not before or before.endswith((".", "!", "?", ":", ")", '"', "”"))):
            starts.add(number)
        before = text
    return starts


def _title_cased(line: str) -> str | None:
    """A line a refusal may list as a heading though the reader would not read it as one:
    a few words, each of four letters or more capitalised ("How To Play", "The Meaning Of
    Capture, Cumulative, Etc."), as headings are and sentences are not."""
    words = line.split()
    if not 2 <= len(words) <= 10 or len(line) > 90 or line.endswith((":", "?", ",", ";")):
        return None
    long = [w.strip("\"“”'‘’(),.") for w in words]
    long = [w for w in long if len(w) >= 4 and w.isalpha()]
    return line if long and all(w[0].isupper() for w in long) else None


def _term_line(line: str) -> str | None:
    """A Glossary's term in lower case on a line of its own ("infiltration icon"): a few
    words of letters, no sentence's punctuation."""
    words = line.split()
    if not 1 <= len(words) <= 4 or not line[:1].islower() or line.endswith(","):
        return None
    marks = str.maketrans("", "", "-'’,")  # "attributes, ship", "Borg-ified": a term's marks
    return line if all(w.translate(marks).isalpha() for w in words) else None


def _inline(line: str) -> str | None:
    """The title a paragraph opens with before its separator or an editing instruction
    (``Dilemma Resolution: Add …``, ``30) matching commander: Replace …``, ``species
    Replace this entry …``), or run into its sentence, when it reads as a title."""
    item = without_number(line)
    marks = [m for m in (_SEPARATOR.search(item, 0, 70), _INSTRUCTION.search(item, 0, 70)) if m]
    if not marks:
        return _run_in(item)
    first = min(marks, key=lambda mark: mark.start())  # the title ends at the first
    return _titled(item[: first.start()], item[first.end() :])


def _first_cell(line: str) -> str | None:
    """A table row's first cell as its title (``title<tab>text``, or ``| title | text |`` as
    a saved page's table or a Markdown table prints it), dash and all."""
    if line.startswith("|"):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|", 2)]
    else:
        cells = line.split("\t", 1)
    return _titled(cells[0].strip(), cells[1]) if len(cells) > 1 else None


def _titled(head: str, rest: str) -> str | None:
    """``head`` if it reads as the title of ``rest``: a few words, no sentence's end inside
    or at its end, no label ("Note:", "Example:"), and some text after it."""
    if not any(ch.isalpha() for ch in head) or len(rest.split()) < 3 or is_label(head):
        return None  # a deck list's count ("1<tab>Armus - Skin of Evil") is no title
    words = head.split()
    if len(words) > _TITLE_WORDS or not (head[0].isalnum() or head[0] in "\"“'‘"):
        return None
    # a card's "Title, Subtitle" holds a comma; a sentence's end inside, or at the end, none
    if any(w.endswith((".", "!", "?", ";")) for w in words[:-1]) or head.endswith(
        (".", "!", "?", ";", ",")
    ):
        return None
    return head


def _run_in(item: str) -> str | None:
    """The title a paragraph opens with where its bold face was lost and no separator is
    left: a term in lower case before a sentence's start (``mission There are three kinds
    …``, as :func:`glued.run_into_text` reads it), or words in Title Case before a
    sentence's opening word (``The Affiliations It is possible …``)."""
    if _OPENS_INSTRUCTION.match(item):
        return None
    if found := run_into_text(item):
        return found[0]
    words = item[:400].split()[: _TITLE_WORDS + 2]
    for count in range(1, min(_TITLE_WORDS, len(words) - 2) + 1):
        opener, after = words[count], words[count + 1]
        title = words[:count]
        if not all(w[:1].isupper() or w.casefold() in SMALL_WORDS for w in title):
            return None  # a sentence's words, not a title's
        if opener[:1].isupper() and opener.casefold() in SENTENCE_OPENERS and after.islower():
            head = " ".join(title)
            return head if not head.endswith((".", ",", ";", ":", "!", "?")) else None
    return None

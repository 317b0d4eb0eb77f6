"""Heads the general reader did not take, named as doubts: a glossary's heading set aside
before the first entry or standing inside an entry's text, and, on a page of ``title:
text`` entries, a line in that form that was not read as one. Each is a doubt naming its
line and the correction that makes it an entry (``{line: N, head: true}``), never a note."""

from __future__ import annotations

from collections.abc import Callable

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import ends_sentence, is_list_item
from bot.ingest.reader.common import introduces_text, text_line, title_like
from bot.ingest.reader.glued import opens_glued
from bot.ingest.reader.head_forms import COLON, CONNECTIVES, is_label
from bot.ingest.reader.heads import Head
from bot.ingest.reader.markdown import heading_level
from bot.ingest.reader.model import Parsed
from bot.ingest.reader.numbered import list_number, opens_steps, without_number


def _doubt(result: Parsed, number: int, what: str, check: str = "no entry was missed") -> None:
    """The doubt naming a head not taken at line ``number``: ``what`` was seen there, the
    correction that reads it as an entry's head, and the one that confirms the read."""
    result.warnings.append(
        ParseWarning(
            number,
            f"{what}; check that {check} (if it is one: {{line: {number}, head: true}}; "
            f"if not: {{line: {number}, confirm: true}})",
            doubt=True,
        )
    )


def heading_among_text(
    result: Parsed, before: list[tuple[int, str]], raw: list[str], cut: bool = False
) -> None:
    """A heading set aside before the first entry between lines of text (an entry's tail
    above it, its own text under it: "… part 5. / attributes, ship / The printed …"), or a
    Markdown section heading with text under it: an entry whose title the reader could not
    confirm, most likely. A doubt naming the line, not a note. The page's own title and
    headings above its first text are left alone. ``cut``: the page starts inside an entry,
    so the text above is no preamble, and a title line in capitals there ("… each turn." /
    Sergey and Helena / the two personnel …) opens the next entry as one in lower case does."""
    for position, (number, line) in enumerate(before):
        after_sentence = position > 0 and ends_sentence(before[position - 1][1])
        following = before[position + 1][1] if position + 1 < len(before) else ""
        head, rest = line.partition(": ")[::2] if ": " in line[:72] else (line, "")
        if rest:  # "attributes, ship: The printed attributes of a ship are …"
            found = after_sentence and _short_heading(head) and rest[:1].isupper()
        else:
            marked = bool(following) and heading_level(raw[number - 1]) > 1
            heading = _short_heading(line) or cut and title_like(line, alone=True) == line
            found = marked or after_sentence and text_line(following) and heading
        if found:
            what = f"text before the first entry holds a heading ({head!r}) with text under it"
            _doubt(result, number, f"{what} that was not read as an entry")
            return


def heading_inside(result: Parsed, title: str, body: list[tuple[int, str]]) -> None:
    """A glossary's heading on its own line inside an entry's text, after a sentence's end
    and over a line of text ("… of Terok Nor. / faction / There are 3 factions: …"): most
    likely the next entry, its title unknown, read as this one's text. A doubt naming it."""
    lines = [(n, line.strip()) for n, line in body if line.strip()]
    for position in range(1, len(lines) - 1):
        number, line = lines[position]
        if (
            ends_sentence(lines[position - 1][1])
            and _short_heading(line)
            and text_line(lines[position + 1][1])
        ):
            what = f"the text of {title!r} holds a heading ({line!r}) with text under it"
            _doubt(result, number, f"{what} that was not read as an entry")
            return


def colon_page(heads: list[Head]) -> bool:
    """Whether the page's entries are ``title: text`` heads (two or more, half or more)."""
    colons = sum(1 for h in heads if h.style == COLON)
    return colons >= 2 and colons * 2 >= len(heads)


def _colon_head(line: str, numbered: bool = False) -> str | None:
    """The title of a ``title: text`` head ``line`` opens with, whatever case its text
    opens in ("Sergey and Helena: the two personnel …"): a few words, no sentence's mark, no
    label ("Example:"), no connective first, three words of text or more. On a ``numbered``
    list of entries, the item's number is no part of the title."""
    if numbered:
        line = without_number(line)
    colon = line.find(": ", 0, 60)
    if colon <= 0:
        return None
    title = line[:colon].strip().lstrip("*").strip()  # "*For example:" is a label too
    words = title.split()
    if not 1 <= len(words) <= 5 or any(mark in title for mark in '.;!?"“”'):
        return None
    if is_label(title) or words[0].casefold() in CONNECTIVES or is_list_item(title):
        return None
    if introduces_text(title):  # "… with the following:" leads into quoted text
        return None
    return title if len(line[colon + 2 :].split()) >= 3 else None


def colon_head_inside(
    result: Parsed, title: str, body: list[tuple[int, str]], numbered: bool = False
) -> None:
    """On a page of ``title: text`` heads, a paragraph inside an entry's text that opens in
    that form ("Sergey and Helena: the two personnel …", its text in lower case, so not
    confirmed as a head) is most likely the next entry: a doubt naming it."""
    if found := _first_paragraph_opening(body, lambda line: _colon_head(line, numbered)):
        number, head = found
        what = f"the text of {title!r} holds a paragraph that opens as the page's entries do"
        _doubt(result, number, f"{what} ({head!r}: …) but was not read as one")


_OPENS_SENTENCE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ\"“'‘")


def numbered_heads_inside(result: Parsed, entry: Head, body: list[tuple[int, str]]) -> None:
    """Two or more numbered paragraphs inside an entry's text that each open with a
    ``title: text`` head ("30) Classic Communicator: At the beginning …", "32) cloaking and
    phasing: Your …"): a numbered list of entries whose titles the reader could not
    confirm, read as one entry's text. A doubt naming the first (a numbered list of steps
    opens no titled paragraphs, nor does a list of steps under its lead-in)."""
    heads = []
    lines = [(number, line.strip()) for number, line in body if line.strip()]
    steps = 0
    for position, (number, line) in enumerate(lines):
        if (item := list_number(line)) is None:
            continue
        above = lines[position - 1][1] if position else entry.rest  # the head's own text
        if opens_steps(item, above) or steps and item == steps + 1:
            steps = item  # the entry's own steps under its lead-in ("…in this order:")
            continue
        rest = without_number(line)
        # an entry's text opens a sentence; a step's label runs on ("1) Initiation: the
        # player announces …")
        if (head := _colon_head(rest)) and rest[len(head) + 1 :].strip()[:1] in _OPENS_SENTENCE:
            heads.append((number, head))
    if len(heads) < 2:
        return
    (number, head), *_ = heads
    result.warnings.append(
        ParseWarning(
            number,
            f"the text of {entry.title!r} holds {len(heads)} numbered paragraphs that open with a "
            f"title ({head!r}: …): a numbered list of entries may have been read as one; "
            f"check that no entry was missed (if they are: {{line: {number}, head: true}} for "
            "each)",
            doubt=True,
        )
    )


def glued_head_set_aside(
    result: Parsed, where: str, lines: list[tuple[int, str]], above: str = ""
) -> None:
    """On a page whose entries are titles run into their text ("Tongo To declare …"), a
    paragraph ``where`` (inside an entry, before the first) that opens with a word in
    capitals run into a sentence ("Commander This keyword …") is most likely an entry whose
    title the reader could not confirm: a doubt naming it. A paragraph that a colon
    introduces (``above`` is the text before ``lines``: "This card has updated lore:" over
    "Typical Starfleet ensign …") is the text it quotes."""
    if found := _first_paragraph_opening(lines, opens_glued, above):
        number, head = found
        what = f"{where} holds a paragraph that opens as the page's entries do ({head!r} …)"
        _doubt(result, number, f"{what} but was not read as one")


def _first_paragraph_opening(
    lines: list[tuple[int, str]], head_of: Callable[[str], str | None], above: str = ""
) -> tuple[int, str] | None:
    """(line number, head) of the first paragraph among ``lines`` whose opening line
    ``head_of`` finds a head in, else None; a paragraph under a line that ends with a colon
    (``above`` is the text before ``lines``) is quoted text, passed over."""
    after_blank = True
    last = above.strip()
    for number, line in lines:
        if not line.strip():
            after_blank = True
            continue
        introduced = last.endswith(":")
        if after_blank and not introduced and (head := head_of(line.strip())):
            return number, head
        after_blank, last = False, line.strip()
    return None


def head_of_the_pages_form(
    result: Parsed, before: list[tuple[int, str]], numbered: bool = False
) -> None:
    """On a page whose entries are ``title: text`` heads, a line set aside before the first
    entry in that same form ("DS9: References in lore to …" under a cut entry's tail) is
    most likely an entry whose title the reader could not confirm: a doubt naming it. (On
    other pages a colon opens too many sentences' lists to name.)"""
    for number, line in before:
        if head := _colon_head(line, numbered):
            what = f"text before the first entry opens as the page's entries do ({head!r}: …)"
            _doubt(result, number, f"{what} but was not read as one")
            return


def _short_heading(line: str) -> bool:
    """A line that can only be a glossary's heading where it stands after a sentence's end:
    a few words in lower case, as the Glossary prints its terms, ending no sentence and
    leading into nothing ("attributes, ship"). A heading in capitals there is as often a
    preamble's section ("About the Set") and is left alone."""
    words = line.split()
    return (
        line[:1].islower()
        and 1 <= len(words) <= 8
        and words[0].casefold() not in CONNECTIVES  # "or" between two rules
        and len(line) <= 70
        and not line.endswith((".", ":", ";", ",", "!", "?"))
        and not is_list_item(line)
    )

"""Entry heads inside running text: a page whose line breaks were lost.

Text copied from a PDF viewer, or a board post quoting a rules document, often runs a whole
document section into one paragraph: ``…its owners hand. commanding stopped personnel When
your personnel are stopped… * cost When the cost…``. No line-based convention finds an entry
there; the titles still do, by what the project knows and how rules documents print them.

A head inside running text starts at a boundary (the line's start, after a sentence's end,
after the ``*`` that marks a new or changed entry, after a heading in capitals, or right after
the separator of the head before it) and is followed by a separator (`` – ``, ``: ``) or by
text that starts a sentence (a capital, a quote). It is

- a card or topic title the project knows (the longest that fits), or
- on a page that already has two known heads inside its running text, a title the page marks
  new with ``*``, or a topic in lower case as Current Rulings print them (``actions, costs
  Losing…``): prose never starts a sentence in lower case.
- a ``Title – text`` head in title case or opening in lower case (``holding the line –``),
  whose text holds a sentence, where the page prints three of them: a new Glossary or
  Current Rulings copied from its PDF names terms the project does not know yet.

The scan is one pass over the line's words, a fixed number of lookups per word: linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.ingest.reader.head_forms import DASH_MARKS
from bot.ingest.reader.known import QUESTION_WORDS, SMALL_WORDS, is_known, most_words_from

RUN_LINE = 400  # a line this long that holds several entries is text whose breaks were lost
MAX_TITLE_WORDS = 8
MAX_TOPIC_WORDS = 4
MAX_DASH_TITLE_WORDS = 6  # "Deck Size (the 30/30 Rule) – You are…"
MIN_DASH_HEADS = 3  # unknown "Title – text" heads a page needs to confirm the convention
MIN_TEXT_CHARS = 40  # an unknown head's text holds a sentence ("mission planet –" is a list)
MIN_KNOWN = 2  # known heads a page needs before unknown heads inside running text count
_WORD = re.compile(r"\S+")
_ABBREVIATION = re.compile(r"^\(?(?:[A-Za-z]\.){2,}[,)]?$")  # e.g. i.e. U.S.S.
_SHORT_FORMS = frozenset({"etc.", "vs.", "cf.", "no.", "st.", "mr.", "dr.", "p."})
_STOPS = (".", "!", "?")
_CLOSERS = "\"”’')]"
_DASHES = frozenset(DASH_MARKS)
_FUNCTION_WORDS = frozenset(
    "a an the and or but if when then so with for to of in on at by as is are was were be "
    "that this these those it its you your he she they we his her their from not no any all "
    "each may must can".split()
)
_ITEM = re.compile(r"^\d{1,2}\.$")  # "2." numbering a list's item
_OUTLINE = re.compile(r"^(?:\d{1,2}|[A-Z]|[IVX]{1,4})\.$")  # "4." "B." "IV." of an outline


@dataclass
class RunIn:
    start: int  # offset in the line where the head begins (its "*" included)
    text_start: int  # offset where the entry's text begins
    title: str
    style: str  # "dash", "colon" or "run" (no separator: the text starts a sentence)
    known: bool
    marked: bool
    text_chars: int = 0  # the length of its text, up to the next head or the line's end


def _ends_sentence(word: str) -> bool:
    # "A." or "IV." numbers an outline's item ("A. Major Rakal's Dilemma Facts B. Planet");
    # a number ends a sentence as often as it numbers an item ("Strength 10. Deanna Troi")
    # the closing quotes and brackets after the stop, however many ('Stromgen.")')
    bare = word.rstrip(_CLOSERS)
    if not bare.endswith(_STOPS) or _OUTLINE.match(word) and not word[0].isdigit():
        return False
    return not (_ABBREVIATION.match(word) or word.casefold() in _SHORT_FORMS)


def _starts_text(word: str) -> bool:
    return bool(word) and (word[0].isupper() or word[0].isdigit() or word[0] in "\"“'‘[(")


def _capital_heading(word: str) -> bool:
    return len(word) >= 3 and word.isalpha() and word.isupper()


def _after_capital_heading(words: list[str], i: int) -> bool:
    """Whether word ``i`` follows a heading in capitals ("RULINGS", "NEW RULES") that
    starts the line or a sentence."""
    j = i - 1
    while j >= max(0, i - 6) and _capital_heading(words[j]):  # a heading is short: linear
        j -= 1
    return j < i - 1 and (j < 0 or _ends_sentence(words[j]))


def _heading_first(title_words: list[str]) -> bool:
    """Whether a title opens with a heading in capitals and goes on in other case ("NEW
    RULES Deck Size"): the heading is no part of it."""
    return _capital_heading(title_words[0]) and not all(
        _capital_heading(w) or not w.isalpha() for w in title_words
    )


def _head_at(words: list[str], i: int) -> tuple[int, str, str, int, bool] | None:
    """(words in the title, title, style, index where the text starts, known) of a head at
    word ``i``, the longest known title first; else an unknown head's, else None."""
    first = words[i].lstrip("*")
    span = [first, *words[i + 1 : i + MAX_TITLE_WORDS]]
    most = most_words_from(first) if first else 0  # one lookup rules out most words
    unknown = None
    for n in range(len(span), 0, -1):
        title_words = span[:n]
        if not title_words[0]:
            return None
        last = title_words[-1]
        if last.endswith(",") or last in _DASHES:
            continue  # a title ends at its separator, never at a comma
        colon = last.endswith(":") and len(last) > 1
        title = " ".join(title_words)[: -1 if colon else None].strip()
        if any(w in _DASHES for w in title_words) and not (n <= most and is_known(title)):
            continue  # a dash inside is a known title's own ("battle – affiliation …")
        following = words[i + n] if i + n < len(words) else ""
        if colon:
            style, text = "colon", i + n
        elif following in _DASHES:
            style, text = "dash", i + n + 1
        elif _starts_text(following):
            style, text = "run", i + n
        else:
            continue
        if text >= len(words):
            text = len(words)
        if n <= most and is_known(title) and not (last.endswith(".") and _ends_sentence(last)):
            # "… the mirror universe. See Stop First Contact": the stop ends a sentence that
            # names the term; a title ends at its separator, not at a full stop
            return n, title, style, text, True
        longest = MAX_DASH_TITLE_WORDS if style == "dash" else MAX_TOPIC_WORDS
        if n <= longest and _plausible(title_words, colon):
            # the shortest such title is kept, but a "Title – text" head over a shorter run
            if unknown is None or unknown[2] != "dash" or style == "dash":
                unknown = (n, title, style, text, False)
    return unknown


def _plausible(title_words: list[str], colon: bool) -> bool:
    """Whether words the project does not know may still be a title: no sentence inside,
    no function word first, no question ("How to use the Glossary")."""
    first = title_words[0].strip("\"“”'‘’").casefold()
    if not first or first in _FUNCTION_WORDS or first in QUESTION_WORDS:
        return False
    inner = title_words[:-1] if colon else title_words
    if any(_ends_sentence(w) or w.endswith(";") for w in inner):
        return False
    return not title_words[-1].rstrip(":").endswith(",")


def _topic_in_lower_case(title: str) -> bool:
    """A Current Rulings topic (``commanding stopped personnel``, ``actions, costs``)."""
    words = title.split()
    return all(w[:1].islower() and w.strip(",").isalpha() for w in words) and not any(
        w.strip(",") in _FUNCTION_WORDS for w in words
    )


def _dash_title(title: str) -> bool:
    """An unknown title a dash may follow inside running text: in title case ("Taking Turns
    During Seeding –"), or a Glossary term opening in lower case (``showing your cards –``,
    ``cannot / may not –``): after a sentence's end, prose starts in capitals, a rules
    document's term may not."""
    return _titled(title) or title[:1].islower()


def find(line: str) -> list[RunIn]:
    """The heads inside one line of running text, in order (unconfirmed unknown heads
    included; :func:`confirmed` decides whether the page's heads are taken)."""
    words_at = [(m.start(), m.group()) for m in _WORD.finditer(line)]
    words = [w for _, w in words_at]
    heads: list[RunIn] = []
    at_word: list[int] = []  # the word each head starts at
    after_head = -1
    i = 0
    while i < len(words):
        word = words[i]
        marked = word.startswith("*") or i > 0 and words[i - 1] == "*"
        boundary = (
            i == 0
            or i == after_head
            or marked
            or _ends_sentence(words[i - 1])
            or _after_capital_heading(words, i)
        )
        # an entry may end on an icon's code, no full stop ("Staffing to [Maq] [Maq] Lore
        # Returns – When you …"): after one, only a known title and its dash open a head
        after_icon = not boundary and i > 0 and words[i - 1].endswith("]")
        if word == "*" or not (boundary or after_icon):
            i += 1
            continue
        found = _head_at(words, i)
        if found is None:
            i += 1
            continue
        n, title, style, text, known = found
        if after_icon and not (known and style == "dash"):
            i += 1
            continue
        if not known and _heading_first(words[i : i + n]):
            i += 1  # "NEW RULES Deck Size…": the section's heading, then the title
            continue
        if style == "run" and text < len(words) and _OUTLINE.match(words[text]):
            # "3. Dilemma Resolution 4. Battle": a table of contents' items, no entries
            i += 1
            continue
        if (
            not known
            and not (
                marked or _topic_in_lower_case(title) or style == "dash" and _dash_title(title)
            )
            or (style == "run" and not marked and n == 1 and title[:1].isupper())
        ):
            # A lone capitalised word before a capital ("One Away Team member…", "First
            # Edition…") is a sentence's subject, not a head: heads run into their text
            # are topics in lower case, titles of several words, or marked new.
            i += 1
            continue
        start = words_at[i - 1][0] if i > 0 and words[i - 1] == "*" else words_at[i][0]
        text_start = words_at[text][0] if text < len(words) else len(line)
        heads.append(RunIn(start, text_start, title, style, known, marked))
        at_word.append(i)
        after_head = text if style != "run" else -1
        i = max(text, i + 1)
    heads = _without_list_steps(words, heads, at_word)
    if heads:  # each head's text runs to the next head, the last one's to the line's end
        ends = [head.start for head in heads[1:]] + [len(line)]
        for head, end in zip(heads, ends, strict=True):
            head.text_chars = max(0, end - head.text_start)
    return heads


def _step_number(words: list[str], i: int) -> int | None:
    """The number of the list item word ``i`` opens ("… occur. 2. Replace: …"): an item's
    number standing alone after a sentence's end (not "Strength 10. Deanna Troi")."""
    if i < 1 or not _ITEM.match(words[i - 1]) or (i >= 2 and not _ends_sentence(words[i - 2])):
        return None
    return int(words[i - 1][:-1])


def _without_list_steps(words: list[str], heads: list[RunIn], at_word: list[int]) -> list[RunIn]:
    """``heads`` less the steps of a numbered list inside an entry's text: a head after item
    number N where item N - 1 stands in the text before it, since the head before, or item
    N + 1 in its own text ("modifications – … 1. Choose: … 2. Replace: … 3. Modify: …"). A
    numbered document's own entries open with their numbers, so none stands in an entry's
    text. Each stretch of words between two heads is read twice at most: linear."""
    kept: list[RunIn] = []
    for position, (head, i) in enumerate(zip(heads, at_word, strict=True)):
        number = _step_number(words, i)
        if number is not None:
            since = at_word[position - 1] + 1 if position else 0
            until = at_word[position + 1] - 1 if position + 1 < len(heads) else len(words)
            before = words[since : i - 1]
            after = words[i + 1 : until]
            if f"{number - 1}." in before or f"{number + 1}." in after:
                continue
        kept.append(head)
    return kept


def _titled(title: str) -> bool:
    """A title in title case ("Taking Turns During Seeding", "Deck Size (the 30/30 Rule)")."""
    words = title.split()
    return words[0][:1].isupper() and all(
        w[:1].isupper() or w[:1].isdigit() or w.strip("(").casefold() in SMALL_WORDS for w in words
    )


def confirmed(heads: list[RunIn]) -> list[RunIn]:
    """The heads a page's running text is split at: with :data:`MIN_KNOWN` known heads, its
    known heads and its marked, lower-case or title-case dash heads; without, only its
    title-case ``Title – text`` heads, and only where the page prints :data:`MIN_DASH_HEADS`
    of them (a rules supplement's run-together sections); else none."""
    if sum(1 for head in heads if head.known) >= MIN_KNOWN:
        return heads
    dashed = [
        h
        for h in heads
        if h.style == "dash"
        and (h.known or _dash_title(h.title) and h.text_chars >= MIN_TEXT_CHARS)
    ]
    return dashed if len(dashed) >= MIN_DASH_HEADS else []

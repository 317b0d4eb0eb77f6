"""Helpers the shapes share: paragraphs, cards, case and sentence tests, and the no-silent-misparse
checks (a document's title, date and kind are read in :mod:`metadata`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.ingest.parsers import Amendment, ParseWarning
from bot.ingest.parsers.text import amendment_of, ends_sentence, is_list_item, see_also
from bot.ingest.reader import page_checks, runin, spacing
from bot.ingest.reader.glued import SENTENCE_OPENERS
from bot.ingest.reader.head_forms import (
    COLON,
    DASH_MARKS,
    SPACED_DASH,
    cites_a_title,
    inline,
    is_label,
    names_a_source,
    prose,
    without_trailing_dash,
)
from bot.ingest.reader.known import QUESTION_WORDS, is_known
from bot.ingest.reader.model import Parsed, ReadEntry
from bot.ingest.reader.numbered import without_number
from bot.models import (
    AMEND_ADD,
    AMEND_REPLACE_ENTRY,
    AMEND_REPLACE_PART,
    KIND_CARD_RULING,
    KIND_CLARIFICATION,
    KIND_ERRATUM,
    KIND_RULE,
)

YEAR = re.compile(r"\b(?:19|20)\d\d\b")  # a year in prose: a date, a release
# The editing instructions that give new text (an entry's whole, or paragraphs added): what
# follows them is quoted, and may print its own headings ("Objectives – …")
GIVES_TEXT = frozenset({AMEND_ADD, AMEND_REPLACE_ENTRY, AMEND_REPLACE_PART})
# A card ruling's kind printed as a label on a paragraph of its own under its title, as the
# Current Rulings print "Brilgar –Erratum:" and the bundled parsers read it (not the text's)
_LABELLED_KINDS = {"erratum:": KIND_ERRATUM, "clarification:": KIND_CLARIFICATION}
_CARDS = re.compile(r"^Applicable Cards?:\s*(.*)$", re.I)
# A line that reads like an amendment instruction ("Replace …", "Add the following …").
_INSTRUCTION = re.compile(
    r"^\*{0,3}(?:Replace|Add|Delete|Insert|Remove|Strike|Change|Amend)\b.{0,120}?"
    r"\b(?:following|paragraph|entry|sentence|bullet|section|list|text|example|word)",
    re.I,
)


def see_references(text: str) -> list[str]:
    """Cross references as printed: the bundled forms ("See **X**", "(See X.)") and the plain
    "See X." or "See X, Y." of web pages, in order, no repeats."""
    found = see_also(text)
    for match in re.finditer(r"(?:^|[.(]\s*)See ([^.()]+?)(?:\.|\)|$)", text):
        for target in match.group(1).split(", "):
            if target.strip() and target.strip() not in found:
                found.append(target.strip())
    return found


def lines_of(text: str) -> list[tuple[int, str]]:
    return [(number, raw.rstrip()) for number, raw in enumerate(text.split("\n"), 1)]


def paragraphs(body: list[tuple[int, str]], lower_joins: bool = True) -> list[tuple[int, str]]:
    """(first line, text) paragraphs: blank lines separate them; within a block each line is
    its own paragraph (web text is not hard-wrapped) unless it continues an unfinished
    sentence in lower case (a hard wrap), which joins it with a space (not with
    ``lower_joins`` false). A block wrapped to a width (a PDF's or a mail's lines) is one
    paragraph, whatever its lines open with."""
    out: list[tuple[int, str]] = []
    blank = True
    wrapped = False
    cut: set[int] = set()  # in a block of paragraphs wrapped to a width: the lines it cut
    for index, (number, raw) in enumerate(body):
        line = raw.strip()
        if not line:
            blank = True
            continue
        if blank:
            wrapped = _wrapped_block(body, index)
            cut = set() if wrapped else _cut_lines(body, index)
        if (
            out
            and not blank
            and not is_list_item(line)
            and (
                wrapped
                or index - 1 in cut
                or lower_joins
                and not ends_sentence(out[-1][1])
                and line[:1].islower()
            )
        ):
            out[-1] = (out[-1][0], f"{out[-1][1]} {line}")
            continue
        out.append((number, line))
        blank = False
    return out


# A sentence's full stop (or the colon before a list) at a line's end, a closing quote or
# bracket after it: a line the wrap cut ends on none ("… that personnel is (or was)").
_STOPS = re.compile(r"[.!?:][\"”’)*_]*$")


def _cut_lines(body: list[tuple[int, str]], start: int) -> set[int]:
    """In the block of lines from ``start`` (to the next blank line), where it holds
    several paragraphs wrapped to one width with no blank line between them (a PDF's
    text as a viewer or ``pdftotext`` copies it), the lines the wrap cut. A paragraph ends
    on a line that stops short of the width (a title's, a paragraph's last) or ends a
    sentence. None where most of its lines stop short of the width (a menu, a list) or end
    a sentence, or a line is a table's row."""
    end = start
    while end < len(body) and body[end][1].strip():
        end += 1  # each block is looked at once: linear
    lines = [body[index][1].strip() for index in range(start, end)]
    if len(lines) < 3 or any("|" in line for line in lines):
        return set()
    # a copy may join two lines where a word broke at the first one's end ("Bird-of-" over
    # "Prey"): a line or two over the width
    held = [line for line in lines if len(line) <= _WRAP_WIDTHS[1]]
    if 4 * (len(lines) - len(held)) > len(lines):
        return set()
    widest = spacing.line_width(held)  # a stray longer line aside
    if not _WRAP_WIDTHS[0] <= widest <= _WRAP_WIDTHS[1]:
        return set()
    # A line near the width that ends no sentence goes on, whatever would have fitted after
    # it: a proportional font's lines differ by many characters, so no count tells a full
    # line from one a paragraph ended. A line that ends a sentence ends its paragraph: a
    # card's source line ("Taken form Glossary …") or the next heading stays apart.
    full = spacing.FILLED * widest  # a line this long or longer is near the width
    cut = {
        start + offset
        for offset, line in enumerate(lines[:-1])
        if len(line) >= full and not _STOPS.search(line)
    }
    # A block wrapped to a width: most of its lines near the width, and most end inside a
    # sentence the wrap cut (a web page's paragraphs a sentence a line end on stops).
    near = sum(1 for line in lines if len(line) >= full)
    inside = sum(1 for line in lines[:-1] if not ends_sentence(line))
    return cut if 2 * near >= len(lines) and 2 * inside >= len(lines) - 1 else set()


def unwrapped(body: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``body`` with each block wrapped to a width (a page printed to PDF: a card's long
    ``Lore:`` line over two lines) joined into its first row; a short sentence over such a
    block (a card's "Playable at: Any Nor - Ops Modul." over its wrapped game text) keeps
    its own row; other rows as they are."""
    out: list[tuple[int, str]] = []
    index = 0
    while index < len(body):
        if not body[index][1].strip():
            out.append(body[index])
            index += 1
            continue
        end = index
        while end < len(body) and body[end][1].strip():
            end += 1
        start = index
        wrapped = _wrapped_block(body, start)
        if (
            not wrapped
            and end - start >= 3
            and ends_sentence(body[start][1].strip())
            and _wrapped_block(body, start + 1)
        ):
            out.append(body[start])  # a lead line over the wrapped paragraph
            start, wrapped = start + 1, True
        if wrapped:
            rest = " ".join(raw.strip() for _, raw in body[start + 1 : end])
            out.append((body[start][0], f"{body[start][1].rstrip()} {rest}"))
        else:
            # a block of paragraphs wrapped with no gap between them: each joined into its
            # first row, where the wrap cut its lines (a card page copied out of its PDF)
            cut = _cut_lines(body, start)
            for row in range(start, end):
                if row - 1 in cut and not is_list_item(body[row][1].strip()):
                    out[-1] = (out[-1][0], f"{out[-1][1].rstrip()} {body[row][1].strip()}")
                else:
                    out.append(body[row])
        index = end
    return out


_WRAP_WIDTHS = (50, 140)  # the characters a wrapped line holds: a page's or a mail's width


def _wrapped_block(body: list[tuple[int, str]], start: int) -> bool:
    """Whether the block of lines from ``start`` (to the next blank line) is a paragraph
    wrapped to a width: two lines or more, all but the last near the widest, which a page
    or a mail sets, and at least half of them ending inside a sentence."""
    lines: list[str] = []
    for index in range(start, len(body)):  # each block is looked at once: linear
        line = body[index][1].strip()
        if not line:
            break
        if len(line) > _WRAP_WIDTHS[1]:
            return False  # a line no page's width holds
        lines.append(line)
    if len(lines) < 2 or any("|" in line for line in lines):
        return False  # a table's rows are as wide as each other, and no paragraph
    if any(is_list_item(line) for line in lines[1:]):
        return False  # a list's items, one to a line
    widest = max(len(line) for line in lines)
    if not _WRAP_WIDTHS[0] <= widest <= _WRAP_WIDTHS[1]:
        return False
    inner = lines[:-1]
    return all(len(line) >= spacing.FILLED * widest for line in inner) and 2 * sum(
        not ends_sentence(line) for line in inner
    ) >= len(inner)


def join(paragraphs_: list[str]) -> str:
    return "\n\n".join(p for p in paragraphs_ if p)


def entry_of(
    title: str, texts: list[str], line: int, cards: list[str] | None = None, date: str | None = None
) -> ReadEntry:
    """One entry from its paragraphs: a card ruling when it names cards, with the editing
    instructions its paragraphs give."""
    return ReadEntry(
        title=title,
        text=join(texts),
        line=line,
        kind=KIND_CARD_RULING if cards else KIND_RULE,
        date=date,
        cards=cards or [],
        amendments=amendments_of(texts),
    )


def amendments_of(texts: list[str]) -> list[Amendment]:
    """The editing instructions an entry's paragraphs ``texts`` give, in order."""
    return [found for found in map(amendment_of, texts) if found]


def labelled_kind(entry: ReadEntry) -> None:
    """``entry`` of the kind its first paragraph names when that paragraph is only the
    label ("Erratum:" over the card's new text), the label taken out of its text."""
    first, _, rest = entry.text.partition("\n\n")
    kind = _LABELLED_KINDS.get(" ".join(first.split()).casefold())
    if kind is not None and rest.strip():
        entry.kind, entry.text = kind, rest.strip()


def text_line(line: str) -> bool:
    """Whether ``line`` reads as a line of an entry's text: a sentence, or eight words or
    more (a title, a date or a list's item is short)."""
    return len(line.split()) >= 8 or ends_sentence(line)


def cut_fragment(found: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The last paragraph of a copy cut off a few words into it, after a paragraph that
    ends a sentence ("Star Trek in all forms is copyright and tradem", the page's footer as a
    page store cuts it): nothing shows whether it is the ruling's, so it is taken out of
    ``found`` and returned, for the preview to list."""
    if len(found) < 2 or ends_sentence(found[-1][1]) or len(found[-1][1].split()) >= 12:
        return None
    if not ends_sentence(found[-2][1]) or found[-1][1].startswith("Example"):
        return None
    return found.pop()


def split_cards(rest: str, following: list[str]) -> list[str]:
    """Cards after "Applicable Cards:": one a line, or on the same line split on ";" (or ","
    when no ";" is printed; card names with commas are best listed one a line)."""
    if following:
        return [card.strip() for card in following if card.strip()]
    separator = ";" if ";" in rest else ","
    return [card.strip() for card in rest.split(separator) if card.strip()]


def take_cards(body: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], list[str]]:
    """Remove the "Applicable Cards:" line (and the card lines after it) from an entry body."""
    for index, (_, raw) in enumerate(body):
        match = _CARDS.match(raw.strip())
        if not match:
            continue
        following: list[str] = []
        end = index + 1
        wrapped = [match.group(1)]
        # a list on the line, split on ";", may wrap on to the next lines (a PDF's narrow
        # page: "…; Memory Invasion; Nonlinear" / "Existence; You Vant to Go Back?;"),
        # joined once (not line by line, which copies the list so far each time)
        while ";" in wrapped[0] and end < len(body) and ";" in body[end][1]:
            wrapped.append(body[end][1].strip())
            end += 1
        listed = " ".join([wrapped[0].rstrip(), *wrapped[1:]]) if len(wrapped) > 1 else wrapped[0]
        if not match.group(1).strip():
            while end < len(body) and (body[end][1].strip() or not following):
                if body[end][1].strip():
                    following.append(body[end][1].strip())
                end += 1
        cards = split_cards(listed, following)
        return body[:index] + body[end:], cards
    return body, []


def opening_character(line: str) -> str:
    """``line``'s first character past any opening quote or bracket ('"at any time" …')."""
    return line.lstrip("\"“'‘([")[:1]


def starts_in_lower_case(line: str) -> bool:
    """Whether ``line``'s first letter is in lower case, past an opening quote or bracket
    ('"at any time" or …': a sentence's middle)."""
    return opening_character(line).islower()


def opens_with_a_tail(first_line: str) -> bool:
    """Whether a copy's first line is the tail of an entry cut above it: a sentence's end in
    lower case ('any time" or "each turn."', '"at any time" or "each turn."'), not a site's
    menu ("main navigation") or a page number ("of 13") in lower case."""
    return starts_in_lower_case(first_line) and ends_sentence(first_line)


_HEAD_SEPARATORS = tuple(f" {mark} " for mark in DASH_MARKS)
# Words that open a sentence or a cross reference, never an entry's title.
_OPENERS = (
    frozenset(
        "see if when while although because for in on at as after before unless during since "
        "once each all any this these that those it its you your they we he she there".split()
    )
    | QUESTION_WORDS
)


def _heading(text: str, max_words: int) -> bool:
    """Whether ``text`` reads as a heading: a capital first, a few words, no sentence in it
    (an initial such as "T." is no sentence's end) and none ending it."""
    words = text.split()
    if not words or len(words) > max_words or len(text) > 90:
        return False
    if not (text[0].isupper() or text[0].isdigit() or text[0] in "\"“'‘"):
        return False
    if words[0].casefold() in _OPENERS:
        return False
    if text.rstrip().endswith((".", "!", "?", ":", ";", ",")) and not text.endswith("!"):
        return False
    bare = text.rstrip().rstrip(")]\"”’'")
    if bare != text.rstrip() and bare.endswith((".", "!", "?", ";", ",")):
        return False  # a sentence's end inside a closing bracket or quote: "Away Team.)"
    if _closes_first(text):
        return False  # the rest of a bracket opened on a line above: "…sites), they may"
    inner = words[:-1]
    return not any(
        w.endswith((".", "!", "?", ";")) and not (len(w) == 2 and w[0].isupper()) for w in inner
    )


def _closes_first(text: str) -> bool:
    """Whether ``text`` closes a bracket before it opens one: it goes on from a line above."""
    close = text.find(")")
    return close >= 0 and not 0 <= text.find("(") < close


MIN_UNKNOWN_PAGE = 4  # entries a page needs before its titles' being all unknown tells


def none_known(entries: list[ReadEntry], warnings: list[ParseWarning]) -> list[ParseWarning]:
    """A doubt for a page of several entries none of whose titles the project knows, where
    not every entry is doubted already: another game's glossary or a lexicon of the shows
    prints "Term – text" in alphabetical order as the Glossary does, and only a person can
    tell them from a new rules document. Titles that are questions (an FAQ's) are no names."""
    named = [e for e in entries if not e.title.rstrip().endswith("?")]
    if len(named) < MIN_UNKNOWN_PAGE or any(is_known(e.title.lstrip("*")) for e in named):
        return []
    doubted = {w.line for w in warnings if getattr(w, "doubt", False)}
    if all(e.line in doubted for e in named):
        return []
    first = entries[0].line
    return [
        ParseWarning(
            first,
            f"none of the page's {len(named)} titles is a card or topic the project knows "
            "(another game's glossary or a lexicon of the shows reads the same): if this is "
            f"a rules document of the game, confirm the page ({{line: {first}, confirm: true}})",
            doubt=True,
        )
    ]


def _known_heads_inside(paragraph: str) -> list[str]:
    """The known titles that open a ``Title – text`` head after a sentence's end inside
    ``paragraph`` (not at its start: that is the paragraph's own head), or after words
    that end no sentence where a capital opens the text after the dash: a copy that lost
    the blank line after an entry closing without a full stop ("…does not change cannot /
    may not – Game text which …")."""
    if not any(f" {mark} " in paragraph for mark in DASH_MARKS):
        return []
    found = [
        head.title
        for line in paragraph.split("\n")
        for head in runin.find(line)
        if head.style == "dash"
        and head.start > 0
        and (head.known or head.text_chars >= runin.MIN_TEXT_CHARS)
    ]
    return found + [title for title in _known_before_dashes(paragraph) if title not in found]


_DASH_BEFORE_CAPITAL = re.compile(rf" {SPACED_DASH} (?=[A-Z])")
_TITLE_WORDS = 6  # the words before a dash that a known title may hold


def _known_before_dashes(paragraph: str) -> list[str]:
    """The known titles, of two words or more, that stand right before a dash followed by a
    capital inside ``paragraph``: the longest of the few words before each dash."""
    found = []
    for dash in _DASH_BEFORE_CAPITAL.finditer(paragraph):
        words = paragraph[max(0, dash.start() - 80) : dash.start()].split()
        after = paragraph[dash.end() : dash.end() + 80].split()[:4]
        for count in range(min(_TITLE_WORDS, len(words) - 1), 1, -1):
            title = " ".join(words[-count:])
            if is_known(title):
                # "Kivas Fajo – Collector": a card's name and its subtitle, no head
                named = any(is_known(f"{title} – {' '.join(after[:n])}") for n in (1, 2, 3, 4))
                if not named:
                    found.append(title)
                break
    return found


def title_like(line: str, alone: bool) -> str | None:
    """The title ``line`` seems to open a new entry with, else None: a heading on a line of
    its own (``alone``), or a ``Title – text`` head at the start of a paragraph."""
    line = line.strip()
    if names_a_source(line):  # "Taken from: Rulebook Glossary (08/2002)": a citation
        return None
    if is_list_item(line):
        # a numbered item that prints a head ("21) scouting location: Add the following")
        # may be an entry of a numbered list; a bullet's comment or a step is none
        item = without_number(line)
        if item == line:  # a bullet's or a letter's item
            return None
        found = inline(item)
        if found is None:  # "16) couple: a personnel and …": a known title's lower-case text
            return title_like(item, alone=False)
        title, _, style = found
        return title if style != COLON or is_known(title) else None
    # A heading of its own: a few words, more only as a card's "Title, Subtitle" (a sentence
    # missing its full stop, "The rest of the entry does not change", is no heading).
    if alone and _heading(line, 12 if "," in line else 6):
        return line
    if alone and (bare := without_trailing_dash(line)) != line:
        # "stopped –" over its text, a paragraph of its own: a term's line, its dash the
        # head's (a Current Rulings Document's form); prose a wrap broke at a dash goes on
        if _heading(_capitalised(bare), 6) or is_known(bare):
            return bare
    for separator in _HEAD_SEPARATORS:
        at = line.find(separator, 0, 70)
        head, rest = line[:at], line[at + len(separator) :]
        balanced = head.count("(") == head.count(")")
        # a page heading ("Glossary - D") has no text after its dash, an entry has some
        titled = _heading(_capitalised(head), 6) or is_known(head.strip())  # "◆Nebula – …"
        if at > 0 and balanced and len(rest.split()) >= 3 and titled:
            # a paragraph opening in lower case is no sentence: a glossary's lower-case
            # title ("couple – a personnel and their romantic partner.")
            return head.strip()
    # A title the project knows before a colon ("couple: a personnel and their romantic
    # partner."): the colon form of a glossary, whatever case its text opens in.
    colon = line.find(": ", 0, 70)
    title = line[:colon]
    if colon > 0 and len(line[colon + 2 :].split()) >= 3 and is_known(title):
        return None if is_label(title) else title
    return None


def _capitalised(head: str) -> str:
    return head[:1].upper() + head[1:]


_BYLINE = re.compile(r"^(?:[Bb]y|[Pp]osted by|[Ww]ritten by|BY|POSTED BY|WRITTEN BY)\s+[A-Z0-9]")
_CREDIT = re.compile(r"\b(?:[Aa]rticle|[Rr]eview) was written by [A-Z]")  # "This Card-Review was…"


def bylined(lines: list[str]) -> bool:
    """Whether one of ``lines`` (a page's first lines) is a byline ("by Jon Carter, Rules
    Master") or an article's credit ("This Card-Review article was written by Ross
    Fertel…"): the page is an article or a post, whose headings and questions are no
    entries."""
    return any(
        _BYLINE.match(line := raw.strip())
        and (len(line.split()) <= 14 or _run_into_text(line))
        or _CREDIT.search(line[:200])
        for raw in lines
    )


# A name's last word with a sentence's first word glued to it ("LorentzIn"): the line break
# after a byline, lost in a copy.
_GLUED_WORD = re.compile(r"[A-Z][a-z.'’-]*[a-z]([A-Z][a-z]*)")


def _run_into_text(byline: str) -> bool:
    """Whether ``byline`` (a line opening "by" and a name) runs into the article's first
    sentence, its line break lost ("by Evan LorentzIn a parallel universe, …"): a byline
    still, however long the line."""
    words = byline[:200].split()
    name = 1 if words[0].casefold() == "by" else 2  # "by", or "posted by", "written by"
    for word in words[name : name + 4]:
        if (glued := _GLUED_WORD.fullmatch(word)) and glued.group(1).casefold() in SENTENCE_OPENERS:
            return True
        if not word[:1].isupper():
            return False  # the name ended, and no sentence was glued to it
    return False


def _paragraph_line(lines: list[str], first: str, start: int, end: int) -> int | None:
    """The number of the line in ``lines`` (``start`` < number < ``end``) where a paragraph
    beginning ``first`` begins, else None."""
    for number in range(start + 1, min(end, len(lines) + 1)):
        line = lines[number - 1].strip()
        if line and line[:40] == first[:40]:
            return number
    return None


def _line_opening(lines: list[str], title: str, start: int, end: int) -> int | None:
    """The number of the line in ``lines`` (``start`` < number < ``end``) that opens with
    ``title`` and a dash after it, else None."""
    for number in range(start + 1, min(end, len(lines) + 1)):
        line = lines[number - 1].lstrip(" *")
        if line.startswith(title) and line[len(title) :].lstrip()[:1] in DASH_MARKS:
            return number
    return None


def introduces_text(line: str) -> bool:
    """Whether ``line`` ends by introducing text that follows it ("Replace the first
    paragraph of the Objectives subsection with the following:"): the next paragraph is
    that text, quoted in the entry, even where it opens ``Objectives – …`` like an entry.
    So does an instruction to add or replace that is all the line holds after its head
    ("Dilemma Resolution: Add this paragraph before "Triggers"")."""
    if line.casefold().rstrip(" :.").endswith(("the following", "as follows")):
        return True
    for tail in (line, *(line.split(mark, 1)[1] for mark in (": ", " – ", " - ") if mark in line)):
        amendment = amendment_of(tail)
        if (
            amendment is not None
            and amendment.action in GIVES_TEXT
            and amendment.instruction == tail.strip().strip("*").strip()
        ):
            return True
    return False


NEW_MARK = re.compile(r"^(?:\*\s?|❖\s?)")  # the "*" (or "❖") marking a new entry

# A card's own mark before its title, where the reader took it into the title: "❖ Patrol
# Neutral Zone" (a universal card's diamond, on a card database's page), "• Data" (unique).
_CARD_MARK = re.compile(r"^[❖•◆♦]\s?")


def without_card_mark(title: str) -> str:
    """``title`` without a card's mark before it (``❖``, ``•``): the card is named without."""
    bare = _CARD_MARK.sub("", title).strip()
    return bare or title


def doubt_missed_heads(result: Parsed, lines: list[tuple[int, str]], where: str) -> None:
    """Text set aside (``where``: "before the first entry", "between entries") that opens
    like an entry (``Title – text``, or a title the project knows alone on its line) may be
    an entry the reader did not take (its title unknown, its text in lower case): one doubt
    naming each such line (a few shown), not a note."""
    found: list[tuple[int, str]] = []
    for at, (number, line) in enumerate(lines):
        if cites_a_title(line):
            continue  # a cross reference's tail names an entry, it opens none
        # a "*" new-entry mark is no list bullet: "* assimilation - Correction to …"
        bare = NEW_MARK.sub("", line.strip()).strip()
        title = title_like(bare, alone=False)
        if title is None and at and is_known(bare) and title_like(bare, alone=True):
            # "Alien Parasites" over its text, run into the preamble by a copy; a card's
            # name over no text is a post's author ("Major Rakal" / "unread,"), and the
            # page's first line its own title or publisher ("THE CONTINUING COMMITTEE")
            following = lines[at + 1][1] if at + 1 < len(lines) else ""
            title = bare if prose(following) else None
        if title:
            found.append((number, title))
    if not found:
        return
    first = found[0][0]
    if len(found) == 1:
        opens = f"opens like an entry ({found[0][1]!r}) but was not read as one"
        named = f"if it is one: {{line: {first}, head: true}}"
    else:
        shown = ", ".join(f"{title!r} (line {number})" for number, title in found[:_SHOWN])
        more = ", …" if len(found) > _SHOWN else ""
        opens = f"opens like {len(found)} entries ({shown}{more}) but was not read as them"
        named = "for each that is one: {line: N, head: true}"
    result.warnings.append(
        ParseWarning(
            first,
            f"text {where} {opens}; check that no entry was missed "
            f"({named}; if none is: {{line: {first}, confirm: true}})",
            doubt=True,
        )
    )


_SHOWN = 5  # the lines a doubt names, as a preview shows them


def check(
    entries: list[ReadEntry], unique_titles: bool = True, lines: list[str] | None = None
) -> list[ParseWarning]:
    """The warnings every shape owes: duplicates, a cut-off last entry, title-like lines
    inside an entry (with their line in ``lines``, the page's text, where found), and
    amendment instructions that were not understood; and a page whose steps run out of
    sequence as interleaved columns leave them."""
    warnings: list[ParseWarning] = []
    seen: dict[str, int] = {}
    lines = lines or []
    for position, entry in enumerate(entries):
        following = entries[position + 1].line if position + 1 < len(entries) else 0
        end = following if following > entry.line else len(lines) + 1
        at = entry.line  # where the search for a title-like line goes on (forward only)
        key = entry.title.casefold()
        if unique_titles and key in seen:
            warnings.append(
                ParseWarning(
                    entry.line,
                    f"duplicate title {entry.title!r} (first at line {seen[key]}): "
                    "check whether one entry was split in two",
                    doubt=True,
                )
            )
        seen.setdefault(key, entry.line)
        titles: list[str] = []
        splits: list[int | None] = []
        for offset, paragraph in enumerate(entry.text.split("\n\n")):
            first = paragraph.split("\n")[0].strip()
            if _INSTRUCTION.match(first) and amendment_of(first) is None:
                warnings.append(
                    ParseWarning(
                        entry.line,
                        f"entry {entry.title!r}: amendment instruction not understood, "
                        f"kept as text: {first[:80]!r}",
                    )
                )
            if offset and (head := title_like(first, alone="\n" not in paragraph)):
                # only the titles a warning shows are looked up: the search stays linear
                number = _paragraph_line(lines, first, at, end) if len(titles) < 5 else None
                at = number or at
                titles.append(f"{head!r} (line {number})" if number else repr(head))
                splits.append(number)
            for inside in _known_heads_inside(paragraph):
                # "…does not change. Klingon Tea Ceremony – If a single action…": a known
                # title after a sentence's end, then its dash, inside the text; where the
                # page opens a line with it (a copy that ran its lines together), that line
                number = _line_opening(lines, inside, at, end) if len(titles) < 5 else None
                at = number or at
                titles.append(f"{inside!r} (line {number})" if number else repr(inside))
                splits.append(number)
        if len(titles) == 1:
            warnings.append(
                ParseWarning(
                    entry.line,
                    f"entry {entry.title!r} contains a line that looks like a title: "
                    f"{titles[0]}; two entries may have been read as one"
                    + (
                        f" (if so, split them: {{line: {splits[0]}, head: true}})"
                        if splits[0]
                        else ""
                    ),
                    doubt=True,
                )
            )
        elif titles:
            shown = ", ".join(titles[:5]) + (", …" if len(titles) > 5 else "")
            warnings.append(
                ParseWarning(
                    entry.line,
                    f"entry {entry.title!r} contains {len(titles)} lines that look like "
                    f"titles: {shown}; several entries may have been read as one"
                    + (
                        f" (if so, split them: {{line: {splits[0]}, head: true}} for each)"
                        if splits[0]
                        else ""
                    ),
                    doubt=True,
                )
            )
    for page_check in page_checks.EVERY_PAGE:
        warnings += page_check(entries)
    warnings += page_checks.steps_interleaved(lines, {entry.line for entry in entries})
    if unique_titles:  # an FAQ's answers name the next topic as often as not
        warnings += page_checks.announced_sub_headings(entries)
    if entries:
        warnings += _cut_off(entries[-1])
    return warnings


# A cut-off entry with fewer words than this holds no ruling ("battle – Y", "Ocett – See
# No"): imported, it would stand for (or replace) the whole entry.
_FEWEST_WORDS_CUT = 5


def _cut_off(last: ReadEntry) -> list[ParseWarning]:
    """A note when the last entry ends mid-sentence (a partial copy), and a doubt when so
    little of it is left that it holds no ruling."""
    tail = last.text.rstrip()
    last_line = tail.split("\n")[-1].strip()
    # A short list item ("• Ferengi") needs no full stop; a long one is prose, cut off.
    if not tail or ends_sentence(tail) or (is_list_item(last_line) and len(last_line) <= 80):
        return []
    words = len(tail.split())
    if words >= _FEWEST_WORDS_CUT:
        return [
            ParseWarning(
                last.line,
                f"the last entry {last.title!r} ends mid-sentence ({tail[-40:]!r}): "
                "the document looks cut off (partial)",
            )
        ]
    return [
        ParseWarning(
            last.line,
            f"the last entry {last.title!r} ends mid-sentence after {words} word(s) ({tail!r}): "
            f"no ruling is left in it; drop it ({{line: {last.line}, drop: true}}) or confirm it",
            doubt=True,
        )
    ]


# The "*" that marks a new or changed entry, glued to the sentence or the capitals heading
# before it when the line break was lost: "….* Cybernetics - …", "CHANGES* gender - …".
_GLUED_MARK = re.compile(r"(?<=[.!?)\"”A-Z])\* (?=\S)")


def unglue_marks(line: str, opens: Callable[[str], bool]) -> list[str]:
    """``line`` split before each glued "*" mark whose text ``opens`` an entry; the pieces
    keep the line's number in the caller."""
    if "* " not in line:
        return [line]
    pieces: list[str] = []
    start = 0
    for match in _GLUED_MARK.finditer(line):
        if opens(line[match.end() : match.end() + 240]):
            pieces.append(line[start : match.start()])
            start = match.start()
    pieces.append(line[start:])
    return pieces

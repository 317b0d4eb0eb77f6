"""``decipher-current-rulings``: a Decipher-era 1E Current Rulings document.

Shape: a "Rulings Updated MM/DD/YY" header, section headings in capitals ("RULINGS",
"SIGNIFICANT RULINGS CHANGES"), and entries ``TITLE - text`` or ``Title - text`` whose title
keeps its printed case and may itself contain " - " ("actions - step 1: initiation - Once
you begin ..."). A saved page can run several entries together in one paragraph
("... See turn. ATTACKING - Text ..."): those are split where a capitalised title and a
dash follow the end of a sentence. Entries under "SIGNIFICANT RULINGS CHANGES" are marked
new or changed.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import amendment_of, ends_sentence
from bot.ingest.reader import chrome, spacing
from bot.ingest.reader.chrome import kind_of
from bot.ingest.reader.common import (
    GIVES_TEXT,
    amendments_of,
    doubt_missed_heads,
    introduces_text,
    join,
    lines_of,
    paragraphs,
    see_references,
    text_line,
    unglue_marks,
)
from bot.ingest.reader.dates import RULINGS_UPDATED
from bot.ingest.reader.head_forms import cites_a_title, names_no_entry, without_trailing_dash
from bot.ingest.reader.known import QUESTION_WORDS, is_known
from bot.ingest.reader.markdown import without_bold_terms
from bot.ingest.reader.model import Parsed, ReadEntry

_DASH = re.compile(r"\s[-–—]{1,2}\s")
_UPDATED = re.compile(rf"^{RULINGS_UPDATED}\s*$", re.I)
# a sentence's end and the next word (in lower case too: a topic's title, "card types")
_SENTENCE_END = re.compile(r"(?<=[.!?\"”)])\s+(?=[A-Za-z0-9\"“*])")
_SECTIONS = r"RULINGS|SIGNIFICANT RUL(?:ING|E)S CHANGES(?: AND CLARIFICATIONS| TO NOTE)?"
# a section's heading, with the subject the committee's own prints after a dash ("RULINGS
# – General"): a few capitalised words, no entry's text
_SECTION = re.compile(
    rf"^(?:{_SECTIONS})(?:\s[–-]\s[A-Z][a-z]{{1,20}}(?: [A-Z][a-z]{{1,20}}){{0,2}})?$"
)
# "The Trouble With Tribbles: All information …": the items of a SIGNIFICANT … section.
_COLON = re.compile(r"^([^:]{1,60}?):\s+(\S.*)$")
_MAX_TITLE_WORDS = 8
_SMALL = {"a", "an", "the", "of", "and", "or", "to", "in", "on", "at", "by", "for", "be", "is"}


def _upper(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and not any(c.islower() for c in letters)


# Words that open a sentence's lower-case continuation, never a title ("your crew or Away
# Team - they must…", a wrapped line of prose holding a dash; a preposition may open one:
# "in play"); "See" opens a cross reference. An article in lower case opens a sentence's
# words too ("the section "some additional notes" - …"): a term is printed without one.
_CONTINUATIONS = frozenset(
    "and or but if when then so is are was were that this these those it its you your he "
    "she they we his her their the a an".split()
)


# Lower-case words and a quoted phrase name a part of the document ('section "some additional
# notes"'): a cross reference's tail at the top of a cut copy, never an entry's title.
_REFERENCE = re.compile(r'[a-z]+(?: [a-z]+)* ["\u201c][^"\u201c\u201d]+["\u201d]')


def _title_ok(text: str) -> bool:
    text = text.strip()
    words = text.split()
    return (
        0 < len(words) <= _MAX_TITLE_WORDS
        and words[0] not in _CONTINUATIONS
        and words[0] != "See"
        # "How to use the Glossary – …": a preamble's heading, unless a card is so titled
        and (words[0].casefold() not in QUESTION_WORDS or is_known(text))
        and len(text) <= 70
        # a quoted title, a "*" marking it new, a card's mark ("◆Nebula"; "•" is a bullet)
        and text[:1].isalnum() | (text[:1] in "\"“'*❖◆")
        and not text.endswith((".", "!", "?", ",", ";", ":"))
        and not re.match(r"^(?:Example|Note)\b|^[QA]:", text)
        and ". " not in text
        and not names_no_entry(text)
        and not _REFERENCE.fullmatch(text)
        # "Current Rulings (12/05/01 - full version)": a dash inside a bracket ends no title
        and text.count("(") <= text.count(")")
    )


def _title_segment(segment: str, upper_title: bool) -> bool:
    """Does a " - "-separated segment continue the title ("step 1: initiation")?"""
    segment = segment.strip()
    if not segment or not _title_ok(segment.replace(":", "")) or len(segment.split()) > 6:
        return False
    return segment[:1].islower() or (upper_title and _upper(segment))


# A title is at most 70 characters, and so is each " - " segment that continues it: the next
# dash is looked for only this far ahead. Listing every dash of the rest of the text, at every
# sentence of a run-together paragraph, was quadratic.
_DASH_WINDOW = 100


def split_title(text: str, start: int = 0) -> tuple[str, str] | None:
    """(title, text) when a line (``text`` from ``start``) opens an entry, else None."""
    dash = _DASH.search(text, start, start + _DASH_WINDOW)
    if dash is None or not _title_ok(text[start : dash.start()]):
        return None
    upper = _upper(text[start : dash.start()])
    while True:
        following = _DASH.search(text, dash.end(), dash.end() + _DASH_WINDOW)
        if (
            following is not None
            and (
                _title_segment(text[dash.end() : following.start()], upper)
                # "battle – affiliation restrictions – …": a known title holding a dash
                or is_known(text[start : following.start()].strip())
            )
        ):
            dash = following
            continue
        rest = text[dash.end() :].strip()
        if rest.endswith(".") and cites_a_title(text[start:]):
            return None
        return (text[start : dash.start()].strip(), rest) if rest else None


def _term_line(line: str) -> str | None:
    """The title of a term's line over its text ("DS9 –", "stopped –": a Current Rulings
    Document prints the term and its dash on a line of their own), else None."""
    line = line.strip()
    if (title := without_trailing_dash(line)) == line:
        return None
    return title if _title_ok(title) and (_upper(title) or is_known(title.lstrip("*"))) else None


def _inside_new_text(before: ReadEntry, entry: ReadEntry) -> ParseWarning | None:
    """A doubt on ``entry`` where it may be a heading of the text the entry before gives
    ("species": "Replace this entry with the following: …" / "Comparing species - Two
    personnel are …"): its title is none the project knows, and is set as a heading is,
    a capital and then words in lower case (a card's title capitalises each word, a
    glossary's term none, Decipher's all of its letters)."""
    bare = entry.title
    if not any(a.action in GIVES_TEXT for a in before.amendments):
        return None
    words = bare.split()
    headed = bare[:1].isupper() and any(word[:1].islower() for word in words[1:])
    if entry.marked_new or not headed or _upper(bare) or is_known(bare):
        return None
    return ParseWarning(
        entry.line,
        f"entry {bare!r} follows the new text {before.title!r} gives (an editing instruction) "
        "and its title is none the project knows: it may be a heading inside that text; "
        f"check that it is an entry (if not: {{line: {entry.line}, merge: true}}; if so: "
        f"{{line: {entry.line}, confirm: true}})",
        doubt=True,
    )


def _over_an_instruction(line: str, below: list[tuple[int, str]]) -> bool:
    """Whether ``line`` is a title alone on its line over an editing instruction ("Borg" /
    "Replace the first paragraph of the Objectives subsection …", a copy of a Current
    Rulings Document that lost its blank lines): an entry's head, as an instruction opens
    no text but an entry's. The title need not be one the project knows (a new document's
    new card), but is a title's few words."""
    title = line.lstrip("*").strip()
    return (
        bool(below)
        and _title_ok(title)
        and len(title.split()) <= 6
        and amendment_of(title) is None  # "Add the following" over another: no title
        and amendment_of(below[0][1].strip()) is not None
    )


def _strict_title(title: str) -> bool:
    """A title that may start a run-together entry mid-paragraph: capitals or Title Case."""
    if _upper(title):
        return True
    words = [w for w in re.split(r"\s+", title) if any(c.isalpha() for c in w)]
    return bool(words) and all(
        w[:1].isupper() or w[:1].isdigit() or w.lower() in _SMALL for w in words
    )


def _run_in_title(title: str) -> bool:
    """A title that may open an entry after a sentence's end inside a paragraph: in
    capitals or Title Case, or a topic in lower case ("… encountered). card types - A
    card …"), which no sentence opens with."""
    if _strict_title(title):
        return True
    words = title.strip('"“”*').split()
    return bool(words) and all(w[:1].islower() for w in words if w[:1].isalpha())


def _run_together(text: str) -> list[tuple[str, str]]:
    """Split "text. TITLE - text. Title - text." into (title, text) pieces; the first piece
    has the title ""."""
    pieces: list[tuple[str, str]] = [("", text)]
    position = 0
    while True:
        current_title, current = pieces[-1]
        for boundary in _SENTENCE_END.finditer(current, position):
            found = split_title(current, boundary.end())
            if found and _run_in_title(found[0]) and found[1][:1].isupper():
                pieces[-1] = (current_title, current[: boundary.start()])
                pieces.append(found)
                position = 0
                break
        else:
            return pieces


def colon_title(line: str) -> tuple[str, str] | None:
    """(title, text) for a "term: text" item, else None."""
    match = _COLON.match(line)
    if not match or not _title_ok(match.group(1)) or not _title_ok(match.group(1).strip("*")):
        return None
    return match.group(1).strip(), match.group(2).strip()


def _heading(line: str) -> bool:
    """Whether ``line`` is a section heading in capitals ("RULINGS A-G"); a capitals term
    with text after its colon ("BATTLE: Y", cut) is an entry's head, not one, and so is one
    over the dash its text follows ("DS9 –", a Current Rulings Document's term line)."""
    if not _upper(line) or _DASH.search(line) or len(line.split()) > 6:
        return False
    if line.rstrip().endswith(("-", "–", "—")):
        return False
    return not (":" in line and line.split(":", 1)[1].strip())


def _hard_wrapped(rows: list[tuple[int, str]]) -> bool:
    """Whether the text is hard-wrapped prose (a PDF or a mail copy): most lines long, and
    most of those ending inside a sentence."""
    lines = [line.strip() for _, line in rows if line.strip()]
    long = [line for line in lines if len(line) >= 50]
    if len(lines) < 8 or len(long) < 0.6 * len(lines):
        return False
    return sum(not ends_sentence(line) for line in long) >= 0.5 * len(long)


_STOP_AT_END = re.compile(r"[.!?:][)\]\"”’']{0,3}$")  # a stop, then what closes around it


def _wrapped_width(rows: list[tuple[int, str]]) -> int:
    """The width a hard-wrapped text's lines were wrapped at: the middle length of its long
    lines that end inside a sentence (the lines a wrap cut), robust to a page's wider title
    or footer and to a proportional font's uneven lines."""
    cut = sorted(
        len(line.strip())
        for _, line in rows
        if len(line.strip()) >= 50 and not ends_sentence(line.strip())
    )
    return cut[len(cut) // 2] if cut else 0


def _unfilled(line: str, following: str, width: int) -> bool:
    """Whether the wrap left ``line`` short of ``width`` at a sentence's end: well short, or
    by more than the next line's first word would have needed after its stop (a line that
    ends on a quotation, ``play "here"``, may be a sentence the wrap cut)."""
    if len(line) < spacing.FILLED * width:
        return True
    return bool(_STOP_AT_END.search(line)) and spacing.room_for_next(line, following, width)


def _reflowed(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A hard-wrapped text's paragraphs each joined into one line (numbered by its first),
    so heads run into the text ("…cloaked ship. *PERSONA" / "REPLACEMENT - You may…") are
    found where a sentence ends; other texts as they are."""
    if not _hard_wrapped(rows):
        return rows
    out: list[tuple[int, str]] = []
    joined: list[str] = []
    start = 0
    apart = _sections_apart(rows)
    width = _wrapped_width(rows)
    for index, (number, raw) in enumerate(apart):
        line = _TIGHT_DASH.sub(r"\1 ", raw.strip())
        following = apart[index + 1][1].strip() if index + 1 < len(apart) else ""
        # a heading, or an entry opening after a sentence's end, keeps its own line; a
        # title's first words in capitals ("SABOTAGE" / "DRONE - While…") are no heading
        broken = (head := split_title(following.lstrip("*"))) and _upper(head[0])
        # "ACCESS DENIED" / "- See Ferengi Ingenuity.": a title whose dash a wrap moved
        broken = broken or bool(_DASH.match(f" {following[:3]}"))
        alone = _heading(line) and not broken or _UPDATED.match(line) or _SECTION.match(line)
        opening = split_title(line.lstrip("*"))
        # an entry opens after a sentence's end, or under a line that ends none where its
        # title is one the project knows ("… Staffing to [Maq] [Maq]" / "Lore Returns – …")
        opens = joined and opening and (ends_sentence(joined[-1]) or _known_head(opening[0]))
        # or marked new ("… Staffing to [Maq] [Maq]" / "*Lore Returns – When …")
        opens = opens or bool(joined and line.startswith("*") and _marked_head(line))
        # a term's line after a sentence's end ("… re-encountered." / "DS9 –")
        opens = opens or bool(joined and ends_sentence(joined[-1]) and _term_line(line))
        # a list's item under the line that introduces it ("… see the following listings:" /
        # "battle: Y"), where a copy lost the blank line between
        opens = opens or bool(joined and joined[-1].endswith(":") and colon_title(line))
        # a sentence's end on a line the wrap did not fill ended its paragraph, and a few
        # words alone on such a line under it are a line of their own (a PDF's copy that
        # lost its blank lines: "…are working with them." / "Borg" / "Replace the first
        # paragraph …"); a short line inside a sentence is a copy's own break, joined
        ended = bool(joined) and _unfilled(joined[-1], line, width)
        ended = ended and not _DASH.match(f" {line[:3]}")
        ended = ended and (
            ends_sentence(joined[-1])
            or len(joined) == 1
            and len(joined[0].split()) <= _MAX_TITLE_WORDS
            # not a head over its text, nor a title whose words a wrap ran on ("* 10 and 01 -
            # See" / "Bynars card.", "SABOTAGE" / "DRONE - While…")
            and not joined[0].endswith(("-", "–", "—", ":"))
            and not split_title(joined[0].lstrip("*"))
            and not split_title(line.lstrip("*"))
        )
        if line and not alone and not opens and not ended:
            start = start or number
            joined.append(line)
            continue
        if joined:
            out.append((start, " ".join(joined)))
            joined, start = [], 0
        if line:
            joined, start = [line], number
            if alone:
                out.append((number, line))
                joined, start = [], 0
            continue
        if joined:
            out.append((start, " ".join(joined)))
            joined, start = [], 0
        if number:
            out.append((number, raw))
    return out


_SECTION_START = re.compile(rf"^({_SECTIONS})\s+(\S.*)$")
# "INTERFERENCE -This incident…": a wrap or a copy lost the space after the title's dash
_TIGHT_DASH = re.compile(r"(?<=\s)([-–—])(?=[A-Z\"“])")


def _sections_apart(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``rows`` (and a blank row after them) with a section heading that a hard wrap ran
    into the first entry's title ("RULINGS SABOTAGE" / "DRONE - While…") on a line of its
    own, so the title joins the line after it."""
    out: list[tuple[int, str]] = []
    for number, raw in rows:
        if not _SECTION.match(raw.strip()) and (match := _SECTION_START.match(raw.strip())):
            out += [(number, match.group(1)), (number, match.group(2))]
        else:
            out.append((number, raw))
    return [*out, (0, "")]


def _run_in_heads(rows: list[tuple[int, str]]) -> int:
    """How many entries in capitals or titled as the project knows them open the lines or
    start inside them ("… points. POINT BOX - A …", "… same player. Beware of Q - The …")."""
    count = 0
    for _, raw in rows:
        line = raw.strip()
        opened = split_title(line.lstrip("*"))
        count += bool(opened and _head_like(opened[0]))
        count += sum(1 for title, _ in _run_together(line)[1:] if _head_like(title))
    return count


def _head_like(title: str) -> bool:
    return _upper(title) or _known_head(title)


def _known_head(title: str) -> bool:
    return is_known(title.lstrip("*").strip())


def _marked_head(line: str) -> bool:
    """Whether ``line`` opens "*Title – text": a new entry's mark before a title the project
    knows or one set as titles are (capitals or Title Case: "*Lore Returns – When …")."""
    head = split_title(line)
    return bool(head) and (_known_head(head[0]) or _strict_title(head[0].lstrip("*").strip()))


def _decipher_like(titles: list[str]) -> bool:
    """Whether a page's titles print as Decipher's Current Rulings did (in capitals, or
    marked new with "*") or a third of them are titles the project knows."""
    bare = [title.lstrip("*").strip() for title in titles]
    marked = sum(1 for title in titles if title.startswith("*"))
    capitals = sum(1 for title in bare if _upper(title))
    known = sum(1 for title in bare if is_known(title))
    return marked > 0 or 2 * capitals >= len(titles) or 3 * known >= len(titles)


def detect(text: str) -> float:
    wrapped = lines_of(text)
    if _hard_wrapped(wrapped) and _run_in_heads(_reflowed(wrapped)) >= 3:
        return 0.6
    rows = [line.strip() for _, line in wrapped if line.strip()]
    if any(_UPDATED.match(line) for line in rows[:20]):
        return 0.95
    heads = [head for line in rows if (head := split_title(line))]
    if len(heads) >= 3 and len(heads) >= len(rows) // 2:
        # By the form alone, any list of "Name – words" lines is this shape: the page is
        # Decipher's only where it prints as Decipher did (titles in capitals, "*" marks) or
        # its titles are the game's; else the general reader, which doubts unknown titles
        return 0.6 if _decipher_like([title for title, _ in heads]) else 0.35
    # A saved page whose site navigation outnumbers its entries: the "RULINGS" heading, then
    # an entry.
    for index, line in enumerate(rows):
        following = rows[index + 1 : index + 6]  # the section's preamble may come first
        if _SECTION.match(line) and any(split_title(r) or colon_title(r) for r in following):
            return 0.8
    return 0.0


def _unwrapped(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``rows`` with each entry head that a hard wrap broke over two lines joined again
    ("* 62nd Rule of" / "Acquisition - This event…"): only where the joined title is one the
    project knows, since a short line over a dash is otherwise just wrapped prose."""
    out: list[tuple[int, str]] = []
    skip = False
    for index, (number, raw) in enumerate(rows):
        if skip:
            skip = False
            continue
        line = raw.strip()
        following = rows[index + 1][1].strip() if index + 1 < len(rows) else ""
        if (
            line
            and following
            and len(line.split()) <= 5
            and not ends_sentence(line)
            and not split_title(line)
            and (joined := split_title(f"{line} {following}"))
            and len(joined[0]) > len(line)
            and is_known(joined[0].lstrip("*").strip())
        ):
            out.append((number, f"{line} {following}"))
            skip = True
            continue
        out.append((number, raw))
    return out


def _started(
    title: str, body: str, number: int, significant: bool
) -> tuple[ReadEntry, list[tuple[int, str]]]:
    """A new entry and its first text, from a head; "*MARTOK" marks it new or changed."""
    marked = title.startswith("*") and len(title) > 1
    title = title[1:].strip() if marked else title
    entry = ReadEntry(title=title, text="", line=number, marked_new=significant or marked)
    return entry, [(number, body)]


def parse(text: str) -> Parsed:
    result = Parsed()
    significant = False
    current: tuple[ReadEntry, list[tuple[int, str]]] | None = None
    done: list[tuple[ReadEntry, list[tuple[int, str]]]] = []
    previous = ""
    last = ""  # the last line of text, across blank lines
    before: list[tuple[int, str]] = []  # lines before the first entry (or between sections)
    item = False  # the current entry is a one-paragraph "term: text" item
    skipping = False  # inside a paragraph of a SIGNIFICANT section that is no item
    heading: tuple[int, str] | None = None  # the heading over text outside any entry
    # page numbers and headers repeated on every page of a PDF's copy are no entry's text;
    # a letter index is told after the wrapped lines are joined ("* 10 and 01 - See" is
    # an entry's head over "Bynars card.", no index)
    page = chrome.strip(text, keep=frozenset({"letter index"}))
    # "**TITLE** - text" (a paste's bold): the marks go, so the first "*" is no new mark
    lines = lines_of(page.text)
    unbolded = without_bold_terms([line for _, line in lines])
    rows = [
        (number, piece)
        for number, raw in _reflowed(list(zip((n for n, _ in lines), unbolded, strict=True)))
        for piece in unglue_marks(raw, lambda rest: split_title(rest) is not None)
    ]
    # A letter index ("A - B C - D E - F …") reads as "A - text": no entry, set aside.
    index = [(n, line.strip()) for n, line in rows if kind_of(line) == "letter index"]
    result.ignored(index, "the page's letter index", ": links")
    blanked = set(index)
    rows = [(n, "" if (n, line.strip()) in blanked else line) for n, line in rows]
    rows = _unwrapped(rows)
    for at, (number, raw) in enumerate(rows):
        line = raw.strip()
        if not line:
            previous = ""
            skipping = False
            if current:
                current[1].append((number, ""))
            continue
        if skipping:
            previous = line
            continue
        if _UPDATED.match(line):
            previous = line
            continue
        if _heading(line) or _SECTION.match(line):
            significant = "SIGNIFICANT" in line.upper() or "CHANGES" in line.upper()
            if current:
                done.append(current)
                current = None
            previous = ""  # a heading ends like a sentence: an entry may start under it
            heading = (number, line)
            continue
        opens = not previous or ends_sentence(previous)
        # a new entry's mark before its title opens it, whatever the line above ends on
        # ("… and the Staffing to [Maq] [Maq]" / "*Lore Returns – When …")
        opens = opens or bool(line.startswith("*") and _marked_head(line))
        opened = split_title(line) if opens and not introduces_text(last) else None
        if opened is None and opens and not introduces_text(last):
            if _over_an_instruction(line, rows[at + 1 : at + 2]):
                opened = (line, "")  # "Borg" / "Replace the first paragraph of …": its head
            elif term := _term_line(line):
                opened = (term, "")  # "DS9 –" over its text, a page break between them
        if not opens and current and (missed := split_title(line)) and _strict_title(missed[0]):
            # "…the card may be played" / "In Play - …": a head after a line that ends no
            # sentence is read as the text's continuation, but it may be an entry
            result.warnings.append(
                ParseWarning(
                    number,
                    f"a line inside {current[0].title!r} opens like an entry ({missed[0]!r}) "
                    "after a line that ends no sentence; check that no entry was missed",
                    doubt=True,
                )
            )
        listed = colon_title(line) if significant and opens and not opened else None
        if listed:
            if current:
                done.append(current)
            current = (ReadEntry(title=listed[0], text="", line=number, marked_new=True), [])
            current[1].append((number, listed[1]))
            item = True
        elif significant and item and not previous and not opened:
            # A paragraph between the items that is none: not part of the item before.
            done.append(current)
            current, item, skipping = None, False, True
            result.warnings.append(
                ParseWarning(number, f"text outside any entry, ignored: {line[:60]!r}")
            )
        elif opened:
            item, heading = False, None
            pieces = _run_together(opened[1])
            pieces[0] = (opened[0], pieces[0][1])
            for title, body in pieces:
                if current:
                    done.append(current)
                current = _started(title, body, number, significant)
        elif current is None:
            head, *rest = _run_together(line)
            if (text := head[1].strip()) and done:
                # under a heading between entries: a sentence there is a ruling whose title
                # the page printed as a heading line ("SCORCHED HAND" over its text), lost
                # unless a moderator names the head
                ruling = text_line(text)
                said = f"text outside any entry, ignored: {text[:60]!r}"
                if ruling:
                    said += "; check that no entry was missed"
                if ruling and heading:
                    # the heading just above may be its title ("DS9 –", read as capitals)
                    said += f" (if {heading[1]!r} above is its title: "
                    said += f"{{line: {heading[0]}, head: true}})"
                result.warnings.append(ParseWarning(number, said, doubt=ruling))
                heading = None
            elif text:
                before.append((number, text))
            for title, body in rest:  # entries run into the text before them
                if current:
                    done.append(current)
                current = _started(title, body, number, significant)
        else:
            head, *rest = _run_together(line)
            current[1].append((number, head[1]))
            for title, body in rest:
                done.append(current)
                current = _started(title, body, number, significant)
        previous = last = line
    if current:
        done.append(current)
    if before:
        more = f" ({len(before)} lines)" if len(before) > 1 else ""
        doubt_missed_heads(result, before, "before the first entry")
        result.warnings.append(
            ParseWarning(
                before[0][0], f"text before the first entry{more}, ignored: {before[0][1][:60]!r}"
            )
        )
    for entry, body in done:
        texts = [p for _, p in paragraphs(body)]
        entry.text = join(texts)
        entry.amendments = amendments_of(texts)
        entry.see_also = see_references(entry.text)
        if not entry.text:
            result.warnings.append(ParseWarning(entry.line, f"entry {entry.title!r} has no text"))
        if result.entries and (doubt := _inside_new_text(result.entries[-1], entry)):
            result.warnings.append(doubt)
        result.entries.append(entry)
    if note := page.note():
        result.warnings.append(note)
    return result

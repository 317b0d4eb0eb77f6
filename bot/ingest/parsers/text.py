"""Text helpers shared by the parsers: blocks, re-flowing, list items, amendments, see-also."""

from __future__ import annotations

import re

from bot.ingest.parsers import Amendment, SourceFormatError
from bot.models import (
    AMEND_ADD,
    AMEND_DELETE_PART,
    AMEND_REPLACE_ENTRY,
    AMEND_REPLACE_PART,
    AMEND_REST_UNCHANGED,
    AMEND_SUPERSEDES,
)

# What a CRD's card-specific entry says it is, after the card's title ("– Clarification:")
CARD_RULING_LABEL = "Clarification|Erratum|Ruling"
# "1. ", "a. ", "1) ", "• ", "- " at the start of a line: list items keep their own line.
# A list item's marker: a number or letter (captured) and its stop, or a bullet.
_LIST_ITEM = re.compile(r"^(?:(\d{1,2}|[a-z])[.)]|[•\-])\s")
_BULLET = re.compile(r"^•\s*")
SUB_ITEM_INDENT = "   "  # under "1. ", Markdown's nesting depth
# "For example:" after a finished sentence opens a paragraph of its own (as the other
# documents print it); "For example, ..." and "... so. For example: ..." run on.
_EXAMPLE = re.compile(r"^\*?For example:", re.I)
# Sentence-final: a blank line after one of these is a paragraph break, not a page break.
# Closing emphasis is looked through: "*I.K.C. K'elric*" does not end a sentence, "*...pile.*" does.
_TERMINAL = tuple('.:;!?"”’)')
_CLOSING_EMPHASIS = "*_"

# Amendment instructions, most specific first. Matched at the start of a paragraph.
_REST_UNCHANGED = (
    r"The rest of the entry does not change|The remainder of the entry is unchanged|"
    r"All other sections of this entry remain unchanged"
)
_AMENDMENTS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(Replace this entry with the following:?)", re.I), AMEND_REPLACE_ENTRY),
    (re.compile(r"^(This entry is replaced with:?)", re.I), AMEND_REPLACE_ENTRY),
    (re.compile(r"^(This supersedes the existing entry\.?)", re.I), AMEND_SUPERSEDES),
    (re.compile(r"^(Delete the [^.]*?\.)", re.I), AMEND_DELETE_PART),
    # An instruction without its colon ends the line, with no full stop: one that does
    # ("Add the following You may only scout … box.") ran on into the text it introduces.
    (
        re.compile(r"^(Replace the [^:]*?(?:with the following:?|(?<!\.)$))", re.I),
        AMEND_REPLACE_PART,
    ),
    (re.compile(r"^(At the beginning of this entry, add:?)", re.I), AMEND_ADD),
    (re.compile(r"^(Add (?:the following|this paragraph)[^:]*?(?::|(?<!\.)$))", re.I), AMEND_ADD),
    (re.compile(r"^(Add the [^.]*? to the list\.)", re.I), AMEND_ADD),
    (
        re.compile(rf"^\*?((?:{_REST_UNCHANGED})\.?)\*?\s*$", re.I),
        AMEND_REST_UNCHANGED,
    ),
]
# The instruction that closes an entry, at the end of a line: a PDF's text may run it on
# from the entry's last words ("… two non-headquarters missions) The rest of the entry" /
# "does not change").
_CLOSING_INSTRUCTION = re.compile(rf"(?:^|\W)(?:{_REST_UNCHANGED})\.?\*?\s*$", re.I)

# "See **X**", "see **X, Y**", "(See **X**.)", and plain in parentheses "(See X.)"; a plain
# "See X, Y." sentence is the Glossary's own form (glossary.py).
_SEE = re.compile(r"\b[Ss]ee\s+\*\*(.+?)\*\*|\(\s*[Ss]ee\s+([^()*]+?)\s*\)")


def check_readable(text: str, path: str) -> None:
    """Refuse input no parser can read: empty, binary, or mangled by a wrong encoding."""
    if not text.strip():
        raise SourceFormatError(path, None, "the file is empty")
    for number, line in enumerate(text.splitlines(), 1):
        if "\x00" in line:
            raise SourceFormatError(path, number, "binary data (NUL byte); not a text document")
        if "\ufffd" in line:
            raise SourceFormatError(path, number, "undecodable bytes; the file is not UTF-8")


def blocks(text: str) -> list[tuple[int, list[str]]]:
    """Split into blocks of non-blank lines: (first line number, stripped lines)."""
    out: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            if current:
                out.append((start, current))
                current = []
            continue
        if not current:
            start = number
        current.append(line)
    if current:
        out.append((start, current))
    return out


def is_list_item(line: str) -> bool:
    return bool(_LIST_ITEM.match(line))


def opens_example(line: str) -> bool:
    return bool(_EXAMPLE.match(line.strip()))


def ends_sentence(line: str) -> bool:
    return line.rstrip().rstrip(_CLOSING_EMPHASIS).endswith(_TERMINAL)


def closing_split(paragraph: str) -> list[str]:
    """``paragraph`` with the instruction that closes an entry, where a PDF's text ran it on
    from the entry's last words, made the paragraph of its own it is printed as ("… two
    non-headquarters missions) The rest of the entry does not change")."""
    match = _CLOSING_INSTRUCTION.search(paragraph)
    if match is None or not paragraph[: match.start()].strip():
        return [paragraph]
    at = match.start() + (not paragraph[match.start()].isalpha())
    return [paragraph[:at].rstrip(), paragraph[at:].strip()]


def closes_entry(lines: list[str]) -> bool:
    """Whether the last of ``lines`` (an entry's last few, in order) may end the entry: it
    ends a sentence, or it ends with the editing instruction that closes an entry, full
    stop or not ("The rest of the entry does not change", as the 2014 2E CRD prints it),
    which a wrap may have split over the last two lines."""
    if not lines:
        return False
    if ends_sentence(lines[-1]):
        return True
    return bool(_CLOSING_INSTRUCTION.search(" ".join(line.strip() for line in lines[-2:])))


def canonical_item(line: str) -> str:
    """Bullets print as "- "; numbered and lettered items stay as printed."""
    return _BULLET.sub("- ", line.strip())


def _continues_paragraph(line: str, before: str) -> bool:
    """Whether a numbered or lettered line is the paragraph's text that a wrap put at a
    line's start ("… aboard Deep Space" / "9. Often served …"), as Markdown reads it: a
    list that interrupts a paragraph starts at 1 (or a)."""
    marker = _LIST_ITEM.match(line)
    return bool(marker and marker[1]) and marker[1] not in ("1", "a") and not is_list_item(before)


def flow(lines: list[str]) -> list[str]:
    """Re-flow hard-wrapped lines: list items start a new line, other lines join with a space."""
    out: list[str] = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        wrapped = out and _continues_paragraph(line, out[-1])
        if out and (wrapped or not is_list_item(line)) and not amendment_of(line):
            # "non-cost-" + "related": a hyphen at the end of a line joins without a space.
            joiner = "" if re.search(r"\w-$", out[-1]) else " "
            out[-1] = f"{out[-1]}{joiner}{line}"
        else:
            out.append(canonical_item(line))
    return out


def join_paragraphs(paragraphs: list[str]) -> str:
    """Paragraphs are separated by a blank line; consecutive list items by a single newline;
    sub-items are indented under their item (see ``nest_list_items``)."""
    text = ""
    previous = ""
    for paragraph in paragraphs:
        if not text:
            text = paragraph
        elif is_list_item(paragraph) and is_list_item(previous):
            text += "\n" + paragraph
        else:
            text += "\n\n" + paragraph
        previous = paragraph.splitlines()[-1]
    return nest_list_items(text)


def _marker_kind(line: str) -> str:
    marker = line[:1]
    return "number" if marker.isdigit() else "letter" if marker.isalpha() else "bullet"


def nest_list_items(text: str) -> str:
    """Indent sub-items by three spaces, as Markdown nests them under "1. ".

    In a run of list-item lines the first item's marker (number, letter or bullet) is the
    outer level; items with another marker are its sub-items ("1." then "a.", "b."; "5." then
    "- "). The sources show the nesting by indentation or by the marker alone (the PDF text).
    """
    out: list[str] = []
    outer = None
    for line in text.split("\n"):
        if not is_list_item(line):
            outer = None
        elif outer is None:
            outer = _marker_kind(line)
        elif _marker_kind(line) != outer:
            line = SUB_ITEM_INDENT + line
        out.append(line)
    return "\n".join(out)


def amendment_of(paragraph: str) -> Amendment | None:
    """The amendment instruction a paragraph starts with, if any."""
    stripped = paragraph.strip()
    for pattern, action in _AMENDMENTS:
        match = pattern.match(stripped)
        if match:
            return Amendment(action=action, instruction=match.group(1).strip().strip("*").strip())
    return None


def see_also(text: str) -> list[str]:
    """Cross-reference targets ("See **X**", "(See X.)"), as printed, in order, no repeats."""
    found: list[str] = []
    for match in _SEE.finditer(text):
        target = (match.group(1) or match.group(2)).strip().rstrip(".").strip()
        if target and target not in found:
            found.append(target)
    return found


def clean_title(raw: str) -> tuple[str, bool]:
    """Strip markup from a printed title; returns (title, marked_new).

    "**\\*cost reduction**" -> ("cost reduction", True); "***couple**" -> ("couple", True);
    "*infiltration icon –" -> ("infiltration icon", True).
    """
    title = raw.strip().replace("\\*", "*")
    marked_new = False
    title = title.replace("**", "")
    if title.startswith("*"):
        marked_new = True
        title = title.lstrip("*")
    title = re.sub(r"\s*[–-]\s*$", "", title).strip()
    return title, marked_new

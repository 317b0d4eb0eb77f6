"""A numbered list of entries ("41. Bajoran Wormhole – …", "4) Brilgar: …"): which lines are
its items, without their numbers, and which numbered lines are an entry's own steps under a
lead-in. Each test reads one line, and the list is one pass over the page: linear."""

from __future__ import annotations

import re

from bot.ingest.reader.head_forms import COLON, DASH, LOWER, inline
from bot.ingest.reader.known import is_known

_NUMBER = re.compile(r"(\d{1,4})[.)]\s+")  # "12. " or "12) " before a numbered entry's head


def without_number(line: str) -> str:
    """``line`` without the number of a numbered list's item ("12) DS9: References …")."""
    match = _NUMBER.match(line)
    return line[match.end() :] if match else line


def list_number(line: str) -> int | None:
    """The number of a numbered list's item ``line`` ("12) DS9: …" -> 12), else None."""
    match = _NUMBER.match(line)
    return int(match.group(1)) if match else None


def opens_steps(number: int, above: str) -> bool:
    """Whether item ``number``, under the line ``above``, opens a list of steps that its
    lead-in introduces ("…applied in the following order:" / "1. Choose: Any …")."""
    return number == 1 and above.rstrip().endswith(":")


def _known_lower(found: tuple[str, str, str]) -> bool:
    """A ``title – text in lower case`` item whose title the project knows ("15. couple – a
    personnel and …"): an entry, as the 1E Glossary prints some; a step's label is none."""
    return found[2] == LOWER and is_known(found[0])


def numbered_heads(lines: list[tuple[bool, str]]) -> dict[int, str]:
    """The lines of a numbered list of entries ("41. Bajoran Wormhole – Whenever you …",
    "4) Brilgar: This card has …") without their numbers, by position in ``lines`` ((opens a
    paragraph, text) pairs). The numbers are the list's, not the titles': an item that opens
    a paragraph with a head of its own form counts, and the list is the items numbered in
    rising order from the first: two or more of them, or one whose title the project knows,
    and more of them than the paragraphs that open with a head but no number (whose list of
    steps it would be). An entry's own list ("…in the following order:" / "1. Choose: Any
    …") starts at 1 under its lead-in, below a head, and is none (the page's own lead-in
    above every head introduces its list of entries); a step's label that runs on in lower
    case ("1) Initiation: the player …") opens no head."""
    if not any(opens and _NUMBER.match(line) for opens, line in lines):
        return {}  # most pages: no numbered paragraph, and no head to count
    items: dict[int, str] = {}
    last, known, unnumbered, steps = 0, False, 0, 0
    for position, (opens, line) in enumerate(lines):
        number = list_number(line) if opens else None
        if number is None:
            if opens and (found := inline(line)) and found[2] in (DASH, COLON):
                unnumbered += 1
            continue
        above = lines[position - 1][1] if position else ""
        under_entry = bool(items or unnumbered)  # a head above: the lead-in is in its text
        if opens_steps(number, above) and under_entry or steps and number == steps + 1:
            steps = number  # an entry's own list of steps, under its lead-in
            continue
        if number <= last:
            continue
        item = without_number(line)
        found = inline(item)
        if found is None or found[2] not in (DASH, COLON) and not _known_lower(found):
            continue
        items[position] = item
        last, known, steps = number, is_known(found[0]), 0
    return items if (len(items) >= 2 or known) and len(items) > unnumbered else {}

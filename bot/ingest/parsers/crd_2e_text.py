"""2E Current Rulings Document as text extracted from a PDF (the 2014-07-07 CRD).

Shape: a preamble, then ``term – text`` entries (``*`` before the term marks it new or
changed), and card-specific ones (``Card Title – Clarification:`` over their text). Lines
are hard-wrapped mid-sentence and page breaks leave blank lines inside sentences, so
paragraphs are rebuilt: a blank line is a paragraph break only when the line before it ends
a sentence, or the line after it starts a list item or a capitalised sentence.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParsedEntry, ParseResult, ParseWarning, SourceFormatError
from bot.ingest.parsers.text import (
    CARD_RULING_LABEL,
    amendment_of,
    check_readable,
    clean_title,
    closes_entry,
    closing_split,
    ends_sentence,
    flow,
    is_list_item,
    join_paragraphs,
    opens_example,
    see_also,
)
from bot.models import KIND_CLARIFICATION, KIND_RULE

# "abilities – Personnel may ...", "*attempting missions – Below ...", "naming a card- When ..."
_ENTRY = re.compile(r"^(\*?[a-z][a-z ,/'’()]{1,40}?)\s*(?:\s[–-]|[–-]\s)\s*(.*)$")
# A section's heading between entries ("Card-Specific"): a few capitalised words alone
_SECTION = re.compile(r"^[A-Z][A-Za-z-]+(?: [A-Z][A-Za-z-]+){0,2}$")
_GAPLESS = 0.05  # the share of blank lines under which a text lost its paragraphs' gaps
# The document's own title with its date: "Current Rulings Document (5 October 2011)"
_DOCUMENT_TITLE = re.compile(
    r"^(?:(?:First|Second) Edition )?Current Rulings(?: Document)? ?\(\d{1,2} [A-Z][a-z]{2,8} \d{4}\)$"
)
# A card-specific entry: the card's title and what the entry is, its text below it
# ("Klingon Tea Ceremony – Clarification:"), as the Markdown CRD's "**Title** – Clarification:"
_CARD_ENTRY = re.compile(rf"^(\*?[A-Z0-9][^–]{{0,60}}?)\s+[–-]\s+(?:{CARD_RULING_LABEL}):?\s*$")


def _paragraphs(lines: list[tuple[int, str]]) -> list[str]:
    """Rebuild paragraphs from (line number, raw line) pairs of one entry's body."""
    paragraphs: list[list[str]] = [[]]
    pending_blank = False
    for _, raw in lines:
        line = raw.strip()
        if not line:
            pending_blank = True
            continue
        current = paragraphs[-1]
        if current:
            previous_raw = current[-1]
            starts_new = is_list_item(line) or amendment_of(line) is not None
            starts_new = starts_new or (opens_example(line) and ends_sentence(previous_raw))
            if pending_blank:
                starts_new = starts_new or ends_sentence(previous_raw) or line[0].isupper()
            elif previous_raw.endswith("  ") and ends_sentence(previous_raw):
                # The extraction keeps two trailing spaces where the PDF ended a paragraph.
                starts_new = starts_new or line[0].isupper()
            if starts_new:
                paragraphs.append([])
        paragraphs[-1].append(raw.rstrip("\n") if not raw.endswith("  ") else raw)
        pending_blank = False
    flowed: list[str] = []
    for paragraph in paragraphs:
        flowed.extend(piece for line in flow(paragraph) for piece in closing_split(line))
    return [p for p in flowed if p]


def _sections(lines: list[str], first: int) -> list[int]:
    """The lines (by index) after the first entry that head a section: a few capitalised
    words alone between blank lines, after a sentence's end ("Card-Specific"); or the
    document's own dated title, where a copy prints it under its first section ("Current
    Rulings Document (5 October" / "2011)"), its preamble under it."""
    found = []
    width = max((len(line.rstrip()) for line in lines), default=0)
    # a copy that lost its blank lines (a viewer's): a heading shows only by its short line
    gapless = sum(1 for line in lines if not line.strip()) < len(lines) * _GAPLESS
    for index in range(first + 1, len(lines) - 1):
        line = lines[index].strip()
        titled = _DOCUMENT_TITLE.match(line) or _DOCUMENT_TITLE.match(
            f"{line} {lines[index + 1].strip()}"
        )
        below = lines[index + 1].strip()
        # a copy without blank lines: the heading's line broke before a word that would
        # have fitted on it, and the section's note opens with a capital
        unbroken = (
            gapless and below[:1].isupper() and len(line) + 1 + len(below.split()[0]) <= width
        )
        gapped = not lines[index - 1].strip() and not below
        if not (titled or _SECTION.match(line) and (gapped or unbroken)):
            continue
        above = next((lines[n].strip() for n in range(index - 1, -1, -1) if lines[n].strip()), "")
        if ends_sentence(above):
            found.append(index)
    return found


def parse(text: str, path: str, known_titles: frozenset[str] = frozenset()) -> ParseResult:
    """Read the PDF-extracted 2E CRD into entries (see the module docstring)."""
    check_readable(text, path)
    result = ParseResult()
    lines = text.splitlines()
    starts: list[tuple[int, str, str]] = []  # (index, raw title, first text)
    cards: set[int] = set()  # the starts of card-specific entries
    labelled_below: set[int] = set()  # card entries whose label the next line holds
    for index, raw in enumerate(lines):
        match = _ENTRY.match(raw.strip())
        card = None if match else _CARD_ENTRY.match(raw.strip())
        if not (match or card) and raw.rstrip().endswith((" –", " -")) and index + 1 < len(lines):
            # a narrow column wraps the card's title before what the entry is
            # ("Klingon Tea Ceremony –" / "Clarification:"): that line is the head's
            card = _CARD_ENTRY.match(f"{raw.strip()} {lines[index + 1].strip()}")
            if card:
                labelled_below.add(index)
        previous = lines[index - 1].strip() if index else ""
        above = lines[max(0, index - 2) : index]
        # the first entry may sit right under its section's heading ("General" / "abilities
        # – …"), a copy having lost the blank line between them
        headed = not starts and _SECTION.match(previous)
        # a card's title and what the entry is, alone on a line ("Klingon Tea Ceremony –
        # Clarification:"), opens its entry whatever the line above ends on (a web address)
        opens = not previous or headed or card or closes_entry(above)
        if (match or card) and opens and raw[:1] != " ":
            if card:
                cards.add(index)
            starts.append((index, (match or card).group(1), match.group(2) if match else ""))
    if not starts:
        raise SourceFormatError(path, None, "no 'term – text' entries found; not a 2E CRD text")
    sections = _sections(lines, starts[0][0])
    for position, (index, raw_title, first) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        if heading := next((n for n in sections if index < n < end), None):
            # a section's heading ends the entry above it; it and its note are no entry's
            note = [lines[n].strip() for n in range(heading, end) if lines[n].strip()]
            if note[0].count("(") > note[0].count(")") and len(note) > 1:
                # a title wrapped inside its date: "… Document (5 October" / "2011)"
                first, _, rest = note[1].partition(")")
                note = [f"{note[0]} {first})", *([rest.strip()] if rest.strip() else []), *note[2:]]
            result.warnings.append(
                ParseWarning(
                    heading + 1,
                    f"section heading {note[0]!r} and {len(note) - 1} line(s) under it "
                    f"({' '.join(note[1:])[:60]!r}), before the next entry: no entry's text, "
                    "set aside",
                )
            )
            end = heading
        after = index + 1 + (index in labelled_below)
        body = [(index + 1, first)] + [(n + 1, lines[n]) for n in range(after, end)]
        title, marked_new = clean_title(raw_title)
        paragraphs = _paragraphs(body)
        if not paragraphs:
            result.warnings.append(ParseWarning(index + 1, f"entry {title!r} has no text"))
        amendments = [a for a in (amendment_of(p) for p in paragraphs) if a]
        body_text = join_paragraphs(paragraphs)
        result.entries.append(
            ParsedEntry(
                title=title,
                text=body_text,
                line=index + 1,
                kind=KIND_CLARIFICATION if index in cards else KIND_RULE,
                marked_new=marked_new,
                amendments=amendments,
                see_also=see_also(body_text),
            )
        )
    return result

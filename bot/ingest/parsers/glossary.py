"""The 1E Glossary page for the letter M, as scraped from an HTML table.

Shape: ``|`` and ``||`` separator lines; each entry is a block between ``||`` lines whose
first line holds the title *and* the start of the text (``Madred This personnel may add
...``); a trailing `` |`` is table markup; many blocks are a title only (the scrape lost their
text) and are kept as known titles with empty text. Text continues on following lines, often
hard-wrapped. Where the title ends is decided by the card list (``known_titles``: the 1E card
titles, normalised), else by where the first sentence starts; guesses are warned about.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParsedEntry, ParseResult, ParseWarning, SourceFormatError
from bot.ingest.parsers.text import check_readable, ends_sentence, join_paragraphs
from bot.models import KIND_CARD_RULING, KIND_RULE
from bot.normalize import normalize

_SEPARATOR = "||"
_NAVIGATION = re.compile(r"^(A - B - C - |Glossary - )")
_ROMAN = re.compile(r"^(II|III|IV|V|VI)$")
_SEE = re.compile(r"\b[Ss]ee ([^.()]+?)(?:\.|\))")
_PAREN_TITLE = re.compile(r"[^()]+\([^()]+\)")  # "Multiplexor Drone (Nine of Seventeen)"
# Words that start the text, not a capitalised title (used only when the card list is silent).
_STARTERS = {
    "This", "The", "It", "When", "If", "A", "An", "Example:", "Treat", "Revealing", "Personnel",
    "However", "There", "For", "Each", "You", "Your", "Once", "Only", "Cards", "Any", "Unless",
    "Revised",  # "Revised text:", the Glossary's label for a card's revised game text
}  # fmt: skip
_MAX_TITLE_WORDS = 8
# Part of the page was scraped as a narrow printed column: lines of 20 to 62 characters
# ("only on the end of the mission facing him:") were wrapped by the column, so they end no
# paragraph even after a full stop. Longer lines are whole scraped paragraphs; shorter ones
# are labels ("Example:").
_COLUMN_LINE = range(20, 63)


def _blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Entry blocks: the lines between ``||`` separators, without ``|`` markup lines."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[tuple[int, str]] = []
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if line.strip() == _SEPARATOR:
            if current:
                blocks.append((current[0][0], [text for _, text in current]))
            current = []
            continue
        if line.strip() == "|" or not line.strip():
            continue
        current.append((number, line))
    if current:
        blocks.append((current[0][0], [text for _, text in current]))
    return blocks


def _split_title(first: str, known_titles: frozenset[str]) -> tuple[str, str, bool]:
    """(title, rest of the line, guessed) for an entry's first line."""
    words = first.split()
    if _PAREN_TITLE.fullmatch(first) and len(words) <= _MAX_TITLE_WORDS:
        return first, "", False
    for length in range(min(_MAX_TITLE_WORDS, len(words)), 0, -1):
        if normalize(" ".join(words[:length])) in known_titles:
            return " ".join(words[:length]), " ".join(words[length:]), False
    if words[0][:1].islower():
        for i, word in enumerate(words[1:], 1):
            if (word[:1].isupper() and not _ROMAN.match(word)) or word[:1] in '"“(':
                return " ".join(words[:i]), " ".join(words[i:]), False
        return first, "", False
    for i, word in enumerate(words[1:], 1):
        if words[i - 1].endswith("!"):  # "Qapla'! In Federation Standard…": a guess
            return " ".join(words[:i]), " ".join(words[i:]), True
        if word == "See" and i + 1 < len(words):  # a cross reference is text, never a title
            return " ".join(words[:i]), " ".join(words[i:]), False
        if word in _STARTERS or word[:1] in '"“(':
            return " ".join(words[:i]), " ".join(words[i:]), True
    # A title ends at no label ("Tarellian Plague Ship Revised text:"): where it ends is a guess.
    return first, "", len(words) > _MAX_TITLE_WORDS or first.endswith((":", ","))


def _paragraphs(lines: list[str]) -> list[str]:
    """Re-flow hard-wrapped lines: a line that does not end a sentence, or a line of the
    narrow column, continues on the next."""
    paragraphs: list[str] = []
    previous = ""
    for line in (line.strip() for line in lines):
        if not line:
            continue
        if paragraphs and (not ends_sentence(previous) or len(previous) in _COLUMN_LINE):
            paragraphs[-1] = f"{paragraphs[-1]} {line}"
        else:
            paragraphs.append(line)
        previous = line
    return paragraphs


def _see_also(text: str) -> list[str]:
    """ "See X, Y." / "(See present.)" / "; see unique and universal)": a reference starts a
    sentence or a parenthesis; "allowed to see whether ..." is not one."""
    found: list[str] = []
    for match in _SEE.finditer(text):
        before = text[: match.start()].rstrip()
        if before and not before.endswith((".", ";", ":", "(", ")", "!", "?", '"', "”")):
            continue
        for target in match.group(1).split(", "):
            target = target.strip()
            if target and target not in found:
                found.append(target)
    return found


def parse(text: str, path: str, known_titles: frozenset[str] = frozenset()) -> ParseResult:
    """Read the scraped Glossary page into entries (see the module docstring)."""
    check_readable(text, path)
    lines = text.splitlines()
    if not any(line.strip() == _SEPARATOR for line in lines):
        raise SourceFormatError(path, None, "no '||' separators; not a scraped Glossary table")
    result = ParseResult()
    for number, block in _blocks(lines):
        block = [*block[:-1], re.sub(r"\s*\|\s*$", "", block[-1])]
        if _NAVIGATION.match(block[0].strip()):
            continue
        first = block[0].strip()
        if not first:
            result.warnings.append(ParseWarning(number, "an empty entry block"))
            continue
        title, rest, guessed = _split_title(first, known_titles)
        if guessed:
            result.warnings.append(
                ParseWarning(number, f"title guessed as {title!r}: check where the text starts")
            )
        body = _paragraphs(([rest] if rest else []) + block[1:])
        text_out = join_paragraphs(body)
        kind = KIND_CARD_RULING if normalize(title) in known_titles else KIND_RULE
        result.entries.append(
            ParsedEntry(
                title=title, text=text_out, line=number, kind=kind, see_also=_see_also(text_out)
            )
        )
    if not result.entries:
        raise SourceFormatError(path, None, "no Glossary entries between the separators")
    return result

"""``glossary-pdf-page``: a page of the 1E Glossary PDF as a flip-book site serves its text.

Shape: every line of the PDF ends in ``<br />`` (and is followed by a blank line); the page's
own chrome (date, title, "SHOW MORE", an advert) comes first, without ``<br />``. Entries
are ``Title – text`` (an en dash, sometimes a hyphen), hard-wrapped over several lines; a
page usually starts inside an entry whose title is on the page before. Inline markup the
site adds (``<strong>Card</strong>assia``) is removed.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import ends_sentence, is_list_item
from bot.ingest.reader.common import doubt_missed_heads, title_like
from bot.ingest.reader.decipher import split_title
from bot.ingest.reader.head_forms import BARE_EM_DASH
from bot.ingest.reader.known import is_known
from bot.ingest.reader.model import Parsed, ReadEntry

_BR_END = re.compile(r"<br\s*/?>\s*$", re.I)
_INLINE_TAG = re.compile(r"</?(?:strong|b|i|em|span|u|font)\b[^>]*>", re.I)
# An en dash, a hyphen or two hyphens between spaces; an em dash only before a capital:
# the Glossary sets em dashes inside its sentences ("… U.S.S. Sao Paulo — but substitutes")
_ENTRY_DASH = re.compile(r"\s(?:[–-]|--)\s|\s—\s(?=[A-Z\"“(\[])")
_TIGHT_DASH = re.compile(r"(?<=\s)([–—-])(?=[A-Z\"“(\[])")
_BARE_EM_DASH = re.compile(BARE_EM_DASH)
_BULLET = ("•", "●", "◦")


def _lines(text: str) -> list[tuple[int, str, bool]]:
    """(line number, text without markup, ended in <br />) for every non-blank line."""
    out = []
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        br = bool(_BR_END.search(raw))
        line = _without_marks(raw).strip()
        # "Isabella –This interrupt…": the PDF lost the space after the title's dash
        line = _TIGHT_DASH.sub(r"\1 ", line)
        # "Founder—This characteristic…": an em dash set with no space, as American print
        # sets one
        line = _BARE_EM_DASH.sub(" — ", line)
        if line:
            out.append((number, line, br))
    return out


def without_markup(text: str) -> str:
    """``text`` with a flip-book copy's markup taken off each line (the ``<br />`` ending
    most lines, the site's ``<strong>``), every line kept in its place; any other text as
    it is. The general reader, reading a page with a moderator's heads, reads it so."""
    filled = [line for line in text.split("\n") if line.strip()]
    if not filled or 2 * sum(1 for line in filled if _BR_END.search(line)) < len(filled):
        return text
    return "\n".join(_without_marks(line) for line in text.split("\n"))


def _without_marks(line: str) -> str:
    """A flip-book line without its ``<br />`` end and the site's inline tags."""
    return _INLINE_TAG.sub("", _BR_END.sub("", line))


def detect(text: str) -> float:
    lines = _lines(text[:200_000])
    br = sum(1 for _, _, ended in lines if ended)
    if br < 5 or br < len(lines) // 2:
        return 0.0
    starts = sum(1 for _, line, _ in lines if _ENTRY_DASH.search(line) and split_title(line))
    return 0.75 if starts else 0.0


def _opens(line: str, previous: str | None) -> tuple[str, str] | None:
    """(title, text) when the line opens an entry: a title, a dash, text, and the line
    before ended a sentence (or there is none)."""
    found = split_title(line)
    if not found or not _ENTRY_DASH.search(line):
        return None
    if not _previous_ok(previous) and (
        previous.endswith(",") or not found[1][:1].isupper() or not is_known(found[0])
    ):
        # after a line that ends no sentence, only a title the project knows, its text
        # starting a sentence, opens an entry ("…Near Neutral Zone" / "Investigate Time
        # Continuum – To…"); not a cross reference's next item ("See doorways," /
        # "wormholes – movement through.")
        return None
    return found


def _separator(tail: str, line: str) -> str:
    """What joins ``line`` to an entry's text that ends in ``tail`` (its last characters)."""
    if not tail:
        return ""
    if line.startswith(_BULLET):
        return "\n\n"
    if tail.endswith("-") and tail[-2:-1].isalpha():  # "non-" + "Borg": a hyphenated break
        return ""
    return " "


def parse(text: str) -> Parsed:
    result = Parsed()
    lines = _lines(text)
    first_br = _first_br(lines)  # once: computed per line, it made the parse quadratic
    chrome = [(n, line) for n, line, br in lines if not br and n < first_br]
    result.ignored(chrome, "the page's own text before the document")
    body = [(n, line) for n, line, br in lines if n >= first_br]
    fragment: list[tuple[int, str]] = []
    previous: str | None = None
    pieces: list[list[str]] = []  # each entry's text, in pieces (joined once, at the end)
    tail = ""  # the current entry's text's last characters
    skip = False
    for index, (number, line) in enumerate(body):
        if skip:  # the second line of a title broken over two lines, already read
            skip, previous = False, line
            continue
        following = body[index + 1][1] if index + 1 < len(body) else ""
        dashed = _ends_in_dash(line)
        if dashed and (joined := _wrapped_head(line, following, previous)):
            # "battle – affiliation restrictions –" / "If a card…": the whole line is the title
            found, skip = joined, True
        else:
            found = _opens(line, previous)
            # a title broken over two lines (asked once: a dashed line's answer is known)
            if not found and not dashed and (joined := _wrapped_head(line, following, previous)):
                found, skip = joined, True
        # before the first entry: inside one, the shared check names such a title
        broken = None if found or result.entries else _broken_unknown(line, following, previous)
        if broken:
            # read only when known (above): named in a doubt
            result.warnings.append(
                ParseWarning(
                    number,
                    f"this line and the next open like an entry whose title the PDF broke over "
                    f"them ({broken!r}) but were not read as one; check that no entry was missed",
                    doubt=True,
                )
            )
        if found:
            title, rest = found
            result.entries.append(ReadEntry(title=title, text="", line=number))
            pieces.append([rest])
            tail = rest[-2:]
        elif result.entries:
            missed = title_like(line, alone=False)
            # after a sentence's end, or (however the line before ends) in title case
            if missed and (_previous_ok(previous) or _title_cased(missed)):
                result.warnings.append(
                    ParseWarning(
                        number,
                        f"a line inside {result.entries[-1].title!r} opens like an entry "
                        f"({missed!r}) but was not read as one; check that no entry was missed",
                        doubt=True,
                    )
                )
            separator = _separator(tail, line)
            pieces[-1] += [separator, line]
            tail = (tail + separator + line)[-2:]
        else:
            fragment.append((number, line))
        previous = line
    for entry, parts in zip(result.entries, pieces, strict=True):
        entry.text = "".join(parts)
    if result.entries and lines and not lines[-1][2]:
        # Every line of the PDF ends in <br />: one without it is where the copy stops. The
        # shared check warns about a cut sentence, but not about a cut short list item.
        last = result.entries[-1]
        tail = last.text.rsplit("\n", 1)[-1]
        if is_list_item(tail) and not ends_sentence(tail):
            result.warnings.append(
                ParseWarning(
                    lines[-1][0],
                    f"the last entry {last.title!r} ends mid-sentence ({tail[-40:]!r}): the "
                    "page's text stops mid-line (partial)",
                )
            )
    doubt_missed_heads(result, fragment[1:], "before the first entry")
    result.ignored(fragment, "the page starts inside an entry whose title is on an earlier page")
    return result


def _wrapped_head(line: str, following: str, previous: str | None) -> tuple[str, str] | None:
    """(title, text) of an entry whose title the PDF broke over two lines ("His Honor, The
    High Sheriff Of" / "Nottingham – When you…"): only when the joined title is known."""
    if following.startswith(("–", "—")) and _previous_ok(previous):
        # "playing an affiliation (non-Borg)" / "– You are…": the line breaks before the
        # dash (a title in brackets ends as a sentence would, so this is asked first)
        found = _opens(f"{line} {following}", previous)
        if found and found[0] == line.strip():
            return found
    if not following or ends_sentence(line) or len(line.split()) > 8:
        return None
    found = _opens(f"{line} {following}", previous)
    if found and len(found[0]) > len(line) and is_known(found[0]):
        return found
    # "Manheim's Dimensional Door –" / "Example:": the line breaks right after the dash
    if found and _ends_in_dash(line) and found[1] == following.strip():
        return found
    if _ends_in_dash(line) and _previous_ok(previous) and split_title(line[:-1] + " – x"):
        title = line.rstrip()[:-1].strip()
        if is_known(title) or found and title.startswith(found[0]):
            return title, following.strip()
    return None


def _broken_unknown(line: str, following: str, previous: str | None) -> str | None:
    """The title of an entry the PDF broke over two lines that the project does not know
    ("playing an affiliation" / "(non-Borg) – You are…"), after a sentence's end."""
    if not following or not _previous_ok(previous) or ends_sentence(line):
        return None
    if len(line.split()) > 8 or _ENTRY_DASH.search(line):
        return None
    found = _opens(f"{line} {following}", previous)
    if found and len(found[0]) > len(line) and found[1][:1].isupper():
        return found[0]
    return None


def _title_cased(title: str) -> bool:
    """Whether ``title`` is two words or more, each in capitals ("Lore Returns"): a card's
    title after a line that ends in no sentence ("… the Staffing to [Maq] [Maq]")."""
    words = title.split()
    return len(words) >= 2 and all(w[:1].isupper() or w[:1].isdigit() for w in words)


def _ends_in_dash(line: str) -> bool:
    return line.rstrip().endswith(("–", "—", " -"))


def _previous_ok(previous: str | None) -> bool:
    """Whether an entry may open after ``previous``: none, or a line that ends a sentence."""
    return previous is None or ends_sentence(previous)


def _first_br(lines: list[tuple[int, str, bool]]) -> int:
    return next((n for n, _, br in lines if br), 0)

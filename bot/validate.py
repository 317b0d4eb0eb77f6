"""The one validator for what users and files give: editions, dates and kinds.

Each function returns the value in its canonical form or raises :class:`InvalidValue`, a
``ValueError`` whose message is fit to show a user as it is. The CLI, the service, moderation,
the settings, the card lists and the Discord adapter all call these, so a rule about what an
edition or a date may be is written once.
"""

from __future__ import annotations

import datetime as dt
import re

from bot.models import EDITIONS, KINDS

DOCUMENT_KINDS = (
    "current rulings",
    "rulebook",
    "glossary",
    "rulings feed",
    "faq",
    "community copy",
)
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_LONE_SURROGATE = re.compile(
    "[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"
)
# C0 and C1 control characters except tab and newline, and the Unicode non-characters.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")


class InvalidValue(ValueError):
    """A value outside what is allowed; the message says what is."""


def edition(value: str) -> str:
    """ "1E" or "2E" (any case, surrounding spaces ignored)."""
    canonical = str(value).strip().upper()
    if canonical not in EDITIONS:
        raise InvalidValue("edition must be 1E or 2E")
    return canonical


_EDITION_NAMES = {"1": "1E", "first": "1E", "1st": "1E", "2": "2E", "second": "2E", "2nd": "2E"}
_EDITION_WORDS = r"(?:(?P<digit>[12])e|(?P<word>first|second|1st|2nd)\s+ed(?:ition|\.)?)"
# A hyphen parts the edition from the rest only with spaces around it: "2e-crd-..." is an id.
_APART = r"(?:\s*[:,\u2013\u2014]\s*|\s+-\s+|\s+)"
_AT_START = re.compile(
    rf"^\s*[(\[]?(?:in\s+)?{_EDITION_WORDS}[)\]]?{_APART}(?P<rest>\S.*)$", re.IGNORECASE | re.DOTALL
)
_AT_END = re.compile(
    rf"^(?P<rest>.*?\S){_APART}[(\[]?(?:(?:in|for)\s+)?(?:the\s+)?{_EDITION_WORDS}[)\]]?[\s?.!]*$",
    re.IGNORECASE | re.DOTALL,
)


def edition_named_at_edge(text: str) -> tuple[str | None, str]:
    """The edition a query names at its start or its end ("2E building a deck", "matching
    commander in 1E", "seed phase (first edition)"), and the query without it; else
    (None, the query). Named inside a question ("or is that a 2E thing?") an edition may be
    a contrast, not a choice: it stays a word. Both ends naming different editions: None."""
    found: list[str] = []
    rest = text
    for pattern in (_AT_START, _AT_END):
        match = pattern.match(rest)
        if match:
            digit, word = match.group("digit"), match.group("word")
            found.append(_EDITION_NAMES[(digit or word).casefold()])
            rest = match.group("rest")
    if not found or len(set(found)) > 1:
        return None, text
    return found[0], rest.strip()


def iso_date(value: str) -> str:
    """A real calendar date written YYYY-MM-DD."""
    text = str(value).strip()
    if not _ISO_DATE.match(text):
        raise InvalidValue(f"dates are written YYYY-MM-DD, not {value!r}")
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        raise InvalidValue(f"{value!r} is not a real date") from None
    return text


def entry_kind(value: str) -> str:
    """One of the entry kinds the importer writes (rule, card ruling, erratum, clarification)."""
    canonical = str(value).strip().lower()
    if canonical not in KINDS:
        raise InvalidValue(f"kind must be one of: {', '.join(KINDS)}")
    return canonical


def document_kind(value: str) -> str:
    """One of the kinds of source document."""
    canonical = str(value).strip().lower()
    if canonical not in DOCUMENT_KINDS:
        raise InvalidValue(f"document kind must be one of: {', '.join(DOCUMENT_KINDS)}")
    return canonical


def is_canonical(check, value: str) -> bool:
    """``value`` is exactly what ``check`` returns for it: valid and already in canonical form
    (moderators and data files give exact values; users' input is canonicalised instead)."""
    try:
        return check(value) == value
    except InvalidValue:
        return False


# The longest query answered, in characters: Discord's slash commands are declared with it
# (commands/lookup.py), the CLI refuses a longer one, the library reads no further. Past it
# the work per query would only grow (issue 36: 25,000 words took 107 s).
MAX_QUERY_CHARS = 300


def query_text(value: object) -> str:
    """A user's query made safe (:func:`user_text`) and cut to :data:`MAX_QUERY_CHARS`."""
    return user_text(str(value)[: MAX_QUERY_CHARS * 2])[:MAX_QUERY_CHARS]


def user_text(value: object) -> str:
    """Any text a user or a file gave, made safe to store, search, log and print.

    Surrogate pairs written as two code points are joined; a lone surrogate (which no
    encoding can write, and which made SQLite and the terminal raise) is dropped; NULs and
    control characters become spaces (tabs and newlines are kept). Nothing else changes.
    """
    text = value if isinstance(value, str) else str(value)
    if text.isascii() and text.isprintable():
        return text  # the common case, untouched and fast
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = _LONE_SURROGATE.sub("", text)
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    return _CONTROL.sub(" ", text)

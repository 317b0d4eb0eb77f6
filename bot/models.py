"""Plain data records shared by the importer, the store and the search."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

EDITIONS = ("1E", "2E")

# Entry kinds, as the importer writes them.
KIND_RULE = "rule"
KIND_CARD_RULING = "card ruling"
KIND_ERRATUM = "erratum"
KIND_CLARIFICATION = "clarification"
KINDS = (KIND_RULE, KIND_CARD_RULING, KIND_ERRATUM, KIND_CLARIFICATION)

# What an amendment in a later document does to the earlier entry of the same topic.
AMEND_REPLACE_ENTRY = "replace entry"  # "Replace this entry with the following"
AMEND_SUPERSEDES = "supersedes"  # "This supersedes the existing entry."
AMEND_ADD = "add"  # "Add the following after the tenth paragraph"
AMEND_REPLACE_PART = "replace part"  # "Replace the eleventh paragraph ..."
AMEND_DELETE_PART = "delete part"  # "Delete the second paragraph of this entry."
AMEND_REST_UNCHANGED = "rest unchanged"  # "The rest of the entry does not change."
AMEND_ACTIONS = (
    AMEND_REPLACE_ENTRY,
    AMEND_SUPERSEDES,
    AMEND_ADD,
    AMEND_REPLACE_PART,
    AMEND_DELETE_PART,
    AMEND_REST_UNCHANGED,
)
# Amendments after which the earlier version still holds, with the new text on top.
PARTIAL_ACTIONS = frozenset(
    {AMEND_ADD, AMEND_REPLACE_PART, AMEND_DELETE_PART, AMEND_REST_UNCHANGED}
)
# Amendments that replace the earlier version whole.
WHOLE_ACTIONS = frozenset({AMEND_REPLACE_ENTRY, AMEND_SUPERSEDES})
# The subsection an instruction rewrites: "Replace the first paragraph of the *Objectives*
# subsection with the following", 'Replace the section "Battle" with the following'.
_REPLACED_SECTION = re.compile(
    r"^replace\b.*?\b(?:the\s+)?(?:\*([^*]+)\*\s+(?:sub)?section|(?:sub)?section\s+[\"“]([^\"”]+)[\"”])",
    re.I,
)


MAX_INSTRUCTION_CHARS = 500


def replaced_section(amendments: list[dict[str, str]]) -> str:
    """The named subsection of its entry that a partial amendment's text rewrites (the rest
    of the entry unchanged), or "": that text, without the entry it amends, is this one part
    of the rule ("Objectives" of the 1E Borg entry), not the whole. Text added to a section
    ("Add the following bullet point to the section ...") is a note within it, not it."""
    if not amendments or any(a.get("action") in WHOLE_ACTIONS for a in amendments):
        return ""
    for amendment in amendments:
        if amendment.get("action") != AMEND_REPLACE_PART:
            continue
        # An instruction is one sentence; past a few hundred characters, a long run of
        # "*" makes the pattern's search for a "*Section* subsection" quadratic.
        instruction = str(amendment.get("instruction") or "").strip()[:MAX_INSTRUCTION_CHARS]
        found = _REPLACED_SECTION.match(instruction)
        if found:
            return (found.group(1) or found.group(2)).strip()
    return ""


def precedence(official: bool, date: str | None) -> tuple[int, str]:
    """Higher wins: official before community copies, then the later date.

    An undated official document (the Glossary) ranks below every dated Current Rulings
    Document of its edition, which supplement and amend it.
    """
    return (1 if official else 0, date or "")


@dataclass
class Card:
    """One card (all printings of it grouped) from a LackeyCCG card list."""

    id: str  # stable, edition-qualified: "2e-kira-nerys-iliana-ghemor"
    edition: str  # "1E" | "2E"
    title: str  # "Kira Nerys"
    subtitle: str | None  # "Iliana Ghemor"; 1E's "(First Contact)" disambiguators too
    type: str  # "Personnel", "Event", ...
    text: str = ""  # game text of the newest printing, Lackey markup as is
    sets: list[str] = field(default_factory=list)  # set codes, in file order, no repeats

    @property
    def name(self) -> str:
        """The name as rulings print it: "Kira Nerys, Iliana Ghemor" or the bare title."""
        return f"{self.title}, {self.subtitle}" if self.subtitle else self.title


@dataclass
class Document:
    """A source document, as described once in ``rulings_data/documents.yaml``."""

    id: str
    title: str
    edition: str
    kind: str  # one of bot.validate.DOCUMENT_KINDS
    date: str | None  # ISO date as printed, None where none is printed
    official: bool
    file: str | None  # relative to rulings_data/; None for a moderator's document
    parser: str | None  # None: no source file; its entries YAML is the record
    url: str | None = None  # where the official document can be read, where one is known

    @property
    def precedence(self) -> tuple[int, str]:
        """Higher wins (see :func:`precedence`)."""
        return precedence(self.official, self.date)

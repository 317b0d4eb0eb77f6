"""The rule as in force: an amendment applied to the entry it amends.

A Current Rulings Document often prints editing instructions ("Replace the fourth and fifth
paragraphs of this entry with the following:") rather than the rule. These pure functions
turn such an entry into what a judge needs: the resulting text, with the changed paragraphs
marked and the instructions kept as provenance. They compose only when the instructions can
be placed with certainty (the base entry is in the data and its paragraph count checks out);
otherwise they say so and hand back both texts to read side by side.

Nothing here touches a store: callers pass texts and the entry's ``amendments`` records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

from bot.models import (
    AMEND_ADD,
    AMEND_DELETE_PART,
    AMEND_REPLACE_PART,
    AMEND_REST_UNCHANGED,
    WHOLE_ACTIONS,
)

# How a composition came out (the ``mode`` of :class:`Composition`).
AS_PRINTED = "as printed"  # no editing instructions: the text is the rule
REPLACED = "replaced"  # the whole entry was replaced: the new text is the rule
COMPOSED = "composed"  # applied to the base entry, paragraph by paragraph
SIDE_BY_SIDE = "side by side"  # the base is here but the instructions cannot be placed
BASE_MISSING = "base not bundled"  # the entry it amends is not in the bundled documents

ORDINALS = {
    word: n
    for n, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
        "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
        "twentieth".split(),
        start=1,
    )
}
_ORDINAL = r"(" + "|".join(ORDINALS) + r")"
# Atomic from the first "add": a later "add" could only find what the scan from the first
# does, and retrying from each one was quadratic on "add add add ...".
_ADD_AT = re.compile(rf"^(?>.*?\badd\b).*?\b(before|after) the {_ORDINAL} paragraph", re.I)
_ADD_START = re.compile(r"^at the beginning of this entry", re.I)
_REPLACE_PARAS = re.compile(
    rf"^replace the {_ORDINAL}(?: and {_ORDINAL})? paragraphs? of this entry", re.I
)
_DELETE_PARA = re.compile(rf"^delete the {_ORDINAL} paragraph of this entry", re.I)
_FRONT = re.compile(r"^replace the first portion of this entry", re.I)
# Trailing "the rest does not change" lines, in the wordings the documents use.
_REST = re.compile(
    r"^\W*(the rest of the entry does not change|all other sections of this entry remain "
    r"unchanged|the remainder of the entry is unchanged)\W*$",
    re.I,
)
_SENTENCE_END = tuple('.!?)"”’*')


@dataclass
class Paragraph:
    text: str
    changed: bool  # new or replaced text from the amendment


@dataclass
class Composition:
    mode: str
    paragraphs: list[Paragraph]
    instructions: list[str] = field(default_factory=list)
    note: str | None = None
    body: str = ""  # the amendment's own text, without its instructions

    @property
    def text(self) -> str:
        return "\n\n".join(p.text for p in self.paragraphs)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.mode,
            "text": self.text,
            "paragraphs": [{"text": p.text, "changed": p.changed} for p in self.paragraphs],
            "instructions": self.instructions,
        }
        if self.note:
            out["note"] = self.note
        return out


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in (text or "").split("\n\n") if p.strip()]


def _bare(paragraph: str) -> str:
    return paragraph.strip().strip("*_").strip()


@dataclass
class Step:
    action: str
    instruction: str
    body: list[str]


def split_amendment(text: str, amendments: list[dict[str, str]]) -> tuple[list[Step], bool]:
    """The entry's editing steps in order, and whether it says the rest does not change.

    Paragraphs before any instruction belong to an implicit step (2E: "... The rest of the
    entry does not change." after the new opening).
    """
    # Each instruction made bare once, not once per paragraph (quadratic on a long entry).
    bared = [
        (a["action"], a["instruction"], _bare(a["instruction"]))
        for a in amendments or []
        if a["action"] != AMEND_REST_UNCHANGED
    ]
    instructions = [(action, said, bare, bare.lower()) for action, said, bare in bared]
    steps: list[Step] = []
    rest_unchanged = False
    lead: list[str] = []
    for paragraph in paragraphs(text):
        bare = _bare(paragraph)
        if _REST.match(bare):
            rest_unchanged = True
            continue
        lowered = bare.lower()
        match = next(
            (
                (action, instruction, prefix)
                for action, instruction, prefix, folded in instructions
                if lowered.startswith(folded)
            ),
            None,
        )
        if match:
            action, instruction, prefix = match
            remainder = bare[len(prefix) :].strip()
            steps.append(Step(action, instruction, [remainder] if remainder else []))
        elif steps:
            steps[-1].body.append(paragraph)
        else:
            lead.append(paragraph)
    if lead:
        steps.insert(0, Step(AMEND_REST_UNCHANGED if rest_unchanged else "", "", lead))
    return steps, rest_unchanged


def amended_entry_name(edition: str) -> str:
    """What a CRD amendment of this edition edits: the 1E Glossary, the 2E Rulebook."""
    return "Glossary" if edition == "1E" else "Rulebook"


def _placements(step: Step) -> list[tuple[str, int, int]] | None:
    """(op, first, last) over the base's paragraphs, 1-based; None when it cannot be placed."""
    instruction = _bare(step.instruction)
    if step.action in WHOLE_ACTIONS:
        return [("replace entry", 0, 0)]
    if step.action == AMEND_ADD:
        if _ADD_START.match(instruction):
            return [("before", 1, 1)]
        m = _ADD_AT.match(instruction)
        if m:
            return [
                (m.group(1).lower(), ORDINALS[m.group(2).lower()], ORDINALS[m.group(2).lower()])
            ]
    if step.action == AMEND_REPLACE_PART:
        m = _REPLACE_PARAS.match(instruction)
        if m:
            first = ORDINALS[m.group(1).lower()]
            last = ORDINALS[m.group(2).lower()] if m.group(2) else first
            return [("replace", first, last)]
    if step.action == AMEND_DELETE_PART:
        m = _DELETE_PARA.match(instruction)
        if m:
            n = ORDINALS[m.group(1).lower()]
            return [("delete", n, n)]
    return None


def _front_replacement(body: list[str], base: list[str]) -> int | None:
    """How many leading base paragraphs a new opening replaces (2E "The rest ... does not
    change"): from the first new paragraph that rewrites a base paragraph, the new ones
    stand for the base ones in order."""
    for i, new in enumerate(body):
        scores = [fuzz.ratio(_bare(new).lower(), _bare(old).lower()) for old in base]
        if scores and max(scores) >= 70:
            return min(len(base), scores.index(max(scores)) + len(body) - i)
    return None


def looks_cut(text: str) -> bool:
    """A text the scrape cut mid-sentence ("This personnel retains her") or before the list
    it announces ("Two need clarification:")."""
    stripped = (text or "").rstrip()
    return bool(stripped) and not stripped.endswith(_SENTENCE_END)


def compose(
    text: str,
    amendments: list[dict[str, str]] | None,
    base_text: str | None,
    *,
    edition: str,
    title: str,
) -> Composition:
    """The rule as in force from an entry's text, its editing instructions and its base."""
    if not amendments:
        return Composition(AS_PRINTED, [Paragraph(p, False) for p in paragraphs(text)], body=text)
    steps, rest_unchanged = split_amendment(text, amendments)
    instructions = [a["instruction"] for a in amendments]
    body = [p for s in steps for p in s.body]
    body_text = "\n\n".join(body)
    new = [Paragraph(p, True) for p in body]
    if any(s.action in WHOLE_ACTIONS for s in steps):
        return Composition(REPLACED, new, instructions, body=body_text)
    where = f'the {edition} {amended_entry_name(edition)} entry "{title}"'
    if not base_text:
        return Composition(
            BASE_MISSING,
            new,
            instructions,
            f"This amends {where}, which is not in the bundled documents: only the text the "
            f"Current Rulings Document adds or replaces is shown.",
            body=body_text,
        )
    base = paragraphs(base_text)
    composed = _apply(steps, base)
    if composed is None:
        return Composition(
            SIDE_BY_SIDE,
            new,
            instructions,
            f"These instructions cannot be applied with certainty to the bundled text of "
            f"{where} ({len(base)} paragraph{'s' if len(base) != 1 else ''}"
            + (", cut short by the source" if looks_cut(base_text) else "")
            + "): read the new text with the amended entry below.",
            body=body_text,
        )
    return Composition(COMPOSED, composed, instructions, body=body_text)


def _apply(steps: list[Step], base: list[str]) -> list[Paragraph] | None:
    """Apply the steps to the base's paragraphs (numbered as printed), or None."""
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    replaced: dict[int, list[str]] = {}
    dropped: set[int] = set()
    for step in steps:
        if (step.action == AMEND_REST_UNCHANGED and not step.instruction) or (
            step.action == AMEND_REPLACE_PART and _FRONT.match(_bare(step.instruction))
        ):
            n = _front_replacement(step.body, base)
            if n is None:
                return None
            replaced[1] = step.body
            dropped.update(range(2, n + 1))
            continue
        placements = _placements(step)
        if not placements:
            return None
        for op, first, last in placements:
            if op == "replace entry" or last > len(base):
                return None
            if op == "before":
                before.setdefault(first, []).extend(step.body)
            elif op == "after":
                after.setdefault(first, []).extend(step.body)
            elif op == "replace":
                if first in replaced or first in dropped:
                    return None
                replaced[first] = step.body
                dropped.update(range(first + 1, last + 1))
            elif op == "delete":
                dropped.add(first)
    out: list[Paragraph] = []
    for n, old in enumerate(base, start=1):
        out += [Paragraph(p, True) for p in before.get(n, [])]
        if n in replaced:
            out += [Paragraph(p, not any(same_text(p, o) for o in base)) for p in replaced[n]]
        elif n not in dropped:
            out.append(Paragraph(old, False))
        out += [Paragraph(p, True) for p in after.get(n, [])]
    return out


# ------------------------------------------------------------------------ labels
CURRENT, AMENDED, SUPERSEDED, RETIRED, OLDER_COPY = (
    "current",
    "amended",
    "superseded",
    "retired",
    "older copy",
)


def same_text(a: str, b: str) -> bool:
    """Two printings of one ruling (typos, spacing and emphasis aside)."""
    clean = [re.sub(r"[\W_]+", " ", t or "").lower().strip() for t in (a, b)]
    return bool(clean[0]) and fuzz.ratio(*clean) >= 90


def version_label(
    version: dict[str, Any],
    current: dict[str, Any],
    *,
    is_base: bool,
    current_source: str,
) -> tuple[str, str]:
    """The honest label of one version next to the topic's current version, with a reason.

    - the base text (Rulebook or Glossary) a CRD edits in part, or only adds to: amended;
      replaced whole ("Replace this entry", "This supersedes"): superseded;
    - an earlier printing of the same ruling (an older CRD, a community copy): older copy;
      of a different ruling text: superseded.
    """
    if version.get("retired"):
        return RETIRED, version.get("retired_reason") or "withdrawn by a moderator"
    if version["id"] == current["id"]:
        return CURRENT, "the version in force"
    actions = {a["action"] for a in current.get("amendments") or []}
    if is_base:
        if actions & WHOLE_ACTIONS:
            return SUPERSEDED, f"replaced whole by the {current_source}"
        return AMENDED, f"in force as partly changed by the {current_source}"
    if same_text(version["text"], current["text"]):
        return OLDER_COPY, f"an earlier printing of the ruling in the {current_source}"
    return SUPERSEDED, f"replaced by the ruling in the {current_source}"

"""Corrections drafted for the moderator: the file they would write, ready to edit.

A preview with doubts, or a page refused with lines that open like an entry, needs
corrections (:mod:`bot.ingest.reader.corrections`) before it can be imported. Writing them
from nothing on a phone is slow and error-prone, so each front end offers this draft: for
each doubt, the fixes its message proposes (else confirming the entry as read); for each
listed line, naming it a head. Every drafted item is a comment: nothing is fixed until the
moderator removes the "#" before the items they choose. A doubt is never settled by
submitting a draft unread. Corrections given before come first, as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import yaml

from bot.ingest.reader.corrections import MEANINGS, CorrectionError, parse

# A fix a doubt's message proposes, such as "{line: 11, drop: true}": the reader writes them
# so. Bounded and unnested: linear on any message.
_PROPOSED = re.compile(r"\{line: \d{1,7}, (?:confirm|drop|merge|head|title): [^{}\n]{1,200}\}")
_PLACEHOLDERS = {"…", "...", "?"}  # "{line: 5, title: …}": a title still to be written
_HEADER = (
    "# Corrections{of}.\n"
    '# Remove the "#" before each one you choose.\n'
    "# Lines are numbered as in the preview.\n"
)
_REST = "# … {count} more {what} not drafted here: see the preview's listing.\n"
NOTHING_CHOSEN = (
    'no correction chosen: remove the "#" before each correction you mean (a line such as '
    "- {line: 12, confirm: true})"
)


def doubts_draft(
    doubts: Iterable[dict[str, Any]],
    earlier: list[dict[str, Any]] | None = None,
    filename: str | None = None,
    limit: int | None = None,
) -> str:
    """The corrections draft for a preview's ``doubts`` (each {"line", "message"}), after
    the corrections ``earlier`` applied; at most ``limit`` characters (whole doubts only)."""
    blocks = []
    for doubt in doubts:
        message = " ".join(str(doubt["message"]).split())
        fixes = _proposed(message) or [{"line": int(doubt["line"]), "confirm": True}]
        said = message if len(message) <= 110 else message[:109].rstrip() + "…"
        blocks.append(
            f"# DOUBT at line {doubt['line']}: {said}\n"
            + "".join(f"#{_item(fix)[:-1]}  # {_meaning(fix)}\n" for fix in fixes)
        )
    return _draft(blocks, earlier, filename, limit, "doubt(s)")


def heads_draft(
    heads: Iterable[tuple[int, str]],
    earlier: list[dict[str, Any]] | None = None,
    filename: str | None = None,
    limit: int | None = None,
) -> str:
    """The corrections draft for a refused page's listed ``heads`` (line, title): each may
    be named a head, and the page read again with it opening an entry."""
    # The title as listed, not "true": the line is read under exactly the title shown,
    # which the moderator may also edit here.
    blocks = [
        f"#{_item({'line': int(line), 'head': ' '.join(str(title).split())[:200]})}"
        for line, title in heads
    ]
    return _draft(blocks, earlier, filename, limit, "line(s)")


def drafted(draft: str) -> bool:
    """Whether ``draft`` offers any correction to choose (a doubt or a line to name)."""
    return "\n#- {" in draft


def chosen(text: str) -> list[dict[str, Any]]:
    """The corrections a moderator chose in a draft (checked as any corrections are);
    :class:`CorrectionError` when none was chosen."""
    items = parse(text)
    if not items:
        raise CorrectionError(NOTHING_CHOSEN)
    return items


def _draft(
    blocks: list[str],
    earlier: list[dict[str, Any]] | None,
    filename: str | None,
    limit: int | None,
    what: str,
) -> str:
    text = _HEADER.format(of=f" for {filename}" if filename else "")
    if earlier:
        text += "# Chosen before:\n" + "".join(_item(item) for item in earlier)
    for number, block in enumerate(blocks):
        rest = _REST.format(count=len(blocks) - number, what=what)
        if limit is not None and len(text) + len(block) + len(rest) > limit:
            return text + rest
        text += block
    return text


def _proposed(message: str) -> list[dict[str, Any]]:
    """The fixes ``message`` proposes, each a valid correction (a placeholder dropped)."""
    fixes: list[dict[str, Any]] = []
    for written in _PROPOSED.findall(message):
        try:
            (fix,) = parse(f"- {written}")
        except ValueError:  # not YAML, no correction, or several (a CorrectionError too)
            continue
        values = [value for key, value in fix.items() if key != "line"]
        if any(isinstance(v, str) and v.strip() in _PLACEHOLDERS for v in values):
            continue
        if fix not in fixes:
            fixes.append(fix)
    return fixes


def _meaning(fix: dict[str, Any]) -> str:
    (action,) = (key for key in fix if key != "line")
    return MEANINGS[action]


def _item(item: dict[str, Any]) -> str:
    """One correction as a line of the list, in YAML that reads back as the same item."""
    item = {"line": item["line"], **{k: v for k, v in item.items() if k != "line"}}
    line = yaml.safe_dump(
        [item], default_flow_style=True, allow_unicode=True, width=10_000, sort_keys=False
    )
    # safe_dump writes "[{line: 3, confirm: true}]": as a block list item instead
    return f"- {line.strip()[1:-1]}\n"

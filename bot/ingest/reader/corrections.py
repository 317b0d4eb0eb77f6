"""A moderator's corrections to a read document, before it is previewed again.

A doubt about an entry's boundaries or title blocks applying an import until the entries
are fixed. The fix is a short list, one item per entry, naming the entry by the line the
preview shows for it::

    - {line: 12, confirm: true}          # the head is right as read
    - {line: 14, title: skills – modifying}  # the right title (confirms the head)
    - {line: 20, merge: true}            # part of the entry before it, not an entry
    - {line: 31, drop: true}             # no entry at all (a heading, a caption)
    - {line: 40, head: true}             # this line opens an entry the reader did not see
    - {line: 52, head: Cloaked Ships}    # ... with this title

``head`` names a line of the page's text where no entry starts. Inside an entry, it splits
that entry there and the rest of the read stays (:mod:`bot.ingest.reader.split_heads`);
elsewhere (a line set aside, or a line of a page refused as holding none) the page is read
again by the general reader with that line as an entry's head. A line that holds several
entries (text whose line breaks were lost) can only be confirmed as a whole; anything else
needs the text with its line breaks.

A corrected entry's doubts are resolved, those raised at lines inside it too (a line in its
text that opens like a title or a question: the correction says it was rightly left there).
A doubt outside any entry (text before the first one that opens like an entry) is confirmed
at its own line. Doubts about entries nobody corrected remain.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections import Counter
from typing import Any

from bot.ingest.reader.common import join
from bot.ingest.reader.model import CorrectionError, ReadDocument, ReadEntry

__all__ = ["ACTIONS", "MEANINGS", "CorrectionError", "apply", "heads_of", "parse"]

ACTIONS = ("confirm", "title", "merge", "drop", "head")
# What each action says of the line it names, as a moderator's draft explains it.
MEANINGS = {
    "confirm": "right as read",
    "title": "the right title",
    "merge": "part of the entry before",
    "drop": "no entry at all",
    "head": "this line opens an entry",
}
MAX_CORRECTIONS = 2_000
MAX_CORRECTIONS_CHARS = 256 * 1024


def apply(document: ReadDocument, corrections: Any) -> ReadDocument:
    """``document`` with ``corrections`` applied (a new document; the given one is unchanged)."""
    items = _validated(corrections)
    by_line = {entry.line: entry for entry in document.entries}
    doubted = {w.line for w in document.warnings if getattr(w, "doubt", False)}
    for item in items:
        # a doubt outside any entry (text before the first one) is confirmed at its line
        outside = item.get("confirm") and item["line"] in doubted
        if item["line"] not in by_line and not outside:
            lines = ", ".join(str(n) for n in sorted(by_line)[:20])
            raise CorrectionError(
                f"correction for line {item['line']}: no entry starts there (entries start at "
                f"lines {lines}{', …' if len(by_line) > 20 else ''})"
            )
    per_line = Counter(entry.line for entry in document.entries)
    shared = {line for line, count in per_line.items() if count > 1}
    for item in items:
        if item["line"] in shared and not item.get("confirm"):
            raise CorrectionError(
                f"line {item['line']} holds several entries (text run together): confirm the "
                "line as read, or upload the text with a line break before each entry"
            )
    fixed = {item["line"]: item for item in items}
    entries: list[ReadEntry] = []
    for entry in document.entries:
        item = fixed.get(entry.line)
        if item is None:
            entries.append(entry)
            continue
        if item.get("drop"):
            continue
        if item.get("merge"):
            if not entries:
                raise CorrectionError(f"line {entry.line}: the first entry has none before it")
            before = entries[-1]
            text = join(
                [before.text, f"{entry.title} – {entry.text}" if entry.text else entry.title]
            )
            entries[-1] = dataclasses.replace(before, text=text)
            continue
        named = item.get("title") or (item["head"] if isinstance(item.get("head"), str) else "")
        title = str(named or entry.title).strip()
        text = _without_run_on(entry, title)
        entries.append(dataclasses.replace(entry, title=title, text=text, confidence=1.0))
    heads = sorted(by_line)
    warnings = [
        w
        for w in document.warnings
        if not (getattr(w, "doubt", False) and _resolved(w.line, heads, fixed))
    ]
    return dataclasses.replace(document, entries=entries, warnings=warnings)


def _resolved(line: int, heads: list[int], fixed: dict[int, dict]) -> bool:
    """Whether a doubt raised at ``line`` is settled: its own line was corrected, or the
    entry it was raised inside (the last head at or above it) was. A correction says the
    entry is right as it now reads, so the lines inside it that opened like a title or a
    question were rightly left in its text."""
    if line in fixed:
        return True
    at = bisect.bisect_right(heads, line)
    return at > 0 and heads[at - 1] in fixed


# Between a title and its text: a dash, or only a space where the title was run into its
# text ("Tongo To declare …", a bold title copied as text).
_SEPARATORS = (" – ", " — ", " - ", " ")


def _without_run_on(entry: ReadEntry, title: str) -> str:
    """The entry's text without what a longer title took from it: "battle", its text
    "affiliation restrictions – If a card …", renamed "battle – affiliation restrictions"
    (a title broken at its own dash) keeps "If a card …"; "Captain Proton", its text "cards
    Several cards …", renamed "Captain Proton cards" keeps "Several cards …"."""
    for dash in _SEPARATORS:
        if not title.startswith(entry.title + dash):
            continue
        rest = title[len(entry.title) + len(dash) :]
        for after in _SEPARATORS:
            if entry.text.startswith(rest + after):
                return entry.text[len(rest) + len(after) :]
    return entry.text


def heads_of(corrections: Any) -> dict[int, str | None]:
    """The lines the corrections say open entries (line: title, or None for the line's own
    title), for the reader to read the page with."""
    return {
        item["line"]: item["head"] if isinstance(item["head"], str) else None
        for item in _validated(corrections)
        if item.get("head")
    }


def parse(text: str) -> list[dict[str, Any]]:
    """The corrections a moderator wrote (YAML), checked; refused past the size limit."""
    import yaml

    if len(text) > MAX_CORRECTIONS_CHARS:
        raise CorrectionError(f"corrections may be {MAX_CORRECTIONS_CHARS // 1024} KB at most")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CorrectionError(f"the corrections are not YAML: {error}") from None
    return _validated(data or [])


def _validated(corrections: Any) -> list[dict[str, Any]]:
    if not isinstance(corrections, list):
        raise CorrectionError("corrections are a list of items such as {line: 12, confirm: true}")
    if len(corrections) > MAX_CORRECTIONS:
        raise CorrectionError(f"at most {MAX_CORRECTIONS} corrections at once")
    out = []
    for item in corrections:
        if not isinstance(item, dict) or not isinstance(item.get("line"), int):
            raise CorrectionError(f"each correction names an entry's line: {item!r:.80}")
        actions = [a for a in ACTIONS if item.get(a)]
        unknown = set(item) - {"line", *ACTIONS}
        if len(actions) != 1 or unknown:
            raise CorrectionError(
                f"line {item['line']}: say one of {', '.join(ACTIONS)} (got {sorted(item)})"
            )
        if "title" in actions and (not isinstance(item["title"], str) or len(item["title"]) > 200):
            raise CorrectionError(f"line {item['line']}: a title is text of 200 characters at most")
        head = item.get("head")
        if head is not None and not (head is True or isinstance(head, str) and len(head) <= 200):
            raise CorrectionError(
                f"line {item['line']}: head is true, or the entry's title (200 characters at most)"
            )
        out.append(item)
    return out

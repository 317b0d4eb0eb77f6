"""``rule-history``: the committee's history of rule changes, one rule after another.

Shape (the 1E "Rule Changes" page as a browser copies it): each rule is its title on a line,
its statement on the next, then a status line (``Original | Superseded``, ``Major New
Affiliation | Active``), the document that made it, and the rules that later superseded or
modified it. An entry is a rule: its title, its statement, and the status lines under it.
"""

from __future__ import annotations

import re

from bot.ingest.reader.common import entry_of, lines_of, text_line
from bot.ingest.reader.model import Parsed

_STATUS = re.compile(
    r"^[A-Z][A-Za-z \-]{2,40} \| (?:Active|Superseded|Modified|Obsolete|Removed|Replaced|"
    r"Restored|Errata)$"
)


# A line of a rule's history: the document that made it ("Premiere Rulebook (10 Nov 1994)"),
# a list's heading ("Superseded by:"), a later rule ("No mod win (2016 Mar)").
_HISTORY = re.compile(r"\(\d{1,2} [A-Z][a-z]{2} \d{4}\)$|\(\d{4} [A-Z][a-z]{2}\)$|:$")
_CUT_STATUS = re.compile(r"^[A-Z][A-Za-z \-]{2,40} \| [A-Za-z]*$")  # "Original | Rescin"


def _content(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in lines_of(text) if line.strip()]


def _statuses(rows: list[tuple[int, str]]) -> list[int]:
    return [i for i, (_, line) in enumerate(rows) if i >= 2 and _STATUS.match(line)]


def detect(text: str) -> float:
    return 0.9 if len(_statuses(_content(text))) >= 2 else 0.0


def parse(text: str) -> Parsed:
    result = Parsed()
    rows = _content(text)
    statuses = _statuses(rows)
    if not statuses:
        return result
    start = statuses[0] - 2
    result.ignored(rows[:start], "text before the first rule")
    for position, at in enumerate(statuses):
        # the next rule's title and statement stand right above its status line: a history
        # never runs into them, however short the statement ("Short statement here")
        limit = statuses[position + 1] - 2 if position + 1 < len(statuses) else len(rows)
        history_end, in_list = at + 1, False
        while history_end < limit:
            line = rows[history_end][1]
            following = rows[history_end + 1][1] if history_end + 1 < len(rows) else ""
            if _HISTORY.search(line):
                in_list = in_list or line.endswith(":")
            elif not in_list or text_line(following):
                break  # the next rule's title, its statement under it
            history_end += 1
        _add(result, rows[start:at], rows[at:history_end])
        start = history_end
    rest = rows[start:]
    if len(rest) >= 3 and _CUT_STATUS.match(rest[-1][1]):  # the copy ends inside a rule
        _add(result, rest[:-1], rest[-1:])
    else:
        result.ignored(rest, "text after the last rule")
    return result


def _add(result: Parsed, head: list[tuple[int, str]], history: list[tuple[int, str]]) -> None:
    """One rule: its title (the first line), its statement, its history."""
    if len(head) < 2:
        result.ignored(head, "a rule without a statement")
        return
    (number, title), statement = head[0], " ".join(line for _, line in head[1:])
    # the history stays in the statement's paragraph: it is the rule's, not another head
    texts = [statement + "\n" + " / ".join(line for _, line in history)]
    result.entries.append(entry_of(title, texts, number))

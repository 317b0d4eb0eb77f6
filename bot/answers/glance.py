"""The answer at a glance: does the first reply show a right ruling without a tap?

For each answerable case of a labelled table, the lookup is answered as a user meets it
(the shipped search and confidence, no refit) and :func:`bot.answers.layout.first_reply`
says what the first reply shows: the first page of an answer, or a miss's best matches with
their parts. The case counts when a piece of that from a right ruling (or card) holds at
least ``GLANCE_WORDS`` consecutive words, or all of a shorter one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.answers.layout import first_reply
from bot.markup import markup_to_words

GLANCE_WORDS = 12  # consecutive words of a right ruling: enough to read the rule itself


def shown_right(rulings: Any, query: str, edition: str | None, expect: Sequence[str]) -> bool:
    """Whether the first reply to ``query`` shows ``GLANCE_WORDS`` words of a right one."""
    answer, found = rulings.show(query, edition)
    for about, text in first_reply(answer, found):
        entry = rulings.store.entry(about) if about else None
        topic = entry["topic"] if entry else about
        if topic not in expect:
            continue
        # A ruling or card text shorter than that counts when it is shown whole.
        whole = entry["text"] if entry else (rulings.store.card(about) or {}).get("text")
        wanted = min(GLANCE_WORDS, len(markup_to_words(whole or "").split()) or GLANCE_WORDS)
        if len(text.replace("*", " ").replace(">", " ").split()) >= wanted:
            return True
    return False


def glance(rulings: Any, cases: Sequence[Any]) -> dict[str, Any]:
    """The share of answerable cases whose first reply shows a right ruling, overall and
    per category, with the cases that miss it."""
    answerable = [c for c in cases if not c.negative]
    by_category: dict[str, list[int]] = {}
    failures = []
    for case in answerable:
        right = shown_right(rulings, case.query, case.edition, case.expect)
        counts = by_category.setdefault(case.category, [0, 0])
        counts[0] += right
        counts[1] += 1
        if not right:
            failures.append({"query": case.query, "want": list(case.expect)})
    shown = sum(c[0] for c in by_category.values())
    return {
        "cases": len(answerable),
        "shown": shown,
        "share": shown / len(answerable) if answerable else None,
        "categories": {k: {"shown": v[0], "cases": v[1]} for k, v in sorted(by_category.items())},
        "failures": failures,
    }

"""The labelled query table: top-1 accuracy and no confident answer to a negative.

Run with ``-s`` to see the per-category report. The confidence threshold in bot/search/index.py
is calibrated on this table.
"""

from collections import Counter
from pathlib import Path

import pytest
import yaml

CASES = yaml.safe_load((Path(__file__).with_name("cases.yaml")).read_text(encoding="utf-8"))[
    "cases"
]
POSITIVE = [c for c in CASES if c["expect"]]
NEGATIVE = [c for c in CASES if not c["expect"]]


def _top(rulings, case):
    result = rulings.index.search(case["query"], edition=case.get("edition"), limit=5)
    top = result.hits[0].target.topic if result.hits else None
    return result, top


def test_the_table_is_big_enough_and_covers_every_category():
    assert len(CASES) >= 80
    assert {c["category"] for c in CASES} >= {
        "exact", "typo", "alias", "auto-alias", "mention", "question", "edition", "negative",
    }  # fmt: skip


def test_every_expected_topic_exists(rulings):
    missing = [c["expect"] for c in POSITIVE if c["expect"] not in rulings.index.by_topic]
    assert not missing, f"cases name topics that are not in the data: {missing}"


def test_top1_accuracy_is_at_least_95_percent(rulings):
    failures = []
    per_category: Counter = Counter()
    totals: Counter = Counter()
    for case in POSITIVE:
        result, top = _top(rulings, case)
        totals[case["category"]] += 1
        if top == case["expect"] and result.confident:
            per_category[case["category"]] += 1
        else:
            failures.append(
                f"{case['query']!r}: got {top} (confident={result.confident}), want {case['expect']}"
            )
    accuracy = sum(per_category.values()) / len(POSITIVE)
    report = ", ".join(f"{k} {per_category[k]}/{totals[k]}" for k in sorted(totals))
    print(f"\ntop-1 confident accuracy {accuracy:.1%} ({report})")
    for failure in failures:
        print("  miss:", failure)
    assert accuracy >= 0.95, "\n".join(failures)


@pytest.mark.parametrize("case", NEGATIVE, ids=[c["query"] for c in NEGATIVE])
def test_negatives_are_never_confident(rulings, case):
    result, _ = _top(rulings, case)
    assert not result.confident, [(h.target.topic, h.score, h.via) for h in result.hits[:3]]

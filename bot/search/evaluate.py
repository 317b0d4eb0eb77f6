"""Measuring the search on a labelled table, with k-fold evaluation of the confidence.

A case is a query, the ids that answer it (topic ids, or card ids when the card itself is the
answer; none for a negative), an optional edition, a category and, for a real item, the
page it was taken from. The system under test is a function from (query, edition) to a
:class:`Ranked` answer list with the features the confidence decision reads. For each fold
the confidence model is fitted on the other folds and applied to the held-out one, so the
figures say how it does on queries it has not seen.

Two rules keep the figures honest. The folds are grouped by source page (:func:`group_of`):
the cases taken from one page are held out together, so a page's wording is never learnt in
one fold and tested in another. And a frozen split of whole pages (:func:`is_frozen`, about
a fifth, chosen once by a hash of the page's address) is set aside from everything: no fold,
fit, threshold or design choice sees it; ``rulings eval --frozen`` alone reports it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from bot.ingest.dataset import parse_yaml

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Case:
    query: str
    expect: tuple[str, ...]  # empty: a negative, no bundled document answers it
    edition: str | None
    category: str
    source: str | None = None

    @property
    def negative(self) -> bool:
        return not self.expect


@dataclass(slots=True)
class Ranked:
    """What the system answers: ids best first, and the features of its top answer."""

    ids: list[str]
    features: list[float]
    confident: bool = False  # the system's own verdict (used when no model is fitted)
    # What an answer stands for besides itself: a card answers with its rulings listed.
    covers: dict[str, set[str]] = field(default_factory=dict)
    # The rulings the fitted ranking weighed, with their signals (none for a card answer).
    candidates: list[tuple[str, list[float]]] = field(default_factory=list)

    def right(self, expect: Sequence[str]) -> bool:
        return _is_right(self.ids[:1], self.covers, expect)


def _is_right(ids: Sequence[str], covers: dict[str, set[str]], expect: Sequence[str]) -> bool:
    return any(i in expect or covers.get(i, set()).intersection(expect) for i in ids)


@dataclass(slots=True)
class Outcome:
    case: Case
    ids: list[str]
    confident: bool
    covers: dict[str, set[str]] = field(default_factory=dict)

    @property
    def right(self) -> bool:
        return _is_right(self.ids[:1], self.covers, self.case.expect)

    @property
    def in_top5(self) -> bool:
        return _is_right(self.ids[:5], self.covers, self.case.expect)


def load_cases(path: Path) -> list[Case]:
    return cases_from_text(path.read_text(encoding="utf-8"))


def split_cases(path: Path, mark: str) -> tuple[list[Case], list[Case]]:
    """The table's cases before the first line holding ``mark`` (a batch's comment, say),
    and those from there on: a later batch, to judge as the search would have met it."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if mark in line), None)
    if at is None or not any(line.lstrip().startswith("cases:") for line in lines[:at]):
        raise ValueError(f"no line after 'cases:' in {path.name} holds {mark!r}")
    return cases_from_text("".join(lines[:at])), cases_from_text("cases:\n" + "".join(lines[at:]))


def cases_from_text(text: str) -> list[Case]:
    raw = parse_yaml(text)["cases"] or []

    def ids(expect: Any) -> tuple[str, ...]:
        if not expect:
            return ()
        return (expect,) if isinstance(expect, str) else tuple(expect)

    return [
        Case(
            query=str(c["query"]),
            expect=ids(c.get("expect")),
            edition=c.get("edition"),
            category=c["category"],
            source=c.get("source"),
        )
        for c in raw
    ]


def source_page(url: str) -> str:
    """A source's address as one page: scheme, "www.", a trailing slash or dot and the
    forum's session id dropped; a forum thread is its topic (``t=``), whichever post (``p=``)
    the link pointed at. Two links to one page give one string."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower().removeprefix("www.").rstrip(".")
    query = [(k, v) for k, v in parse_qsl(parts.query) if k.lower() != "sid"]
    if parts.path.endswith("viewtopic.php"):
        topic = [(k, v) for k, v in query if k == "t"]
        query = topic or [(k, v) for k, v in query if k == "p"]
    path = parts.path.rstrip("/") or "/"
    return host + path + ("?" + urlencode(sorted(query)) if query else "")


def group_of(case: Case) -> str:
    """What a fold keeps together: the page a real case was taken from (its cases share
    wording), else the constructed case itself."""
    if case.source:
        return "page\0" + source_page(case.source)
    return f"case\0{case.query}\0{case.edition}"


def _draw_hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def fold_of(case: Case, k: int, draw: int = 0) -> int:
    """A stable fold for a case, the same for every case of its page (:func:`group_of`), on
    every run and machine. Each ``draw`` deals the pages into folds afresh (repeated k-fold:
    figures that do not hang on one deal)."""
    salt = f"{draw}\0" if draw else ""
    return _draw_hash(salt + group_of(case)) % k


# The frozen split: this share of the pages, by a hash of the page's address with this salt.
# Chosen once (2026-11-27, issue 37) and never to be redrawn: a new salt would hand pages
# already looked at to the frozen split. Cases without a source are never frozen.
FROZEN_SALT = "frozen split of issue 37"
FROZEN_PERCENT = 20


def is_frozen(case: Case) -> bool:
    """Whether a case belongs to the frozen test split (see the module's notes)."""
    if not case.source:
        return False
    return _draw_hash(f"{FROZEN_SALT}\0{source_page(case.source)}") % 100 < FROZEN_PERCENT


def split_frozen(cases: Sequence[Case]) -> tuple[list[Case], list[Case]]:
    """(the cases one may fit, tune and design on, the frozen ones)."""
    return [c for c in cases if not is_frozen(c)], [c for c in cases if is_frozen(c)]


# A model: fitted on (features, right?) pairs, which of them no document answers and the
# group (page) of each (to choose its threshold on folds of its own that keep pages
# together), it answers whether features are confident.
Fit = Callable[
    [list[list[float]], list[bool], list[bool], list[str]], Callable[[list[float]], bool]
]
# Candidate groups: per case, each ruling weighed with (its signals, is it an answer).
Groups = list[list[tuple[list[float], bool]]]


@dataclass(frozen=True)
class RankingHooks:
    """How ``run`` refits the ranking per fold: ``fit`` makes a model from candidate groups,
    ``use`` makes the system rank with it (None: back to the shipped one). With
    ``fit_confidence`` and ``use_confidence``, the system's own confident verdict is fitted
    on the training folds too: the system reads it (a card named inside a question is looked
    for only when the search is unsure), and the shipped one has seen the held-out cases."""

    fit: Callable[[Groups], Any]
    use: Callable[[Any], None]
    fit_confidence: Callable[[list[list[float]], list[bool], list[bool], list[str]], Any] | None = (
        None
    )
    use_confidence: Callable[[Any], None] | None = None


def candidate_groups(cases: Sequence[Case], ranked: Sequence[Ranked]) -> Groups:
    """Each case's weighed candidates labelled right or wrong (card answers left out: the
    ranking did not choose them)."""
    return [
        [(values, topic in case.expect) for topic, values in r.candidates]
        for case, r in zip(cases, ranked, strict=True)
        if r.candidates
    ]


def run(
    cases: Sequence[Case],
    system: Callable[[str, str | None], Ranked],
    fit: Fit | None = None,
    folds: int = 5,
    ranking: RankingHooks | None = None,
    draw: int = 0,
) -> list[Outcome]:
    """Every case answered; with ``fit``, its confidence decided by a model fitted on the
    other folds (k-fold), else by the system's own verdict. With ``ranking``, the order of
    the answers is fitted on the other folds too, before the confidence."""
    ranked = [system(case.query, case.edition) for case in cases]
    if fit is None or folds < 2:
        return [
            Outcome(c, r.ids, r.confident, r.covers) for c, r in zip(cases, ranked, strict=True)
        ]
    fold = [fold_of(c, folds, draw) for c in cases]
    held_out: list[Ranked | None] = [None] * len(cases)
    verdict = [False] * len(cases)
    try:
        for held in range(folds):
            train = [i for i in range(len(cases)) if fold[i] != held]
            answers = ranked
            if ranking is not None:
                if ranking.use_confidence is not None:
                    ranking.use_confidence(None)  # each fold starts from the shipped verdict
                ranking.use(
                    ranking.fit(
                        candidate_groups([cases[i] for i in train], [ranked[i] for i in train])
                    )
                )
                answers = [system(case.query, case.edition) for case in cases]
                if ranking.fit_confidence is not None and ranking.use_confidence is not None:
                    ranking.use_confidence(
                        ranking.fit_confidence(
                            [answers[i].features for i in train],
                            [answers[i].right(cases[i].expect) for i in train],
                            [cases[i].negative for i in train],
                            [group_of(cases[i]) for i in train],
                        )
                    )
                    answers = [system(case.query, case.edition) for case in cases]
            model = fit(
                [answers[i].features for i in train],
                [answers[i].right(cases[i].expect) for i in train],
                [cases[i].negative for i in train],
                [group_of(cases[i]) for i in train],
            )
            for i in range(len(cases)):
                if fold[i] == held:
                    held_out[i] = answers[i]
                    verdict[i] = bool(answers[i].ids) and model(answers[i].features)
    finally:
        if ranking is not None:
            ranking.use(None)
            if ranking.use_confidence is not None:
                ranking.use_confidence(None)
    return [
        Outcome(c, r.ids, v, r.covers)
        for c, r, v in zip(cases, held_out, verdict, strict=True)
        if r is not None
    ]


@dataclass
class Figures:
    cases: int = 0
    positives: int = 0
    negatives: int = 0
    top1: int = 0
    top5: int = 0
    confident: int = 0
    confident_right: int = 0
    answered: int = 0  # positives answered confidently
    negatives_unconfident: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        case = outcome.case
        self.cases += 1
        if outcome.confident:
            self.confident += 1
            if outcome.right:
                self.confident_right += 1
        if case.negative:
            self.negatives += 1
            if not outcome.confident:
                self.negatives_unconfident += 1
            else:
                self.failures.append(_failure(outcome, "negative answered confidently"))
            return
        self.positives += 1
        self.top1 += outcome.right
        self.top5 += outcome.in_top5
        self.answered += outcome.confident
        if outcome.confident and not outcome.right:
            self.failures.append(_failure(outcome, "confident and wrong"))
        elif not outcome.right:
            self.failures.append(_failure(outcome, "wrong first"))
        elif not outcome.confident:
            self.failures.append(_failure(outcome, "right but not confident"))

    def as_dict(self) -> dict[str, Any]:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "cases": self.cases,
            "positives": self.positives,
            "negatives": self.negatives,
            "top1": share(self.top1, self.positives),
            "top5": share(self.top5, self.positives),
            "confident_precision": share(self.confident_right, self.confident),
            "coverage": share(self.answered, self.positives),
            "negatives_unconfident": share(self.negatives_unconfident, self.negatives),
            "failures": self.failures,
        }


def _failure(outcome: Outcome, why: str) -> dict[str, Any]:
    return {
        "query": outcome.case.query,
        "edition": outcome.case.edition,
        "why": why,
        "got": outcome.ids[:3],
        "want": list(outcome.case.expect),
    }


CONFIDENT_WRONG = ("confident and wrong", "negative answered confidently")


def summarise(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Figures for the whole table, for the real cases, and per category; and every
    confident answer that was wrong (the costly mistake), listed whole."""
    overall, real = Figures(), Figures()
    per: dict[str, Figures] = {}
    for outcome in outcomes:
        overall.add(outcome)
        if outcome.case.source:
            real.add(outcome)
        per.setdefault(outcome.case.category, Figures()).add(outcome)
    report = {
        "overall": overall.as_dict(),
        "real": real.as_dict(),
        "categories": {name: per[name].as_dict() for name in sorted(per)},
    }
    report["confident_wrong"] = confident_wrong(report)
    return report


def confident_wrong(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The overall failures that were confident: a wrong answer or a negative answered."""
    return [f for f in report["overall"]["failures"] if f["why"] in CONFIDENT_WRONG]


FIGURES = ("top1", "top5", "confident_precision", "coverage", "negatives_unconfident")


def average(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Reports of several deals (see :func:`fold_of`) as one: each figure the mean of the
    deals that have it, each failure listed once with the number of deals it failed in."""

    def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
        out = dict(parts[0])
        for name in FIGURES:
            values = [p[name] for p in parts if p[name] is not None]
            out[name] = round(sum(values) / len(values), 4) if values else None
        failed: dict[tuple, dict[str, Any]] = {}
        for part in parts:
            for failure in part["failures"]:
                key = (failure["query"], failure["edition"], failure["why"])
                failed.setdefault(key, {**failure, "deals": 0})["deals"] += 1
        out["failures"] = sorted(failed.values(), key=lambda f: -f["deals"])
        return out

    merged = {
        "overall": merge([r["overall"] for r in reports]),
        "real": merge([r["real"] for r in reports]),
        "categories": {
            name: merge([r["categories"][name] for r in reports])
            for name in reports[0]["categories"]
        },
    }
    merged["confident_wrong"] = confident_wrong(merged)
    merged["deals"] = [{name: r["overall"][name] for name in FIGURES} for r in reports]
    return merged

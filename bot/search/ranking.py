"""The order of the answers, fitted on the labelled table.

Each candidate topic of a search has signals: how its name matched (and how much of the
question that name explains), how well its best passage answers the question, whether that
passage is a worked example, which edition the question's words lean to. A logistic model
over those signals gives each candidate the probability that it answers the question, and
the candidates are ranked by it. Fitting is plain Python (the same ridge-regularised Newton
fit as the confidence decision), deterministic, on the candidates of every labelled case
(right: the candidate is one of the case's answers); the result is the small reviewable
file ``ranking.json`` beside this module (``rulings eval --write-params`` rewrites it).

Without that file the hand-set combination in :mod:`bot.search.index` ranks alone.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.search import params
from bot.search.confidence import fit_logistic, sigmoid

PARAMS_FILE = Path(__file__).with_name("ranking.json")
CANDIDATES = 30  # the candidates a case contributes to the fit, best by the prior first

SIGNALS = (
    "bias",
    "prior",  # the hand-set combined score (names, passage bonus, edition lean), 0..1
    "name",  # the name match alone, 0..1 (0: found by a passage only)
    "exact",  # one of its names is the whole query (a misspelt whole name: by its likeness)
    "cover",  # share of the query's content words its matched name holds
    "whole",  # share of the matched name's words present in the query
    "both",  # cover x whole: the name is the query, typos aside
    "support",  # share of the query's weight its best passage explains, 0..1
    "support_rel",  # that share over the best share of any candidate
    "support_long",  # support x log(content words): a long question leans on passages
    "name_long",  # name x log(content words): ... and less on a name it contains
    "edition_fit",  # the question's lean toward its edition, -1..1
    "example",  # its best passage is a worked example, not the rule
    "via_alias",
    "via_card",
    "via_initialism",
    "via_mention",
    "via_typo",  # a partial or misspelt name
    "quoted",  # the query puts a phrase in quotes and it holds them all
    "unquoted",  # the share of the query's quoted phrases it does not hold
    "mention_name",  # the name that matched (wholly or partly) is one its text mentions
)


def signals(
    *,
    prior: float,
    name: float,
    exact: float,
    cover: float,
    whole: float,
    support: float,
    best_support: float,
    content_words: int,
    edition_fit: float,
    example: bool,
    via: str,
    quoted: bool = False,
    unquoted: float = 0.0,
    mention: bool = False,
) -> list[float]:
    """One candidate's signals, in the order of :data:`SIGNALS`."""
    length = math.log1p(content_words)
    return [
        1.0,
        prior,
        name,
        float(exact),
        cover,
        whole,
        cover * whole,
        support,
        support / best_support if best_support > 0 else 0.0,
        support * length,
        name * length,
        edition_fit,
        float(example),
        float(via == "alias"),
        float(via == "card name"),
        float(via == "initialism"),
        float(via == "mentioned"),
        float(via == "typo"),
        float(quoted and not unquoted),
        unquoted,
        float(mention),
    ]


@dataclass(frozen=True)
class Ranker:
    weights: tuple[float, ...]

    def probability(self, values: Sequence[float]) -> float:
        return sigmoid(sum(w * x for w, x in zip(self.weights, values, strict=True)))

    def to_json(self) -> dict:
        return {"signals": dict(zip(SIGNALS, (round(w, 6) for w in self.weights), strict=True))}

    @classmethod
    def from_json(cls, data: dict) -> Ranker:
        weights = data["signals"]
        return cls(tuple(float(weights.get(name, 0.0)) for name in SIGNALS))


def fit(groups: Sequence[Sequence[tuple[list[float], bool]]]) -> Ranker:
    """A ranker fitted on each case's candidates (signals, is it an answer)."""
    rows: list[list[float]] = []
    labels: list[bool] = []
    for group in groups:
        for values, right in group[:CANDIDATES]:
            rows.append(list(values))
            labels.append(right)
    if not rows or not any(labels):
        raise ValueError("no labelled candidates to fit a ranking on")
    return Ranker(tuple(fit_logistic(rows, labels)))


def load(path: Path = PARAMS_FILE) -> Ranker | None:
    return params.read(path, Ranker.from_json, "ranking by the fixed rule")


@functools.cache
def load_shipped() -> Ranker:
    """The shipped parameters, read once per process; an error, never a fallback, if missing."""
    return params.required(PARAMS_FILE, Ranker.from_json)


def save(model: Ranker, path: Path = PARAMS_FILE) -> None:
    params.write(model.to_json(), path)

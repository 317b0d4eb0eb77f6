"""The confident / not-confident decision, fitted on the labelled table.

A few facts about a search's top answer, each with a meaning and the sign its weight must
have (:data:`INPUTS`), go through a logistic model: the ranking's own log-odds that the
answer is right and its lead over the next one, whether the query is one of its names, and
the signs of a guess (found by its text alone, through a partial or misspelt name, a name
its text only mentions, a question told in sentences, a heading asking of what the answer
never says). The fit keeps each weight on its expected side (a weight that would cross it is
held at 0). The answer is confident when the model's probability reaches a threshold chosen
on folds of the training cases that keep each source page together: the lowest at which,
held out, confident answers were right :data:`TARGET_PRECISION` of the time and at most
:data:`NEGATIVE_SHARE` of the questions no document answers were confident. A few vetoes,
each shown on those folds to keep wrong answers out (see docs/search.md), are never
confident whatever the model says. Plain Python, deterministic; the result is the small
reviewable file ``confidence.json`` beside this module (``rulings eval --write-params``).
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.search import params

PARAMS_FILE = Path(__file__).with_name("confidence.json")
# Held out on folds of the training cases: confident answers right at least this often, and
# at most this share of the questions no document answers confident (the targets).
TARGET_PRECISION = 0.98
NEGATIVE_SHARE = 0.01
INNER_FOLDS = 5  # the folds, grouped by source page, the threshold is chosen on
RIDGE = 0.5
ITERATIONS = 30
# How much more a training answer that is not right (a wrong answer, or any answer to a
# question no document answers) weighs in the fit than a right one: the confident wrong
# answer is the costly mistake. Chosen among 1-8 on the grouped folds (docs/search.md).
WRONG_WEIGHT = 3.0

# What the verdict (bot.search.verdict) observes about the top answer, one row. Only the
# :data:`INPUTS` weigh in the model and only the :data:`VETOES` decide alone; the answers
# read ``name_cover`` and ``name_whole``; the rest are observations the model no longer
# weighs (kept for the answers and tests that describe a query; see docs/search.md).
FEATURES = (
    "bias",
    "score",  # the top answer's score, 0..1
    "gap",  # its lead over the next answer of the same edition
    "exact",  # the whole query is one of its names
    "via_title",
    "via_alias",
    "via_card",
    "via_initialism",
    "via_mention",
    "via_typo",
    "via_fulltext",
    "query_words",  # content words in the query, log-scaled
    "name_cover",  # share of the query's content words found in the matched name
    "rivals",  # other answers within 0.02 of it (same edition), log-scaled
    "other_edition",  # how close the other edition's best comes, 1 tied (no edition given)
    "title_only",  # its text is missing: only a title is known
    "support",  # the share of the query's weight its best passage explains
    "support_gap",  # that share minus the best of the next answers'
    "edition_fit",  # 1 if its edition was asked for, else how the words lean to it (-1..1)
    "name_whole",  # share of the matched name's words present in the query (title + extras)
    "logit",  # the top score's log-odds (the fitted ranking's probability), clipped to +-6
    # its log-odds lead over the next answer of the same edition (0..8), times how much of
    # the query it explains: a lead no other answer contests says little when the answer
    # explains a word or two of a long question ("Will DS9 and Voyager be separate ...")
    "explained_margin",
    "share",  # its share of the odds of every answer found (softmax of the log-odds), 0..1
    "unquoted",  # the share of the query's quoted phrases it does not hold
    "mention_name",  # the name that matched (wholly or partly) is one its text mentions
    "inside_card",  # the name that matched is part of a longer card name the query holds
    "two_titles",  # the query holds another answer's whole title too, apart from that name
    # the whole sentences the query is written in, log-scaled (0 for a bare lookup): a
    # situation told in several sentences is rarely settled by one ruling's text
    "sentences",
    # a lookup ending in the answer's name with a word before it that narrows the name in a
    # way the answer never says ("Other Order Actions": the actions rule has no "order
    # actions"): the lookup is about a kind of the thing the answer is about
    "unheld_modifier",
    # a heading in parts that names the answer in one and asks in another of words the
    # answer never holds ("The Seed Phase - Facilities": the seed phase rule has no facility)
    "unheld_aside",
    # the answer is a card found only because its text prints the lookup ("Tribble Side
    # Deck": Storage Compartment Door opens that side deck), not by its name: a lead
    "printed_only",
    # the query ends in the last word of the answer's name without its other words: another
    # kind of that thing ("Card Play Phase" is no seed phase); or asks of "cards" beside a
    # card's name, a kind of card named after it ("Captain Proton cards")
    "other_kind",
    # a lookup that names an answer whose text is one named section of its entry (the rest
    # not bundled) with words of its own that are not that section's: it asks of another
    # section ("Borg Personnel": the bundled Borg entry is its new "Objectives" subsection)
    "other_section",
    # a question that joins the answer's name to something it names only by a pronoun ("How
    # does this work with Data's Body?"): it follows on from what came before, and asks how
    # the two meet, which the named answer alone does not settle
    "unnamed_party",
    "margin",  # the top answer's log-odds lead over the next of its edition (0..8)
)


def feature_row(**values: float) -> list[float]:
    """One answer's features in :data:`FEATURES` order, given by name: the bias is 1, any
    feature left out 0. The search and the card answer both build their rows here."""
    unknown = set(values) - set(FEATURES)
    if unknown:
        raise ValueError(f"not confidence features: {sorted(unknown)}")
    return [1.0] + [float(values.get(name, 0.0)) for name in FEATURES[1:]]


# The model's inputs, with the sign each weight must have: +1 the more of it, the likelier
# the answer is right; -1 the less likely; 0 no sign is known in advance. The rest of a
# feature row is observed for the answers and the vetoes, and weighs nothing.
INPUTS = {
    "bias": 0,
    "logit": +1,  # the ranking's log-odds that the top answer is right
    "margin": +1,  # its log-odds lead over the next answer of its edition
    "exact": +1,  # the query is one of its names (a misspelt whole name: by its likeness)
    "via_fulltext": -1,  # found by its text alone, no name of it typed
    "via_typo": -1,  # found through a partial or misspelt name
    "mention_name": -1,  # the name matched is one its text merely mentions
    "sentences": -1,  # a situation told in sentences: rarely settled by one ruling
    "unheld_aside": -1,  # a heading asks in a part of its own of what the answer never says
    # a card found by its name: its "logit" is the name's likeness, not the ranking's
    # probability, so it needs an offset of its own, of no known sign
    "via_card": 0,
}
INPUT_SIGNS = tuple(INPUTS.get(name) for name in FEATURES)  # None: not an input

NAME_WHOLE = FEATURES.index("name_whole")
UNQUOTED = FEATURES.index("unquoted")
INSIDE_CARD = FEATURES.index("inside_card")
TWO_TITLES = FEATURES.index("two_titles")
OTHER_KIND = FEATURES.index("other_kind")
UNNAMED_PARTY = FEATURES.index("unnamed_party")
# Never confident, whatever the model: the first three kept because, on the grouped folds,
# leaving them to the model made the held-out figures worse; ``inside_card`` is the
# answers' own rule (bot.answers), mirrored so that eval judges as they answer;
# ``unnamed_party`` never fires on the training pages and holds on the frozen split, the
# issue's test for a veto (see docs/search.md).
VETOES = (UNQUOTED, INSIDE_CARD, TWO_TITLES, OTHER_KIND, UNNAMED_PARTY)


def vetoed(features: Sequence[float]) -> bool:
    """Never confident, whatever the model: the user quoted words and the answer holds none
    of them together; the answer is a rules word inside a card's name the user typed
    ("Borg Ship" is not the Borg); the query names two rulings by their whole titles; or
    the query names another kind of the thing the answer's name is about ("Card Play
    Phase" is not the seed phase); or a question joins the answer's name to something it
    names only by a pronoun ("How does this work with Data's Body?": a thread's follow-up,
    whose "this" is the rule discussed before)."""
    return any(features[veto] >= 1.0 for veto in VETOES)


def lean_toward(answer_edition: str, lean: float) -> float:
    """The query's lean toward an answer's edition (the lean is toward +1 for 1E, -1 for
    2E)."""
    return lean if answer_edition == "1E" else -lean


def edition_fit(answer_edition: str, asked: str | None, lean: float) -> float:
    """How well an answer's edition fits the query: wholly (1) when that edition was asked
    for, else the query's lean toward it."""
    return 1.0 if asked else lean_toward(answer_edition, lean)


def logit(p: float) -> float:
    p = min(max(p, 0.0025), 0.9975)
    return math.log(p / (1 - p))


def share(scores: Sequence[float]) -> float:
    """The first score's share of all the scores' odds (each score a probability)."""
    if not scores:
        return 0.0
    odds = [math.exp(logit(s)) for s in scores]
    return odds[0] / sum(odds)


def margin(top: float, second: float) -> float:
    """How far the top score's log-odds lead the next one's (0 when tied)."""
    return min(8.0, max(0.0, logit(top) - logit(second)))


def explained_margin(top: float, second: float, explained: float) -> float:
    """:func:`margin` times the share of the query the answer explains (0..1)."""
    return margin(top, second) * explained


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    z = math.exp(x)
    return z / (1 + z)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and well conditioned
    by the ridge)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(a[r][r]) < 1e-12:
            continue
        out[r] = (a[r][n] - sum(a[r][c] * out[c] for c in range(r + 1, n))) / a[r][r]
    return out


def fit_logistic(
    rows: Sequence[Sequence[float]],
    labels: Sequence[bool],
    weights: Sequence[float] | None = None,
) -> list[float]:
    """Ridge-regularised logistic regression by Newton's method; deterministic. ``weights``:
    each row's weight in the fit (1 each when not given)."""
    n = len(rows[0]) if rows else len(FEATURES)
    w = [0.0] * n
    # Each row's non-zero features, in order: most features of an answer are 0, and the sums
    # below skip them (adding a zero changes no sum), so the fit is the same number for
    # number, several times faster.
    sparse = [[(j, xj) for j, xj in enumerate(x) if xj] for x in rows]
    weighed = weights if weights is not None else [1.0] * len(rows)
    for _ in range(ITERATIONS):
        grad = [RIDGE * w[j] if j else 0.0 for j in range(n)]
        hess = [[0.0] * n for _ in range(n)]
        for j in range(1, n):
            hess[j][j] = RIDGE
        for nonzero, y, c in zip(sparse, labels, weighed, strict=True):
            p = sigmoid(sum(w[j] * xj for j, xj in nonzero))
            d = c * (p - (1.0 if y else 0.0))
            v = c * p * (1 - p)
            for j, xj in nonzero:
                grad[j] += d * xj
                xv = xj * v
                row = hess[j]
                for k, xk in nonzero:
                    row[k] += xv * xk
        hess[0][0] += 1e-6
        step = _solve(hess, grad)
        w = [wj - sj for wj, sj in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return w


def fit_signed(
    rows: Sequence[Sequence[float]], labels: Sequence[bool], weights: Sequence[float]
) -> list[float]:
    """:func:`fit_logistic` on the model's inputs, each weight on the side :data:`INPUTS`
    says: while a fitted weight crosses it, the one furthest across is held at 0 and the
    rest refitted (an active set; deterministic). Weights of the other features are 0."""
    held: set[int] = set()
    while True:
        used = [j for j, sign in enumerate(INPUT_SIGNS) if sign is not None and j not in held]
        fitted = fit_logistic([[row[j] for j in used] for row in rows], labels, weights)
        out = [0.0] * len(FEATURES)
        for j, w in zip(used, fitted, strict=True):
            out[j] = w
        crossed = [(-out[j] * INPUT_SIGNS[j], j) for j in used if out[j] * INPUT_SIGNS[j] < 0]
        if not crossed:
            return out
        held.add(max(crossed)[1])


def _inner_fold(group: str) -> int:
    return int.from_bytes(hashlib.sha256(f"inner\0{group}".encode()).digest()[:4], "big")


def held_out_probabilities(
    rows: Sequence[Sequence[float]], labels: Sequence[bool], groups: Sequence[str]
) -> list[float]:
    """Each row's probability by a model fitted without its fold (:data:`INNER_FOLDS`
    folds, a group's rows in one fold: the cases of a page are held out together)."""
    fold = [_inner_fold(g) % INNER_FOLDS for g in groups]
    out = [0.0] * len(rows)
    for held in range(INNER_FOLDS):
        train = [i for i in range(len(rows)) if fold[i] != held]
        if not any(fold[i] == held for i in range(len(rows))):
            continue
        w = fit_signed(
            [rows[i] for i in train],
            [labels[i] for i in train],
            [1.0 if labels[i] else WRONG_WEIGHT for i in train],
        )
        model = Confidence(tuple(w), 1.0)
        for i in range(len(rows)):
            if fold[i] == held:
                out[i] = model.probability(rows[i])
    return out


def choose_threshold(
    probabilities: Sequence[float],
    labels: Sequence[bool],
    negative: Sequence[bool] = (),
    negatives: int | None = None,
    target: float = TARGET_PRECISION,
    negative_share: float = NEGATIVE_SHARE,
) -> float:
    """The lowest probability at which the answers at or above it were right ``target`` of
    the time and held at most ``negative_share`` of the ``negatives`` questions no document
    answers (``negative`` marks them; by default, all there are), never below even odds.
    1.0 when none is."""
    marks = list(negative) or [False] * len(labels)
    total = max(1, negatives if negatives is not None else sum(marks))
    pairs = sorted(zip(probabilities, labels, marks, strict=True), reverse=True)
    best = 1.0
    right = unanswerable = 0
    for count, (p, y, n) in enumerate(pairs, start=1):
        right += y
        unanswerable += n
        if count < len(pairs) and pairs[count][0] == p:
            continue  # a threshold cannot split equal probabilities
        if right / count >= target and unanswerable / total <= negative_share:
            best = p
    return max(best, 0.5)


@dataclass(frozen=True)
class Confidence:
    weights: tuple[float, ...]
    threshold: float

    def probability(self, features: Sequence[float]) -> float:
        return sigmoid(sum(w * x for w, x in zip(self.weights, features, strict=True)))

    def confident(self, features: Sequence[float]) -> bool:
        if vetoed(features):
            return False
        return self.probability(features) >= self.threshold

    def to_json(self) -> dict:
        return {
            "inputs": {
                name: round(w, 6)
                for name, w in zip(FEATURES, self.weights, strict=True)
                if name in INPUTS
            },
            "threshold": round(self.threshold, 6),
            "target_precision": TARGET_PRECISION,
            "negative_share": NEGATIVE_SHARE,
        }

    @classmethod
    def from_json(cls, data: dict) -> Confidence:
        weights = data["inputs"]
        return cls(tuple(float(weights.get(name, 0.0)) for name in FEATURES), data["threshold"])


def fit(
    rows: Sequence[Sequence[float]],
    labels: Sequence[bool],
    negative: Sequence[bool] = (),
    groups: Sequence[str] = (),
) -> Confidence:
    """The model fitted on the answers the vetoes leave to it (it never decides the
    others), its threshold chosen on their held-out probabilities (see
    :func:`held_out_probabilities`); ``groups``: each row's source page (by default each
    row its own), ``negative``: the rows of questions no document answers."""
    marks = list(negative) or [False] * len(rows)
    pages = list(groups) or [str(i) for i in range(len(rows))]
    kept = [i for i, row in enumerate(rows) if not vetoed(row)]
    left = [rows[i] for i in kept]
    right = [labels[i] for i in kept]
    weights = fit_signed(left, right, [1.0 if y else WRONG_WEIGHT for y in right])
    held_out = held_out_probabilities(left, right, [pages[i] for i in kept])
    threshold = choose_threshold(held_out, right, [marks[i] for i in kept], sum(marks))
    return Confidence(tuple(weights), threshold)


def fit_confidence(
    rows: list[list[float]],
    labels: list[bool],
    negative: Sequence[bool] = (),
    groups: Sequence[str] = (),
) -> Callable[[list[float]], bool]:
    """The k-fold hook of :func:`bot.search.evaluate.run`."""
    return fit(rows, labels, negative, groups).confident


def load(path: Path = PARAMS_FILE) -> Confidence | None:
    return params.read(path, Confidence.from_json, "confidence by the fixed rule")


@functools.cache
def load_shipped() -> Confidence:
    """The shipped parameters, read once per process; an error, never a fallback, if missing."""
    return params.required(PARAMS_FILE, Confidence.from_json)


def save(model: Confidence, path: Path = PARAMS_FILE) -> None:
    params.write(model.to_json(), path)

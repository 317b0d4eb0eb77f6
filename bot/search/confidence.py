"""The confident / not-confident decision, fitted on the labelled table.

The features of a search's top answer (how it matched, its score and its lead over the
next one, how much of the query it explains, ...) go through a logistic model; the answer
is confident when the model's probability reaches a threshold chosen on the training cases
so that confident answers were right at least ``TARGET_PRECISION`` of the time (all of it:
no wrong training answer above the line), and a margin above every training question no
document answers. The fit is plain Python (Newton's method with a small ridge),
deterministic, and its result is the small reviewable file ``confidence.json`` beside this
module (``rulings eval --write-params`` rewrites it from the whole table).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.search import params

PARAMS_FILE = Path(__file__).with_name("confidence.json")
# No wrong training answer above the line. 99.7 % allowed one wrong answer once some 330
# were confident: the shipped fit (on every case) reached that, the k-fold fits (on four
# fifths) did not, so the shipped threshold sat lower than any the figures were measured
# with. Held out, confident answers must stay right >= 98 % of the time.
TARGET_PRECISION = 1.0
# Log-odds the threshold keeps above the most likely training question no document answers:
# held out, the hardest such question lies a little above the hardest the fit has seen, and
# answering one of those confidently is the worst answer there is.
NEGATIVE_MARGIN = 0.15
RIDGE = 0.5
ITERATIONS = 30
# How much more a training answer that is not right (a wrong answer, or any answer to a
# question no document answers) weighs in the fit than a right one: the confident wrong
# answer is the costly mistake, and the weight bends the model to set those answers apart
# rather than to rank the easy right ones. Chosen among 3-10 on the table's deals 0-7 held
# out; fresh deals 8-15 gained as much (see tests/search/MEASUREMENTS.md).
WRONG_WEIGHT = 5.0

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
)


def feature_row(**values: float) -> list[float]:
    """One answer's features in :data:`FEATURES` order, given by name: the bias is 1, any
    feature left out 0. The search and the card answer both build their rows here."""
    unknown = set(values) - set(FEATURES)
    if unknown:
        raise ValueError(f"not confidence features: {sorted(unknown)}")
    return [1.0] + [float(values.get(name, 0.0)) for name in FEATURES[1:]]


NAME_WHOLE = FEATURES.index("name_whole")
UNQUOTED = FEATURES.index("unquoted")
INSIDE_CARD = FEATURES.index("inside_card")
TWO_TITLES = FEATURES.index("two_titles")
UNHELD_ASIDE = FEATURES.index("unheld_aside")
PRINTED_ONLY = FEATURES.index("printed_only")
OTHER_KIND = FEATURES.index("other_kind")
OTHER_SECTION = FEATURES.index("other_section")
UNNAMED_PARTY = FEATURES.index("unnamed_party")
VETOES = (
    UNQUOTED,
    INSIDE_CARD,
    TWO_TITLES,
    UNHELD_ASIDE,
    PRINTED_ONLY,
    OTHER_KIND,
    OTHER_SECTION,
    UNNAMED_PARTY,
)


def vetoed(features: Sequence[float]) -> bool:
    """Never confident, whatever the model: the user quoted words and the answer holds none
    of them together; the answer is a rules word inside a card's name the user typed
    ("Borg Ship" is not the Borg); the query names two rulings by their whole titles; or
    a heading names the answer in one part and asks in another of words it never holds
    ("The Seed Phase - Facilities": the seed phase rule says nothing of facilities); the
    answer is a card that only prints the lookup in its text (a lead worth showing first,
    not a ruling the bot can vouch for); or the query names another kind of the thing the
    answer's name is about ("Card Play Phase" is not the seed phase); or the answer's text
    is one section of its entry and the lookup asks of another ("Borg Personnel": the
    bundled Borg entry is only its "Objectives"); or the question joins the answer to something
    it names only by a pronoun ("How does this work with Data's Body?")."""
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
    # below skip them as before, so the fit is the same number for number, three times faster.
    sparse = [[(j, xj) for j, xj in enumerate(x) if xj] for x in rows]
    weighed = weights if weights is not None else [1.0] * len(rows)
    for _ in range(ITERATIONS):
        grad = [RIDGE * w[j] if j else 0.0 for j in range(n)]
        hess = [[0.0] * n for _ in range(n)]
        for j in range(1, n):
            hess[j][j] = RIDGE
        for x, nonzero, y, c in zip(rows, sparse, labels, weighed, strict=True):
            p = sigmoid(sum(wj * xj for wj, xj in zip(w, x, strict=True)))
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


def choose_threshold(
    probabilities: Sequence[float], labels: Sequence[bool], target: float = TARGET_PRECISION
) -> float:
    """The lowest probability above which the training answers were right ``target`` of the
    time (never below 0.5)."""
    pairs = sorted(zip(probabilities, labels, strict=True), reverse=True)
    best = 1.0
    right = 0
    for count, (p, y) in enumerate(pairs, start=1):
        right += y
        nxt = pairs[count][0] if count < len(pairs) else -1.0
        if nxt == p:
            continue  # a threshold cannot split equal probabilities
        if right / count >= target:
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
            "features": dict(zip(FEATURES, (round(w, 6) for w in self.weights), strict=True)),
            "threshold": round(self.threshold, 6),
            "target_precision": TARGET_PRECISION,
        }

    @classmethod
    def from_json(cls, data: dict) -> Confidence:
        weights = data["features"]
        return cls(tuple(float(weights.get(name, 0.0)) for name in FEATURES), data["threshold"])


def threshold_for(
    weights: Sequence[float],
    rows: Sequence[Sequence[float]],
    labels: Sequence[bool],
    negative: Sequence[bool] = (),
) -> float:
    """The threshold for these weights (see :func:`choose_threshold`), chosen on the answers
    the vetoes leave to the model: those they keep unconfident do not count. ``negative``
    marks the rows of questions no document answers: the threshold stays
    :data:`NEGATIVE_MARGIN` log-odds above the likeliest of them."""
    model = Confidence(tuple(weights), 1.0)
    marks = list(negative) or [False] * len(rows)
    kept = [
        (model.probability(r), y, n)
        for r, y, n in zip(rows, labels, marks, strict=True)
        if not vetoed(r)
    ]
    threshold = choose_threshold([p for p, _, _ in kept], [y for _, y, _ in kept])
    unanswerable = [p for p, _, n in kept if n]
    if unanswerable:
        # Not logit(): its clip at 0.9975 would draw the line below a likelier negative.
        top = min(max(max(unanswerable), 1e-9), 1 - 1e-9)
        threshold = max(threshold, sigmoid(math.log(top / (1 - top)) + NEGATIVE_MARGIN))
    return threshold


def fit(
    rows: Sequence[Sequence[float]], labels: Sequence[bool], negative: Sequence[bool] = ()
) -> Confidence:
    # Fitted on the answers the vetoes leave to the model: it never decides the others.
    kept = [i for i, row in enumerate(rows) if not vetoed(row)]
    weights = fit_logistic(
        [rows[i] for i in kept],
        [labels[i] for i in kept],
        [1.0 if labels[i] else WRONG_WEIGHT for i in kept],
    )
    return Confidence(tuple(weights), threshold_for(weights, rows, labels, negative))


def fit_confidence(
    rows: list[list[float]], labels: list[bool], negative: Sequence[bool] = ()
) -> Callable[[list[float]], bool]:
    """The k-fold hook of :func:`bot.search.evaluate.run`."""
    return fit(rows, labels, negative).confident


def load(path: Path = PARAMS_FILE) -> Confidence | None:
    return params.read(path, Confidence.from_json, "confidence by the fixed rule")


@functools.cache
def load_shipped() -> Confidence:
    """The shipped parameters, read once per process; an error, never a fallback, if missing."""
    return params.required(PARAMS_FILE, Confidence.from_json)


def save(model: Confidence, path: Path = PARAMS_FILE) -> None:
    params.write(model.to_json(), path)

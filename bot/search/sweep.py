"""Sweeps: the search asked what nobody labelled, checked against what must hold.

The labelled table measures real phrasing. A sweep checks one behaviour across all the
bundled names instead: every ruling's title with one typo, card names with one typo, card
names inside short questions. An unconfident answer is always allowed; a confident one must
be what was asked for (for a card: the card, its namesake in the other edition, or a ruling
about it or that mentions it). Seeded, so a figure can be compared across changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.normalize import normalize
from bot.search.evaluate import Ranked
from bot.search.hits import Target

QUESTIONS = (
    "how does {} work",
    "what does {} do?",
    "{} ruling",
    "question about {}",
    "can I play {}?",
    "is {} unique",
    "{} rules",
)
SAMPLE = 400  # cards per card sweep: enough to see a pattern, quick enough to rerun


@dataclass(frozen=True)
class Probe:
    query: str
    edition: str | None
    wants: frozenset[str]  # a confident answer must be (or stand for) one of these ids


def one_typo(text: str, rng: random.Random) -> str | None:
    """``text`` with one letter of its longest word dropped, swapped with the next or
    replaced, as people mistype; None when no word is long enough (5 letters) to tell."""
    words = text.split()
    if not words:
        return None
    at = max(range(len(words)), key=lambda i: len(words[i]))
    word = words[at]
    if len(word) < 5:
        return None
    i = rng.randrange(1, len(word) - 2)
    kind = rng.choice("dsr")
    if kind == "d":
        typed = word[:i] + word[i + 1 :]
    elif kind == "s":
        typed = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    else:
        typed = word[:i] + rng.choice("aeiourstn") + word[i + 1 :]
    if typed.casefold() == word.casefold():
        return None
    return " ".join([*words[:at], typed, *words[at + 1 :]])


def title_probes(targets: Iterable[Target], rng: random.Random) -> list[Probe]:
    """Each ruling's title with one typo, asked with its edition and without."""
    probes = []
    for target in sorted(targets, key=lambda t: t.topic):
        typed = one_typo(target.title, rng)
        if typed:
            for edition in (target.edition, None):
                probes.append(Probe(typed, edition, frozenset({target.topic})))
    return probes


def card_probes(
    cards: Sequence[Target],
    about: dict[str, set[str]],
    rng: random.Random,
    in_question: bool = False,
    sample: int = SAMPLE,
) -> list[Probe]:
    """A sample of cards by name: with one typo, or typed right inside a short question.
    ``about``: card id -> the rulings about it or that mention it; a card's namesake in the
    other edition, and the rulings about that one, are right answers too."""
    namesakes: dict[str, set[str]] = {}
    for card in cards:
        namesakes.setdefault(normalize(card.title), set()).add(card.topic)
    probes = []
    for card in rng.sample(sorted(cards, key=lambda c: c.topic), min(sample, len(cards))):
        query = (
            rng.choice(QUESTIONS).format(card.title) if in_question else one_typo(card.title, rng)
        )
        if not query:
            continue
        same_name = namesakes[normalize(card.title)]
        wants = set(same_name).union(*(about.get(c, set()) for c in same_name))
        probes.append(Probe(query, rng.choice((card.edition, None)), frozenset(wants)))
    return probes


def sweep(probes: Sequence[Probe], ask: Callable[[str, str | None], Ranked]) -> dict:
    """How many probes were answered confidently, and those answered confidently with
    something not asked for."""
    confident = 0
    wrong = []
    for probe in probes:
        answer = ask(probe.query, probe.edition)
        if not answer.confident or not answer.ids:
            continue
        confident += 1
        top = answer.ids[0]
        if top not in probe.wants and not probe.wants & answer.covers.get(top, set()):
            wrong.append({"query": probe.query, "edition": probe.edition, "got": answer.ids[:2]})
    return {"probes": len(probes), "confident": confident, "wrong": wrong}

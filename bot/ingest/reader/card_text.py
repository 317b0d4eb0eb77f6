"""Which card a page's printed game text belongs to, for a card page whose copy lost the
card's name (openCards' pages copied from below their title: the lore, the card's type and
its game text, then its rulings).

The shipped card lists hold every card's game text. A line of the page that reads as one
card's text, clearly closer to it than to any other card's, names the card; where a few
cards' texts are about as close (personnel with the same skills), the one the page names
elsewhere is taken, and none if the page names none or several. The reader never imports
an entry so named without a moderator's word: each carries a doubt (see ``card_page``).
"""

from __future__ import annotations

import functools
from pathlib import Path

from rapidfuzz import fuzz, process

from bot.ingest.cards import CardListError, load_card_index
from bot.ingest.dataset import default_data_dir
from bot.normalize import normalize

_FIRST_LINES = 20  # the card's part of the page: lore, type, game text, characteristics
_LINE_WORDS = 5  # fewer words match too many cards' texts ("Skills: Music")
_CARD_WORDS = 4
_LINE_CHARS = 1_500  # a game text is shorter; a longer line is the page's prose
_CLOSE = 60  # a line this close to a card's text is about that card (ratio, 0-100)
_SURE = 65  # the best card, this close and …
_MARGIN = 10  # … this much closer than any other card, is the page's card


@functools.lru_cache(maxsize=2)
def _texts(data_dir: str) -> tuple[list[str], list[str]]:
    """(each distinct card text's comparison key, the titles printing it joined by a tab)."""
    titles: dict[str, set[str]] = {}
    for path in sorted((Path(data_dir) / "cards").glob("*.yaml")):
        try:
            cards = load_card_index(path)
        except (CardListError, OSError):
            continue
        for card in cards:
            text = normalize(card.text or "", fold_plurals=False)
            if len(text.split()) >= _CARD_WORDS:
                titles.setdefault(text, set()).add(card.title)
    keys = sorted(titles)
    return keys, ["\t".join(sorted(titles[k])) for k in keys]


def card_texts() -> tuple[list[str], list[str]]:
    """The shipped cards' texts as :func:`card_by_text` compares them: (each distinct text's
    comparison key, the titles printing it joined by a tab)."""
    return _texts(str(default_data_dir()))


def card_by_text(
    rows: list[tuple[int, str]], page: str, texts: tuple[list[str], list[str]] | None = None
) -> tuple[int, str] | None:
    """(number of the line printing the card's game text, the card's title), from the first
    lines of ``rows`` (up to the page's first ruling), or None where no card is clearly
    the page's. ``page`` is the whole text, where a close call looks for the card's name;
    ``texts`` the cards to compare with (:func:`card_texts`, the shipped ones, by default)."""
    keys, titles = texts or card_texts()
    best: dict[str, tuple[float, int]] = {}
    for number, line in [r for r in rows if r[1].strip()][:_FIRST_LINES]:
        key = normalize(line[:_LINE_CHARS], fold_plurals=False)
        if len(key.split()) < _LINE_WORDS or len(line) > _LINE_CHARS:
            continue
        for _, score, index in process.extract(
            key, keys, scorer=fuzz.ratio, limit=5, score_cutoff=_CLOSE
        ):
            for title in titles[index].split("\t"):
                if score > best.get(title, (0.0, 0))[0]:
                    best[title] = (score, number)
    if not best:
        return None
    ranked = sorted(best.items(), key=lambda item: -item[1][0])
    title, (score, number) = ranked[0]
    runner_up = ranked[1][1][0] if len(ranked) > 1 else 0.0
    if score >= _SURE and score - runner_up >= _MARGIN:
        return number, title
    words = f" {normalize(page[:200_000], fold_plurals=False)} "
    named = [
        (n, t)
        for t, (s, n) in ranked
        if s >= score - _MARGIN and f" {normalize(t, fold_plurals=False)} " in words
    ]
    return named[0] if len(named) == 1 else None

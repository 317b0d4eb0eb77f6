"""Which card a page's printed game text belongs to: for a card page whose copy lost the
card's name (openCards' pages copied from below their title: the lore, the card's type and
its game text, then its rulings), and for a line that only looks like an entry's head
because a card's text prints a keyword over a dash ("Order - Reveal the top four cards …").

The shipped card lists hold every card's game text. A line of the page that reads as one
card's text, clearly closer to it than to any other card's, names the card; where a few
cards' texts are about as close (personnel with the same skills), the one the page names
elsewhere is taken, and none if the page names none or several. The reader never imports
an entry so named without a moderator's word: each carries a doubt (see ``card_page``).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from rapidfuzz import fuzz, process

from bot.ingest.dataset import default_data_dir
from bot.ingest.reader.known import unquote
from bot.normalize import normalize

_FIRST_LINES = 20  # the card's part of the page: lore, type, game text, characteristics
_LINE_WORDS = 5  # fewer words match too many cards' texts ("Skills: Music")
_CARD_WORDS = 4
_LINE_CHARS = 1_500  # a game text is shorter; a longer line is the page's prose
_CLOSE = 60  # a line this close to a card's text is about that card (ratio, 0-100)
_SURE = 65  # the best card, this close and …
_MARGIN = 10  # … this much closer than any other card, is the page's card
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_SENTENCE_WORDS = 6  # a shorter sentence ("Discard event.") many cards print
_SAME = 95  # a sentence this close to one of a card's (ratio) is that card's


# A card list as ``write_card_index`` dumps it, read as text: one card a "- id:" record,
# its fields two spaces in, a long text folded onto lines four spaces in, single-quoted
# where YAML needs it. A pattern over 2 MB costs milliseconds; YAML's parser half a second,
# in the worker process of every upload. ``tests/ingest/test_card_page_reads.py`` checks
# that both read the shipped lists alike.
_RECORD = re.compile(r"^- id: [^\n]*\n((?:  [^\n]*\n?)*)", re.M)
_FIELD = re.compile(r"^  (title|type|text): ([^\n]*(?:\n    [^\n]*)*)", re.M)


def card_records(listing: str) -> list[tuple[str, str, str]]:
    """(title, type, text) of each card of a card list's YAML text."""
    records = []
    for record in _RECORD.finditer(listing):
        fields = {name: _scalar(value) for name, value in _FIELD.findall(record.group(1))}
        records.append((fields.get("title", ""), fields.get("type", ""), fields.get("text", "")))
    return records


def _scalar(value: str) -> str:
    """A YAML plain or single-quoted scalar, its folded lines joined by spaces."""
    return unquote(" ".join(part.strip() for part in value.split("\n")))


@functools.lru_cache(maxsize=2)
def _printed(data_dir: str) -> tuple[tuple[str, str, str], ...]:
    """(the text as printed, title, type) of every shipped card, as the lists hold them."""
    cards: list[tuple[str, str, str]] = []
    for path in sorted((Path(data_dir) / "cards").glob("*.yaml")):
        try:
            cards += card_records(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    return tuple(
        (text.replace("{", "").replace("}", ""), title, kind) for title, kind, text in cards
    )


@functools.lru_cache(maxsize=2)
def _shipped(data_dir: str) -> tuple[tuple[str, str, str, str], ...]:
    """(comparison key of its text, the text as printed, title, type in lower case) of every
    shipped card whose text has enough words to tell it by."""
    shipped = []
    for printed, title, kind in _printed(data_dir):
        key = normalize(printed, fold_plurals=False)
        if len(key.split()) >= _CARD_WORDS:
            shipped.append((key, printed, title, kind.casefold()))
    return tuple(shipped)


@functools.lru_cache(maxsize=2)
def _texts(data_dir: str) -> tuple[list[str], list[str]]:
    """(each distinct card text's comparison key, the titles printing it joined by a tab)."""
    titles: dict[str, set[str]] = {}
    for key, _, title, _ in _shipped(data_dir):
        titles.setdefault(key, set()).add(title)
    keys = sorted(titles)
    return keys, ["\t".join(sorted(titles[k])) for k in keys]


@functools.lru_cache(maxsize=2)
def _sentences(data_dir: str) -> tuple[list[str], list[str]]:
    """(each sentence of six words or more that a card's text holds, as a comparison key;
    the text holding it, as printed). Only the sentences are keyed, not the whole texts:
    the first unknown head of an upload looks here, in a worker of its own, and keying
    every card's whole text as well would double the time it waits."""
    sentences: list[str] = []
    owners: list[str] = []
    for text in dict.fromkeys(printed for printed, _, _ in _printed(data_dir)):
        for sentence in _SENTENCE.split(text):
            key = normalize(sentence, fold_plurals=False)
            if len(key.split()) >= _SENTENCE_WORDS:
                sentences.append(key)
                owners.append(text)
    return sentences, owners


def game_text_of(line: str) -> bool:
    """Whether ``line`` prints a card's game text (its first sentence one of the card's,
    every word of it in the card's text): a line of a card's text on a card's page ("Order
    - Reveal the top four cards …") heads no entry."""
    data_dir = str(default_data_dir())
    first = normalize(_SENTENCE.split(line[:_LINE_CHARS].strip(), 1)[0], fold_plurals=False)
    if len(first.split()) < _SENTENCE_WORDS:
        return False
    sentences, owners = _sentences(data_dir)
    found = process.extractOne(first, sentences, scorer=fuzz.ratio, score_cutoff=_SAME)
    if found is None:
        return False
    held = set(normalize(owners[found[2]], fold_plurals=False).split())
    words = normalize(line[:_LINE_CHARS], fold_plurals=False).split()
    return sum(word in held for word in words) >= 0.9 * len(words)


def prints_text_of(line: str, title: str) -> str | None:
    """The type (in lower case: "artifact", "interrupt/event") of the card ``title`` if
    ``line`` reads as that card's game text (as :func:`card_by_text` would name it), else
    None."""
    key = normalize(line[:_LINE_CHARS], fold_plurals=False)
    if len(key.split()) < _LINE_WORDS:
        return None
    # the title as the one normalisation keys it: a page may print it otherwise
    # ("Samuel Clemen's Pocketwatch")
    for text, kind in _by_title(str(default_data_dir())).get(normalize(title), []):
        if fuzz.ratio(key, text, score_cutoff=_SURE):
            return kind
    return None


@functools.lru_cache(maxsize=2)
def _by_title(data_dir: str) -> dict[str, list[tuple[str, str]]]:
    """For each shipped card's title (as keyed), its texts' keys and its types."""
    found: dict[str, list[tuple[str, str]]] = {}
    for text, _, title, kind in _shipped(data_dir):
        found.setdefault(normalize(title), []).append((text, kind))
    return found


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
        if len(line) > _LINE_CHARS:
            continue  # the page's prose, not a card's text
        key = normalize(line, fold_plurals=False)
        if len(key.split()) < _LINE_WORDS:
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
    words = _words_of(page)
    named = [(n, t) for t, (s, n) in ranked if s >= score - _MARGIN and _names(words, t)]
    return named[0] if len(named) == 1 else None


def _words_of(page: str) -> str:
    return f" {normalize(page[:200_000], fold_plurals=False)} "


def _names(words: str, title: str) -> bool:
    return f" {normalize(title, fold_plurals=False)} " in words


def page_names(page: str, title: str) -> bool:
    """Whether ``page`` prints the card's ``title`` among its words ("in Ops", "Ops Modul")."""
    return _names(_words_of(page), title)

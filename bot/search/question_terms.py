"""What a question's words are as the passage index's terms (:class:`QuestionTerms`): a
word the passages hold as it is; two words typed apart that the passages hold closed up
("red shirts"), or one they hold apart ("spaceline"); a word spelt right that no passage
holds (English, or the card texts') kept, or met as another form of itself
("overridden"); and a typo corrected to the nearest word the passages hold. Which words
are spelt right is read from English (:func:`english_words`) and the card texts
(:func:`known_terms`)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable

from rapidfuzz import fuzz, process

from bot.normalize import lexicon, stem, terms, worded_terms
from bot.once import once

# What a participle adds to the stem of its verb that the stemmer does not take off
# ("overridden": "overrid" + "den").
PARTICIPLE_ENDINGS = frozenset({"n", "en", "den", "d", "ed"})
MAX_QUERY_TERMS = 24


class QuestionTerms:
    """The terms of questions, over the terms the passages hold (``postings``, shared with
    the passage index, which changes it) and the words they hold as spelt."""

    def __init__(self, postings: dict[str, dict[int, int]]):
        self._postings = postings
        self._vocab: list[str] | None = None  # sorted terms, for typos; reset on change
        # word as spelt (before stemming) -> how many passages hold it: a typo is matched to
        # the nearest word, then stemmed (see ``_closest``)
        self._words: dict[str, int] = {}
        self._word_vocab: list[str] | None = None  # its keys sorted; reset on change
        self._query_cache: dict[str, list[str]] = {}  # a question's terms; reset on change
        # Words known to be spelt right though no passage holds them (the card texts' words):
        # such a word may meet an indexed term as another form of itself ("overrides",
        # "overridden") but is never "corrected" into another word ("speed" is not "seed").
        # Asked for only when a question has a word no passage holds, so start-up never
        # pays for it.
        self.known_words: Callable[[], frozenset[str]] = frozenset

    def edited(self, postings: dict[str, dict[int, int]]) -> QuestionTerms:
        """A copy over an edited copy's ``postings``."""
        clone = copy.copy(self)
        clone._postings = postings
        clone._vocab = None
        clone._words = dict(self._words)
        clone._word_vocab = None
        clone._query_cache = {}
        return clone

    def changed(self) -> None:
        """The passages changed: what was worked out from them is out of date."""
        self._vocab = None
        self._word_vocab = None
        self._query_cache = {}

    def count_words(self, words: list[str], step: int) -> None:
        """Count (or, ``step`` -1, uncount) one passage holding these words."""
        for word in set(words):
            count = self._words.get(word, 0) + step
            if count > 0:
                self._words[word] = count
            else:
                self._words.pop(word, None)

    def terms(self, text: str) -> list[str]:
        """A question's terms, with open and closed compounds made to meet the index's:
        "space line" finds "spaceline" and "spaceline" finds "space line"."""
        cached = self._query_cache.get(text)
        if cached is not None:
            return cached
        worded = worded_terms(text)[:MAX_QUERY_TERMS]
        words = [term for _, term in worded]
        joined_at = {i for i in range(len(words) - 1) if words[i] + words[i + 1] in self._postings}
        out: list[str] = []
        for i, (spelt, word) in enumerate(worded):
            if word in self._postings:
                out.append(word)
            elif i in joined_at or i - 1 in joined_at:
                # "red shirts": typed apart, a closed compound the passages hold; a part the
                # passages also hold alone ("mirror universe") stays.
                pass
            elif spelt in english_words() or word in self.known_words():
                # A word spelt right (English, or the card texts'), not a typo: neither
                # "corrected" into another word nor split into two.
                out.extend(self._other_form(word) or [word])
            else:
                out.extend(self._split(word) or self._nearest(word, spelt) or [word])
            if i in joined_at:
                out.append(word + words[i + 1])
        found = list(dict.fromkeys(out))
        if len(self._query_cache) >= 512:
            self._query_cache.clear()
        self._query_cache[text] = found
        return found

    def _nearest(self, word: str, spelt: str = "") -> list[str]:
        """A misspelt term's nearest indexed term ("comand" -> "command"), if close."""
        found = self._closest(word, spelt)
        return [found] if found else []

    def _other_form(self, word: str) -> list[str]:
        """For a term spelt right that no passage holds, the nearest indexed term only when it
        is another form of the same word, one the stemmer leaves apart: a participle
        ("overrides", "overridden"). Any longer word is not: "speed" is not "seed", nor
        "continuum" "continue", "person" "persona", "proper" "property", "miss" "mis-seed"."""
        if word in lexicon().unstemmed:
            return []  # kept apart on purpose: "phased" is not "phase"
        found = self._closest(word)
        if not found:
            return []
        short, long = sorted((word, found), key=len)
        if long.startswith(short) and long[len(short) :] in PARTICIPLE_ENDINGS:
            return [found]
        return []

    def _closest(self, word: str, spelt: str = "") -> str | None:
        """The indexed term nearest ``word`` (a term), or first the stem of the indexed word
        nearest ``spelt`` (the word as typed): "condtional" is "conditional" mistyped."""
        if len(word) < 4 or word.isdigit():
            return None
        if len(spelt) >= 4 and not spelt.isdigit():
            if self._word_vocab is None:
                self._word_vocab = sorted(self._words)
            near = process.extractOne(spelt, self._word_vocab, scorer=fuzz.ratio, score_cutoff=80)
            if near and stem(near[0]) in self._postings:
                return stem(near[0])
        if self._vocab is None:
            self._vocab = sorted(self._postings)
        found = process.extractOne(word, self._vocab, scorer=fuzz.ratio, score_cutoff=80)
        return found[0] if found else None

    def _split(self, word: str) -> list[str]:
        for cut in range(3, len(word) - 2):
            left, right = word[:cut], word[cut:]
            if left in self._postings and right in self._postings:
                return [left, right]
        return []


_WORD = re.compile(r"[a-z0-9']+")


@once
def english_words() -> frozenset[str]:
    """English words, spelt right (pyspellchecker's English word list, which ships in its
    wheel): a question's word among them that no passage holds is a word in its own right,
    not a typo of another ("send" is not "spend", "pending" not "spend", "aware" not "war").
    Read on first need (about 0.1 s)."""
    from spellchecker import SpellChecker

    return frozenset(SpellChecker(language="en", distance=1).word_frequency.keys())


def known_terms(texts: Iterable[str]) -> frozenset[str]:
    """The terms of a body of correctly spelt text (the card lists), each distinct word
    stemmed once."""
    words: set[str] = set()
    for text in texts:
        words.update(_WORD.findall(str(text).lower()))
    return frozenset(terms(" ".join(sorted(words))))

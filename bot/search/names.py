"""The names that lead to each topic: titles, aliases, a card's forms, initialisms and the
card names a ruling's text mentions (:class:`NameIndex`). It decides which names a topic
is found by and where each came from (the weight a match through it can reach), and keeps
them sorted for prefixes and by word for typos. An update is made on a copy that shares
what it does not change, so answers go on reading the previous one meanwhile.
"""

from __future__ import annotations

import bisect
import copy
from array import array

from bot.normalize import initialism, normalize
from bot.search.likeness import MISSPELT_NAME

# Where a name came from; the weight is the best score a match through it can reach.
TITLE, ALIAS, CARD_FORM, INITIALISM, MENTION = range(5)
SOURCE_WEIGHT = {TITLE: 1.0, ALIAS: 0.98, CARD_FORM: 0.96, INITIALISM: 0.93, MENTION: 0.86}
SOURCE_LABEL = {
    TITLE: "title",
    ALIAS: "alias",
    CARD_FORM: "card name",
    INITIALISM: "initialism",
    MENTION: "mentioned",
}


class NameIndex:
    """Every name (normalised: its key) with the target position it leads to and its
    source, by key, by word (``postings``) and in key order (``sorted_keys``)."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.target_of: array = array("i")  # name index -> target position
        self.source_of = bytearray()  # name index -> TITLE, ALIAS, ...
        self.postings: dict[str, array] = {}  # word -> name indexes
        self.order: array = array("i")  # name indexes sorted by key, for prefixes
        self.sorted_keys: list[str] = []
        self.vocab_sorted: list[str] | None = None
        self.vocab_by_letter: dict[str, list[str]] | None = None
        self._longest = 0  # the longest key (a removed name may leave it long: only a bound)
        self._exact: dict[str, int | list[int]] = {}  # key -> name index (or several)
        # A name's posting words beyond its key's own words (plural forms), kept so that an
        # update can take the name out of every posting list it is in.
        self._extra_words: dict[int, tuple[str, ...]] = {}
        # While an update is made on a copy (see ``edited``): the posting lists and name
        # lists this copy owns (others are shared with the index readers still use), and
        # the names it added, to be placed in the sorted structures by ``finish_edit``.
        self._owned: set[int] | None = None
        self._added: list[int] = []
        self._endings: dict[str, list[str]] | None = None  # see ``ending``; built lazily

    # ----------------------------------------------------------------- building
    def add_name(self, name: str, target: int, source: int) -> None:
        """Register a name (title, alias, card form, mention) that leads to a target."""
        key = normalize(name)
        if not key:
            return
        self._longest = max(self._longest, len(key))
        existing = self._exact.get(key)
        if existing is not None:
            others = [existing] if isinstance(existing, int) else existing
            if any(self.target_of[i] == target for i in others):
                return
        index = len(self.keys)
        self.keys.append(key)
        self.target_of.append(target)
        self.source_of.append(source)
        if existing is None:
            self._exact[key] = index  # most keys name one thing: an int, not a list
        elif isinstance(existing, int):
            self._exact[key] = [existing, index]
        else:
            self._mine(self._exact, key, list).append(index)
        key_words = set(key.split())
        extra = set(normalize(name, fold_plurals=False).split()) - key_words
        if extra:
            self._extra_words[index] = tuple(sorted(extra))
        for word in key_words | extra:
            posting = self.postings.get(word)
            if posting is None:
                posting = self.postings[word] = array("i")
                if self._owned is not None:
                    self._owned.add(id(posting))
            else:
                posting = self._mine(self.postings, word, array)
            posting.append(index)
        if self._owned is not None:
            self._added.append(index)

    def _mine(self, table: dict, key: str, kind: type):
        """``table[key]``, copied first if readers of the previous index still share it."""
        value = table[key]
        if self._owned is None or id(value) in self._owned:
            return value
        value = table[key] = kind("i", value) if kind is array else kind(value)
        self._owned.add(id(value))
        return value

    def add_card_forms(
        self,
        title: str,
        subtitle: str | None,
        target: int,
        subtitle_alone: bool = True,
        title_alone: bool = True,
    ) -> None:
        """Automatic aliases of a card-titled topic: forms, title alone (unless other cards
        share it, see ``title_alone``), subtitle (when it names the card on its own, see
        bot.search.build.named_subtitles), KTC."""
        if subtitle:
            for form in (f"{title}, {subtitle}", f"{title} ({subtitle})", f"{title} {subtitle}"):
                self.add_name(form, target, CARD_FORM)
            if title_alone:
                self.add_name(title, target, CARD_FORM)
            if subtitle_alone:
                self.add_name(subtitle, target, CARD_FORM)
        full = f"{title} {subtitle}" if subtitle else title
        letters = initialism(full)
        if len(letters) >= 3:
            self.add_name(letters, target, INITIALISM)

    def finish(self) -> None:
        """Build the sorted structures used for prefixes and typo candidates."""
        keys = self.keys
        self.order = array("i", sorted(range(len(keys)), key=keys.__getitem__))
        self.sorted_keys = [keys[i] for i in self.order]
        self.vocab_sorted = sorted(self.postings)
        by_letter: dict[str, list[str]] = {}
        for word in self.vocab_sorted:
            by_letter.setdefault(word[0], []).append(word)
        self.vocab_by_letter = by_letter
        self._endings = None

    # ----------------------------------------------------------------- updating
    def edited(self) -> NameIndex:
        """A copy to update while answers go on reading this one.

        The containers are copied now (a few milliseconds at 100,000 entries); the posting
        and name lists inside them are copied when the update first changes them. Take
        names out with ``remove_targets``, add new ones with ``add_name``/``add_card_forms``,
        then call ``finish_edit``. The result is the index a build from scratch would make.
        """
        clone = copy.copy(self)
        clone.keys = list(self.keys)
        clone.target_of = array("i", self.target_of)
        clone.source_of = bytearray(self.source_of)
        clone._exact = dict(self._exact)
        clone.postings = dict(self.postings)
        clone._extra_words = dict(self._extra_words)
        clone.order = array("i", self.order)
        clone.sorted_keys = list(self.sorted_keys)
        clone.vocab_sorted = list(self.vocab_sorted or [])
        clone.vocab_by_letter = dict(self.vocab_by_letter or {})
        clone._owned = set()
        clone._added = []
        clone._endings = None
        return clone

    def remove_targets(self, positions: set[int]) -> None:
        """Take every name leading to these target positions out (on an ``edited`` copy)."""
        for index in [i for i, t in enumerate(self.target_of) if t in positions]:
            self._unlink(index)

    def _unlink(self, index: int) -> None:
        key = self.keys[index]
        found = self._exact.get(key)
        if found == index:
            del self._exact[key]
        elif isinstance(found, list):
            rest = [i for i in found if i != index]
            if len(rest) == 1:
                self._exact[key] = rest[0]
            else:
                self._exact[key] = rest
        for word in set(key.split()) | set(self._extra_words.pop(index, ())):
            posting = self.postings.get(word)
            if posting is not None and index in posting:
                kept = array("i", (i for i in posting if i != index))
                self.postings[word] = kept
                self._owned.add(id(kept))
        position = bisect.bisect_left(self.sorted_keys, key)
        while position < len(self.order) and self.order[position] != index:
            position += 1
        if position < len(self.order):
            del self.order[position]
            del self.sorted_keys[position]

    def finish_edit(self) -> None:
        """Place the names added since ``edited`` in the sorted structures."""
        for index in self._added:
            key = self.keys[index]
            position = bisect.bisect_right(self.sorted_keys, key)
            self.sorted_keys.insert(position, key)
            self.order.insert(position, index)
            for word in set(key.split()) | set(self._extra_words.get(index, ())):
                spot = bisect.bisect_left(self.vocab_sorted, word)
                if spot < len(self.vocab_sorted) and self.vocab_sorted[spot] == word:
                    continue
                self.vocab_sorted.insert(spot, word)
                letter = self.vocab_by_letter.get(word[0], [])
                letter = self.vocab_by_letter[word[0]] = list(letter)
                bisect.insort(letter, word)
        self._owned = None
        self._added = []
        self._endings = None

    # ----------------------------------------------------------------- looking up
    @property
    def name_count(self) -> int:
        return len(self.keys)

    def exact_names(self, key: str) -> list[int]:
        """The names (by index) whose key is exactly ``key``."""
        found = self._exact.get(key)
        if found is None:
            return []
        return [found] if isinstance(found, int) else found

    def starting(self, probe: str) -> list[int]:
        """The names (by index) that start with these whole words (a normalised ``probe``),
        in key order; a few at most."""
        names = []
        start = bisect.bisect_left(self.sorted_keys, probe)
        for position in range(start, min(start + 50, len(self.order))):
            key = self.sorted_keys[position]
            if not key.startswith(probe):
                break
            if key == probe or key.startswith(probe + " "):  # "stone knife" is not "stone knives"
                names.append(self.order[position])
        return names

    def ending(self, probe: str) -> list[int]:
        """The names (by index) that end with these whole words (a normalised ``probe``) and
        are longer, in key order."""
        if self._endings is None:
            endings: dict[str, list[str]] = {}
            for key in sorted(self._exact):
                parts = key.split()
                for cut in range(1, len(parts)):
                    endings.setdefault(" ".join(parts[cut:]), []).append(key)
            self._endings = endings
        keys = self._endings.get(probe, ())
        return [i for key in keys for i in self.exact_names(key)]

    def could_be_misspelt_name(self, key: str) -> bool:
        """Whether a normalised query is short enough to be some name misspelt as a whole
        (see bot.search.likeness.misspelt_name): at least MISSPELT_NAME alike means at most
        about 1.2 times the name's length. A long question is no misspelt name, and is not
        compared."""
        return len(key) * MISSPELT_NAME <= self._longest * (2 - MISSPELT_NAME)

    def has_word(self, word: str) -> bool:
        """Whether some name holds this (normalised) word."""
        return word in self.postings

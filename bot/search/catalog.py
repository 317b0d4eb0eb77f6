"""The topics an index can answer with and the names that lead to each (:class:`Catalog`):
one target per topic (its current version), by topic and by entry id, and its
:class:`~bot.search.names.NameIndex`. It decides which topics are current, across updates
made on a copy, and which of them a name given whole, or the start or end of a name,
stands for; ranking a query is left to :mod:`bot.search.candidates`."""

from __future__ import annotations

import copy
from collections.abc import Iterable

from bot.normalize import normalize
from bot.search.hits import Target
from bot.search.names import MENTION, TITLE, NameIndex
from bot.validate import MAX_QUERY_CHARS  # the one query cap


class Catalog:
    """The targets (``targets``: updates leave removed topics' targets there, unreachable;
    ``by_topic``/``by_entry``: the current ones' positions) and their ``names``."""

    def __init__(self, targets: list[Target]):
        self.targets = targets
        self.by_topic = {t.topic: i for i, t in enumerate(targets)}
        self.by_entry = {t.entry: i for i, t in enumerate(targets)}
        self.names = NameIndex()

    def __len__(self) -> int:
        return len(self.by_topic)

    def finish(self) -> None:
        """Once every name is added: sort the names for prefixes and typo candidates."""
        self.names.finish()

    # ----------------------------------------------------------------- updating
    def edited(self) -> Catalog:
        """A copy to update while answers go on reading this one (see
        :meth:`NameIndex.edited <bot.search.names.NameIndex.edited>`): remove the topics a
        change touched with ``remove_topics``, add their new targets with ``add_target``
        and their names to ``names``, then call ``finish_edit``."""
        clone = copy.copy(self)
        clone.targets = list(self.targets)
        clone.by_topic = dict(self.by_topic)
        clone.by_entry = dict(self.by_entry)
        clone.names = self.names.edited()
        return clone

    def remove_topics(self, topics: Iterable[str]) -> None:
        """Take these topics and every name leading to them out of the index."""
        positions = set()
        for topic in topics:
            position = self.by_topic.pop(topic, None)
            if position is not None:
                self.by_entry.pop(self.targets[position].entry, None)
                positions.add(position)
        if positions:
            self.names.remove_targets(positions)

    def add_target(self, target: Target) -> int:
        """A new (or updated) topic's target; returns the position names refer to."""
        position = len(self.targets)
        self.targets.append(target)
        self.by_topic[target.topic] = position
        self.by_entry[target.entry] = position
        return position

    def finish_edit(self) -> None:
        """Place the names added since ``edited`` in the sorted structures."""
        self.names.finish_edit()

    # ----------------------------------------------------------------- looking up
    def titled(self, name: str) -> list[Target]:
        """The current targets whose title is ``name`` (normalised), in topic order: a
        lookup, where comparing every title costs seconds at 100,000 entries."""
        key = normalize(name)
        names = self.names
        found = {names.target_of[i] for i in names.exact_names(key) if names.source_of[i] == TITLE}
        targets = [
            self.targets[p]
            for p in found
            if self.by_topic.get(self.targets[p].topic) == p  # not a removed topic's
            and normalize(self.targets[p].title) == key
        ]
        return sorted(targets, key=lambda t: t.topic)

    def current_targets(self) -> list[Target]:
        """Every topic the index answers with, in topic order (updates leave the targets
        of removed topics in ``targets``, unreachable)."""
        return sorted((self.targets[p] for p in self.by_topic.values()), key=lambda t: t.topic)

    def exact(self, query: str, edition: str | None = None, mentions: bool = False) -> list[Target]:
        """The targets one of whose names is exactly the query: with ``mentions``, only
        those that merely mention it; else only their own names."""
        names = self.names.exact_names(normalize(str(query)[:MAX_QUERY_CHARS]))
        return self._targets_named(names, edition, mentions)

    def named_starting(self, words: str, edition: str | None = None) -> list[Target]:
        """The targets one of whose own names starts with these whole words ("stone knives":
        Stone Knives and Bearskins), in the order of their names; a few at most."""
        probe = normalize(str(words)[:MAX_QUERY_CHARS])
        if not probe:
            return []
        return self._targets_named(self.names.starting(probe), edition)

    def named_ending(self, words: str, edition: str | None = None) -> list[Target]:
        """The targets one of whose own names ends with these whole words and is longer
        ("transport crash survivor": the 2E mission Alpha 5 Approach Transport Crash
        Survivor, whose card list lost the comma after its location), in name order."""
        probe = normalize(str(words)[:MAX_QUERY_CHARS])
        return self._targets_named(self.names.ending(probe), edition)

    def _targets_named(
        self, names: Iterable[int], edition: str | None, mentions: bool = False
    ) -> list[Target]:
        """The targets of these names (by index), each once, in order: of the edition, and
        only names that mention them (``mentions``) or only their own names."""
        found: list[Target] = []
        for index in names:
            target = self.targets[self.names.target_of[index]]
            if (self.names.source_of[index] == MENTION) != mentions or (
                edition and target.edition != edition
            ):
                continue
            if target not in found:
                found.append(target)
        return found

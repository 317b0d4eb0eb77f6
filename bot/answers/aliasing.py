"""Where a moderator's alias leads (:class:`AliasOps`): the operations that make an alias
lead to a ruling, refused when it already leads to another one (stored, or where a lookup
of it confidently lands: automatic aliases such as initialisms count) unless the move is
confirmed; then its old targets are removed in the same change, so a revert moves it
back."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from bot.answers.moderators import AliasRepoint
from bot.normalize import normalize
from bot.store.changelog import current_state


class AliasOps:
    """The aliases of an open store (``conn``); ``leads_to``: where a text leads today as a
    lookup (topic id, title), the search's own answer, which knows the automatic aliases
    the store does not list."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        leads_to: Callable[[str], list[tuple[str, str]]] | None = None,
    ):
        self.conn = conn
        self.leads_to = leads_to

    def targets(self, alias: str, target: str) -> list[tuple[str, str]]:
        """The other topics (id, title) an alias leads to now: its stored alias rows, and
        where a lookup of it confidently lands (``leads_to``)."""
        found = {
            topic: title or topic
            for topic, title in self.conn.execute(
                "SELECT a.target, t.title FROM aliases a LEFT JOIN topics t ON t.id = a.target "
                "WHERE a.key = ? AND a.target != ? ORDER BY a.target",
                (normalize(alias), target),
            )
        }
        for topic, title in self.leads_to(alias) if self.leads_to else []:
            if topic != target:
                found.setdefault(topic, title)
        return list(found.items())

    def ops(self, aliases: list[str], target: str, repoint: bool = False) -> list[dict]:
        """Operations that make each alias lead to ``target``. An alias that already leads to
        another ruling is refused (:class:`AliasRepoint`) unless ``repoint``: then it is moved,
        its old targets removed in the same change (so a revert moves it back)."""
        ops = []
        for alias in aliases:
            key = normalize(alias)
            if not key:
                continue
            others = self.targets(alias, target)
            if others and not repoint:
                raise AliasRepoint(alias.strip(), target, others)
            for other, _ in others:
                current = current_state(self.conn, {"kind": "alias", "key": key, "target": other})
                if current is None:  # an automatic alias: the new row outranks it
                    continue
                ops.append(
                    {"kind": "alias", "key": key, "target": other, "before": current, "after": None}
                )
            if current_state(self.conn, {"kind": "alias", "key": key, "target": target}) is None:
                ops.append(
                    {
                        "kind": "alias",
                        "key": key,
                        "target": target,
                        "before": None,
                        "after": {"alias": alias.strip(), "note": None, "origin": "moderator"},
                    }
                )
        return ops

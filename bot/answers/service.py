"""The rulings service: the one object the CLI and the Discord adapter call.

It composes three parts, each with one job: the live store (``LiveStore``: the writers'
lock, other processes' changes, a replaced file), the answers over one generation of the
data (``Answers``: immutable once built; after a change the next generation is made from it,
reading only the topics the change touched, and swapped in whole), and the moderators'
changes (``Moderation`` and ``DocumentImports``), which are reached only through the typed
methods below so that every change runs under the lock and on the current file.

Answers take no lock: each reads the generation current when it started, on its own
thread's connection, so lookups run in parallel and never wait for a change being written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot.answers.live import LiveStore
from bot.answers.lookups import Answers
from bot.answers.snapshot import SnapshotKeeper
from bot.normalize import normalize, terms
from bot.search import confidence, ranking
from bot.search.index import SearchIndex
from bot.store.build import Store, open_read_only, open_store
from bot.store.health import StoreUnavailable
from bot.store.journal import Journal
from bot.validate import edition_named_at_edge, query_text, user_text

if TYPE_CHECKING:  # the moderators' side is imported when a change is made, not by a lookup
    from bot.answers.imports import ImportPreview
    from bot.answers.moderation import Moderation, Moderator

T = TypeVar("T")
log = logging.getLogger(__name__)


class Rulings:
    """Store + search index + the answers built from them, and the moderators' changes.

    Every text a lookup is given passes ``user_text`` here, at the boundary, so that no
    string (a lone surrogate, a NUL) can make SQLite or a terminal raise further in; a
    query is read up to ``MAX_QUERY_CHARS`` (``query_text``), so its cost is bounded."""

    def __init__(self, store: Store):
        self._answers = Answers(store)
        self._live = LiveStore(store, self._rebuild)
        # Moderator changes are journalled beside the store before the store is written.
        self._journal: Journal | None = None
        if store.read_only is None:
            self._journal = Journal.beside(store.path)
        self._snapshots = SnapshotKeeper()

    @classmethod
    def open(cls, db_path: Path | None = None, data_dir: Path | None = None) -> Rulings:
        """The service on the store; on a full disk (or a read-only folder) it answers
        read-only from the store as it is, and refuses moderator changes. The shipped search
        parameters are read first: a missing file stops the start here, not as a worse
        answer later."""
        ranking.load_shipped()
        confidence.load_shipped()
        try:
            return cls(open_store(db_path, data_dir))
        except StoreUnavailable as problem:
            return cls(open_read_only(db_path, data_dir, str(problem)))

    @property
    def read_only(self) -> str | None:
        """Why changes are refused now (a full disk, a read-only folder), or None."""
        return self.store.read_only

    def close(self) -> None:
        self._answers.readers.close()
        self._live.close()
        if self._journal is not None:
            self._journal.close()

    def _rebuild(self, store: Store) -> None:
        # A new generation, swapped in whole: an answer never sees half of a change.
        # The previous generation's read connections close when its last reader lets go.
        self._answers = self._answers.updated(store) or Answers(store)

    # ------------------------------------------------------------------ the live store
    @property
    def store(self) -> Store:
        return self._live.store

    @property
    def index(self) -> SearchIndex:
        return self._answers.index

    @property
    def documents(self) -> dict[str, dict[str, Any]]:
        return self._answers.documents

    def refresh(self) -> None:
        """Rebuild the answers from the store (after a change was committed)."""
        self._live.refresh()

    def refresh_if_changed(self) -> bool:
        """Follow another process's commit or replaced file; True if anything changed."""
        return self._live.refresh_if_changed()

    # ------------------------------------------------------------------ answers
    def show(self, query_or_id: str, edition: str | None = None, as_of: str | None = None):
        """The answer for a query or id, or (None, search JSON with suggestions)."""
        return self._answers.show(*_edition_in(query_text(query_or_id), edition), as_of)

    def search(self, query: str, edition: str | None = None, limit: int = 10) -> dict[str, Any]:
        """Ranked results (a list to read, so full text always contributes)."""
        return self._answers.search(*_edition_in(query_text(query), edition), limit)

    def history(self, query_or_id: str, edition: str | None = None, as_of: str | None = None):
        """Every version of a topic, newest first; with ``as_of``, the one then in force marked."""
        return self._answers.history(*_edition_in(query_text(query_or_id), edition), as_of)

    def related(self, query_or_id: str, edition: str | None = None):
        return self._answers.related(*_edition_in(query_text(query_or_id), edition))

    def card(self, query_or_id: str, edition: str | None = None):
        """A card with its text, the rulings about it and the rulings that mention it."""
        return self._answers.card(*_edition_in(query_text(query_or_id), edition))

    def other_edition_answer(self, query: str, edition: str | None) -> dict[str, Any] | None:
        """On a miss with an edition (given, or typed in the query: "Going to the Top 2E"):
        the other edition's confident answer, when it has one."""
        return self._answers.other_edition_answer(*_edition_in(query_text(query), edition))

    def card_for(self, row: dict[str, Any]) -> dict[str, Any] | None:
        return self._answers.cards.card_for(row)

    def snippets(self, entry_ids: list[str], width: int = 140) -> dict[str, str]:
        """The first words of each entry's text, for one-line result lists."""
        return self._answers.snippets([user_text(i) for i in entry_ids], width)

    def changes(self, since: str, edition: str | None = None) -> list[dict[str, Any]]:
        """What documents published on or after ``since`` added, changed or superseded."""
        return self._answers.changes(since, edition)

    def sources(self) -> list[dict[str, Any]]:
        return self._answers.sources()

    def version_as_of(self, topic: str, as_of: str) -> dict | None:
        return self._answers.version_as_of(topic, as_of)

    def source_label(self, row: dict[str, Any]) -> str:
        return self._answers.source_label(row)

    def suggest(self, prefix: str, edition: str | None = None, limit: int = 25):
        return self._answers.suggest(query_text(prefix), edition, limit)

    def ranked(self, query: str, edition: str | None = None):
        """The answer ids for a query, best first, with the features of the top one
        (what ``rulings eval`` measures)."""
        with self._live.lock:  # the card index is built on first use
            return self._answers.ranked(*_edition_in(query_text(query), edition))

    def card_targets(self) -> list:
        """Every card as the card search knows it (id as topic, name as title, edition)."""
        with self._live.lock:  # the card index is built on first use
            return list(self._answers.cards.card_index().targets)

    def warm_up(self) -> None:
        """Build what answers build on first use, so that the first lookups after start-up
        (or after the data was rebuilt) do not wait for it. Cheap once done."""
        self._answers.warm_up()

    def keep_snapshot(self) -> bool:
        """Write the snapshot of the current answers when they were built from the store
        rather than read from one (see :class:`bot.answers.snapshot.SnapshotKeeper`)."""
        return self._snapshots.keep(self._answers, self.store.read_only is not None)

    def card_covers(self) -> dict[str, set[str]]:
        """Card id -> the rulings about the card or that mention it."""
        with self._live.lock:
            return self._answers.card_covers()

    def use_ranking(self, model) -> None:
        """Rank with ``model`` (a :class:`bot.search.ranking.Ranker`) instead of the shipped
        ranking, None to go back: ``rulings eval`` measures rankings fitted per fold, asking
        every question again under each, so the offers are kept meanwhile."""
        with self._live.lock:
            self._answers.index.ranker_override = model
            self._answers.index.remember_offers(model is not None)
            self._answers.cards.card_index().remember_offers(model is not None)

    def use_confidence(self, model) -> None:
        """Decide confidence with ``model`` (a :class:`bot.search.confidence.Confidence`)
        instead of the shipped one, None to go back: the answers read their own confidence
        (a card named inside a question is looked for only when the search is unsure), so
        ``rulings eval`` fits that per fold too."""
        with self._live.lock:
            self._answers.index.confidence_override = model
            self._answers.cards.card_index().confidence_override = model  # misspelt names

    def suggest_cards(self, prefix: str, edition: str | None = None, limit: int = 25):
        return self._answers.cards.suggest_cards(query_text(prefix), edition, limit)

    # ------------------------------------------------------------------ moderation
    def _write(self, change: Callable[[Moderation], T]) -> T:
        """Run a moderator change on the current store file, then rebuild the answers."""
        from bot.answers.moderation import Moderation, ModerationError, immediate

        if self.store.read_only is not None or self._journal is None:
            raise ModerationError(
                f"The store is read-only now ({self.store.read_only}): lookups are answered, "
                "changes are refused until that is fixed."
            )

        def write(store: Store) -> T:
            moderation = Moderation(store.db.conn, self._journal, leads_to=self._leads_to)
            with immediate(store.db.conn):  # what it checks cannot change before it writes
                return change(moderation)

        return self._live.write(write)

    def preview(self, moderator: Moderator, action: str, **fields) -> dict[str, Any]:
        """The answer users would get for the ruling an ``add``, ``edit`` or ``retire`` makes,
        built by the same ``show`` that answers them, on the store with the change applied
        inside a transaction that is then rolled back: nothing is written. Refusals are the
        change's own (a :class:`ModerationError`), so a preview is refused as Confirm would be.
        """
        from bot.answers.moderation import Moderation

        with self._live.lock:
            conn = self.store.db.conn
            moderation = Moderation(conn, dry_run=True, leads_to=self._leads_to)
            conn.execute("BEGIN IMMEDIATE")
            try:
                if action == "add":
                    change = moderation.add(moderator, **fields)
                    entry_id = next(op["id"] for op in change["ops"] if op["kind"] == "entry")
                elif action == "edit":
                    entry_id = fields.pop("entry_id")
                    moderation.edit(moderator, entry_id, fields.pop("based_on"), **fields)
                elif action == "retire":
                    entry_id = fields["entry_id"]
                    moderation.retire(moderator, entry_id, fields["reason"])
                else:
                    raise ValueError(f"no preview for {action}")
                # The same answers, but reading this connection, inside the transaction: the
                # change and any document it adds are seen here only (rolled back below).
                answers = self._answers.reading(self.store)
                answer, _ = answers.show(entry_id)
                return answer
            finally:
                conn.rollback()

    def _leads_to(self, text: str) -> list[tuple[str, str]]:
        """The topic (id, title) that ``text`` names today, exactly, as a title or an alias
        (automatic ones such as initialisms included); near matches do not count."""
        result = self._answers.index.search(query_text(text), limit=1)
        if not (result.confident and result.hits):
            return []
        hit = result.hits[0]
        if normalize(hit.matched) != normalize(text):
            return []
        return [(hit.target.topic, hit.target.title)]

    def _look(self, read: Callable[[Moderation], T]) -> T:
        from bot.answers.moderation import Moderation

        with self._live.lock:
            return read(Moderation(self.store.db.conn))

    def add_ruling(self, moderator: Moderator, **fields) -> dict[str, Any]:
        """A new ruling (a new topic, or a new version of an existing one)."""
        return self._write(lambda moderation: moderation.add(moderator, **fields))

    def edit_ruling(self, moderator: Moderator, entry_id: str, based_on: int, **fields):
        """Change an entry; refused when it changed since version ``based_on`` was read."""
        return self._write(
            lambda moderation: moderation.edit(moderator, entry_id, based_on, **fields)
        )

    def retire_ruling(self, moderator: Moderator, entry_id: str, reason: str) -> dict[str, Any]:
        return self._write(lambda moderation: moderation.retire(moderator, entry_id, reason))

    def add_alias(
        self, moderator: Moderator, alias: str, target: str, *, repoint: bool = False
    ) -> dict[str, Any]:
        """Refused with ``AliasRepoint`` when the alias leads elsewhere, unless ``repoint``."""
        return self._write(
            lambda moderation: moderation.alias_add(moderator, alias, target, repoint=repoint)
        )

    def remove_alias(self, moderator: Moderator, alias: str, target: str) -> dict[str, Any]:
        return self._write(lambda moderation: moderation.alias_remove(moderator, alias, target))

    def revert_change(
        self, moderator: Moderator, change_id: int, reason: str | None = None
    ) -> dict[str, Any]:
        return self._write(lambda moderation: moderation.revert(moderator, change_id, reason))

    def apply_import(
        self,
        moderator: Moderator,
        preview: ImportPreview,
        reason: str | None = None,
        *,
        accept_warnings: bool = False,
    ) -> dict[str, Any]:
        from bot.answers.imports import DocumentImports

        return self._write(
            lambda moderation: DocumentImports(moderation).apply_import(
                moderator, preview, reason, accept_warnings=accept_warnings
            )
        )

    def preview_import(
        self, content: bytes, filename: str, corrections=None, **document
    ) -> ImportPreview:
        """What importing a document would change; nothing is written. The document is read
        in a worker process before the store is looked at, so lookups go on meanwhile;
        ``corrections`` (:mod:`bot.ingest.reader.corrections`) fix its entries first."""
        from bot.answers.imports import DocumentImports, read_upload

        read = read_upload(content, filename, corrections)
        return self._look(
            lambda moderation: DocumentImports(moderation).preview_read(read, filename, **document)
        )

    def change(self, change_id: int) -> dict[str, Any] | None:
        return self._look(lambda moderation: moderation.change(change_id))

    def change_log(self, count: int = 10) -> list[dict[str, Any]]:
        return self._look(lambda moderation: moderation.log(count))

    def conflicts(self) -> list[dict[str, Any]]:
        return self._look(lambda moderation: moderation.conflicts())

    def editable_entry(self, entry_id: str) -> dict[str, Any] | None:
        """An entry as a moderator edits it (with its version number)."""
        return self._look(lambda moderation: moderation.entry(entry_id))


def _edition_in(query: str, edition: str | None) -> tuple[str, str | None]:
    """With no edition given, one the query names at its start or end is the edition asked
    for ("matching commander 2E"), and the query is the rest (when words are left)."""
    if edition is None:
        named, rest = edition_named_at_edge(query)
        if named and terms(rest):
            return rest, named
    return query, edition

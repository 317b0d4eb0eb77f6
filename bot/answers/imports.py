"""Importing a rules document as a moderator: read it, preview what it would change, then
apply it all at once as one logged change.

The one preview the CLI (``rulings ingest``) and ``/ruling-admin import`` share: the reader
(:mod:`bot.ingest.reader`) recognises the document's shape and encoding, the importer's own
functions give every entry its topic, cross references, card mentions and kind, and each
entry is compared with the current version of its topic: new, changed (with a word diff),
unchanged, or older (a document that ranks below the current version; it will not be
current). Warnings come with line numbers; applying a preview that has warnings takes an
explicit second step (``accept_warnings``).
"""

from __future__ import annotations

import difflib
import json
import logging
import re
import sqlite3
import textwrap
from dataclasses import dataclass, field
from typing import Any

from bot import validate
from bot.answers.moderation import Moderation, ModerationError, Moderator, StaleEdit
from bot.answers.moderators import NotRead
from bot.ingest.importer import build_entries, card_names, card_ruling_kind
from bot.ingest.parsers import ParsedEntry
from bot.ingest.reader import (
    ReadDocument,
    ReadEntry,
    UnknownShape,
    UnreadableDocument,
)
from bot.ingest.reader.common import see_references
from bot.ingest.reader.corrections import CorrectionError, heads_of
from bot.ingest.reader.corrections import apply as apply_corrections
from bot.ingest.reader.limits import MAX_DOCUMENT_BYTES
from bot.ingest.reader.worker import read_isolated
from bot.models import Card, Document, precedence
from bot.normalize import plain_typography, slugify, without_list_marks
from bot.store.changelog import document_row, entry_row
from bot.store.schema import decode_entry

log = logging.getLogger(__name__)

PASTED = "pasted.txt"  # the name a pasted page is read under (it has no file of its own)

MAX_IMPORT_BYTES = MAX_DOCUMENT_BYTES  # the reader's limit, named for the front ends
# Entry statuses in a preview.
NEW, CHANGED, UNCHANGED, OLDER = "new", "changed", "unchanged", "older"
STATUSES = (NEW, CHANGED, UNCHANGED, OLDER)
# The document kind a shape is, when the document does not print one.
SHAPE_KINDS = {
    "rulings-feed": "rulings feed",
    "rulings-feed-table": "rulings feed",
    "single-ruling-page": "rulings feed",
    "decipher-current-rulings": "current rulings",
    "crd-2e-text": "current rulings",
    "crd-markdown": "current rulings",
    "glossary-table": "glossary",
    "glossary-pdf-page": "glossary",
    "faq": "faq",
    "opencards-terms": "community copy",
    # a card database's page (openCards', stccgfaq's): the site's copy of the rulings it
    # names the source of ("Taken form Current Rulings 2016-10-03"), not that document
    "card-page": "community copy",
}
# The short word a document id uses for its kind ("2e-crd-2014-07-07", as bundled ids do).
_ID_WORDS = {
    "current rulings": "crd",
    "rulings feed": "rulings",
    "faq": "faq",
    "glossary": "glossary",
    "rulebook": "rulebook",
    "community copy": "community",
}


class AcceptWarnings(ModerationError):
    """The preview has warnings and they were not explicitly accepted."""


class EntriesInDoubt(ModerationError):
    """The preview has doubts about entry boundaries or titles: the entries must be fixed
    (corrections) before it can be applied; accepting warnings is not enough."""


def words_of(entry: dict[str, Any]) -> str:
    """How long a previewed entry is, as every front end says it ("1 word", "29 words")."""
    return f"{entry['words']} word{'' if entry['words'] == 1 else 's'}"


@dataclass
class ImportPreview:
    """What an import would do, shown before anything changes."""

    document: dict[str, Any]  # id, title, edition, date, kind, official, shape, encoding
    entries: list[dict[str, Any]] = field(default_factory=list)  # records, each with "status"
    # {"line", "message", "doubt"}: a doubt (entry boundaries, titles) blocks applying until
    # the entries are corrected; a note may be accepted.
    warnings: list[dict[str, Any]] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)  # entry ids that stop being current

    def _with(self, status: str) -> list[dict[str, Any]]:
        return [e for e in self.entries if e["status"] == status]

    @property
    def new(self) -> list[dict[str, Any]]:
        return self._with(NEW)

    @property
    def changed(self) -> list[dict[str, Any]]:
        return self._with(CHANGED)

    @property
    def unchanged(self) -> list[dict[str, Any]]:
        return self._with(UNCHANGED)

    @property
    def older(self) -> list[dict[str, Any]]:
        return self._with(OLDER)

    @property
    def doubts(self) -> list[dict[str, Any]]:
        return [w for w in self.warnings if w.get("doubt")]

    @property
    def notes(self) -> list[dict[str, Any]]:
        return [w for w in self.warnings if not w.get("doubt")]

    def warning_lines(self) -> list[str]:
        return [
            f"line {w['line']}: {'DOUBT: ' if w.get('doubt') else ''}{w['message']}"
            for w in self.warnings
        ]

    def as_text(self, width: int = 88) -> str:
        """The whole preview as plain text: the document, warnings first, then every entry
        with its status, length and first words, and the word diff of each changed one.
        ``rulings ingest`` prints it; ``/ruling-admin import`` attaches it as a file."""
        d = self.document
        origin = "official" if d["official"] else "community"
        counts = {status: len(self._with(status)) for status in (NEW, CHANGED, UNCHANGED, OLDER)}
        lines = [
            f"{d['title']}  [{d['id']}]",
            f"{d['edition']} · {d['kind']} · {d['date'] or 'undated'} · {origin} · "
            f"shape {d['shape']} · encoding {d['encoding']}",
            f"{len(self.entries)} {'entry' if len(self.entries) == 1 else 'entries'}: "
            + ", ".join(f"{n} {status}" for status, n in counts.items())
            + f"; {len(self.warnings)} warning(s)"
            + (f", {len(self.doubts)} of them doubt(s) that block applying" if self.doubts else ""),
        ]
        if self.warnings:
            lines += ["", "Warnings:"]
            lines += [
                textwrap.fill(line, width, initial_indent="  ", subsequent_indent="    ")
                for line in self.warning_lines()
            ]
        if self.doubts:
            lines += [
                "",
                "Doubts block applying: fix the entries with a corrections file "
                "(rulings ingest --corrections; items like {line: 12, confirm: true}, "
                "{line: 12, title: ...}, {line: 12, merge: true}, {line: 12, drop: true}).",
            ]
        lines += ["", "Entries:"]
        for entry in self.entries:
            dated = f" ({entry['date']})" if entry["date"] else ""
            if entry.get("confidence", 1.0) < 1.0:
                dated += f" [line {entry['line']}, confidence {entry['confidence']:.2f}]"
            lines.append(
                f"  {entry['status']:<9} {entry['title']}{dated} — {words_of(entry)}: "
                f"{entry['first_words']}"
            )
            if entry.get("diff"):
                lines.append(
                    textwrap.fill(
                        entry["diff"], width, initial_indent=" " * 12, subsequent_indent=" " * 12
                    )
                )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The contract ``rulings ingest --json`` prints."""
        keys = ("id", "title", "edition", "date", "kind", "official", "shape", "encoding")
        return {
            "document": {k: self.document[k] for k in keys},
            "entries": [
                {
                    "title": e["title"],
                    "date": e["date"],
                    "kind": e["kind"],
                    "status": e["status"],
                    "text": e["text"],
                    "line": e.get("line"),
                    "confidence": e.get("confidence", 1.0),
                }
                for e in self.entries
            ],
            "warnings": [
                {"line": w["line"], "message": w["message"], "doubt": bool(w.get("doubt"))}
                for w in self.warnings
            ],
        }


def _as_read(words: list[str]) -> list[str]:
    # each word as it reads: "ship's" and "ship’s" are no change to show
    return [plain_typography(word) for word in words]


def same_words(before: str, after: str) -> bool:
    """Whether two prints of a ruling say the same: as a whole (list markers and line
    breaks aside) or word by word (:func:`word_diff` shows no change: a list item's marker
    that a print's wrap left at the end of the line before, "downloaded. -" over "2) A
    card", was a change to show with no word changed)."""
    if plain_typography(before) == plain_typography(after):
        return True
    return _as_read(before.split()) == _as_read(after.split())


def word_diff(before: str, after: str, context: int = 4) -> str:
    """The words that change: ``[-removed-]`` and ``{+added+}``, with a few words around each
    change and "…" for the unchanged stretches between."""
    # a list's markers are the printer's too: "[---]" for each item a print bullets
    # otherwise was a change to show with no word changed
    before, after = without_list_marks(before), without_list_marks(after)
    old, new = before.split(), after.split()
    matcher = difflib.SequenceMatcher(a=_as_read(old), b=_as_read(new), autojunk=False)
    parts: list[str] = []
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            words = old[a1:a2]
            if len(words) > 2 * context:
                head = words[:context] if parts else []
                tail = words[-context:] if a2 < len(old) or b2 < len(new) else []
                parts += [*head, "…", *tail]
            else:
                parts += words
            continue
        if a2 > a1:
            parts.append("[-" + " ".join(old[a1:a2]) + "-]")
        if b2 > b1:
            parts.append("{+" + " ".join(new[b1:b2]) + "+}")
    return " ".join(parts)


def first_words(text: str, count: int = 8) -> str:
    words = text.split()
    return " ".join(words[:count]) + (" …" if len(words) > count else "")


def read_upload(
    content: bytes, filename: str, corrections: list[dict[str, Any]] | None = None
) -> ReadDocument:
    """Read an uploaded document in a worker process (bounded in time and memory, so a
    hostile document never freezes the caller), with a moderator's corrections applied; a
    refusal is a :class:`ModerationError`."""
    if len(content) > MAX_IMPORT_BYTES:
        raise ModerationError(f"The file is over {MAX_IMPORT_BYTES // (1024 * 1024)} MB.")
    try:
        # a correction's "head" moves where entries begin: the page is read with it
        heads = heads_of(corrections) if corrections is not None else None
        read = read_isolated(content, filename, heads=heads or None)
    except CorrectionError as error:
        raise ModerationError(f"Corrections not applied: {error}") from None
    except (UnreadableDocument, UnknownShape) as error:
        # The reader's refusal names the file and says why; each front end puts its own
        # "not imported" before it, so the reader's message never says so itself.
        raise NotRead(str(error), getattr(error, "heads", None)) from None
    if corrections is None:
        return read
    try:
        return apply_corrections(read, corrections)
    except CorrectionError as error:
        raise ModerationError(f"Corrections not applied: {error}") from None


class DocumentImports:
    """Previews and applies document imports through the moderators' change log."""

    def __init__(self, moderation: Moderation):
        self.moderation = moderation

    def preview_import(
        self,
        content: bytes,
        filename: str,
        *,
        title: str | None = None,
        edition: str | None = None,
        date: str | None = None,
        kind: str | None = None,
        official: bool | None = None,
        corrections: list[dict[str, Any]] | None = None,
    ) -> ImportPreview:
        """Read a document and say what importing it would change; nothing is written.

        The edition, date and kind are read from the document where it prints them; the
        options fill in what it does not print (an option that disagrees with the document
        is a warning). The title given wins over a printed one.
        """
        return self.preview_read(
            read_upload(content, filename, corrections),
            filename,
            title=title,
            edition=edition,
            date=date,
            kind=kind,
            official=official,
        )

    def preview_read(
        self,
        read: ReadDocument,
        filename: str,
        *,
        title: str | None = None,
        edition: str | None = None,
        date: str | None = None,
        kind: str | None = None,
        official: bool | None = None,
    ) -> ImportPreview:
        """:meth:`preview_import` for a document :func:`read_upload` has read."""
        warnings = [
            {"line": w.line, "message": w.message, "doubt": bool(getattr(w, "doubt", False))}
            for w in read.warnings
        ]
        document = self._document(read, filename, title, edition, date, kind, official, warnings)
        entries = self._records_for(document, read.entries)
        preview = ImportPreview(
            document={
                **document,
                "shape": read.shape,
                "encoding": read.encoding,
                "official": bool(document["official"]),
            },
            entries=entries,
            warnings=warnings,
        )
        self._compare(preview)
        return preview

    # ------------------------------------------------------------------ metadata
    def _document(
        self,
        read: ReadDocument,
        filename: str,
        title: str | None,
        edition: str | None,
        date: str | None,
        kind: str | None,
        official: bool | None,
        warnings: list[dict[str, Any]],
    ) -> dict[str, Any]:
        printed = read.metadata
        try:
            edition = _pick("edition", printed.edition, edition and validate.edition(edition))
            date = _pick("date", printed.date, date and validate.iso_date(date))
            kind = _pick(
                "kind",
                printed.kind,
                kind and validate.document_kind(kind),
                SHAPE_KINDS.get(read.shape) or printed.kind_mentioned,
            )
        except validate.InvalidValue as error:
            raise ModerationError(f"{str(error)[:1].upper()}{str(error)[1:]}.") from None
        for value in (edition, date, kind):
            if value.note:
                warnings.insert(0, {"line": 0, "message": value.note})
        if edition.value is None:
            raise ModerationError(
                "The document does not say which game it is for: give the edition (1E or 2E)."
            )
        if kind.value is None and read.shape not in SHAPE_KINDS:
            # A page of no known shape says nothing of its kind by its form: a rules
            # supplement is no glossary, an article no Current Rulings.
            raise ModerationError(
                "The document does not say what kind it is: give the kind "
                f"({', '.join(validate.DOCUMENT_KINDS)})."
            )
        kind_value = kind.value or "current rulings"
        if official is None:
            official = kind_value != "community copy"
        # a pasted page has no file name to stand in for a title it does not print
        name = validate.user_text(title or "").strip() or printed.title
        if not name and filename == PASTED:
            raise ModerationError(
                "The page prints no title the reader can tell: give the document's title "
                "(the `title` option)."
            )
        name = name or filename
        name = " ".join(name.split())[:200]
        same = self.moderation.conn.execute(
            "SELECT id FROM documents WHERE title = ? AND edition = ? AND date IS ? AND kind = ?",
            (name, edition.value, date.value, kind_value),
        ).fetchone()
        if same:
            raise ModerationError(f"This document is already imported as {same[0]}.")
        return {
            "id": self._unique_id(edition.value, kind_value, date.value, name),
            "title": name,
            "edition": edition.value,
            "kind": kind_value,
            "date": date.value,
            "official": 1 if official else 0,
            "file": None,
            "parser": None,
            "origin": "moderator",
        }

    def _unique_id(self, edition: str, kind: str, date: str | None, title: str) -> str:
        """``{edition}-{kind word}-{date}`` (undated: the title's slug); a taken id gets -2, -3…"""
        base = f"{edition.lower()}-{_ID_WORDS.get(kind, slugify(kind))}-"
        base += date or slugify(title)[:40] or "undated"
        candidate, number = base, 2
        while document_row(self.moderation.conn, candidate):
            candidate, number = f"{base}-{number}", number + 1
        return candidate

    # ------------------------------------------------------------------ entries
    def _stored(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Card]]:
        conn = self.moderation.conn
        conn.row_factory = sqlite3.Row
        try:
            documents = [dict(r) for r in conn.execute("SELECT * FROM documents")]
            entries = [
                decode_entry(dict(r))
                for r in conn.execute("SELECT * FROM entries WHERE retired = 0")
            ]
            cards = [
                Card(
                    id=r["id"],
                    edition=r["edition"],
                    title=r["title"],
                    subtitle=r["subtitle"],
                    type=r["type"] or "",
                    text=r["text"] or "",
                    sets=json.loads(r["sets"] or "[]") if r["sets"] else [],
                )
                for r in conn.execute("SELECT * FROM cards")
            ]
        finally:
            conn.row_factory = None
        return documents, entries, cards

    def _records_for(
        self, document: dict[str, Any], read_entries: list[ReadEntry]
    ) -> list[dict[str, Any]]:
        """Importer records (topics, links, mentions, kinds) against the stored documents."""
        stored, existing, cards = self._stored()
        new = _as_document(document)
        documents = [_as_document(d) for d in stored] + [new]
        parsed: dict[str, list[ParsedEntry]] = {d.id: [] for d in documents}
        # Existing entries take part only to name topics; their own records are not rewritten.
        for e in existing:
            parsed[e["document"]].append(
                ParsedEntry(title=e["title"], text=e["text"], line=e["line"] or 0, kind=e["kind"])
            )
        edition_cards = [c for c in cards if c.edition == new.edition]
        names = card_names(edition_cards)
        parsed[new.id] = [
            ParsedEntry(
                title=e.title,
                text=e.text,
                line=e.line,
                kind=card_ruling_kind(e.title, e.kind, names) if not e.cards else e.kind,
                marked_new=e.marked_new,
                amendments=list(e.amendments),
                see_also=list(e.see_also) or see_references(e.text),
                taken_from=e.taken_from,
            )
            for e in read_entries
        ]
        records, _ = build_entries(documents, parsed, edition_cards, only={new.id})
        out = []
        for record, entry in zip(records[new.id], read_entries, strict=True):
            mentions = record.setdefault("mentions", [])
            named = {m["name"].casefold() for m in mentions if m["type"] == "card"}
            for card in entry.cards:  # "Applicable Cards:" are mentions, found or not
                if card.casefold() not in named:
                    ids = names.get(_card_key(card), [])
                    mentions.append({"type": "card", "name": card, "card_ids": list(ids)})
            if not mentions:
                del record["mentions"]
            record["confidence"] = entry.confidence
            out.append(
                {
                    **record,
                    "document": new.id,
                    "date": entry.date or new.date,
                    "version": 1,
                    "retired": False,
                    "retired_reason": None,
                    "origin": "moderator",
                }
            )
        return out

    def _compare(self, preview: ImportPreview) -> None:
        """Each entry's status against the current version of its topic; per-entry dates
        decide which ranks higher, as the store will rank them."""
        conn = self.moderation.conn
        official = bool(preview.document["official"])
        for record in preview.entries:
            row = conn.execute(
                "SELECT current FROM topics WHERE id = ?", (record["topic"],)
            ).fetchone()
            current = entry_row(conn, row[0]) if row else None
            record["words"] = len(record["text"].split())
            record["first_words"] = first_words(record["text"])
            if current is None:
                record["status"] = NEW
                continue
            holder = document_row(conn, current["document"]) or {}
            theirs = precedence(bool(holder.get("official")), current["date"] or holder.get("date"))
            ours = precedence(official, record["date"])
            record["current"] = current["id"]
            if ours < theirs:
                record["status"] = OLDER
            elif same_words(current["text"], record["text"]):
                # the same words: where lines break, and curly or straight quotes, are the
                # printer's (a PDF of a document imported as text changes no ruling)
                record["status"] = UNCHANGED
            else:
                record["status"] = CHANGED
                record["diff"] = word_diff(current["text"], record["text"])
            if ours >= theirs:
                preview.superseded.append(current["id"])

    # ------------------------------------------------------------------ apply
    def apply_import(
        self,
        moderator: Moderator,
        preview: ImportPreview,
        reason: str | None = None,
        *,
        accept_warnings: bool = False,
    ) -> dict[str, Any]:
        """Apply a previewed import all at once (warnings must be accepted explicitly;
        doubts cannot be accepted, only fixed)."""
        if preview.doubts:
            raise EntriesInDoubt(
                f"The preview has {len(preview.doubts)} doubt(s) about entry boundaries or "
                "titles: fix the entries (a corrections file, or an edit of the preview) "
                "before importing."
            )
        if preview.warnings and not accept_warnings:
            raise AcceptWarnings(
                f"The preview has {len(preview.warnings)} warning(s): read them, then confirm "
                "again to import anyway."
            )
        if document_row(self.moderation.conn, preview.document["id"]):
            raise StaleEdit("That document was imported meanwhile.")
        stored = {k: preview.document[k] for k in _DOCUMENT_COLUMNS}
        stored["official"] = int(bool(stored["official"]))
        ops = [{"kind": "document", "id": stored["id"], "before": None, "after": stored}]
        ops += [
            {"kind": "entry", "id": r["id"], "before": None, "after": _entry_record(r)}
            for r in preview.entries
        ]
        summary = f"{stored['title']} ({len(preview.entries)} entries)"
        return self.moderation.commit(moderator, "import", summary, ops, reason)


_DOCUMENT_COLUMNS = (
    "id",
    "title",
    "edition",
    "kind",
    "date",
    "official",
    "file",
    "parser",
    "origin",
)
_PREVIEW_ONLY = ("status", "diff", "current", "words", "first_words", "confidence")


def _entry_record(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in _PREVIEW_ONLY}


def _card_key(name: str) -> str:
    from bot.normalize import normalize

    return normalize(re.sub(r"\s+", " ", name))


@dataclass
class _Picked:
    value: str | None
    note: str | None = None


def _pick(name: str, printed: str | None, given: str | None, fallback: str | None = None):
    """What the document prints, else the option, else the shape's default."""
    if printed and given and printed != given:
        return _Picked(
            printed,
            f"the document prints {name} {printed}; {given} as given was not used",
        )
    return _Picked(printed or given or fallback)


def _as_document(d: dict[str, Any]) -> Document:
    return Document(
        id=d["id"],
        title=d["title"],
        edition=d["edition"],
        kind=d["kind"],
        date=d["date"],
        official=bool(d["official"]),
        file=d.get("file") or "",
        parser=d.get("parser") or "",
    )

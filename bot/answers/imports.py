"""Importing a new rules document as a moderator: parse it, preview what it would change,
then apply it all at once as one logged change."""

from __future__ import annotations

import difflib
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from bot import validate
from bot.answers.moderation import Moderation, ModerationError, Moderator, StaleEdit
from bot.ingest.importer import build_entries
from bot.ingest.parsers import ParsedEntry, SourceFormatError, get_parser
from bot.models import Document
from bot.store.changelog import document_row, entry_row
from bot.store.schema import decode_entry

MAX_IMPORT_BYTES = 2 * 1024 * 1024
IMPORT_SUFFIXES = {".txt": "crd-2e-text", ".md": "crd-2e-markdown"}


@dataclass
class ImportPreview:
    """What an import would do, shown before anything changes."""

    document: dict[str, Any]
    new: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)  # each with "diff"
    unchanged: list[dict[str, Any]] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)  # entry ids that stop being current
    warnings: list[str] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)


class DocumentImports:
    """Previews and applies document imports through the moderators' change log."""

    def __init__(self, moderation: Moderation):
        self.moderation = moderation

    def preview_import(
        self,
        content: bytes,
        filename: str,
        *,
        title: str,
        edition: str,
        date: str,
        kind: str = "current rulings",
    ) -> ImportPreview:
        """Parse a new rules document with the same importer and say what it would change."""
        if len(content) > MAX_IMPORT_BYTES:
            raise ModerationError("The file is over 2 MB.")
        suffix = "." + filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
        if suffix not in IMPORT_SUFFIXES:
            raise ModerationError(
                "Only .txt (PDF text) and .md (Markdown) documents can be imported."
            )
        if not validate.is_canonical(validate.edition, edition):
            raise ModerationError("Edition must be 1E or 2E.")
        if not validate.is_canonical(validate.iso_date, date):
            raise ModerationError("Dates are written YYYY-MM-DD.")
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            raise ModerationError("The file is not UTF-8 text.") from None
        parser = (
            "crd-1e-markdown" if edition == "1E" and suffix == ".md" else IMPORT_SUFFIXES[suffix]
        )
        doc_id = f"{edition.lower()}-crd-{date}"
        if document_row(self.moderation.conn, doc_id):
            raise ModerationError(f"A document {doc_id} is already in the store.")
        try:
            parsed = get_parser(parser)(text, filename)
        except SourceFormatError as exc:
            raise ModerationError(
                f"The document could not be read: {exc.reason} (line {exc.line or '?'})."
            ) from None
        if not parsed.entries:
            raise ModerationError("The document parsed to zero entries.")
        document = Document(
            id=doc_id,
            title=title.strip() or doc_id,
            edition=edition,
            kind=kind,
            date=date,
            official=True,
            file=filename,
            parser=parser,
        )
        records = self._records_for(document, parsed.entries)
        preview = ImportPreview(
            document={
                "id": doc_id,
                "title": document.title,
                "edition": edition,
                "kind": kind,
                "date": date,
                "official": 1,
                "file": None,
                "parser": parser,
                "origin": "moderator",
            },
            warnings=[f"line {w.line}: {w.message}" for w in parsed.warnings],
            entries=records,
        )
        for record in records:
            current_id = self.moderation.conn.execute(
                "SELECT current FROM topics WHERE id = ?", (record["topic"],)
            ).fetchone()
            current = entry_row(self.moderation.conn, current_id[0]) if current_id else None
            if current is None:
                preview.new.append(record)
            elif current["text"] == record["text"]:
                preview.unchanged.append(record)
            else:
                diff = "\n".join(
                    difflib.unified_diff(
                        current["text"].splitlines(),
                        record["text"].splitlines(),
                        "before",
                        "after",
                        lineterm="",
                        n=1,
                    )
                )
                preview.changed.append({**record, "diff": diff, "replaces": current["id"]})
            if current is not None and (current["date"] or "") <= date:
                preview.superseded.append(current["id"])
        return preview

    def _records_for(self, document: Document, entries: list[ParsedEntry]) -> list[dict[str, Any]]:
        """Importer records (topics, links, mentions) against the documents already stored."""
        self.moderation.conn.row_factory = sqlite3.Row
        try:
            stored = [dict(r) for r in self.moderation.conn.execute("SELECT * FROM documents")]
            existing = [
                decode_entry(dict(r))
                for r in self.moderation.conn.execute("SELECT * FROM entries WHERE retired = 0")
            ]
        finally:
            self.moderation.conn.row_factory = None
        documents = [
            Document(
                id=d["id"],
                title=d["title"],
                edition=d["edition"],
                kind=d["kind"],
                date=d["date"],
                official=bool(d["official"]),
                file=d["file"] or "",
                parser=d["parser"] or "",
            )
            for d in stored
        ] + [document]
        parsed: dict[str, list[ParsedEntry]] = {d.id: [] for d in documents}
        # Existing entries take part only to name topics; their own records are not rewritten.
        for e in existing:
            parsed[e["document"]].append(
                ParsedEntry(title=e["title"], text=e["text"], line=e["line"] or 0, kind=e["kind"])
            )
        parsed[document.id] = entries
        records, _ = build_entries(documents, parsed, [])
        out = []
        for record in records[document.id]:
            record = {
                **record,
                "document": document.id,
                "date": document.date,
                "version": 1,
                "retired": False,
                "retired_reason": None,
                "origin": "moderator",
            }
            out.append(record)
        return out

    def apply_import(
        self, moderator: Moderator, preview: ImportPreview, reason: str | None = None
    ) -> dict[str, Any]:
        """Apply a previewed import all at once."""
        if document_row(self.moderation.conn, preview.document["id"]):
            raise StaleEdit("That document was imported meanwhile.")
        ops = [
            {
                "kind": "document",
                "id": preview.document["id"],
                "before": None,
                "after": preview.document,
            }
        ]
        ops += [
            {"kind": "entry", "id": r["id"], "before": None, "after": r} for r in preview.entries
        ]
        summary = f"{preview.document['title']} ({len(preview.entries)} entries)"
        return self.moderation.commit(moderator, "import", summary, ops, reason)

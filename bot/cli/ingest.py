"""``rulings ingest FILE``: read a rules document, preview what importing it would change,
and (with ``--apply``) import it as one logged moderator change.

The preview is the one ``/ruling-admin import`` shows (``bot.answers.imports``). Exit 0 when
the document was read (with warnings or not), 2 when it was refused, with one line on stderr.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from bot import validate
from bot.cli.conventions import date_value, described, edition_value, emit_json, kind_value
from bot.cli.render import terminal_width

log = logging.getLogger(__name__)

EXIT_OK, EXIT_REFUSED = 0, 2

DESCRIPTION = """\
Read a rules document (a Current Rulings Document, the rulings feed, a single ruling page, a
Glossary or Rulebook page, a FAQ; text, Markdown or a saved HTML page, in any common
encoding), and show what importing it would change: its shape and encoding, warnings first
(with line numbers), then every entry with its status — new, changed (with a word diff),
unchanged, or older (it ranks below the current version and will not become current).
Nothing changes without --apply. Warnings are of two kinds: notes, which --accept-warnings
accepts once read, and doubts about entry boundaries or titles (a heading read as an entry,
two entries read as one), which block --apply until the entries are fixed with
--corrections FILE: a YAML list naming each entry by the line the preview shows, e.g.
  - {line: 12, confirm: true}         # the head is right as read
  - {line: 14, title: skills – modifying}
  - {line: 20, merge: true}           # part of the entry before it
  - {line: 31, drop: true}            # not an entry
  - {line: 40, head: true}            # this line opens an entry the reader did not see
Correcting an entry settles the doubts raised at lines inside it; a doubt before the first
entry is confirmed at its own line. A page with no ruling text is refused ("no entries
found"), never imported; the refusal lists the lines that open like an entry, which
--corrections may name as heads. --draft-corrections NEW_FILE writes that file for you: each
doubt's proposed fixes (or each listed line as a head), every one commented out with "#";
remove the "#" before those you choose and run again with --corrections NEW_FILE."""


def add_ingest_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ingest",
        **described(
            "preview (and with --apply, import) a new rules document",
            "rulings ingest 1e-current-rulings-2015-03-01.pdf",
            'rulings ingest feed.html --edition 2E --apply --reason "March rulings"',
            "rulings ingest crd.md --apply --accept-warnings --json",
            details=DESCRIPTION,
        ),
    )
    p.set_defaults(run=run_ingest)
    p.add_argument("file", type=Path, metavar="FILE", help="the document file")
    p.add_argument("--edition", type=edition_value, help="1E or 2E, where the document is silent")
    p.add_argument(
        "--date",
        type=date_value,
        help="YYYY-MM-DD, where the document prints none (undated is allowed)",
    )
    p.add_argument("--title", help="the document's title (default: as printed)")
    p.add_argument(
        "--kind",
        type=kind_value,
        help=f"where the document is silent: {', '.join(validate.DOCUMENT_KINDS)}",
    )
    p.add_argument(
        "--unofficial", action="store_true", help="a community document, not the committee's"
    )
    p.add_argument(
        "--corrections",
        type=Path,
        metavar="FILE",
        help="YAML list of entry corrections (confirm, title, merge, drop, head) by line",
    )
    p.add_argument(
        "--draft-corrections",
        type=Path,
        metavar="NEW_FILE",
        help="write a corrections file to edit: the doubts' proposed fixes, or the listed heads",
    )
    p.add_argument("--apply", action="store_true", help="import it (default: preview only)")
    p.add_argument(
        "--accept-warnings",
        action="store_true",
        help="with --apply: import even though the preview has warnings",
    )
    p.add_argument("--as", dest="moderator", default=None, help="your name for the change log")
    p.add_argument("--reason", help="why, for the change log")
    p.add_argument(
        "--json",
        action="store_true",
        help='print the preview as JSON (with --apply, the change made under "change")',
    )


def _moderator(name: str | None):
    """The change log's moderator: ``--as NAME``, else the OS user (as the other commands)."""
    import getpass

    from bot.answers.moderation import Moderator

    name = name or getpass.getuser()
    return Moderator(id=f"cli:{name}", name=name)


def _refuse(message: str) -> int:
    """One line on stderr: the items of a listed group (the page's first lines, the lines
    that could head an entry) are kept apart by "; " and the group closed by ".", so a
    moderator can tell where each listed title ends, the last one too ("line 15: Cloaked
    Ships. If the page holds …")."""
    lines = [line for line in str(message).splitlines() if line.strip()]
    line = ""
    after_listed = False  # whether the last item kept was one of a listed group
    for item in lines:
        listed = item.startswith("  ")
        if after_listed and not listed and not line.endswith((".", ":", "?", "!")):
            line += "."  # the group's last item ends here, not in the sentence after it
        apart = "; " if listed and after_listed else " "
        line = f"{line}{apart}{item.strip()}" if line else item.strip()
        after_listed = listed
    print(f"rulings ingest: {line}", file=sys.stderr)
    return EXIT_REFUSED


def run_ingest(ctx) -> int:
    from bot.answers.drafts import doubts_draft, heads_draft
    from bot.answers.moderation import ModerationError
    from bot.ingest.reader import UnreadableDocument
    from bot.ingest.reader.worker import read_upload_file

    args = ctx.args
    try:  # a FIFO, a device or /dev/zero is refused by name, never read
        content = read_upload_file(args.file)
    except UnreadableDocument as error:
        return _refuse(str(error))
    corrections = None
    if args.corrections is not None:
        try:
            corrections = _read_corrections(args.corrections)
        except (OSError, ValueError) as error:  # UnreadableDocument is a ValueError
            return _refuse(f"corrections not read: {error}")
    rulings = ctx.rulings
    try:
        preview = rulings.preview_import(
            content,
            args.file.name,
            title=args.title,
            edition=args.edition,
            date=args.date,
            kind=args.kind,
            official=False if args.unofficial else None,
            corrections=corrections,
        )
    except ModerationError as error:  # the reader's refusal, or corrections not applied
        heads = getattr(error, "heads", [])
        if args.draft_corrections is not None:
            _write_draft(args, heads_draft(heads, corrections, args.file.name))
        elif heads:  # said with the listed lines, before the list of shapes
            hint = "--draft-corrections NEW_FILE writes those lines as heads to choose from."
            said = str(error)
            at = said.find("\nUpload the page")
            error = f"{said[:at]}\n{hint}{said[at:]}" if at >= 0 else f"{said}\n{hint}"
        return _refuse(f"not imported: {error}")
    if not args.json:
        print_preview(preview, terminal_width(sys.stdout))
    if args.draft_corrections is not None:
        _write_draft(args, doubts_draft(preview.doubts, corrections, args.file.name))
    if not args.apply:
        if args.json:
            emit_json(preview.to_json())
        else:
            print("\nNothing changed (preview only): add --apply to import it.")
        return EXIT_OK
    change, refusal = _apply(rulings, args, preview)
    if args.json:  # one document: the preview, and the change it became (null if refused)
        emit_json({**preview.to_json(), "change": change})
    if refusal:
        return _refuse(refusal)
    if not args.json:
        print(f"change #{change['id']}: {change['action']} {change['summary']}", file=sys.stderr)
    return EXIT_OK


def _apply(rulings, args: argparse.Namespace, preview) -> tuple[dict | None, str | None]:
    """(the change made, None), or (None, why it was not imported)."""
    from bot.answers.moderation import ModerationError

    if preview.doubts:
        return None, (
            f"not imported: the preview has {len(preview.doubts)} doubt(s) about entry "
            "boundaries or titles; fix the entries with --corrections FILE (see --help; "
            "--draft-corrections NEW_FILE writes one to edit), then run again"
        )
    if preview.warnings and not args.accept_warnings:
        return None, (
            f"not imported: the preview has {len(preview.warnings)} warning(s); read them, "
            "then run again with --apply --accept-warnings to import anyway"
        )
    try:
        change = rulings.apply_import(
            _moderator(args.moderator), preview, args.reason, accept_warnings=args.accept_warnings
        )
    except ModerationError as error:
        return None, f"not imported: {error}"
    return change, None


def _write_draft(args: argparse.Namespace, draft: str) -> None:
    """Write the corrections draft to ``--draft-corrections`` (never over an existing file:
    it may hold a moderator's edits); say so, or why not, on stderr."""
    from bot.answers.drafts import drafted

    path = args.draft_corrections
    if not drafted(draft):
        print(f"rulings ingest: nothing to correct: {path} not written", file=sys.stderr)
        return
    try:
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(draft)
    except FileExistsError:
        print(f"rulings ingest: {path} exists: not overwritten (name a new file)", file=sys.stderr)
        return
    except OSError as error:
        print(f"rulings ingest: {path} not written: {error.strerror or error}", file=sys.stderr)
        return
    print(
        f'rulings ingest: wrote a corrections draft to {path}: remove the "#" before each '
        f"correction you choose, then run again with --corrections {path}",
        file=sys.stderr,
    )


def _read_corrections(path: Path):
    """The corrections file's items (YAML, checked); a FIFO or device is refused by name."""
    from bot.ingest.reader.corrections import parse
    from bot.ingest.reader.worker import read_upload_file

    data = read_upload_file(Path(path))
    try:
        return parse(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text") from None


def print_preview(preview, width: int = 88) -> None:
    print(preview.as_text(width))

"""``rulings``: the command-line front door (no Discord token needed).

Exit codes: 0 an answer, 1 no confident match, 2 usage or data errors (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot import validate
from bot.store.health import StoreUnavailable

log = logging.getLogger(__name__)

EXIT_OK, EXIT_NO_MATCH, EXIT_ERROR = 0, 1, 2

EDITION_HELP = "1E or 2E (default: both editions; the best match wins, 1E and 2E are ranked alike)"
JSON_HELP = "machine-readable output (JSON), on answers and on misses alike"
EPILOG = """\
exit codes:
  0  an answer
  1  no confident match (the near misses are listed as "did you mean")
  2  usage or data errors (one line on stderr)

Without --edition a lookup searches both editions and answers with the best match; 1E and 2E
are different games, so add --edition when a term exists in both. Output wraps to the
terminal (COLUMNS overrides its width) and is plain text when piped or NO_COLOR is set."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("stccg-rulings")
    except PackageNotFoundError:
        return "unknown"


def _edition(value: str) -> str:
    try:
        return validate.edition(value)
    except validate.InvalidValue as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _limit(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError("limit must be a whole number") from None
    if not 1 <= number <= 50:
        raise argparse.ArgumentTypeError("limit must be between 1 and 50")
    return number


def _date(value: str) -> str:
    try:
        return validate.iso_date(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _query(value: str) -> str:
    """A query no longer than Discord takes (``bot.validate.MAX_QUERY_CHARS``)."""
    from bot.validate import MAX_QUERY_CHARS

    if len(value) > MAX_QUERY_CHARS:
        raise argparse.ArgumentTypeError(
            f"the query is {len(value):,} characters; a query may be {MAX_QUERY_CHARS} at most "
            "(as on Discord): ask with fewer words"
        )
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulings",
        description="Official Star Trek CCG rulings (1E and 2E).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument(
        "--db", type=Path, help="SQLite store path (default: user cache; env RULINGS_DB)"
    )
    parser.add_argument(
        "--data", type=Path, help="data folder (default: bundled rulings_data; env RULINGS_DATA)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def lookup(name: str, help_text: str, query_help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.add_argument("query", metavar="QUERY", type=_query, help=query_help)
        p.add_argument("--edition", type=_edition, help=EDITION_HELP)
        p.add_argument("--json", action="store_true", help=JSON_HELP)
        return p

    p = lookup("search", "rank rulings for a query", "words, a title, a card name, a nickname")
    p.set_defaults(run=run_search)
    p.add_argument("--limit", type=_limit, default=10, help="how many results (1-50)")
    p = lookup("show", "the ruling that answers a query or id", "a query or an entry/topic id")
    p.set_defaults(run=run_show)
    p.add_argument("--as-of", type=_date, help="the version in force on this date (YYYY-MM-DD)")
    p = lookup(
        "card", "a card: its text, its rulings and the rulings that mention it", "a card name"
    )
    p.set_defaults(run=run_card)
    p = lookup("related", "related terms of a ruling", "a query or an entry/topic id")
    p.set_defaults(run=run_related)
    p = lookup("history", "every version of a ruling, newest first", "a query or an entry/topic id")
    p.set_defaults(run=run_history)
    p.add_argument(
        "--as-of", type=_date, help="mark the version in force on this date (YYYY-MM-DD)"
    )
    p = sub.add_parser(
        "changes", help="what documents published on or since a date added or changed"
    )
    p.set_defaults(run=run_changes)
    p.add_argument(
        "--since", type=_date, required=True, help="YYYY-MM-DD; documents of that date count"
    )
    p.add_argument("--edition", type=_edition, help=EDITION_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p = sub.add_parser("sources", help="the documents the answers come from")
    p.set_defaults(run=run_sources)
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p = sub.add_parser("import", help="re-import the source documents into rulings_data/")
    p.set_defaults(run=run_import)
    p.add_argument(
        "--cards", type=Path, help="folder of LackeyCCG card lists (1e/, 2e/) to re-import"
    )
    p = sub.add_parser("bench", help="measure search speed, recall and memory against a baseline")
    p.set_defaults(run=run_bench)
    p.add_argument(
        "--entries", type=int, default=100_000, help="synthetic entries (default: 100000)"
    )
    # 300 queries keep a run at 100,000 entries under two minutes: the baseline's full scans
    # (about 0.2 s each here) dominate it.
    p.add_argument("--queries", type=int, default=300, help="queries to time (default: 300)")
    p.add_argument("--seed", type=int, default=7, help="random seed (default: 7)")
    p.add_argument(
        "--visibility",
        action="store_true",
        help="instead: how soon a moderator change is answered by another process",
    )
    p.add_argument(
        "--changes", type=int, default=10, help="with --visibility: changes to time (default 10)"
    )
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    _add_moderation_commands(sub)
    from bot.cli.ingest import add_ingest_command

    add_ingest_command(sub)
    from bot.cli.ops import add_ops_commands

    add_ops_commands(sub)
    from bot.cli.eval import add_eval_command

    add_eval_command(sub)
    _add_plugin_commands(sub)
    return parser


def _add_moderation_commands(sub: argparse._SubParsersAction) -> None:
    """Operators' equivalents of /ruling-admin, on the same core functions."""
    who = argparse.ArgumentParser(add_help=False)
    who.add_argument(
        "--as", dest="moderator", default=None, help="your name for the log (default: the OS user)"
    )
    who.add_argument("--reason", help="why, for the log")
    p = sub.add_parser("add", parents=[who], help="add a ruling")
    p.set_defaults(run=run_add)
    p.add_argument("--title", required=True, help="the ruling's title")
    p.add_argument("--edition", type=_edition, required=True, help="1E or 2E")
    p.add_argument(
        "--kind",
        default="rule",
        choices=["rule", "card ruling", "erratum", "clarification"],
        help="what the ruling is (default: rule)",
    )
    p.add_argument("--text", required=True, help="the ruling text ('-' reads standard input)")
    p.add_argument("--document", required=True, help="an existing document's id or title")
    p.add_argument(
        "--new-document",
        action="store_true",
        help="--document is the title of a new document (otherwise an unknown one is refused)",
    )
    p.add_argument("--date", type=_date, help="the document's date (a new document)")
    p.add_argument("--alias", action="append", default=[], help="a nickname (repeatable)")
    p = sub.add_parser("edit", parents=[who], help="edit a ruling's title or text")
    p.set_defaults(run=run_edit)
    p.add_argument("entry", help="the entry id (see `rulings show --json`)")
    p.add_argument("--title", help="the new title")
    p.add_argument("--text", help="the new text ('-' reads standard input)")
    p.add_argument("--based-on", type=int, help="the version you read (default: the current one)")
    p = sub.add_parser("retire", parents=[who], help="stop a ruling answering; it stays in history")
    p.set_defaults(run=run_retire)
    p.add_argument("entry", help="the entry id (see `rulings show --json`)")
    p = sub.add_parser("alias", parents=[who], help="add or remove a nickname")
    p.set_defaults(run=run_alias)
    p.add_argument("action", choices=["add", "remove"], help="add or remove")
    p.add_argument("target", help="a topic id, e.g. 2e-klingon-tea-ceremony")
    p.add_argument("alias", help="the nickname")
    p.add_argument(
        "--repoint",
        action="store_true",
        help="move an alias that already leads to another ruling (refused without it)",
    )
    p = sub.add_parser("log", help="recent moderator changes")
    p.set_defaults(run=run_log)
    p.add_argument("--count", type=_limit, default=10, help="how many changes (1-50)")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p = sub.add_parser("revert", parents=[who], help="undo a change by its number")
    p.set_defaults(run=run_revert)
    p.add_argument("change", type=int, help="the change number (see `rulings log`)")
    p = sub.add_parser("export", help="write the live store back to rulings_data/ YAML for review")
    p.set_defaults(run=run_export)


def _add_plugin_commands(sub: argparse._SubParsersAction) -> None:
    """Subcommands other packages offer (the Discord adapter's ``bot`` and ``sync``).

    Found through the ``rulings.commands`` entry point group, so the core never imports them.
    """
    from importlib.metadata import entry_points

    for entry in entry_points(group="rulings.commands"):
        try:
            entry.load()(sub)
        except Exception as exc:  # a broken plugin must not take the lookups down with it
            log.warning("could not load subcommands from %s: %s", entry.value, exc)


def _emit(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


class Context:
    """What a subcommand's handler works with: its arguments, the data folder, the terminal
    output, and the service, opened on first use (import and bench never need it)."""

    def __init__(self, args: argparse.Namespace):
        from bot.ingest.dataset import default_data_dir

        self.args = args
        self.data_dir: Path = args.data or default_data_dir()
        self._rulings = None

    def out(self, file=None):
        from bot.cli.render import Out

        return Out(file or sys.stdout)

    @property
    def rulings(self):
        if self._rulings is None:
            from bot.answers.service import Rulings

            self._rulings = Rulings.open(self.args.db, self.data_dir)
        return self._rulings

    def close(self) -> None:
        if self._rulings is not None:
            self._rulings.close()


def _miss(ctx: Context, found: dict[str, Any] | None = None) -> int:
    """No confident match: the near misses (and an edition hint) as JSON or on stderr."""
    from bot.cli import render

    args = ctx.args
    edition = getattr(args, "edition", None)
    if found is None:
        found = ctx.rulings.search(args.query, edition=edition, limit=5)
    found = dict(found)
    other = found.get("other_edition") or ctx.rulings.other_edition_answer(args.query, edition)
    hint = render.edition_hint(other) if other else _card_hint(ctx, found)
    if hint:
        found["hint"] = hint
    if args.json:
        _emit(found)
        return EXIT_NO_MATCH
    err = ctx.out(sys.stderr)
    if found.get("note"):  # found, but nothing of it in force on the --as-of date
        err.line(found["note"])
    else:
        render.suggestions(err, found)
    err.flush()
    return EXIT_NO_MATCH


def _card_hint(ctx: Context, found: dict[str, Any]) -> str | None:
    """A ruling lookup that names a card with no ruling points at `rulings card`."""
    args = ctx.args
    if args.command == "card" or found.get("note"):
        return None
    card, _ = ctx.rulings.card(args.query, edition=getattr(args, "edition", None))
    if card is None:
        return None
    return (
        f"{card['name']} is a {card['edition']} card with no ruling of that name: "
        f'`rulings card "{card["name"]}"` shows its text and the rulings that mention it.'
    )


# ------------------------------------------------------------------------ lookups
def run_search(ctx: Context) -> int:
    from bot.cli import render

    args = ctx.args
    found = ctx.rulings.search(args.query, edition=args.edition, limit=args.limit)
    if not found["confident"]:
        other = ctx.rulings.other_edition_answer(args.query, args.edition)
        if other:
            found["hint"] = render.edition_hint(other)
    if args.json:
        _emit(found)
    else:
        if not found["confident"]:
            err = ctx.out(sys.stderr)
            err.line(f"No confident match for {args.query!r}; closest:")
            if found.get("hint"):
                err.line(found["hint"])
            err.flush()
        out = ctx.out()
        render.search_results(out, found)
        out.flush()
    return EXIT_OK if found["confident"] else EXIT_NO_MATCH


def run_show(ctx: Context) -> int:
    from bot.cli import render

    args = ctx.args
    answer, suggestions = ctx.rulings.show(args.query, edition=args.edition, as_of=args.as_of)
    if answer is None:
        return _miss(ctx, suggestions)
    if args.json:
        _emit(answer)
    else:
        out = ctx.out()
        render.answer(out, answer)
        out.flush()
    return EXIT_OK


def run_card(ctx: Context) -> int:
    from bot.cli import render

    args = ctx.args
    rulings = ctx.rulings
    card, found = rulings.card(args.query, edition=args.edition)
    if card is None:
        return _miss(ctx, found)
    if args.json:
        _emit(card)
    else:
        out = ctx.out()
        render.card(out, card)
        out.flush()
    return EXIT_OK


def run_related(ctx: Context) -> int:
    args = ctx.args
    data = ctx.rulings.related(args.query, edition=args.edition)
    if data is None:
        return _miss(ctx)
    if args.json:
        _emit(data)
    else:
        out = ctx.out()
        out.line(
            f"{data['title']}: "
            + (", ".join(r["title"] for r in data["related"]) or "no related terms")
        )
        out.flush()
    return EXIT_OK


def run_history(ctx: Context) -> int:
    from bot.cli import render

    args = ctx.args
    data = ctx.rulings.history(args.query, edition=args.edition, as_of=args.as_of)
    if data is None:
        return _miss(ctx)
    if args.json:
        _emit(data)
        return EXIT_OK
    out = ctx.out()
    render.history(out, data)
    out.flush()
    return EXIT_OK


def run_changes(ctx: Context) -> int:
    args = ctx.args
    changes = ctx.rulings.changes(args.since, edition=args.edition)
    if args.json:
        _emit({"since": args.since, "changes": changes})
        return EXIT_OK
    out = ctx.out()
    if not changes:
        out.line(f"No rulings were added or changed on or after {args.since}.")
    for c in changes:
        out.line(
            f"{c['date']}  {c['change']:<8} {c['title']} ({c['edition']}) — {c['source']}  [{c['id']}]"
        )
    out.flush()
    return EXIT_OK


def run_sources(ctx: Context) -> int:
    sources = ctx.rulings.sources()
    if ctx.args.json:
        _emit({"documents": sources})
        return EXIT_OK
    out = ctx.out()
    for s in sources:
        out.line(
            f"{s['id']:<22} {s['edition']}  {s['date'] or 'undated':<10}  "
            f"{s['entries']:>3} entries  {s['title']}"
        )
    out.flush()
    return EXIT_OK


# ------------------------------------------------------------------------ data
def run_import(ctx: Context) -> int:
    from bot.ingest.importer import print_report, run_import

    args, data_dir = ctx.args, ctx.data_dir
    reports = run_import(data_dir, cards_dir=args.cards)
    print_report(reports)
    if args.cards:
        from bot.ingest.cards import load_card_index
        from bot.ingest.dataset import CARDS_DIR

        for edition in ("1e", "2e"):
            cards = load_card_index(data_dir / CARDS_DIR / f"{edition}.yaml")
            subtitled = sum(1 for c in cards if c.subtitle)
            print(f"cards {edition.upper()}: {len(cards)} cards ({subtitled} with a subtitle)")
    return EXIT_OK


def run_bench(ctx: Context) -> int:
    if ctx.args.visibility:
        from bot.cli.visibility import main as visibility_main

        return visibility_main(ctx.args)
    from bot.cli.bench import main as bench_main

    return bench_main(ctx.args)


def run_export(ctx: Context) -> int:
    from bot.store.export import export_store

    changed = export_store(ctx.rulings.store, ctx.data_dir)
    print(
        "\n".join(f"wrote {name}" for name in changed) or "rulings_data/ already matches the store"
    )
    return EXIT_OK


# ------------------------------------------------------------------------ moderation
def run_log(ctx: Context) -> int:
    rulings = ctx.rulings
    changes = rulings.change_log(ctx.args.count)
    if ctx.args.json:
        _emit({"changes": changes, "conflicts": rulings.conflicts()})
        return EXIT_OK
    for c in changes:
        undone = f"  (reverted by #{c['reverted_by'][0]})" if c["reverted_by"] else ""
        why = f" — {c['reason']}" if c["reason"] else ""
        print(
            f"#{c['id']} {c['at']} {c['moderator_name']}: {c['action']} {c['summary']}{why}{undone}"
        )
    for conflict in rulings.conflicts():
        print(f"conflict: {conflict['detail']}")
    return EXIT_OK


def _moderator(args: argparse.Namespace):
    import getpass

    from bot.answers.moderation import Moderator

    name = args.moderator or getpass.getuser()
    return Moderator(id=f"cli:{name}", name=name)


def _text(value: str | None) -> str | None:
    return sys.stdin.read() if value == "-" else value


def _done(change: dict[str, Any]) -> int:
    print(f"change #{change['id']}: {change['action']} {change['summary']}")
    return EXIT_OK


def run_add(ctx: Context) -> int:
    from bot.answers.moderation import UnknownDocument

    args = ctx.args
    try:
        return _add(ctx, args)
    except UnknownDocument as exc:
        print(f"rulings: error: {exc} (--new-document)", file=sys.stderr)
        return EXIT_ERROR


def _add(ctx: Context, args: argparse.Namespace) -> int:
    return _done(
        ctx.rulings.add_ruling(
            _moderator(args),
            title=args.title,
            edition=args.edition,
            kind=args.kind,
            text=_text(args.text),
            document=args.document,
            date=args.date,
            aliases=args.alias,
            reason=args.reason,
            new_document=args.new_document,
        )  # fmt: skip
    )


def run_edit(ctx: Context) -> int:
    args = ctx.args
    entry = ctx.rulings.editable_entry(args.entry)
    if entry is None:
        print(f"rulings: error: no entry {args.entry!r}", file=sys.stderr)
        return EXIT_ERROR
    based_on = args.based_on if args.based_on is not None else entry["version"]
    return _done(
        ctx.rulings.edit_ruling(
            _moderator(args),
            args.entry,
            based_on,
            title=args.title,
            text=_text(args.text),
            reason=args.reason,
        )  # fmt: skip
    )


def run_retire(ctx: Context) -> int:
    args = ctx.args
    return _done(ctx.rulings.retire_ruling(_moderator(args), args.entry, args.reason or ""))


def run_alias(ctx: Context) -> int:
    args = ctx.args
    if args.action == "add":
        from bot.answers.moderation import AliasRepoint

        try:
            change = ctx.rulings.add_alias(
                _moderator(args), args.alias, args.target, repoint=args.repoint
            )
        except AliasRepoint as exc:
            print(f"rulings: error: {exc} (add --repoint)", file=sys.stderr)
            return EXIT_ERROR
        return _done(change)
    return _done(ctx.rulings.remove_alias(_moderator(args), args.alias, args.target))


def run_revert(ctx: Context) -> int:
    args = ctx.args
    return _done(ctx.rulings.revert_change(_moderator(args), args.change, args.reason))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from bot.logs import configure_logging

    level = os.environ.get("RULINGS_LOG_LEVEL", "WARNING").upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        level = "WARNING"
    configure_logging(logging.INFO if args.verbose else level)
    try:
        return _run(args)
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:  # `rulings search x | head -1`: the reader has all it wanted
        _quiet_stdout()
        return EXIT_OK
    except StoreUnavailable as exc:  # names the path and the fix
        print(f"rulings: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except sqlite3.DatabaseError as exc:  # never a traceback: one line, then doctor
        print(
            f"rulings: error: the store could not be used ({exc}); run `rulings doctor`",
            file=sys.stderr,
        )
        return EXIT_ERROR
    except (ValueError, OSError) as exc:  # data and source errors name their file and line
        print(f"rulings: error: {exc}", file=sys.stderr)
        return EXIT_ERROR


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (tests capture it)
        pass


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "handler", None):  # operations and plugins take the arguments only
        return args.handler(args)
    ctx = Context(args)
    try:
        return args.run(ctx)
    finally:
        ctx.close()


if __name__ == "__main__":
    raise SystemExit(main())

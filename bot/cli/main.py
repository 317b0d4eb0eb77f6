"""``rulings``: the command-line front door (no Discord token needed).

Exit codes: 0 an answer, 1 no confident match, 2 usage or data errors (one line on stderr),
130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot.cli import interrupts
from bot.cli.conventions import (
    JSON_HELP,
    REPORT_JSON_HELP,
    date_value,
    described,
    edition_value,
    emit_json,
    limit_value,
    query_value,
)
from bot.store.health import StoreUnavailable

log = logging.getLogger(__name__)

EXIT_OK, EXIT_NO_MATCH, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C

EDITION_HELP = "1E or 2E (default: both editions; the best match wins, 1E and 2E are ranked alike)"
EPILOG = """\
exit codes:
  0    an answer
  1    no confident match (the near misses are listed as "did you mean")
  2    usage or data errors (one line on stderr)
  130  interrupted (Ctrl-C)

Without --edition a lookup searches both editions and answers with the best match; 1E and 2E
are different games, so add --edition when a term exists in both. On a terminal output wraps
to its width (COLUMNS overrides it); piped, it is not wrapped (one record, one line). It is
plain text, with no escape codes, when piped, or when NO_COLOR is set or TERM is dumb."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("stccg-rulings")
    except PackageNotFoundError:
        return "unknown"


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked (reading the
    package's metadata costs a lookup about 25 ms it never uses)."""

    def __init__(
        self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None
    ):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {_version()}")  # on stdout, as argparse's own version action
        parser.exit()


# The lookups: defined here, so that running one imports no other command's module.
LOOKUPS = frozenset({"search", "show", "card", "related", "history", "changes", "sources"})
_GLOBAL_VALUES = ("--db", "--data")  # the global options that take a value


def command_named(argv: list[str]) -> str | None:
    """The subcommand ``argv`` runs, when it is found before any option other than the
    global ones (``--db PATH``, ``--data PATH``, ``-v``); else None."""
    words = iter(argv)
    for word in words:
        if word in _GLOBAL_VALUES:
            next(words, None)
        elif word in ("-v", "--verbose") or word.startswith(tuple(f"{o}=" for o in _GLOBAL_VALUES)):
            continue
        else:
            return None if word.startswith("-") else word
    return None


def build_parser(full: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; with ``full`` False only the lookups (a lookup needs no
    other command's module, and importing them all cost a third of a cold lookup)."""
    parser = argparse.ArgumentParser(
        prog="rulings",
        description="Official Star Trek CCG rulings (1E and 2E).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="show program's version number and exit"
    )
    parser.add_argument(
        "--db", type=Path, help="SQLite store path (default: user cache; env RULINGS_DB)"
    )
    parser.add_argument(
        "--data", type=Path, help="data folder (default: bundled rulings_data; env RULINGS_DATA)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def lookup(name: str, help_text: str, query_help: str, *examples: str):
        p = sub.add_parser(name, **described(help_text, *examples, notes=EPILOG))
        p.add_argument("query", metavar="QUERY", type=query_value, help=query_help)
        p.add_argument("--edition", type=edition_value, help=EDITION_HELP)
        p.add_argument("--json", action="store_true", help=JSON_HELP)
        return p

    p = lookup(
        "search",
        "rank rulings for a query",
        "words, a title, a card name, a nickname",
        'rulings search "matching commander"',
        "rulings search stop --edition 2E --limit 5 --json",
    )
    p.set_defaults(run=run_search)
    p.add_argument("--limit", type=limit_value, default=10, help="how many results (1-50)")
    p = lookup(
        "show",
        "the ruling that answers a query or id",
        "a query or an entry/topic id",
        'rulings show "can I attempt a mission with a stopped personnel" --edition 1E',
        "rulings show KTC --as-of 2012-01-01 --json",
    )
    p.set_defaults(run=run_show)
    p.add_argument(
        "--as-of", type=date_value, help="the version in force on this date (YYYY-MM-DD)"
    )
    p = lookup(
        "card",
        "a card: its text, its rulings and the rulings that mention it",
        "a card name",
        'rulings card "Kivas Fajo" --edition 1E',
        'rulings card "Klingon Tea Ceremony" --json',
    )
    p.set_defaults(run=run_card)
    p = lookup(
        "related",
        "related terms of a ruling",
        "a query or an entry/topic id",
        "rulings related mission --edition 1E",
    )
    p.set_defaults(run=run_related)
    p = lookup(
        "history",
        "every version of a ruling, newest first",
        "a query or an entry/topic id",
        "rulings history skills --edition 2E",
        "rulings history mission --edition 1E --as-of 2010-01-01",
    )
    p.set_defaults(run=run_history)
    p.add_argument(
        "--as-of", type=date_value, help="mark the version in force on this date (YYYY-MM-DD)"
    )
    p = sub.add_parser(
        "changes",
        **described(
            "what documents published on or since a date added or changed",
            "rulings changes --since 2014-01-01",
            "rulings changes --since 2014-07-07 --edition 2E --json",
        ),
    )
    p.set_defaults(run=run_changes)
    p.add_argument(
        "--since", type=date_value, required=True, help="YYYY-MM-DD; documents of that date count"
    )
    p.add_argument("--edition", type=edition_value, help=EDITION_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p = sub.add_parser(
        "sources",
        **described(
            "the documents the answers come from",
            "rulings sources",
            "rulings sources --json",
        ),
    )
    p.set_defaults(run=run_sources)
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    if full:
        _add_other_commands(sub)
    return parser


def _add_other_commands(sub: argparse._SubParsersAction) -> None:
    """Every subcommand besides the lookups (their modules imported to define them)."""
    p = sub.add_parser(
        "import",
        **described(
            "re-import the source documents into rulings_data/",
            "rulings import",
            "rulings import --cards ../shared/cards --json",
            details="Re-read every registered source document and rewrite rulings_data/entries/ "
            "(the same input changes no byte); with --cards, the LackeyCCG card lists too.",
        ),
    )
    p.set_defaults(run=run_import)
    p.add_argument(
        "--cards", type=Path, help="folder of LackeyCCG card lists (1e/, 2e/) to re-import"
    )
    p.add_argument("--json", action="store_true", help=REPORT_JSON_HELP)
    p = sub.add_parser(
        "bench",
        **described(
            "measure search speed, recall and memory against a baseline",
            "rulings bench --entries 10000 --queries 100",
            "rulings bench --visibility --changes 5 --json",
            "rulings bench --start --rounds 5",
        ),
    )
    p.set_defaults(run=run_bench)
    p.add_argument(
        "--entries",
        type=int,
        help="synthetic entries (default: 100000; with --start: 1000, 10000 and 100000)",
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
    p.add_argument(
        "--start",
        action="store_true",
        help="instead: a new process's start, first answer and memory, with and without the "
        "answers' snapshot; and a cold `rulings show` beside `rulings --version`",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="with --start: runs of each start measured, medians reported (default 5)",
    )
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    from bot.cli.moderation import add_moderation_commands

    add_moderation_commands(sub)
    _add_export_command(sub)
    from bot.cli.ingest import add_ingest_command

    add_ingest_command(sub)
    from bot.cli.ops import add_ops_commands

    add_ops_commands(sub)
    from bot.cli.health import add_health_command

    add_health_command(sub)
    from bot.cli.eval import add_eval_command

    add_eval_command(sub)
    _add_plugin_commands(sub)


def _add_export_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        **described(
            "write the live store back to rulings_data/ YAML for review",
            "rulings export && git diff rulings_data/",
            "rulings export --json",
        ),
    )
    p.set_defaults(run=run_export)
    p.add_argument("--json", action="store_true", help=REPORT_JSON_HELP)


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

    def keep_snapshot(self) -> None:
        """After a command ran to its end and its output was written: the next command
        starts from the answers' snapshot (when this one had to build them)."""
        if self._rulings is not None:
            self._rulings.keep_snapshot()

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
        emit_json(found)
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
        emit_json(found)
    else:
        if not found["confident"]:
            err = ctx.out(sys.stderr)
            if found["results"]:
                err.line(f"No confident match for {args.query!r}; closest:")
            else:  # never a heading over an empty list
                err.line(f"Nothing found for {args.query!r}: no ruling shares its words.")
            if found.get("hint"):
                err.line(found["hint"])
            err.flush()
        out = ctx.out()
        render.search_results(out, found)
        out.flush()
    return EXIT_OK if found["confident"] else EXIT_NO_MATCH


def run_show(ctx: Context) -> int:
    args = ctx.args
    answer, suggestions = ctx.rulings.show(args.query, edition=args.edition, as_of=args.as_of)
    if answer is None:
        return _miss(ctx, suggestions)
    if args.json:
        emit_json(answer)
    else:
        from bot.cli import render  # rich: only when drawing for a reader

        out = ctx.out()
        render.answer(out, answer)
        out.flush()
    return EXIT_OK


def run_card(ctx: Context) -> int:
    args = ctx.args
    rulings = ctx.rulings
    card, found = rulings.card(args.query, edition=args.edition)
    if card is None:
        return _miss(ctx, found)
    if args.json:
        emit_json(card)
    else:
        from bot.cli import render

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
        emit_json(data)
    else:
        out = ctx.out()
        out.line(
            f"{data['title']}: "
            + (", ".join(r["title"] for r in data["related"]) or "no related terms")
        )
        out.flush()
    return EXIT_OK


def run_history(ctx: Context) -> int:
    args = ctx.args
    data = ctx.rulings.history(args.query, edition=args.edition, as_of=args.as_of)
    if data is None:
        return _miss(ctx)
    if args.json:
        emit_json(data)
        return EXIT_OK
    from bot.cli import render

    out = ctx.out()
    render.history(out, data)
    out.flush()
    return EXIT_OK


def run_changes(ctx: Context) -> int:
    args = ctx.args
    changes = ctx.rulings.changes(args.since, edition=args.edition)
    if args.json:
        emit_json({"since": args.since, "changes": changes})
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
        emit_json({"documents": sources})
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
    cards: dict[str, dict[str, int]] = {}
    if args.cards:
        from bot.ingest.cards import load_card_index
        from bot.ingest.dataset import CARDS_DIR

        for edition in ("1e", "2e"):
            listed = load_card_index(data_dir / CARDS_DIR / f"{edition}.yaml")
            subtitled = sum(1 for c in listed if c.subtitle)
            cards[edition.upper()] = {"cards": len(listed), "subtitled": subtitled}
    if args.json:
        emit_json({"documents": [_import_report(r) for r in reports], "cards": cards})
        return EXIT_OK
    print_report(reports)
    for edition, count in cards.items():
        print(f"cards {edition}: {count['cards']} cards ({count['subtitled']} with a subtitle)")
    return EXIT_OK


def _import_report(report: Any) -> dict[str, Any]:
    """One document's import summary (``bot.ingest.importer.DocumentReport``) as JSON."""
    return {
        "id": report.document.id,
        "file": report.document.file,
        "read": report.read,
        "written": report.written,
        "changed": report.changed,
        "marked_new": report.marked_new,
        "errata": report.errata,
        "title_only": report.title_only,
        "resolved": report.resolved,
        "unresolved": report.unresolved,
        "warnings": report.warnings,
    }


def run_bench(ctx: Context) -> int:
    ctx.args.entries_given = ctx.args.entries is not None
    if ctx.args.entries is None:
        ctx.args.entries = 100_000
    if ctx.args.start:
        from bot.cli.bench_start import main as start_main

        return start_main(ctx.args)
    if ctx.args.visibility:
        from bot.cli.visibility import main as visibility_main

        return visibility_main(ctx.args)
    from bot.cli.bench import main as bench_main

    return bench_main(ctx.args)


def run_export(ctx: Context) -> int:
    from bot.store.export import export_store

    changed = export_store(ctx.rulings.store, ctx.data_dir)
    if ctx.args.json:
        emit_json({"data": str(ctx.data_dir), "written": changed})
        return EXIT_OK
    print(
        "\n".join(f"wrote {name}" for name in changed) or "rulings_data/ already matches the store"
    )
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    _fill_closed_streams()
    interrupts.install()
    try:
        argv = sys.argv[1:] if argv is None else argv
        parser = build_parser(full=command_named(argv) not in LOOKUPS)
        args = parser.parse_args(argv)
        from bot.logs import configure_logging

        level = os.environ.get("RULINGS_LOG_LEVEL", "WARNING").upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            level = "WARNING"
        configure_logging(logging.INFO if args.verbose else level)
        code = _run_reporting(args)
        # a Ctrl-C some code swallowed (see bot.cli.interrupts) still ends in its status
        return EXIT_INTERRUPTED if interrupts.received() else code
    except KeyboardInterrupt:  # Ctrl-C: stop quietly, and say so in the exit status
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader left while the parser printed --help
        _quiet_stdout()
        return EXIT_OK


def _run_reporting(args: argparse.Namespace) -> int:
    """Run the command; the errors an operator can act on become one line on stderr."""
    try:
        return _run(args)
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


def _fill_closed_streams() -> None:
    """Started with stdout or stderr closed (``rulings show x >&-``): point the descriptor at
    /dev/null, so that output goes nowhere quietly, and no file opened later (the store)
    takes descriptor 1 or 2 and receives the output instead."""
    for fd, name in ((1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        devnull = os.open(os.devnull, os.O_WRONLY)
        if devnull != fd:
            os.dup2(devnull, fd)
            os.close(devnull)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "w", encoding="utf-8", closefd=False))  # noqa: SIM115


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
        code = args.run(ctx)
        ctx.keep_snapshot()  # not after an error or Ctrl-C: those end now
        return code
    finally:
        ctx.close()


if __name__ == "__main__":
    raise SystemExit(main())

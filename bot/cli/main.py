"""``rulings``: the command-line front door (no Discord token needed).

Exit codes: 0 an answer, 1 no confident match, 2 usage or data errors (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sqlite3
import sys
import textwrap
from pathlib import Path
from typing import Any

from bot import validate
from bot.store.health import StoreUnavailable

log = logging.getLogger(__name__)

EXIT_OK, EXIT_NO_MATCH, EXIT_ERROR = 0, 1, 2


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulings", description="Official Star Trek CCG rulings (1E and 2E)."
    )
    parser.add_argument(
        "--db", type=Path, help="SQLite store path (default: user cache; env RULINGS_DB)"
    )
    parser.add_argument(
        "--data", type=Path, help="data folder (default: bundled rulings_data; env RULINGS_DATA)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def lookup(name: str, help_text: str, query_help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("query", metavar="QUERY", help=query_help)
        p.add_argument("--edition", type=_edition, help="1E or 2E")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        return p

    p = lookup("search", "rank rulings for a query", "words, a title, a card name, a nickname")
    p.set_defaults(run=run_search)
    p.add_argument("--limit", type=_limit, default=10, help="how many results (1-50)")
    p = lookup("show", "the ruling that answers a query or id", "a query or an entry/topic id")
    p.set_defaults(run=run_show)
    p.add_argument("--as-of", type=_date, help="the version in force on this date (YYYY-MM-DD)")
    p = lookup("related", "related terms of a ruling", "a query or an entry/topic id")
    p.set_defaults(run=run_related)
    p = lookup("history", "every version of a ruling, newest first", "a query or an entry/topic id")
    p.set_defaults(run=run_history)
    p.add_argument(
        "--as-of", type=_date, help="mark the version in force on this date (YYYY-MM-DD)"
    )
    p = sub.add_parser("changes", help="what documents published since a date added or changed")
    p.set_defaults(run=run_changes)
    p.add_argument("--since", type=_date, required=True, help="YYYY-MM-DD")
    p.add_argument("--edition", type=_edition, help="1E or 2E")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("sources", help="the documents the answers come from")
    p.set_defaults(run=run_sources)
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("import", help="re-import the source documents into rulings_data/")
    p.set_defaults(run=run_import)
    p.add_argument(
        "--cards", type=Path, help="folder of LackeyCCG card lists (1e/, 2e/) to re-import"
    )
    p = sub.add_parser("bench", help="measure search speed, recall and memory against a baseline")
    p.set_defaults(run=run_bench)
    p.add_argument("--entries", type=int, default=100_000)
    # 300 queries keep a run at 100,000 entries under two minutes: the baseline's full scans
    # (about 0.2 s each here) dominate it.
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--json", action="store_true")
    _add_moderation_commands(sub)
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
    p.add_argument("--title", required=True)
    p.add_argument("--edition", type=_edition, required=True)
    p.add_argument(
        "--kind", default="rule", choices=["rule", "card ruling", "erratum", "clarification"]
    )
    p.add_argument("--text", required=True, help="the ruling text ('-' reads standard input)")
    p.add_argument(
        "--document", required=True, help="a document id, or the title of a new document"
    )
    p.add_argument("--date", type=_date, help="the document's date (a new document)")
    p.add_argument("--alias", action="append", default=[], help="a nickname (repeatable)")
    p = sub.add_parser("edit", parents=[who], help="edit a ruling's title or text")
    p.set_defaults(run=run_edit)
    p.add_argument("entry", help="the entry id (see `rulings show --json`)")
    p.add_argument("--title")
    p.add_argument("--text", help="the new text ('-' reads standard input)")
    p.add_argument("--based-on", type=int, help="the version you read (default: the current one)")
    p = sub.add_parser("retire", parents=[who], help="stop a ruling answering; it stays in history")
    p.set_defaults(run=run_retire)
    p.add_argument("entry")
    p = sub.add_parser("alias", parents=[who], help="add or remove a nickname")
    p.set_defaults(run=run_alias)
    p.add_argument("action", choices=["add", "remove"])
    p.add_argument("target", help="a topic id, e.g. 2e-klingon-tea-ceremony")
    p.add_argument("alias")
    p = sub.add_parser("log", help="recent moderator changes")
    p.set_defaults(run=run_log)
    p.add_argument("--count", type=_limit, default=10)
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("revert", parents=[who], help="undo a change by its number")
    p.set_defaults(run=run_revert)
    p.add_argument("change", type=int)
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


def _wrap(text: str, width: int) -> str:
    out = []
    for paragraph in text.split("\n\n"):
        lines = []
        for line in paragraph.split("\n"):
            indent = (
                "   "
                if line[:3].strip()
                and line.split(" ", 1)[0].rstrip(".)").isalnum()
                and line[1:3] in (". ", ") ")
                else ""
            )
            lines.append(
                textwrap.fill(
                    line,
                    width=width,
                    subsequent_indent=indent or ("  " if line.startswith("- ") else ""),
                )
            )
        out.append("\n".join(lines))
    return "\n\n".join(out)


def _attribution(answer: dict[str, Any]) -> str:
    return f"— {answer['source']} · {answer['edition']} · {answer['date'] or 'undated'}"


def print_answer(answer: dict[str, Any], width: int) -> None:
    status = "" if answer["status"] == "current" else "  [superseded]"
    print(f"{answer['title']} ({answer['edition']}){status}")
    print()
    if answer.get("editions"):
        listed = "; ".join(f"{e['title']} ({e['edition']}) [{e['id']}]" for e in answer["editions"])
        print(f"Both editions match: {listed}. Add --edition to pick one.")
        print()
    if answer.get("passage"):
        print(_wrap("The part that answers: " + answer["passage"]["text"], width))
        print()
    if answer.get("rulings_note"):
        print(answer["rulings_note"])
        print()
    if answer.get("note"):
        print(answer["note"])
    else:
        print(_wrap(answer["text"], width))
    print()
    print(_attribution(answer))
    if answer.get("base"):
        base = answer["base"]
        print()
        print(f"It amends this earlier version ({base['source']}, {base['date'] or 'undated'}):")
        print(textwrap.indent(_wrap(base["text"], width - 4), "    "))
    others = [v for v in answer["versions"] if v["id"] != answer["id"]]
    if others:
        listed = "; ".join(
            f"{v['source']} ({v['date'] or 'undated'}, {v['status']})" for v in others
        )
        print(f"Other versions: {listed}. See `rulings history {answer['id']}`.")
    if answer.get("card"):
        card = answer["card"]
        print(f"Card: {card['name']} ({card['type']}): {card['text']}")
    if answer.get("also"):
        print("Also: " + ", ".join(f"{a['title']} ({a['edition']})" for a in answer["also"]))
    if answer["related"]:
        print("Related: " + ", ".join(r["title"] for r in answer["related"]))


def print_suggestions(search: dict[str, Any]) -> None:
    print(f"No confident match for {search['query']!r}.", file=sys.stderr)
    if search["results"]:
        print("Did you mean:", file=sys.stderr)
        for r in search["results"][:5]:
            print(f"  {r['title']} ({r['edition']})  [{r['id']}]", file=sys.stderr)


def _emit(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


class Context:
    """What a subcommand's handler works with: its arguments, the data folder, the terminal
    width, and the service, opened on first use (import and bench never need it)."""

    def __init__(self, args: argparse.Namespace):
        from bot.ingest.dataset import default_data_dir

        self.args = args
        self.data_dir: Path = args.data or default_data_dir()
        self.width = min(100, shutil.get_terminal_size((88, 20)).columns)
        self._rulings = None

    @property
    def rulings(self):
        if self._rulings is None:
            from bot.answers.service import Rulings

            self._rulings = Rulings.open(self.args.db, self.data_dir)
        return self._rulings

    def close(self) -> None:
        if self._rulings is not None:
            self._rulings.close()


# ------------------------------------------------------------------------ lookups
def run_search(ctx: Context) -> int:
    args = ctx.args
    found = ctx.rulings.search(args.query, edition=args.edition, limit=args.limit)
    if args.json:
        _emit(found)
    else:
        if not found["confident"]:
            print(f"No confident match for {args.query!r}; closest:", file=sys.stderr)
        for r in found["results"]:
            print(
                f"{r['score']:.2f}  {r['title']} ({r['edition']}) — {r['source']}, {r['date'] or 'undated'}  [{r['id']}]"
            )
    return EXIT_OK if found["confident"] else EXIT_NO_MATCH


def run_show(ctx: Context) -> int:
    args = ctx.args
    answer, suggestions = ctx.rulings.show(args.query, edition=args.edition, as_of=args.as_of)
    if answer is None:
        if args.json:
            _emit(suggestions)
        else:
            if suggestions.get("note"):
                print(suggestions["note"], file=sys.stderr)
            print_suggestions(suggestions)
        return EXIT_NO_MATCH
    if args.json:
        _emit(answer)
    else:
        print_answer(answer, ctx.width)
    return EXIT_OK


def run_related(ctx: Context) -> int:
    args = ctx.args
    data = ctx.rulings.related(args.query, edition=args.edition)
    if data is None:
        print_suggestions(ctx.rulings.search(args.query, edition=args.edition, limit=5))
        return EXIT_NO_MATCH
    if args.json:
        _emit(data)
    else:
        print(
            f"{data['title']}: "
            + (", ".join(r["title"] for r in data["related"]) or "no related terms")
        )
    return EXIT_OK


def run_history(ctx: Context) -> int:
    args, width = ctx.args, ctx.width
    data = ctx.rulings.history(args.query, edition=args.edition, as_of=args.as_of)
    if data is None:
        print_suggestions(ctx.rulings.search(args.query, edition=args.edition, limit=5))
        return EXIT_NO_MATCH
    if args.json:
        _emit(data)
        return EXIT_OK
    print(f"{data['title']} ({data['edition']}) — {len(data['versions'])} version(s), newest first")
    for v in data["versions"]:
        print()
        marker = "  <- in force then" if v.get("in_force") else ""
        print(f"[{v['status']}] {v['source']} · {v['date'] or 'undated'}  [{v['id']}]{marker}")
        print(
            textwrap.indent(_wrap(v["text"] or "(text not in the bundled data)", width - 4), "    ")
        )
    return EXIT_OK


def run_changes(ctx: Context) -> int:
    args = ctx.args
    changes = ctx.rulings.changes(args.since, edition=args.edition)
    if args.json:
        _emit({"since": args.since, "changes": changes})
    else:
        if not changes:
            print(f"No rulings were added or changed after {args.since}.")
        for c in changes:
            print(
                f"{c['date']}  {c['change']:<8} {c['title']} ({c['edition']}) — {c['source']}  [{c['id']}]"
            )
    return EXIT_OK


def run_sources(ctx: Context) -> int:
    sources = ctx.rulings.sources()
    if ctx.args.json:
        _emit({"documents": sources})
    else:
        for s in sources:
            print(
                f"{s['id']:<22} {s['edition']}  {s['date'] or 'undated':<10}  "
                f"{s['entries']:>3} entries  {s['title']}"
            )
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
    args = ctx.args
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
        return _done(ctx.rulings.add_alias(_moderator(args), args.alias, args.target))
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

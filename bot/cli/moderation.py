"""The moderators' commands on the command line: ``add``, ``edit``, ``retire``, ``alias``,
``log`` and ``revert``, the operators' equivalents of /ruling-admin on the same core functions.

Each change prints "change #N: …", or with ``--json`` the change itself (one JSON document).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.cli.conventions import (
    JSON_HELP,
    REPORT_JSON_HELP,
    date_value,
    described,
    edition_value,
    emit_json,
    limit_value,
)

EXIT_OK, EXIT_ERROR = 0, 2


def add_moderation_commands(sub: argparse._SubParsersAction) -> None:
    """Operators' equivalents of /ruling-admin, on the same core functions."""
    who = argparse.ArgumentParser(add_help=False)
    who.add_argument(
        "--as", dest="moderator", default=None, help="your name for the log (default: the OS user)"
    )
    who.add_argument("--reason", help="why, for the log")
    who.add_argument("--json", action="store_true", help=REPORT_JSON_HELP + " (the change)")
    p = sub.add_parser(
        "add",
        parents=[who],
        **described(
            "add a ruling",
            'rulings add --title "Q-Flash timing" --edition 1E --document 1e-crd-2014-11-03 '
            '--text "The Q-Flash is ..." --reason "committee ruling of 2015-01-05"',
            'echo "text" | rulings add --title T --edition 2E --kind clarification '
            '--document "Store rulings" --new-document --date 2015-01-05 --text - --json',
            details="Add a ruling to an existing document (or, with --new-document, a new "
            "one). It answers at once, and the change is logged and revertible.",
        ),
    )
    p.set_defaults(run=run_add)
    p.add_argument("--title", required=True, help="the ruling's title")
    p.add_argument("--edition", type=edition_value, required=True, help="1E or 2E")
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
    p.add_argument("--date", type=date_value, help="the document's date (a new document)")
    p.add_argument("--alias", action="append", default=[], help="a nickname (repeatable)")
    p = sub.add_parser(
        "edit",
        parents=[who],
        **described(
            "edit a ruling's title or text",
            'rulings edit 2e-crd-2011-10-05:klingon-tea-ceremony --title "Klingon Tea Ceremony"',
            "rulings edit 1e-crd-2014-11-03:missions-attempt --text - --reason typo < fixed.txt",
        ),
    )
    p.set_defaults(run=run_edit)
    p.add_argument("entry", help="the entry id (see `rulings show --json`)")
    p.add_argument("--title", help="the new title")
    p.add_argument("--text", help="the new text ('-' reads standard input)")
    p.add_argument("--based-on", type=int, help="the version you read (default: the current one)")
    p = sub.add_parser(
        "retire",
        parents=[who],
        **described(
            "stop a ruling answering; it stays in history",
            'rulings retire 1e-crd-2014-11-03:matching-commander --reason "superseded by the 2015 CRD"',
        ),
    )
    p.set_defaults(run=run_retire)
    p.add_argument("entry", help="the entry id (see `rulings show --json`)")
    p = sub.add_parser(
        "alias",
        parents=[who],
        **described(
            "add or remove a nickname",
            "rulings alias add 2e-klingon-tea-ceremony KTC",
            "rulings alias remove 2e-klingon-tea-ceremony tea --json",
        ),
    )
    p.set_defaults(run=run_alias)
    p.add_argument("action", choices=["add", "remove"], help="add or remove")
    p.add_argument("target", help="a topic id, e.g. 2e-klingon-tea-ceremony")
    p.add_argument("alias", help="the nickname")
    p.add_argument(
        "--repoint",
        action="store_true",
        help="move an alias that already leads to another ruling (refused without it)",
    )
    p = sub.add_parser(
        "log",
        **described(
            "recent moderator changes, newest first, and any conflicts",
            "rulings log",
            "rulings log --count 50 --json",
        ),
    )
    p.set_defaults(run=run_log)
    p.add_argument("--count", type=limit_value, default=10, help="how many changes (1-50)")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p = sub.add_parser(
        "revert",
        parents=[who],
        **described(
            "undo a change by its number",
            'rulings revert 12 --reason "added by mistake"',
            "rulings revert 12 --json",
        ),
    )
    p.set_defaults(run=run_revert)
    p.add_argument("change", type=int, help="the change number (see `rulings log`)")


def run_log(ctx) -> int:
    rulings = ctx.rulings
    changes = rulings.change_log(ctx.args.count)
    if ctx.args.json:
        emit_json({"changes": changes, "conflicts": rulings.conflicts()})
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


def _done(ctx, change: dict[str, Any]) -> int:
    """A moderator change made: its number and summary, or with --json the whole change."""
    if ctx.args.json:
        emit_json(change)
    else:
        print(f"change #{change['id']}: {change['action']} {change['summary']}")
    return EXIT_OK


def run_add(ctx) -> int:
    from bot.answers.moderation import UnknownDocument

    args = ctx.args
    try:
        return _add(ctx, args)
    except UnknownDocument as exc:
        print(f"rulings: error: {exc} (--new-document)", file=sys.stderr)
        return EXIT_ERROR


def _add(ctx, args: argparse.Namespace) -> int:
    return _done(
        ctx,
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
        ),  # fmt: skip
    )


def run_edit(ctx) -> int:
    args = ctx.args
    entry = ctx.rulings.editable_entry(args.entry)
    if entry is None:
        print(f"rulings: error: no entry {args.entry!r}", file=sys.stderr)
        return EXIT_ERROR
    based_on = args.based_on if args.based_on is not None else entry["version"]
    return _done(
        ctx,
        ctx.rulings.edit_ruling(
            _moderator(args),
            args.entry,
            based_on,
            title=args.title,
            text=_text(args.text),
            reason=args.reason,
        ),  # fmt: skip
    )


def run_retire(ctx) -> int:
    args = ctx.args
    return _done(ctx, ctx.rulings.retire_ruling(_moderator(args), args.entry, args.reason or ""))


def run_alias(ctx) -> int:
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
        return _done(ctx, change)
    return _done(ctx, ctx.rulings.remove_alias(_moderator(args), args.alias, args.target))


def run_revert(ctx) -> int:
    args = ctx.args
    return _done(ctx, ctx.rulings.revert_change(_moderator(args), args.change, args.reason))

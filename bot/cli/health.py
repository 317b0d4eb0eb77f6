"""``rulings health``: is the bot running and connected to Discord? Reads the heartbeat the
bot writes beside its store (see :mod:`bot.heartbeat`); the Docker image's health check."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot import heartbeat
from bot.cli.conventions import REPORT_JSON_HELP, described, emit_json


def _health(args: argparse.Namespace) -> int:
    from bot.settings import load_settings
    from bot.store.build import default_db_path

    db = Path(args.db) if args.db else default_db_path()
    shards = load_settings().shard_ids  # the same settings as the bot it checks on
    found = heartbeat.check(heartbeat.path_for(db, shards), stale=args.stale)
    if args.json:
        emit_json({"healthy": found.healthy, "reason": found.reason, "beat": found.beat})
    else:
        print(("ok: " if found.healthy else "unhealthy: ") + found.reason)
    return 0 if found.healthy else 1


def add_health_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "health",
        **described(
            "whether the running bot is connected to Discord (exit 0) or not (exit 1)",
            "rulings health",
            "RULINGS_DB=/data/rulings.sqlite3 rulings health --json",
            details="Read the heartbeat the running bot writes beside its store every "
            f"{heartbeat.INTERVAL_SECONDS} s: healthy while it is connected to Discord and "
            "the heartbeat is recent. The Docker image's health check.",
        ),
    )
    p.add_argument(
        "--stale",
        type=float,
        default=heartbeat.STALE_SECONDS,
        help=f"seconds after which a heartbeat is too old (default {heartbeat.STALE_SECONDS})",
    )
    p.add_argument("--json", action="store_true", help=REPORT_JSON_HELP)
    p.set_defaults(handler=_health)

"""``rulings``: the command line (lookups, imports, moderation, operations, benchmarks)."""

from bot.cli.main import main

__all__ = ["main"]

"""``rulings bot`` and ``rulings sync``: the Discord subcommands of the CLI.

They are registered through the ``rulings.commands`` entry point group, so the core CLI
(``bot/cli.py``) offers them without importing anything of Discord itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys

from bot.settings import Settings, SettingsError, load_settings

log = logging.getLogger(__name__)


def add_commands(sub: argparse._SubParsersAction) -> None:
    from bot.cli.conventions import described

    p = sub.add_parser(
        "bot",
        **described(
            "connect to Discord and answer (token from DISCORD_TOKEN)",
            "DISCORD_TOKEN=... rulings bot",
            "RULINGS_LOG_LEVEL=INFO rulings bot",
            notes="Settings come from the environment or a .env file: see deploy/env.example. "
            "SIGTERM or Ctrl-C disconnects cleanly.",
        ),
    )
    p.set_defaults(handler=run_bot)
    p = sub.add_parser(
        "sync",
        **described(
            "register the slash commands with Discord (on purpose, not on start)",
            "rulings sync",
            "rulings sync --guild 123456789012345678 --json",
        ),
    )
    p.add_argument("--guild", type=int, help="register to one server only (instant; for testing)")
    p.add_argument(
        "--json", action="store_true", help="print what was registered as one JSON document"
    )
    p.set_defaults(handler=run_sync)


def _token(settings: Settings) -> str:
    if not settings.token:
        raise SettingsError(
            "DISCORD_TOKEN is not set (environment or .env); see README, 'Running the bot'"
        )
    if not Settings.token_looks_valid(settings.token):
        raise SettingsError(
            "DISCORD_TOKEN does not look like a bot token (three dot-separated parts)"
        )
    return settings.token


def make_bot(settings: Settings, db_path=None, data_dir=None):
    """Build the store, index and state at the entry point and hand them to the bot."""
    from bot.answers.service import Rulings
    from bot.store.state import State, state_path_for
    from commands.app import bot_class

    if settings.shard_ids and not settings.shard_count:
        raise SettingsError(
            "RULINGS_SHARD_IDS needs RULINGS_SHARD_COUNT (the total across processes)"
        )
    rulings = Rulings.open(db_path or settings.db_path, data_dir or settings.data_dir)
    state = State(state_path_for(rulings.store.path), settings.inline_lookups_default)
    return bot_class(settings)(rulings, state, settings)


async def _serve(bot, token: str) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    async with bot:
        runner = asyncio.create_task(bot.start(token))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("shutting down")
            await bot.close()
        stopper.cancel()
        await asyncio.gather(runner, return_exceptions=stopper in done)


def _prepare(args: argparse.Namespace):
    """Settings, token and the bot, or None after a one-line error on stderr."""
    try:
        settings = load_settings()
        token = _token(settings)
        logging.getLogger().setLevel(settings.log_level)  # the bot's level: RULINGS_LOG_LEVEL
        return make_bot(settings, args.db, args.data), token
    except SettingsError as exc:
        print(f"rulings: error: {exc}", file=sys.stderr)
        return None


def run_bot(args: argparse.Namespace) -> int:
    import discord  # here, not at the top: `rulings search` must not pay for importing it

    prepared = _prepare(args)
    if prepared is None:
        return 2
    bot, token = prepared
    try:
        asyncio.run(_serve(bot, token))
    except discord.LoginFailure:
        print(
            "rulings: error: Discord rejected the token (DISCORD_TOKEN); create a new one",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "rulings: error: enable the Message Content intent in the Developer Portal, "
            "or set RULINGS_MESSAGE_CONTENT_INTENT=false",
            file=sys.stderr,
        )
        return 2
    finally:
        bot.rulings.close()
        bot.state.close()
    return 0


async def _sync(bot, token: str, guild_id: int | None) -> list:
    import discord

    async with bot:
        await bot.login(token)  # runs setup_hook, which loads the commands
        home = bot.settings.home_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=guild)
            return await bot.tree.sync(guild=guild)
        synced = await bot.tree.sync()
        if home:  # the moderators' commands live in the home server only
            synced += await bot.tree.sync(guild=discord.Object(id=home))
        return synced


def run_sync(args: argparse.Namespace) -> int:
    import discord

    prepared = _prepare(args)
    if prepared is None:
        return 2
    bot, token = prepared
    try:
        synced = asyncio.run(_sync(bot, token, args.guild))
    except discord.LoginFailure:
        print("rulings: error: Discord rejected the token (DISCORD_TOKEN)", file=sys.stderr)
        return 2
    except discord.HTTPException as exc:
        print(f"rulings: error: Discord refused the commands: {exc}", file=sys.stderr)
        return 2
    finally:
        bot.rulings.close()
        bot.state.close()
    if args.json:
        names = [command.name for command in synced]
        print(json.dumps({"guild": args.guild, "commands": names}, ensure_ascii=False))
        return 0
    where = (
        f"server {args.guild}"
        if args.guild
        else "all servers (global; may take up to an hour to show)"
    )
    print(
        f"Registered {len(synced)} commands for {where}: {', '.join('/' + c.name for c in synced)}"
    )
    return 0

"""Run the real bot in its own process against a fake Discord (for multi-process tests).

    python -m tests.fakediscord.launch_bot API_BASE GATEWAY_URL

Settings come from the environment, as in production (DISCORD_TOKEN, RULINGS_DB, ...).
Only where Discord is differs: the two class attributes discord.py reads for it.
"""

import asyncio
import logging
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.settings import load_settings
from commands.run import _serve, make_bot


def main() -> None:
    api_base, gateway = sys.argv[1], sys.argv[2]
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s"
    )
    settings = load_settings(env_file=None)
    bot = make_bot(settings)
    bot._connection.guild_ready_timeout = 0.01
    asyncio.run(_serve(bot, settings.token))


if __name__ == "__main__":
    main()

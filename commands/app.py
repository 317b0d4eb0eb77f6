"""The bot: one ``commands.Bot`` subclass with its dependencies handed in."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.settings import Settings
from commands.errors import on_tree_error
from commands.render import NO_PINGS
from commands.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

EXTENSIONS = ("commands.lookup", "commands.messages", "commands.moderation")


def intents_for(settings: Settings) -> discord.Intents:
    """Only what the bot needs: servers, DMs (content arrives without the privileged intent),
    and guild message content only when an operator enabled inline lookups."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    if settings.message_content_intent:
        intents.guild_messages = True
        intents.message_content = True
    return intents


class RulingsBot(commands.Bot):
    def __init__(self, rulings, state, settings: Settings, **options):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents_for(settings),
            help_command=None,
            allowed_mentions=NO_PINGS,
            **options,
        )
        self.rulings = rulings
        self.state = state
        self.settings = settings

    async def setup_hook(self) -> None:
        self.tree.on_error = on_tree_error
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))

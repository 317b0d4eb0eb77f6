"""Per-server settings, for members who may manage the server: /inline and /announcements."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from commands.app import Interaction, RulingsClient
from commands.errors import UserError
from commands.render import NO_PINGS

log = logging.getLogger(__name__)


class ServerSettings(commands.Cog):
    @app_commands.command(
        name="inline", description="Turn [[term]] lookups in messages on or off here"
    )
    @app_commands.describe(enabled="On: messages with [[term]] get an answer in this server")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def inline(self, interaction: Interaction, enabled: bool) -> None:
        if interaction.guild_id is None:
            raise UserError("This works in servers only.")
        state = interaction.client.state
        await asyncio.to_thread(state.set_inline, interaction.guild_id, enabled)
        note = (
            "Inline lookups are on: `[[term]]` in a message gets an answer (at most three per message). "
            "The bot needs the Message Content intent for this."
            if enabled
            else "Inline lookups are off."
        )
        await interaction.response.send_message(note, ephemeral=True)

    @app_commands.command(
        name="announcements", description="Where this server hears about ruling updates"
    )
    @app_commands.describe(
        channel="The channel for 'Rulings updated' notes; leave out to stop them"
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def announcements(
        self, interaction: Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        state = interaction.client.state
        await asyncio.to_thread(
            state.set_announcements, interaction.guild_id, channel.id if channel else None
        )
        text = (
            f"Ruling updates will be announced in {channel.mention}."
            if channel
            else "Ruling updates will not be announced here."
        )
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def setup(bot: RulingsClient) -> None:
    await bot.add_cog(ServerSettings())

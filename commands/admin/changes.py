"""Carry out a confirmed change through the core, and tell the servers that asked to hear."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.answers.moderation import ModerationError
from commands import limits
from commands.admin.checks import moderator_of
from commands.app import Interaction, RulingsClient
from commands.render import NO_PINGS, clamp

log = logging.getLogger(__name__)


async def apply_pending(
    interaction: Interaction, action: str, payload: dict[str, Any]
) -> dict[str, Any]:
    rulings = interaction.client.rulings
    moderator = moderator_of(interaction)
    if action == "add":
        return await asyncio.to_thread(rulings.add_ruling, moderator, **payload)
    if action == "edit":
        entry_id, version = payload.pop("entry_id"), payload.pop("based_on")
        return await asyncio.to_thread(rulings.edit_ruling, moderator, entry_id, version, **payload)
    if action == "retire":
        return await asyncio.to_thread(
            rulings.retire_ruling, moderator, payload["entry_id"], payload["reason"]
        )
    if action == "alias":  # the moderator saw where it leads now and confirmed the move
        return await asyncio.to_thread(
            rulings.add_alias, moderator, payload["alias"], payload["target"], repoint=True
        )
    if action == "import":
        return await asyncio.to_thread(
            lambda: rulings.apply_import(
                moderator,
                payload["preview"],
                accept_warnings=bool(payload.get("accept_warnings")),
            )
        )
    raise ModerationError(f"Unknown change {action}.")


async def announce(bot: RulingsClient, text: str) -> None:
    """'Rulings updated: …' in every server's configured announcement channel."""
    for channel_id in await asyncio.to_thread(bot.state.announcement_channels):
        try:
            await bot.get_partial_messageable(channel_id).send(
                clamp(text, limits.MESSAGE_CONTENT), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            log.warning("could not announce in channel %s: %s", channel_id, exc)

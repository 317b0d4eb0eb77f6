"""One error handler on the command tree.

Expected errors become short ephemeral replies; anything else is logged with the command,
user and server, and the user gets an apology, never silence.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.answers.moderation import ModerationError

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong answering that. It has been logged for the operators."


class UserError(app_commands.AppCommandError):
    """An expected problem with what the user typed; shown to them as is."""


def describe(error: app_commands.AppCommandError) -> str | None:
    """The message for an expected error, or None when it is unexpected."""
    if isinstance(error, UserError):
        return str(error)
    if isinstance(getattr(error, "original", None), ModerationError):
        return f"Not changed: {error.original}"
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works in servers only."
    if isinstance(
        error,
        app_commands.MissingPermissions | app_commands.MissingRole | app_commands.MissingAnyRole,
    ):
        return "You don't have permission to use this command."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use this command here."
    if isinstance(error, app_commands.TransformerError):
        return f"“{error.value}” isn't a valid value here."
    return None


async def reply(interaction: discord.Interaction, message: str) -> None:
    """Respond, or follow up when the interaction was already answered."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(
                message, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await interaction.response.send_message(
                message, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


async def on_tree_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    message = describe(error)
    command = interaction.command.qualified_name if interaction.command else "?"
    if message is None:
        original = getattr(error, "original", error)
        log.error(
            "command %s failed for user %s in guild %s",
            command,
            interaction.user.id if interaction.user else "?",
            interaction.guild_id,
            exc_info=(type(original), original, original.__traceback__),
        )
        message = APOLOGY
    else:
        log.info(
            "command %s refused for user %s: %s",
            command,
            getattr(interaction.user, "id", "?"),
            message,
        )
    await reply(interaction, message)


async def on_view_error(interaction: discord.Interaction, error: Exception, item: object) -> None:
    log.error(
        "component %s failed for user %s in guild %s",
        getattr(item, "custom_id", item),
        getattr(interaction.user, "id", "?"),
        interaction.guild_id,
        exc_info=(type(error), error, error.__traceback__),
    )
    await reply(interaction, APOLOGY)

"""Who is a rulings moderator, and where: the home server, with the moderator role (or a
listed user id), checked at run time on every command, click and submit."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.answers.moderation import Moderator
from commands.app import Interaction
from commands.errors import on_view_error

log = logging.getLogger(__name__)


class NotModerator(app_commands.CheckFailure):
    def __init__(self) -> None:
        super().__init__("Only rulings moderators of the home server can do this.")


def is_moderator(interaction: Interaction) -> bool:
    """The home server, and the moderator role (or a listed moderator id), right now."""
    settings = interaction.client.settings
    if settings.home_guild_id is None or interaction.guild_id != settings.home_guild_id:
        return False
    if interaction.user.id in settings.moderator_user_ids:
        return True
    role_id = settings.moderator_role_id
    if role_id is None or not isinstance(interaction.user, discord.Member):
        return False
    return (
        any(role.id == role_id for role in interaction.user.roles)
        or role_id in interaction.user._roles
    )


def _refuse_log(interaction: Interaction, what: str) -> None:
    log.warning(
        "refused %s for user %s in guild %s: not a moderator",
        what,
        interaction.user.id,
        interaction.guild_id,
    )


async def moderator_check(interaction: Interaction) -> bool:
    """For slash commands: raises :class:`NotModerator` (the tree's error handler answers)."""
    if not is_moderator(interaction):
        name = interaction.command.qualified_name if interaction.command else "?"
        _refuse_log(interaction, f"/{name}")
        raise NotModerator()
    return True


async def refuse_unless_moderator(interaction: Interaction, what: str) -> bool:
    """For buttons and modals: True when allowed; otherwise an ephemeral refusal is sent."""
    if is_moderator(interaction):
        return True
    _refuse_log(interaction, what)
    await interaction.response.send_message(NotModerator().args[0], ephemeral=True)
    return False


class ModeratorOnly:
    """The base of every button, select and modal only moderators may use.

    Put it first among the bases (``class X(ModeratorOnly, discord.ui.DynamicItem[...])``):
    discord.py runs ``interaction_check`` before each click's callback or a modal's
    ``on_submit``, and this one refuses anyone who is not a moderator right now.
    ``what`` names the component in the refusal log.
    """

    what: str = "component"

    # discord.py declares this hook for any client; the checks below read our bot's settings.
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        try:
            allowed = await refuse_unless_moderator(interaction, self.what)
        except Exception as exc:  # noqa: BLE001 - discord.py would drop it without a word
            await on_view_error(interaction, exc, self)
            return False
        if not allowed and isinstance(self, discord.ui.Modal):
            self.stop()  # the refusal answered the submit: the modal is done
        return allowed


def moderator_of(interaction: Interaction) -> Moderator:
    """Who makes a change, as the change log records them."""
    return Moderator(
        id=str(interaction.user.id), name=interaction.user.display_name or interaction.user.name
    )

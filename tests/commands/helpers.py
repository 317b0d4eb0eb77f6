"""Payload helpers shared by the Discord tests."""

from tests.fakediscord import payloads


def admin(
    path: str,
    options=None,
    *,
    user=None,
    roles=(payloads.MOD_ROLE_ID,),
    guild=payloads.GUILD_ID,
    **kwargs,
):
    """A /ruling-admin interaction, by default from a home-server moderator."""
    return payloads.slash_command(
        f"ruling-admin {path}", options, guild_id=guild, user=user or payloads.MOD_USER, member_roles=roles,
        permissions=payloads.MODERATOR_PERMISSIONS | payloads.EVERYONE_PERMISSIONS,
        command_guild_id=None if kwargs.get("dm") else guild, **kwargs,
    )  # fmt: skip

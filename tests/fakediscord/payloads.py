"""Builders for raw, Discord-shaped gateway payloads (API v10).

Every builder returns plain dicts exactly as Discord would put them in a gateway DISPATCH,
so a test can push them with ``await fake.dispatch(...)`` (or ``fake.interact(...)``).
The defaults (``BOT_ID``, ``GUILD_ID``, ``CHANNEL_ID``, ``USER`` ...) describe the world the
fake serves unless it is configured otherwise, so builders and fake agree out of the box.
"""

from __future__ import annotations

import itertools
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)
_last_ms = 0


def snowflake() -> str:
    """A fresh snowflake id, unique and increasing within this process."""
    global _last_ms
    # Monotonic even if the clock goes backwards or many ids share one millisecond.
    ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, _last_ms)
    _last_ms = ms
    return str((ms << 22) | (next(_counter) & 0x3FFFFF))


def timestamp(dt: datetime | None = None) -> str:
    return (dt or datetime.now(UTC)).isoformat()


def interaction_token() -> str:
    # Real tokens are long opaque strings; only their uniqueness matters here.
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)


# Permission bits used by the defaults.
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5

EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
MODERATOR_PERMISSIONS = MANAGE_MESSAGES | MANAGE_GUILD
# What Discord reports as app_permissions in DMs.
DM_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS

# The default world. Fixed ids keep failure messages readable and stable across runs.
BOT_ID = "1100000000000000001"
GUILD_ID = "1200000000000000001"
CHANNEL_ID = "1300000000000000001"
MOD_ROLE_ID = "1400000000000000001"
USER_ID = "1500000000000000001"
MOD_USER_ID = "1500000000000000002"
OWNER_ID = MOD_USER_ID

# Default role permissions, so `member_roles=[MOD_ROLE_ID]` also raises `permissions`.
_ROLE_PERMISSIONS: dict[str, int] = {
    GUILD_ID: EVERYONE_PERMISSIONS,
    MOD_ROLE_ID: MODERATOR_PERMISSIONS,
}


def user(user_id: str | int | None = None, username: str = "someone", *, bot: bool = False) -> dict:
    """A user object."""
    return {
        "id": str(user_id or snowflake()),
        "username": username,
        "discriminator": "0",
        "global_name": None if bot else username.title(),
        "avatar": None,
        "bot": bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
        "collectibles": None,
    }


def bot_user(bot_id: str = BOT_ID, username: str = "rulings-bot") -> dict:
    """The bot's own user, as `GET /users/@me` and READY return it."""
    data = user(bot_id, username, bot=True)
    data.update(verified=True, mfa_enabled=False, locale="en-US", email=None)
    return data


USER = user(USER_ID, "player")
MOD_USER = user(MOD_USER_ID, "moderator")


def role(
    role_id: str | int,
    name: str,
    *,
    permissions: int = 0,
    position: int = 1,
    guild_id: str = GUILD_ID,
) -> dict:
    """A role object; the @everyone role has the guild's id and position 0."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": 0 if str(role_id) == str(guild_id) else position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def text_channel(
    channel_id: str | int = CHANNEL_ID,
    name: str = "general",
    *,
    guild_id: str | int = GUILD_ID,
    position: int = 0,
) -> dict:
    """A guild text channel object (type 0)."""
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": None,
        "flags": 0,
    }


def dm_channel(recipient: Mapping[str, Any], channel_id: str | int | None = None) -> dict:
    """A DM channel object (type 1) with one recipient."""
    return {
        "id": str(channel_id or dm_channel_id(recipient["id"])),
        "type": 1,
        "last_message_id": None,
        "flags": 0,
        "recipients": [dict(recipient)],
    }


_dm_channels: dict[str, str] = {}


def dm_channel_id(user_id: str | int) -> str:
    """The (stable per process) id of the DM channel between the bot and a user."""
    return _dm_channels.setdefault(str(user_id), snowflake())


def member(
    member_user: Mapping[str, Any],
    roles: Iterable[str | int] = (),
    *,
    permissions: int | None = None,
    nick: str | None = None,
) -> dict:
    """A guild member object; `permissions` only appears in interaction payloads."""
    data = {
        "user": dict(member_user),
        "roles": [str(r) for r in roles],
        "nick": nick,
        "avatar": None,
        "banner": None,
        "joined_at": "2024-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def guild(
    guild_id: str | int = GUILD_ID,
    name: str = "Test Guild",
    *,
    channels: Sequence[Mapping[str, Any]] | None = None,
    roles: Sequence[Mapping[str, Any]] | None = None,
    members: Sequence[Mapping[str, Any]] | None = None,
    owner_id: str | int = OWNER_ID,
    bot_id: str = BOT_ID,
) -> dict:
    """A full GUILD_CREATE payload. The bot's own member is added when missing."""
    gid = str(guild_id)
    channels = [dict(c) for c in (channels or [text_channel(guild_id=gid)])]
    # GUILD_CREATE channels carry no guild_id; discord.py takes it from the guild.
    for c in channels:
        c.pop("guild_id", None)
    if roles is None:
        roles = [
            role(gid, "@everyone", permissions=EVERYONE_PERMISSIONS, guild_id=gid),
            role(MOD_ROLE_ID, "Moderator", permissions=MODERATOR_PERMISSIONS, guild_id=gid),
        ]
    if members is None:
        members = [member(USER), member(MOD_USER, [MOD_ROLE_ID])]
    members = [dict(m) for m in members]
    if not any(m["user"]["id"] == bot_id for m in members):
        members.insert(0, member(bot_user(bot_id)))
    return {
        "id": gid,
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": "en-US",
        "system_channel_id": channels[0]["id"] if channels else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "features": [],
        "max_members": 500000,
        "max_video_channel_users": 25,
        "application_id": None,
        "joined_at": "2024-01-01T00:00:00+00:00",
        "large": False,
        "unavailable": False,
        # Equal to len(members) so discord.py sees the guild as chunked and does not wait.
        "member_count": len(members),
        "roles": [dict(r) for r in roles],
        "channels": channels,
        "members": members,
        "threads": [],
        "presences": [],
        "voice_states": [],
        "emojis": [],
        "stickers": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "incidents_data": None,
    }


# --- interactions ---------------------------------------------------------------------


def _option_type(value: Any) -> int:
    # bool before int: bool is a subclass of int.
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    return 3


def _options(options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None) -> list[dict]:
    """`{"name": value}` becomes typed option dicts; a list of dicts passes through."""
    if not options:
        return []
    if isinstance(options, Mapping):
        return [{"name": k, "type": _option_type(v), "value": v} for k, v in options.items()]
    return [dict(o) for o in options]


def _nest(path: str, options: list[dict]) -> tuple[str, list[dict]]:
    """'rules search' -> ('rules', [{type 1 'search' options}]); three words add a group."""
    parts = path.split()
    if not 1 <= len(parts) <= 3:
        raise ValueError(f"command path must have 1-3 words, got {path!r}")
    if len(parts) == 1:
        return parts[0], options
    sub = {"type": 1, "name": parts[-1], "options": options}
    if len(parts) == 3:
        sub = {"type": 2, "name": parts[1], "options": [sub]}
    return parts[0], [sub]


def _interaction(
    type_: int,
    data: dict | None,
    *,
    guild_id: str | int | None,
    channel_id: str | int | None,
    user: Mapping[str, Any] | None,
    member_roles: Iterable[str | int],
    permissions: int | None,
    dm: bool,
    message: Mapping[str, Any] | None = None,
    locale: str = "en-US",
    application_id: str = BOT_ID,
    app_permissions: int | None = None,
) -> dict:
    who = dict(user or USER)
    payload: dict[str, Any] = {
        "id": snowflake(),
        "application_id": str(application_id),
        "type": type_,
        "token": interaction_token(),
        "version": 1,
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        # discord.py reads this key unconditionally; 10 MiB is Discord's default.
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if data is not None:
        payload["data"] = data
    if dm:
        if guild_id is not None:
            raise ValueError("a DM interaction has no guild_id")
        channel = dm_channel(who, channel_id)
        payload.update(
            channel_id=channel["id"],
            channel=channel,
            user=who,
            app_permissions=str(
                app_permissions if app_permissions is not None else DM_APP_PERMISSIONS
            ),
            # Guild-install key with "0" means: used in the bot's DM.
            authorizing_integration_owners={"0": "0"},
            context=1,
        )
    else:
        gid = str(guild_id or GUILD_ID)
        roles = [str(r) for r in member_roles]
        if permissions is None:
            permissions = _ROLE_PERMISSIONS.get(gid, EVERYONE_PERMISSIONS)
            for r in roles:
                permissions |= _ROLE_PERMISSIONS.get(r, 0)
        channel = text_channel(channel_id or CHANNEL_ID, guild_id=gid)
        payload.update(
            guild_id=gid,
            guild={"id": gid, "locale": "en-US", "features": []},
            guild_locale="en-US",
            channel_id=channel["id"],
            channel=channel,
            member=member(who, roles, permissions=permissions),
            app_permissions=str(
                app_permissions if app_permissions is not None else EVERYONE_PERMISSIONS
            ),
            authorizing_integration_owners={"0": gid},
            context=0,
        )
    if message is not None:
        payload["message"] = dict(message)
    return payload


def attachment(
    filename: str = "file.txt",
    *,
    size: int = 12,
    content_type: str = "text/plain",
    attachment_id: str | None = None,
) -> dict:
    """An attachment object, for `slash_command(..., attachments={"option": attachment()})`."""
    aid = attachment_id or snowflake()
    url = f"https://cdn.discordapp.com/ephemeral-attachments/1/{aid}/{filename}"
    return {
        "id": aid,
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
        "ephemeral": True,
    }


def slash_command(
    name: str,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    *,
    guild_id: str | int | None = None,
    channel_id: str | int | None = None,
    user: Mapping[str, Any] | None = None,
    member_roles: Iterable[str | int] = (),
    permissions: int | None = None,
    dm: bool = False,
    command_id: str | None = None,
    command_guild_id: str | int | None = None,
    attachments: Mapping[str, Mapping[str, Any]] | None = None,
    resolved: Mapping[str, Any] | None = None,
    locale: str = "en-US",
    application_id: str = BOT_ID,
    app_permissions: int | None = None,
    _type: int = 2,
) -> dict:
    """An APPLICATION_COMMAND interaction (type 2) for a chat-input command.

    `name` may be a path ("rules search" or "admin data reload") for subcommands.
    `options` is `{"name": value}` (types inferred) or raw option dicts.
    `command_guild_id` is set for guild-registered commands (Discord sends `data.guild_id`).
    `attachments` maps an option name to an `attachment()`; it is added as a type 11
    option and to `resolved.attachments`.
    """
    opts = _options(options)
    res: dict[str, Any] = {k: dict(v) for k, v in (resolved or {}).items()}
    for opt_name, att in (attachments or {}).items():
        opts.append({"name": opt_name, "type": 11, "value": att["id"]})
        res.setdefault("attachments", {})[att["id"]] = dict(att)
    top, nested = _nest(name, opts)
    data: dict[str, Any] = {"id": command_id or snowflake(), "name": top, "type": 1}
    if nested:
        data["options"] = nested
    if res:
        data["resolved"] = res
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    return _interaction(
        _type,
        data,
        guild_id=guild_id,
        channel_id=channel_id,
        user=user,
        member_roles=member_roles,
        permissions=permissions,
        dm=dm,
        locale=locale,
        application_id=application_id,
        app_permissions=app_permissions,
    )


def autocomplete(
    name: str,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    *,
    focused: str | None = None,
    **kwargs: Any,
) -> dict:
    """An APPLICATION_COMMAND_AUTOCOMPLETE interaction (type 4).

    Mark the option being typed with `focused="option_name"` (or pass raw option dicts
    with `"focused": True`). Exactly one option must be focused, as on Discord.
    """
    opts = _options(options)
    if focused is not None:
        for o in opts:
            if o["name"] == focused:
                o["focused"] = True
    if sum(1 for o in opts if o.get("focused")) != 1:
        raise ValueError("an autocomplete payload needs exactly one focused option")
    return slash_command(name, opts, _type=4, **kwargs)


def _context_kwargs(kwargs: dict[str, Any], message: Mapping[str, Any]) -> dict[str, Any]:
    # A component lives on a message; by default interact in that message's channel.
    kwargs.setdefault("channel_id", message.get("channel_id"))
    return kwargs


def button_click(custom_id: str, message: Mapping[str, Any], **kwargs: Any) -> dict:
    """A MESSAGE_COMPONENT interaction (type 3) for a button on `message`."""
    data = {"custom_id": custom_id, "component_type": 2}
    return _component(data, message, **_context_kwargs(kwargs, message))


def select(
    custom_id: str,
    values: Sequence[str],
    message: Mapping[str, Any],
    *,
    component_type: int = 3,
    resolved: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> dict:
    """A MESSAGE_COMPONENT interaction for a select menu (string select = 3)."""
    data: dict[str, Any] = {
        "custom_id": custom_id,
        "component_type": component_type,
        "values": [str(v) for v in values],
    }
    if resolved:
        data["resolved"] = dict(resolved)
    return _component(data, message, **_context_kwargs(kwargs, message))


def _component(
    data: dict,
    message: Mapping[str, Any],
    *,
    guild_id: str | int | None = None,
    channel_id: str | int | None = None,
    user: Mapping[str, Any] | None = None,
    member_roles: Iterable[str | int] = (),
    permissions: int | None = None,
    dm: bool = False,
    locale: str = "en-US",
    application_id: str = BOT_ID,
) -> dict:
    return _interaction(
        3,
        data,
        guild_id=guild_id,
        channel_id=channel_id,
        user=user,
        member_roles=member_roles,
        permissions=permissions,
        dm=dm,
        message=message,
        locale=locale,
        application_id=application_id,
    )


def modal_submit(
    custom_id: str,
    components: Mapping[str, str] | Sequence[Mapping[str, Any]],
    *,
    guild_id: str | int | None = None,
    channel_id: str | int | None = None,
    user: Mapping[str, Any] | None = None,
    member_roles: Iterable[str | int] = (),
    permissions: int | None = None,
    dm: bool = False,
    message: Mapping[str, Any] | None = None,
    locale: str = "en-US",
    application_id: str = BOT_ID,
) -> dict:
    """A MODAL_SUBMIT interaction (type 5).

    `components` is `{text_input_custom_id: value}` (sent as one action row per text
    input, which discord.py resolves by custom_id whether the modal used rows or
    `discord.ui.Label`) or raw component dicts.
    """
    if isinstance(components, Mapping):
        comps = [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
            for k, v in components.items()
        ]
    else:
        comps = [dict(c) for c in components]
    return _interaction(
        5,
        {"custom_id": custom_id, "components": comps},
        guild_id=guild_id,
        channel_id=channel_id,
        user=user,
        member_roles=member_roles,
        permissions=permissions,
        dm=dm,
        message=message,
        locale=locale,
        application_id=application_id,
    )


# --- messages -------------------------------------------------------------------------


def _message(content: str, channel_id: str, author: Mapping[str, Any], **extra: Any) -> dict:
    data = {
        "id": snowflake(),
        "type": 0,
        "channel_id": str(channel_id),
        "author": dict(author),
        "content": content,
        "timestamp": timestamp(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "mention_channels": [],
        "attachments": [],
        "embeds": [],
        "components": [],
        "reactions": [],
        "pinned": False,
        "flags": 0,
    }
    data.update(extra)
    return data


def dm_message(
    content: str, author: Mapping[str, Any] | None = None, *, channel_id: str | None = None
) -> dict:
    """A MESSAGE_CREATE payload for a DM to the bot (no guild_id, no member)."""
    author = dict(author or USER)
    return _message(content, channel_id or dm_channel_id(author["id"]), author)


def guild_message(
    content: str,
    guild_id: str | int = GUILD_ID,
    channel_id: str | int = CHANNEL_ID,
    author: Mapping[str, Any] | None = None,
    *,
    member_roles: Iterable[str | int] = (),
    mentions: Sequence[Mapping[str, Any]] = (),
) -> dict:
    """A MESSAGE_CREATE payload in a guild channel (with a partial `member`)."""
    author = dict(author or USER)
    part = member(author, member_roles)
    part.pop("user")
    return _message(
        content,
        str(channel_id),
        author,
        guild_id=str(guild_id),
        member=part,
        mentions=[dict(m) for m in mentions],
    )

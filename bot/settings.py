"""Settings from environment variables, with an optional ``.env`` file.

The Discord token is a secret: it is read only when connecting, never logged or printed
(``Settings.__repr__`` masks it).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

_TOKEN_SHAPE = re.compile(r"^[\w-]{20,}\.[\w-]{4,}\.[\w-]{20,}$")


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and how to fix it."""


def _ids(raw: str, name: str) -> list[int]:
    out = []
    for part in filter(None, (p.strip() for p in raw.split(","))):
        if not part.isdigit():
            raise SettingsError(
                f"{name} must be numeric Discord ids separated by commas, not {part!r}"
            )
        out.append(int(part))
    return out


def _optional_id(raw: str | None, name: str) -> int | None:
    if not raw:
        return None
    ids = _ids(raw, name)
    if len(ids) != 1:
        raise SettingsError(f"{name} must be one numeric Discord id")
    return ids[0]


@dataclass
class Settings:
    token: str | None = field(default=None, repr=False)
    home_guild_id: int | None = None
    moderator_role_id: int | None = None
    moderator_user_ids: list[int] = field(default_factory=list)
    inline_lookups_default: bool = False
    message_content_intent: bool = False
    log_level: str = "INFO"
    db_path: Path | None = None
    data_dir: Path | None = None
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    cooldown_per_minute: int = 20
    stats_days: int = 90  # how long lookups are counted for /ruling-admin stats

    def __repr__(self) -> str:  # never show the token
        shown = "set" if self.token else "missing"
        return f"Settings(token={shown}, home_guild_id={self.home_guild_id}, log_level={self.log_level})"

    @staticmethod
    def token_looks_valid(token: str | None) -> bool:
        return bool(token and _TOKEN_SHAPE.match(token.strip()))


def load_settings(env_file: str | os.PathLike | None = ".env") -> Settings:
    """Read settings from the environment (a ``.env`` file fills in what is unset)."""
    if env_file and Path(env_file).exists():
        load_dotenv(env_file, override=False)
    env = os.environ

    def flag(name: str, default: bool) -> bool:
        raw = env.get(name)
        if raw is None or raw == "":
            return default
        if raw.strip().lower() in ("1", "true", "yes", "on"):
            return True
        if raw.strip().lower() in ("0", "false", "no", "off"):
            return False
        raise SettingsError(f"{name} must be true or false, not {raw!r}")

    level = env.get("RULINGS_LOG_LEVEL", "INFO").upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise SettingsError(
            f"RULINGS_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}"
        )
    shard_count = env.get("RULINGS_SHARD_COUNT")
    if shard_count and not shard_count.isdigit():
        raise SettingsError("RULINGS_SHARD_COUNT must be a whole number")
    cooldown = env.get("RULINGS_COOLDOWN_PER_MINUTE", "20")
    if not cooldown.isdigit() or int(cooldown) < 1:
        raise SettingsError("RULINGS_COOLDOWN_PER_MINUTE must be a whole number of at least 1")
    stats_days = env.get("RULINGS_STATS_DAYS", "90")
    if not stats_days.isdigit() or int(stats_days) < 1:
        raise SettingsError("RULINGS_STATS_DAYS must be a whole number of days, at least 1")
    return Settings(
        token=(env.get("DISCORD_TOKEN") or "").strip() or None,
        home_guild_id=_optional_id(env.get("RULINGS_HOME_GUILD_ID"), "RULINGS_HOME_GUILD_ID"),
        moderator_role_id=_optional_id(
            env.get("RULINGS_MODERATOR_ROLE_ID"), "RULINGS_MODERATOR_ROLE_ID"
        ),
        moderator_user_ids=_ids(
            env.get("RULINGS_MODERATOR_USER_IDS", ""), "RULINGS_MODERATOR_USER_IDS"
        ),
        inline_lookups_default=flag("RULINGS_INLINE_DEFAULT", False),
        message_content_intent=flag("RULINGS_MESSAGE_CONTENT_INTENT", False),
        log_level=level,
        db_path=Path(env["RULINGS_DB"]) if env.get("RULINGS_DB") else None,
        data_dir=Path(env["RULINGS_DATA"]) if env.get("RULINGS_DATA") else None,
        shard_count=int(shard_count) if shard_count else None,
        shard_ids=_ids(env.get("RULINGS_SHARD_IDS", ""), "RULINGS_SHARD_IDS") or None,
        cooldown_per_minute=int(cooldown),
        stats_days=int(stats_days),
    )

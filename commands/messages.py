"""Plain-text lookups: direct messages to the bot, and opt-in ``[[term]]`` in servers."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import discord
from discord.ext import commands

from commands.app import RulingsClient
from commands.render import HELP_TEXT, NO_PINGS, answer_embed
from commands.views import PUBLIC, answer_view, count_lookup, pick_view

log = logging.getLogger(__name__)

INLINE = re.compile(r"\[\[([^\[\]]{1,200})\]\]")
MAX_INLINE = 3
_EDITION_WORD = re.compile(r"(?:^|\s)\(?([12])e\)?\s*$", re.I)


def split_edition(text: str) -> tuple[str, str | None]:
    """'stopped 2E' -> ('stopped', '2E'); text without an edition word is left alone."""
    match = _EDITION_WORD.search(text)
    if match and text[: match.start()].strip():
        return text[: match.start()].strip(), f"{match.group(1)}E"
    return text.strip(), None


class Messages(commands.Cog):
    def __init__(self, bot: RulingsClient):
        self.bot = bot
        self._recent: dict[int, list[float]] = {}

    def _allowed(self, user_id: int) -> bool:
        """Per-user flood guard for message lookups (same budget as the slash commands)."""
        per_minute = self.bot.settings.cooldown_per_minute
        now = time.monotonic()
        stamps = [t for t in self._recent.get(user_id, []) if now - t < 60]
        if len(stamps) >= per_minute:
            self._recent[user_id] = stamps
            return False
        stamps.append(now)
        self._recent[user_id] = stamps
        return True

    async def answer(
        self,
        channel: discord.abc.Messageable,
        text: str,
        reference=None,
        *,
        command: str,
        guild_id: int | None = None,
    ) -> None:
        query, edition = split_edition(text)
        rulings = self.bot.rulings
        answer, suggestions = await asyncio.to_thread(rulings.show, query, edition, None)
        await count_lookup(self.bot, guild_id, command, query, answer)
        if answer is None:
            message = f"No confident match for “{query[:200]}”."
            view = None
            if suggestions.get("results"):
                message += " Did you mean one of these?"
                view = pick_view(suggestions["results"], PUBLIC, "e", "Did you mean…")
            else:
                message += " Try other words; send `help` for examples."
            await channel.send(message, view=view, allowed_mentions=NO_PINGS, reference=reference)
            return
        embed, pages = answer_embed(answer)
        await channel.send(
            embed=embed,
            view=answer_view(answer, 0, pages, False),
            allowed_mentions=NO_PINGS,
            reference=reference,
        )

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not message.content:
            return
        if message.guild is None:
            await self._direct(message)
        else:
            await self._inline(message)

    async def _direct(self, message: discord.Message) -> None:
        text = message.content.strip()
        if text.lower() in ("help", "/help", "?", "!help"):
            await message.channel.send(HELP_TEXT, allowed_mentions=NO_PINGS)
            return
        if not self._allowed(message.author.id):
            return
        await self.answer(message.channel, text[:300], command="dm")

    async def _inline(self, message: discord.Message) -> None:
        terms = INLINE.findall(message.content)[:MAX_INLINE]
        if not terms:
            return
        state = self.bot.state
        if not await asyncio.to_thread(state.inline_enabled, message.guild.id):
            return
        for term in terms:
            if not self._allowed(message.author.id):
                break
            await self.answer(
                message.channel,
                term,
                reference=message,
                command="inline",
                guild_id=message.guild.id,
            )


async def setup(bot: RulingsClient) -> None:
    await bot.add_cog(Messages(bot))

"""Plain-text lookups: direct messages to the bot, and opt-in ``[[term]]`` in servers."""

from __future__ import annotations

import asyncio
import logging
import re

import discord
from discord.ext import commands

from bot.validate import MAX_QUERY_CHARS
from commands.app import RulingsClient
from commands.errors import APOLOGY
from commands.limits import COOLDOWN_WINDOW
from commands.render import (
    HELP_TEXT,
    MISS_HINT_CHANNEL,
    MISS_HINT_DM,
    NO_PINGS,
    SLOW_DOWN,
    answer_embed,
    best_matches_embed,
)
from commands.views import PUBLIC, answer_view, best_matches_view, count_lookup, pick_view

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
        # discord.py's per-user cooldowns, as the slash commands use: a user's bucket is
        # dropped once a window passes without a lookup, so memory holds only recent users.
        self.lookups = commands.DynamicCooldownMapping(self._budget, commands.BucketType.user)
        # "Slow down" is said once a window; the other lookups past the budget get no reply.
        self.warnings = commands.CooldownMapping.from_cooldown(
            1, COOLDOWN_WINDOW, commands.BucketType.user
        )

    def _budget(self, message: discord.Message) -> commands.Cooldown:
        """A new user's bucket, with the budget as set now (same as the slash commands)."""
        return commands.Cooldown(self.bot.settings.cooldown_per_minute, COOLDOWN_WINDOW)

    async def _within_budget(self, message: discord.Message, reference=None) -> bool:
        """Count one lookup of the message's author; past the budget, say so (once a window)
        and return False."""
        retry_after = self.lookups.update_rate_limit(message)
        if retry_after is None:
            return True
        if self.warnings.update_rate_limit(message) is None:
            text = SLOW_DOWN.format(
                per_minute=self.bot.settings.cooldown_per_minute, wait=max(1, round(retry_after))
            )
            try:
                await message.channel.send(text, allowed_mentions=NO_PINGS, reference=reference)
            except discord.HTTPException as exc:
                log.warning("could not tell user %s to slow down: %s", message.author.id, exc)
        return False

    async def answer(
        self,
        channel: discord.abc.Messageable,
        text: str,
        reference=None,
        *,
        command: str,
        guild_id: int | None = None,
        asker: int | None = None,
    ) -> None:
        """Answer one lookup; an unexpected failure is logged and the user gets the same
        apology as a slash command, never silence."""
        query, edition = split_edition(text)
        try:
            answer = await self._reply(
                channel, query, edition, reference, in_dm=guild_id is None, asker=asker
            )
        except Exception:  # noqa: BLE001 - the last line of defence for a message lookup
            log.exception("%s lookup failed for user %s in guild %s", command, asker, guild_id)
            try:
                await channel.send(APOLOGY, allowed_mentions=NO_PINGS, reference=reference)
            except discord.HTTPException:
                log.warning("could not deliver the apology for a %s lookup", command)
            return
        await count_lookup(self.bot, guild_id, command, query, answer)

    async def _reply(
        self,
        channel: discord.abc.Messageable,
        query: str,
        edition: str | None,
        reference,
        *,
        in_dm: bool,
        asker: int | None,
    ) -> dict | None:
        answer, suggestions = await asyncio.to_thread(self.bot.rulings.show, query, edition, None)
        if answer is None:
            message = f"No confident match for “{query[:200]}”."
            view = embed = None
            if suggestions.get("results"):
                embed = best_matches_embed(query, suggestions["results"])
                if embed is None:
                    message += " Did you mean one of these?"
                    view = pick_view(suggestions["results"], PUBLIC, "e", "Did you mean…", asker)
                else:
                    view = best_matches_view(suggestions["results"], PUBLIC, asker)
            else:
                # `help` answers only in DMs; in a channel, say what works there.
                message += " " + (MISS_HINT_DM if in_dm else MISS_HINT_CHANNEL)
            await channel.send(
                message, embed=embed, view=view, allowed_mentions=NO_PINGS, reference=reference
            )
            return None
        embed, pages = answer_embed(answer)
        await channel.send(
            embed=embed,
            view=answer_view(answer, 0, pages, False),
            allowed_mentions=NO_PINGS,
            reference=reference,
        )
        return answer

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
        # Help is limited like a lookup: 50 "help" DMs are no cheaper to answer than 50 lookups.
        if not await self._within_budget(message):
            return
        if text.lower() in ("help", "/help", "?", "!help"):
            await message.channel.send(HELP_TEXT, allowed_mentions=NO_PINGS)
            return
        await self.answer(
            message.channel, text[:MAX_QUERY_CHARS], command="dm", asker=message.author.id
        )

    async def _inline(self, message: discord.Message) -> None:
        terms = INLINE.findall(message.content)[:MAX_INLINE]
        if not terms:
            return
        state = self.bot.state
        if not await asyncio.to_thread(state.inline_enabled, message.guild.id):
            return
        for term in terms:
            if not await self._within_budget(message, reference=message):
                break
            await self.answer(
                message.channel,
                term,
                reference=message,
                command="inline",
                guild_id=message.guild.id,
                asker=message.author.id,
            )


async def setup(bot: RulingsClient) -> None:
    await bot.add_cog(Messages(bot))

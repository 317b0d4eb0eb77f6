"""Lookup commands: /ruling, /search, /history, /sources, /card, /changes (servers and DMs)."""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot.answers.service import Rulings
from bot.validate import MAX_QUERY_CHARS, iso_date
from commands import limits
from commands.app import Interaction, RulingsClient
from commands.errors import UserError
from commands.render import (
    MISS_HINT_CHANNEL,
    NO_PINGS,
    answer_embed,
    best_matches_embed,
    clamp,
    history_embed,
)
from commands.views import (
    PRIVATE,
    PUBLIC,
    answer_view,
    best_matches_view,
    changes_target,
    count_lookup,
    history_view,
    in_time,
    pick_view,
    render_answer,
    render_list,
    search_target,
    send,
)

log = logging.getLogger(__name__)

Edition = Literal["1E", "2E"]


def _lookup_cooldown(interaction: Interaction) -> app_commands.Cooldown | None:
    per_minute = interaction.client.settings.cooldown_per_minute
    return app_commands.Cooldown(per_minute, limits.COOLDOWN_WINDOW)


lookup_cooldown = app_commands.checks.dynamic_cooldown(_lookup_cooldown, key=lambda i: i.user.id)
everywhere = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)


def _date_or_error(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return iso_date(value.strip())
    except ValueError as exc:
        raise UserError(str(exc)) from None


def miss_reply(query: str, suggestions: dict, note: str | None, vis: str, asker: int | None):
    """What a miss says: no confident match, the other edition's ruling where it has one,
    the best matches with their parts (a button each) and a menu for the rest; or, nothing
    near, say so and offer /search. Returns (content, embed or None, view or None)."""
    text = note or f"No confident match for “{clamp(query, 200)}”."
    other = suggestions.get("other_edition")
    if other and not note:
        text += (
            f" “{clamp(other['title'], 100)}” is a {other['edition']} ruling;"
            f" there is none in {other['asked']}."
        )
    results = suggestions.get("results", [])
    if not results:
        return f"{text} {MISS_HINT_CHANNEL}", None, None
    embed = best_matches_embed(query, results)
    if embed is None:
        text += " Did you mean one of these?"
        return text, None, pick_view(results, vis, "e", "Did you mean…", asker)
    return text, embed, best_matches_view(results, vis, asker)


async def send_no_match(
    interaction: Interaction,
    query: str,
    suggestions: dict,
    private: bool,
    note: str | None = None,
) -> None:
    """No confident answer: say so, and show the best matches instead of guessing."""
    vis = PRIVATE if private else PUBLIC
    text, embed, view = miss_reply(query, suggestions, note, vis, interaction.user.id)
    if view is None:
        await send(interaction, text, ephemeral=True)
        return
    extra = {"embed": embed} if embed is not None else {}
    await send(interaction, text, view=view, ephemeral=private, **extra)


class Lookup(commands.Cog):
    def __init__(self, bot: RulingsClient):
        self.bot = bot

    @property
    def rulings(self) -> Rulings:
        return self.bot.rulings

    async def _ruling_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        edition = getattr(interaction.namespace, "edition", None)
        suggestions = await asyncio.to_thread(self.rulings.suggest, current, edition)
        return [
            app_commands.Choice(name=label, value=entry_id)
            for entry_id, label in suggestions
            if len(entry_id) <= limits.CHOICE_VALUE
        ][: limits.CHOICES]

    @app_commands.command(
        name="ruling", description="The official ruling for a term, card or question"
    )
    @app_commands.describe(
        query="A rules term, card name, nickname (KTC) or question",
        edition="Which game: 1E or 2E (both when left out)",
        private="Only you see the answer (with a button to show everyone)",
        as_of="The version in force on this date, YYYY-MM-DD",
    )
    @everywhere
    @lookup_cooldown
    async def ruling(
        self,
        interaction: Interaction,
        query: app_commands.Range[str, 1, MAX_QUERY_CHARS],
        edition: Edition | None = None,
        private: bool = False,
        as_of: str | None = None,
    ) -> None:
        as_of = _date_or_error(as_of)
        rendered, suggestions = await in_time(
            interaction,
            render_answer(
                interaction, query, edition=edition, as_of=as_of, page=0, private=private
            ),
            ephemeral=private,
        )
        if rendered is None:
            await send_no_match(interaction, query, suggestions, private, suggestions.get("note"))
        else:
            embed, view = rendered
            await send(interaction, embed=embed, view=view, ephemeral=private)
        # Counted once the reply is on its way: statistics never delay an answer.
        await count_lookup(
            self.bot, interaction.guild_id, "ruling", query, suggestions.get("answer")
        )

    ruling.autocomplete("query")(_ruling_choices)

    @app_commands.command(name="search", description="Rulings that match some words, best first")
    @app_commands.describe(
        words="Words to look for", edition="Which game: 1E or 2E (both when left out)"
    )
    @everywhere
    @lookup_cooldown
    async def search(
        self,
        interaction: Interaction,
        words: app_commands.Range[str, 1, MAX_QUERY_CHARS],
        edition: Edition | None = None,
    ) -> None:
        target = search_target(words, edition)
        embed, view, found = await in_time(
            interaction,
            render_list(interaction, "n", target, 0, interaction.user.id),
            ephemeral=False,
        )
        await send(interaction, embed=embed, view=view)
        top = found["results"][0] if found["confident"] and found["results"] else None
        await count_lookup(self.bot, interaction.guild_id, "search", words, top)

    @app_commands.command(name="history", description="Every version of a ruling, newest first")
    @app_commands.describe(
        query="A rules term, card name or nickname",
        edition="Which game: 1E or 2E",
        as_of="Mark the version in force on this date, YYYY-MM-DD",
    )
    @everywhere
    @lookup_cooldown
    async def history(
        self,
        interaction: Interaction,
        query: app_commands.Range[str, 1, MAX_QUERY_CHARS],
        edition: Edition | None = None,
        as_of: str | None = None,
    ) -> None:
        as_of = _date_or_error(as_of)
        history = await in_time(
            interaction,
            asyncio.to_thread(self.rulings.history, query, edition, as_of),
            ephemeral=False,
        )
        counted = {"id": history["topic"]} if history else None
        if history is None:
            found = await asyncio.to_thread(self.rulings.search, query, edition, 5)
            await send_no_match(interaction, query, found, private=False)
        else:
            embed, pages = history_embed(history)
            await send(interaction, embed=embed, view=history_view(history, 0, pages, False))
        await count_lookup(self.bot, interaction.guild_id, "history", query, counted)

    history.autocomplete("query")(_ruling_choices)

    @app_commands.command(name="sources", description="The documents the answers come from")
    @everywhere
    async def sources(self, interaction: Interaction) -> None:
        embed, view, _ = await render_list(interaction, "s", "all", 0)
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)

    @app_commands.command(name="card", description="A card, its text, and the rulings about it")
    @app_commands.describe(
        name="The card's name (title, subtitle or both)", edition="Which game: 1E or 2E"
    )
    @everywhere
    @lookup_cooldown
    async def card(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 200],
        edition: Edition | None = None,
    ) -> None:
        card, found = await in_time(
            interaction, asyncio.to_thread(self.rulings.card, name, edition), ephemeral=False
        )
        await self._send_card(interaction, name, card, found)
        await count_lookup(self.bot, interaction.guild_id, "card", name, card)

    async def _send_card(
        self, interaction: Interaction, name: str, card: dict | None, found: dict
    ) -> None:
        """A card in the answer layout: its rulings with the sentence naming it, its text
        once, and the other cards of its name to choose from."""
        if card is None:
            text = f"No card matches “{clamp(name, 200)}” confidently."
            if found["results"]:
                text += " Closest: " + ", ".join(
                    f"{r['title']} ({r['edition']})" for r in found["results"][:5]
                )
            await send(interaction, text, ephemeral=True)
            return
        answer, _ = await asyncio.to_thread(self.rulings.show, card["id"])
        if answer is None:
            await send(interaction, "That card is no longer available.", ephemeral=True)
            return
        if card.get("same_name") and not answer.get("same_name"):
            answer["same_name"] = card["same_name"]
        embed, pages = answer_embed(answer)
        await send(interaction, embed=embed, view=answer_view(answer, 0, pages, False))

    @card.autocomplete("name")
    async def _card_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        edition = getattr(interaction.namespace, "edition", None)
        suggestions = await asyncio.to_thread(self.rulings.suggest_cards, current, edition)
        return [
            app_commands.Choice(name=clamp(label, limits.CHOICE_NAME), value=card_id)
            for card_id, label in suggestions
            if len(card_id) <= limits.CHOICE_VALUE
        ][: limits.CHOICES]

    @app_commands.command(
        name="changes", description="What newer documents added or changed since a date"
    )
    @app_commands.describe(since="A date, YYYY-MM-DD", edition="Which game: 1E or 2E")
    @everywhere
    @lookup_cooldown
    async def changes(
        self, interaction: Interaction, since: str, edition: Edition | None = None
    ) -> None:
        since = _date_or_error(since)
        target = changes_target(since, edition)
        embed, view, _ = await render_list(interaction, "c", target, 0, interaction.user.id)
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)


async def setup(bot: RulingsClient) -> None:
    await bot.add_cog(Lookup(bot))

"""Buttons and selects. They are persistent (``DynamicItem``): the state lives in the
custom id, so a click works after a restart. Every click resolves its id again through the
core, because a custom id is user-controlled input.

Loaded as an extension too: its ``setup`` registers these components with the bot.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

import discord

from bot.answers.service import Rulings
from commands import limits
from commands.app import Interaction, RulingsClient
from commands.errors import on_view_error
from commands.render import NO_PINGS, answer_embed, choice_label, clamp, history_embed

log = logging.getLogger(__name__)

PRIVATE, PUBLIC = "p", "o"


async def count_lookup(
    client: RulingsClient, guild_id: int | None, command: str, query: str, answer: dict | None
) -> None:
    """Count a lookup for /ruling-admin stats; counting never stands in an answer's way."""
    try:
        await asyncio.to_thread(
            client.state.record_lookup,
            command,
            query,
            answer["id"] if answer else None,
            answer is not None,
            guild_id,
        )
    except Exception:  # noqa: BLE001 - statistics are best effort
        log.exception("could not count a lookup")


def guarded(callback):
    """Component callbacks: an unexpected error is logged and the user gets an apology.

    (discord.py only logs exceptions raised in dynamic item callbacks.)
    """

    @functools.wraps(callback)
    async def wrapper(self, interaction: discord.Interaction) -> None:
        try:
            await callback(self, interaction)
        except Exception as exc:  # noqa: BLE001 - this is the last line of defence
            await on_view_error(interaction, exc, self)

    return wrapper


def _rulings(interaction: Interaction) -> Rulings:
    return interaction.client.rulings


def answer_view(answer: dict[str, Any], page: int, pages: int, private: bool) -> discord.ui.View:
    """Pagination, related-term buttons, and "show everyone" on private answers."""
    view = discord.ui.View(timeout=None)
    vis = PRIVATE if private else PUBLIC
    if pages > 1:
        view.add_item(
            PageButton(
                "a", vis, max(page - 1, 0), answer["id"], "◀ Previous", disabled=page == 0, row=0
            )
        )
        view.add_item(
            PageButton(
                "a",
                vis,
                min(page + 1, pages - 1),
                answer["id"],
                "Next ▶",
                disabled=page >= pages - 1,
                row=0,
            )
        )
    switch = {f"rs:{vis}:{e['id']}" for e in answer.get("editions", [])[1:2]}
    for other in answer.get("editions", [])[1:2]:  # both editions match: one click to the other
        if len(f"rs:{vis}:{other['id']}") <= limits.CUSTOM_ID:
            view.add_item(RelatedButton(vis, other["id"], f"Show {other['edition']}", row=0))
    for position, related in enumerate(answer.get("related", [])[:10]):
        custom_id = f"rs:{vis}:{related['id']}"
        if len(custom_id) <= limits.CUSTOM_ID and custom_id not in switch:
            view.add_item(
                RelatedButton(vis, related["id"], related["title"], row=1 + position // 5)
            )
    if private:
        view.add_item(PublicButton(page, answer["id"], row=3))
    if len(f"rr:{answer['id']}") <= limits.CUSTOM_ID:
        view.add_item(ReportButton(answer["id"], row=4))
    return view


def pick_view(
    results: list[dict[str, Any]], vis: str, mode: str, placeholder: str
) -> discord.ui.View:
    """A select of rulings ("did you mean", search results, changes)."""
    view = discord.ui.View(timeout=None)
    options = []
    seen = set()
    for result in results:
        if result["id"] in seen or len(result["id"]) > limits.CHOICE_VALUE:
            continue
        seen.add(result["id"])
        options.append(
            discord.SelectOption(
                label=choice_label(result["title"], result["edition"]), value=result["id"]
            )
        )
        if len(options) == limits.CHOICES:
            break
    if options:
        view.add_item(PickSelect(vis, mode, options, clamp(placeholder, limits.SELECT_PLACEHOLDER)))
    return view


async def render_answer(
    interaction: Interaction,
    query: str,
    *,
    edition: str | None,
    as_of: str | None,
    page: int,
    private: bool,
):
    """Look up and render (embed, view) or None with the suggestions dict."""
    answer, suggestions = await asyncio.to_thread(_rulings(interaction).show, query, edition, as_of)
    suggestions["answer"] = answer  # the caller counts the lookup by what it matched
    if answer is None:
        return None, suggestions
    embed, pages = answer_embed(answer, page, as_of=as_of)
    return (embed, answer_view(answer, page, pages, private)), suggestions


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"rp:(?P<kind>[ah]):(?P<vis>[po]):(?P<page>\d{1,3}):(?P<id>.{1,85})",
):
    def __init__(
        self,
        kind: str,
        vis: str,
        page: int,
        target: str,
        label: str = "Page",
        disabled: bool = False,
        row: int | None = None,
    ):
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=f"rp:{kind}:{vis}:{page}:{target}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                row=row,
            )
        )
        self.kind, self.vis, self.page, self.target = kind, vis, page, target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["kind"], match["vis"], int(match["page"]), match["id"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        private = self.vis == PRIVATE
        if self.kind == "h":
            history = await asyncio.to_thread(_rulings(interaction).history, self.target)
            if history is None:
                await interaction.response.send_message(
                    "That ruling is no longer available.", ephemeral=True
                )
                return
            embed, pages = history_embed(history, self.page)
            await interaction.response.edit_message(
                embed=embed, view=history_view(history, self.page, pages, private)
            )
            return
        rendered, _ = await render_answer(
            interaction, self.target, edition=None, as_of=None, page=self.page, private=private
        )
        if rendered is None:
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        embed, view = rendered
        await interaction.response.edit_message(embed=embed, view=view)


class RelatedButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"rs:(?P<vis>[po]):(?P<id>.{1,95})"
):
    def __init__(self, vis: str, target: str, label: str = "Related", row: int | None = None):
        super().__init__(
            discord.ui.Button(
                label=clamp(label, limits.BUTTON_LABEL),
                custom_id=f"rs:{vis}:{target}",
                style=discord.ButtonStyle.primary,
                row=row,
            )
        )
        self.vis, self.target = vis, target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["vis"], match["id"], item.label or "Related")

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        # A related term answers the person who clicked, privately, with "show everyone".
        rendered, _ = await render_answer(
            interaction, self.target, edition=None, as_of=None, page=0, private=True
        )
        if rendered is None:
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        embed, view = rendered
        await interaction.response.send_message(
            embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )


class PublicButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"rv:(?P<page>\d{1,3}):(?P<id>.{1,90})"
):
    def __init__(self, page: int, target: str, row: int | None = None):
        super().__init__(
            discord.ui.Button(
                label="Show everyone",
                custom_id=f"rv:{page}:{target}",
                style=discord.ButtonStyle.success,
                row=row,
            )
        )
        self.page, self.target = page, target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["page"]), match["id"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        rendered, _ = await render_answer(
            interaction, self.target, edition=None, as_of=None, page=self.page, private=False
        )
        if rendered is None:
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        embed, view = rendered
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"rk:(?P<vis>[po]):(?P<mode>[en])"
):
    """mode e: replace the message with the answer; mode n: answer in a new message."""

    def __init__(
        self,
        vis: str,
        mode: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=f"rk:{vis}:{mode}",
                options=options or [discord.SelectOption(label="?", value="?")],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
            )
        )
        self.vis, self.mode = vis, mode

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["vis"], match["mode"], item.options, item.placeholder)

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values:
            await interaction.response.send_message("Nothing was picked.", ephemeral=True)
            return
        private = self.vis == PRIVATE
        rendered, _ = await render_answer(
            interaction, str(values[0]), edition=None, as_of=None, page=0, private=private
        )
        if rendered is None:
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        embed, view = rendered
        if self.mode == "e":
            await interaction.response.edit_message(content=None, embed=embed, view=view)
        else:
            await interaction.response.send_message(
                embed=embed, view=view, ephemeral=private, allowed_mentions=NO_PINGS
            )


class ReportModal(discord.ui.Modal):
    """'Report this answer': what is wrong, for the moderators' queue."""

    def __init__(self, entry: str):
        super().__init__(title="Report this answer", timeout=600)
        self.entry = entry
        self.problem = discord.ui.TextInput(
            label="What is wrong with it?", style=discord.TextStyle.paragraph, max_length=1000
        )
        self.add_item(self.problem)

    async def on_submit(self, interaction: Interaction) -> None:
        bot = interaction.client
        report_id = await asyncio.to_thread(
            bot.state.add_report,
            interaction.user.id,
            interaction.user.name,
            interaction.guild_id,
            self.entry,
            str(self.problem.value),
        )
        await interaction.response.send_message(
            f"Thank you: report #{report_id} is in the moderators' queue.", ephemeral=True
        )
        home = bot.settings.home_guild_id
        channel = await asyncio.to_thread(bot.state.announcement_channel, home) if home else None
        if channel:
            text = f"Report #{report_id} on {self.entry}: {self.problem.value}"
            try:
                await bot.get_partial_messageable(channel).send(
                    clamp(text, limits.MESSAGE_CONTENT), allowed_mentions=NO_PINGS
                )
            except discord.HTTPException as exc:
                log.warning("could not post report #%s: %s", report_id, exc)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await on_view_error(interaction, error, self)


class ReportButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rr:(?P<id>.{1,97})"):
    def __init__(self, target: str, row: int | None = None):
        super().__init__(
            discord.ui.Button(
                label="Report this answer",
                custom_id=f"rr:{target}",
                style=discord.ButtonStyle.secondary,
                row=row,
            )
        )
        self.target = target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["id"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        await interaction.response.send_modal(ReportModal(self.target))


def history_view(history: dict[str, Any], page: int, pages: int, private: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    vis = PRIVATE if private else PUBLIC
    if pages > 1:
        view.add_item(
            PageButton(
                "h", vis, max(page - 1, 0), history["topic"], "◀ Previous", disabled=page == 0
            )
        )
        view.add_item(
            PageButton(
                "h",
                vis,
                min(page + 1, pages - 1),
                history["topic"],
                "Next ▶",
                disabled=page >= pages - 1,
            )
        )
    return view


DYNAMIC_ITEMS = (PageButton, RelatedButton, PublicButton, PickSelect, ReportButton)


async def setup(bot: RulingsClient) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)

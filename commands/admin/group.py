"""The ``/ruling-admin`` command group, registered in the home server only, and the
extension's ``setup``. See the package's docstring for how moderators are checked."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

import discord
from discord import app_commands

from bot import validate
from bot.answers.imports import MAX_IMPORT_BYTES, ImportPreview
from bot.answers.moderation import ModerationError
from bot.answers.service import Rulings
from commands import limits
from commands.admin.changes import announce
from commands.admin.checks import is_moderator, moderator_check, moderator_of
from commands.admin.pending import Pending
from commands.admin.views import MODERATION_ITEMS, RulingModal, confirm_view, stats_view
from commands.app import Interaction, RulingsClient
from commands.render import NO_PINGS, answer_embed, clamp
from commands.render_admin import (
    change_line,
    changes_log_embed,
    import_embeds,
    preview_answer,
    reports_embed,
    stats_embed,
)

log = logging.getLogger(__name__)

Kind = Literal["rule", "card ruling", "erratum", "clarification"]
Edition = Literal["1E", "2E"]
DocumentKind = Literal[validate.DOCUMENT_KINDS]  # one home: bot/validate.py


@app_commands.guild_only()
@app_commands.default_permissions(manage_messages=True)
class RulingAdmin(app_commands.Group):
    """Moderators: change the rulings every server sees."""

    alias = app_commands.Group(name="alias", description="Nicknames that lead to a ruling")

    def __init__(self) -> None:
        super().__init__(
            name="ruling-admin", description="Moderators: change the rulings every server sees"
        )

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await moderator_check(interaction)

    @staticmethod
    def _rulings(interaction: Interaction) -> Rulings:
        return interaction.client.rulings

    async def _entry(self, interaction: Interaction, query: str) -> dict[str, Any] | None:
        rulings = self._rulings(interaction)
        answer, _ = await asyncio.to_thread(rulings.show, query)
        if answer is None:
            await interaction.response.send_message(
                f"No ruling matches “{clamp(query, 100)}” confidently.", ephemeral=True
            )
            return None
        return rulings.editable_entry(answer["id"])

    @app_commands.command(name="add", description="Add a ruling (a modal asks for the text)")
    @app_commands.describe(edition="Which game", kind="What sort of entry")
    async def add(self, interaction: Interaction, edition: Edition, kind: Kind = "rule") -> None:
        await interaction.response.send_modal(RulingModal("add", edition, kind))

    @app_commands.command(name="edit", description="Edit a ruling (a prefilled modal)")
    @app_commands.describe(query="The ruling to edit", kind="Change what sort of entry it is")
    async def edit(self, interaction: Interaction, query: str, kind: Kind | None = None) -> None:
        entry = await self._entry(interaction, query)
        if entry is not None:
            await interaction.response.send_modal(
                RulingModal("edit", entry["edition"], kind or entry["kind"], entry)
            )

    @app_commands.command(name="retire", description="Stop a ruling answering; it stays in history")
    @app_commands.describe(
        query="The ruling to retire", reason="Why (shown in history and the log)"
    )
    async def retire(
        self, interaction: Interaction, query: str, reason: app_commands.Range[str, 1, 300]
    ) -> None:
        entry = await self._entry(interaction, query)
        if entry is None:
            return
        token = interaction.client.pending.put(
            interaction.user.id, "retire", {"entry_id": entry["id"], "reason": reason}
        )
        embed, _ = answer_embed(
            preview_answer(entry, entry["document"]) | {"retired": True, "retired_reason": reason}
        )
        await interaction.response.send_message(
            "Retire this ruling? It stops answering but stays in history.",
            embed=embed,
            view=confirm_view(token),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @alias.command(name="add", description="Add a nickname that leads to a ruling")
    @app_commands.describe(query="The ruling", alias="The nickname, e.g. KTC")
    async def alias_add(
        self, interaction: Interaction, query: str, alias: app_commands.Range[str, 1, 100]
    ) -> None:
        entry = await self._entry(interaction, query)
        if entry is None:
            return
        change = await asyncio.to_thread(
            self._rulings(interaction).add_alias,
            moderator_of(interaction),
            alias,
            entry["topic"],
        )
        await interaction.response.send_message(
            f"Done: {change_line(change)}", ephemeral=True, allowed_mentions=NO_PINGS
        )

    @alias.command(name="remove", description="Remove a nickname from a ruling")
    @app_commands.describe(query="The ruling", alias="The nickname to remove")
    async def alias_remove(
        self, interaction: Interaction, query: str, alias: app_commands.Range[str, 1, 100]
    ) -> None:
        entry = await self._entry(interaction, query)
        if entry is None:
            return
        change = await asyncio.to_thread(
            self._rulings(interaction).remove_alias,
            moderator_of(interaction),
            alias,
            entry["topic"],
        )
        await interaction.response.send_message(
            f"Done: {change_line(change)}", ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(
        name="import",
        description="Import a rules document (text, Markdown or HTML), with a preview",
    )
    @app_commands.describe(
        document="The document file (as published: text, Markdown or a saved HTML page)",
        title="Its title (default: as the document prints it)",
        edition="Which game, where the document does not say",
        date="Its date, YYYY-MM-DD, where the document prints none (may stay undated)",
        kind="What sort of document, where it does not say",
        unofficial="A community document, not the rules committee's",
    )
    async def import_document(
        self,
        interaction: Interaction,
        document: discord.Attachment,
        title: app_commands.Range[str, 1, 200] | None = None,
        edition: Edition | None = None,
        date: str | None = None,
        kind: DocumentKind | None = None,
        unofficial: bool = False,
    ) -> None:
        if document.size > MAX_IMPORT_BYTES:
            await interaction.response.send_message(
                f"The file is over {MAX_IMPORT_BYTES // (1024 * 1024)} MB.", ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        content = await document.read()
        rulings = self._rulings(interaction)
        try:
            preview: ImportPreview = await asyncio.to_thread(
                rulings.preview_import,
                content,
                document.filename,
                title=title,
                edition=edition,
                date=date.strip() if date else None,
                kind=kind,
                official=False if unofficial else None,
            )
        except ModerationError as exc:
            await interaction.followup.send(
                clamp(f"Not imported: {exc}", limits.MESSAGE_CONTENT), ephemeral=True
            )
            return
        token = interaction.client.pending.put(interaction.user.id, "import", {"preview": preview})
        await interaction.followup.send(
            embeds=import_embeds(preview),
            view=confirm_view(token),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="log", description="Recent changes: who, when, what, why")
    @app_commands.describe(count="How many (1-25)")
    async def log_(
        self, interaction: Interaction, count: app_commands.Range[int, 1, 25] = 10
    ) -> None:
        rulings = self._rulings(interaction)
        changes = await asyncio.to_thread(rulings.change_log, count)
        conflicts = await asyncio.to_thread(rulings.conflicts)
        await interaction.response.send_message(
            embed=changes_log_embed(changes, conflicts), ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="revert", description="Undo a change (the undo is logged too)")
    @app_commands.describe(change="The change number from the log")
    async def revert(self, interaction: Interaction, change: app_commands.Range[int, 1]) -> None:
        done = await asyncio.to_thread(
            self._rulings(interaction).revert_change, moderator_of(interaction), change
        )
        await interaction.response.send_message(
            f"Done: {change_line(done)}", ephemeral=True, allowed_mentions=NO_PINGS
        )
        await announce(interaction.client, f"Rulings updated: {done['action']} {done['summary']}.")

    @app_commands.command(
        name="stats", description="Lookups per day, top queries and the questions the bot missed"
    )
    @app_commands.describe(days="Over how many days (1-90)")
    async def stats(
        self, interaction: Interaction, days: app_commands.Range[int, 1, 90] = 7
    ) -> None:
        state = interaction.client.state
        data = await asyncio.to_thread(state.stats, days)
        embeds = [stats_embed(data)]
        view = stats_view(data, self._rulings(interaction))
        await interaction.response.send_message(
            embeds=embeds, view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="reports", description="Reports users sent about answers")
    @app_commands.describe(close="Close report number N (it was handled)")
    async def reports(
        self, interaction: Interaction, close: app_commands.Range[int, 1] | None = None
    ) -> None:
        state = interaction.client.state
        if close is not None:
            closed = await asyncio.to_thread(state.close_report, close)
            note = f"Report #{close} closed." if closed else f"There is no open report #{close}."
            await interaction.response.send_message(note, ephemeral=True)
            return
        open_reports = await asyncio.to_thread(state.reports)
        await interaction.response.send_message(
            embed=reports_embed(open_reports), ephemeral=True, allowed_mentions=NO_PINGS
        )

    @edit.autocomplete("query")
    @retire.autocomplete("query")
    @alias_add.autocomplete("query")
    @alias_remove.autocomplete("query")
    async def _query_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if not is_moderator(interaction):
            return []
        return [
            app_commands.Choice(name=label, value=entry)
            for entry, label in self._rulings(interaction).suggest(current)
        ]


async def setup(bot: RulingsClient) -> None:
    bot.pending = Pending()
    bot.add_dynamic_items(*MODERATION_ITEMS)
    home = bot.settings.home_guild_id
    if home:
        bot.tree.add_command(RulingAdmin(), guild=discord.Object(id=home))
    else:
        log.info("RULINGS_HOME_GUILD_ID is not set: /ruling-admin is not registered")

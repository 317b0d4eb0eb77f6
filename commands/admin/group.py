"""The ``/ruling-admin`` command group, registered in the home server only, and the
extension's ``setup``. See the package's docstring for how moderators are checked."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any, Literal

import discord
from discord import app_commands

from bot import validate
from bot.answers.imports import MAX_IMPORT_BYTES
from bot.answers.service import Rulings
from commands import limits
from commands.admin.changes import announce
from commands.admin.checks import is_moderator, moderator_check, moderator_of
from commands.admin.offer import FIX_ITEMS, offer_import
from commands.admin.paste import PasteModal, read_corrections
from commands.admin.pending import Pending
from commands.admin.views import (
    MODERATION_ITEMS,
    RulingModal,
    add_alias,
    send_preview,
    stats_view,
)
from commands.app import Interaction, RulingsClient
from commands.render import NO_PINGS, clamp
from commands.render_admin import (
    announcement,
    changes_log_embed,
    done_message,
    reports_embed,
    stats_embed,
)

log = logging.getLogger(__name__)

MAX_TEXT_FILE = 256 * 1024  # an uploaded ruling text

Kind = Literal["rule", "card ruling", "erratum", "clarification"]
Edition = Literal["1E", "2E"]
DocumentKind = Literal[validate.DOCUMENT_KINDS]  # one home: bot/validate.py


def _filename(entry_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in entry_id)[:80] + ".txt"


class RulingAdmin(app_commands.Group):
    """Moderators: change the rulings every server sees."""

    alias = app_commands.Group(name="alias", description="Nicknames that lead to a ruling")

    def __init__(self) -> None:
        # Hidden from members who cannot manage messages (Discord's command list honours
        # default permissions; the moderator check below still decides who may use it).
        super().__init__(
            name="ruling-admin",
            description="Moderators: change the rulings every server sees",
            guild_only=True,
            default_permissions=discord.Permissions(manage_messages=True),
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

    @app_commands.command(name="edit", description="Edit a ruling (a prefilled modal, or a file)")
    @app_commands.describe(
        query="The ruling to edit",
        kind="Change what sort of entry it is",
        text_file="The whole new text as a .txt or .md file (for rulings too long for the form)",
        reason="Why (for the log), with text_file",
    )
    async def edit(
        self,
        interaction: Interaction,
        query: str,
        kind: Kind | None = None,
        text_file: discord.Attachment | None = None,
        reason: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        entry = await self._entry(interaction, query)
        if entry is None:
            return
        if text_file is not None:
            text = await self._text_file(interaction, text_file)
            if text is not None:
                payload = {
                    "entry_id": entry["id"], "based_on": entry["version"], "title": entry["title"],
                    "text": text, "kind": kind or entry["kind"], "aliases": [], "reason": reason,
                }  # fmt: skip
                await send_preview(interaction, "edit", payload)
            return
        if len(entry["text"]) > limits.TEXT_INPUT_VALUE:
            # The form holds 4,000 characters: opening it would cut the ruling. Send the whole
            # text as a file to edit and upload again instead.
            await interaction.response.send_message(
                f"This ruling is {len(entry['text']):,} characters, more than Discord's form "
                f"holds ({limits.TEXT_INPUT_VALUE:,}), so it is not opened there: nothing was "
                "cut or changed. Its whole text is attached: edit it and run "
                "`/ruling-admin edit` again with the file as `text_file`.",
                file=discord.File(
                    io.BytesIO(entry["text"].encode("utf-8")), filename=_filename(entry["id"])
                ),
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
            return
        await interaction.response.send_modal(
            RulingModal("edit", entry["edition"], kind or entry["kind"], entry)
        )

    @staticmethod
    async def _text_file(interaction: Interaction, attachment: discord.Attachment) -> str | None:
        """The text of an uploaded ruling, or None after telling the moderator why not."""
        problem = None
        if not attachment.filename.lower().endswith((".txt", ".md")):
            problem = "The text file must be .txt or .md."
        elif attachment.size > MAX_TEXT_FILE:
            problem = f"The text file is over {MAX_TEXT_FILE // 1024} KB."
        else:
            try:
                text = (await attachment.read()).decode("utf-8-sig")
            except UnicodeDecodeError:
                problem = "The text file is not UTF-8 text."
            else:
                return text.replace("\r\n", "\n")
        await interaction.response.send_message(f"Not changed: {problem}", ephemeral=True)
        return None

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
        await send_preview(
            interaction,
            "retire",
            {"entry_id": entry["id"], "reason": reason},
            "Retire this ruling? It stops answering but stays in history.",
        )

    @alias.command(name="add", description="Add a nickname that leads to a ruling")
    @app_commands.describe(query="The ruling", alias="The nickname, e.g. KTC")
    async def alias_add(
        self, interaction: Interaction, query: str, alias: app_commands.Range[str, 1, 100]
    ) -> None:
        entry = await self._entry(interaction, query)
        if entry is not None:
            await add_alias(interaction, alias, entry)

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
            done_message(change), ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(
        name="import",
        description="Import a rules document (a file, or paste the page's text), with a preview",
    )
    @app_commands.describe(
        document="The document file (text, Markdown, HTML or PDF); leave out to paste the text",
        title="Its title (default: as the document prints it)",
        edition="Which game, where the document does not say",
        date="Its date, YYYY-MM-DD, where the document prints none (may stay undated)",
        kind="What sort of document, where it does not say",
        unofficial="A community document, not the rules committee's",
        corrections="YAML fixing entries the preview doubts: {line: 12, confirm: true} …",
    )
    async def import_document(
        self,
        interaction: Interaction,
        document: discord.Attachment | None = None,
        title: app_commands.Range[str, 1, 200] | None = None,
        edition: Edition | None = None,
        date: str | None = None,
        kind: DocumentKind | None = None,
        unofficial: bool = False,
        corrections: discord.Attachment | None = None,
    ) -> None:
        fixes = await read_corrections(interaction, corrections) if corrections else None
        if corrections and fixes is None:
            return  # refused, and said why
        options = {
            "title": title,
            "edition": edition,
            "date": date.strip() if date else None,
            "kind": kind,
            "official": False if unofficial else None,
            "corrections": fixes,
        }
        if document is None:  # a pasted page: the same preview, from a modal
            await interaction.response.send_modal(PasteModal(options))
            return
        if document.size > MAX_IMPORT_BYTES:
            await interaction.response.send_message(
                f"The file is over {MAX_IMPORT_BYTES // (1024 * 1024)} MB.", ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await offer_import(interaction, await document.read(), document.filename, options)

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
            done_message(done), ephemeral=True, allowed_mentions=NO_PINGS
        )
        await announce(interaction.client, announcement(done))

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

    @app_commands.command(
        name="reports-channel", description="Where users' reports reach the moderators"
    )
    @app_commands.describe(
        channel="A moderators' channel of this server; leave out to stop posting reports"
    )
    async def reports_channel(
        self, interaction: Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        state = interaction.client.state
        await asyncio.to_thread(
            state.set_reports_channel, interaction.guild_id, channel.id if channel else None
        )
        text = (
            f"Reports will be posted in {channel.mention} (keep it to moderators: reports quote "
            "what users wrote). They are never posted in announcement channels."
            if channel
            else "Reports will not be posted; `/ruling-admin reports` lists them."
        )
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)

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
    bot.add_dynamic_items(*MODERATION_ITEMS, *FIX_ITEMS)
    home = bot.settings.home_guild_id
    if home:
        bot.tree.add_command(RulingAdmin(), guild=discord.Object(id=home))
    else:
        log.info("RULINGS_HOME_GUILD_ID is not set: /ruling-admin is not registered")

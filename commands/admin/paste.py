"""``/ruling-admin import`` without a file: the moderator pastes the page's text (a ruling
page as a browser copies it) into a modal and gets the same preview as for an upload."""

from __future__ import annotations

from typing import Any

import discord

from bot.answers.imports import PASTED
from bot.ingest.reader.corrections import MAX_CORRECTIONS_CHARS, CorrectionError
from bot.ingest.reader.corrections import parse as parse_corrections
from commands import limits
from commands.admin.checks import ModeratorOnly
from commands.admin.offer import offer_import
from commands.admin.pending import PENDING_SECONDS
from commands.app import Interaction
from commands.errors import on_view_error
from commands.fields import labelled
from commands.render import clamp


async def read_corrections(
    interaction: Interaction, attachment: discord.Attachment
) -> list[dict[str, Any]] | None:
    """The corrections file's items, or None after an ephemeral refusal saying why."""
    if attachment.size > MAX_CORRECTIONS_CHARS:
        problem = f"over {MAX_CORRECTIONS_CHARS // 1024} KB"
    else:
        try:
            return parse_corrections((await attachment.read()).decode("utf-8-sig"))
        except UnicodeDecodeError:
            problem = "not UTF-8 text"
        except CorrectionError as error:
            problem = str(error)
    await interaction.response.send_message(
        clamp(f"Corrections not read: {problem}", limits.MESSAGE_CONTENT), ephemeral=True
    )
    return None


class PasteModal(ModeratorOnly, discord.ui.Modal):
    """One paragraph field: the page's text as copied (up to one text field's length; a
    longer document is uploaded as a file)."""

    what = "import paste modal"

    def __init__(self, options: dict[str, Any]):
        super().__init__(title="Import: paste the page's text", timeout=PENDING_SECONDS)
        self.options = options
        self.page = labelled(
            self,
            "Page text (as copied)",
            style=discord.TextStyle.paragraph,
            max_length=limits.TEXT_INPUT_VALUE,
            placeholder="Copy the ruling page (menu line and all) and paste it here",
        )
        self.fixes = labelled(
            self,
            "Corrections (optional, YAML)",
            style=discord.TextStyle.paragraph,
            max_length=limits.TEXT_INPUT_VALUE,
            required=False,
            placeholder="- {line: 3, confirm: true}   (after a preview with doubts)",
        )

    async def on_submit(self, interaction: Interaction) -> None:
        options = dict(self.options)
        if str(self.fixes.value or "").strip():
            try:
                options["corrections"] = parse_corrections(str(self.fixes.value))
            except CorrectionError as error:
                await interaction.response.send_message(
                    clamp(f"Corrections not read: {error}", limits.MESSAGE_CONTENT),
                    ephemeral=True,
                )
                return
        await interaction.response.defer(ephemeral=True, thinking=True)
        content = str(self.page.value).encode("utf-8")
        await offer_import(interaction, content, PASTED, options)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await on_view_error(interaction, error, self)

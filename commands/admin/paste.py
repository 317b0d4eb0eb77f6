"""``/ruling-admin import`` without a file: the moderator pastes the page's text (a ruling
page as a browser copies it) into a modal and gets the same preview as for an upload."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.answers.imports import PASTED, ImportPreview
from bot.answers.moderation import ModerationError
from bot.ingest.reader.corrections import MAX_CORRECTIONS_CHARS, CorrectionError
from bot.ingest.reader.corrections import parse as parse_corrections
from commands import limits
from commands.admin.checks import ModeratorOnly
from commands.admin.views import PENDING_SECONDS, confirm_view
from commands.app import Interaction
from commands.errors import on_view_error
from commands.fields import labelled
from commands.render import NO_PINGS, clamp
from commands.render_admin import import_embeds


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


async def offer_import(
    interaction: Interaction, content: bytes, filename: str, options: dict[str, Any]
) -> None:
    """Preview ``content`` (the interaction is deferred) and offer Confirm/Cancel under it:
    the one preview a file upload and a paste share."""
    try:
        preview: ImportPreview = await asyncio.to_thread(
            interaction.client.rulings.preview_import, content, filename, **options
        )
    except ModerationError as exc:
        await interaction.followup.send(
            clamp(f"Not imported: {exc}", limits.MESSAGE_CONTENT), ephemeral=True
        )
        return
    token = interaction.client.pending.put(interaction.user.id, "import", {"preview": preview})
    # The embeds hold what fits; the attached file lists every entry (and every diff).
    listing = discord.File(
        io.BytesIO(preview.as_text(100).encode("utf-8")), filename="import-preview.txt"
    )
    await interaction.followup.send(
        embeds=import_embeds(preview),
        file=listing,
        view=confirm_view(token),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )


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

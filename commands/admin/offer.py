"""The import preview offered under ``/ruling-admin import``, and its corrections in place.

A preview with doubts, or a page refused with lines that open like an entry, is fixed
without uploading it again: **Fix…** opens a form holding the corrections drafted for it
(:mod:`bot.answers.drafts`, every item commented out), and the moderator's choice is read
with the document kept from the upload for the 15 minutes a preview waits.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.answers.drafts import chosen, doubts_draft, heads_draft
from bot.answers.imports import ImportPreview
from bot.answers.moderation import ModerationError
from bot.ingest.reader.corrections import CorrectionError
from commands import limits
from commands.admin.checks import ModeratorOnly
from commands.admin.pending import PENDING_SECONDS
from commands.admin.views import CancelButton, ConfirmButton, confirm_view
from commands.app import Interaction
from commands.errors import on_view_error
from commands.fields import labelled, overlong_field
from commands.render import NO_PINGS, clamp
from commands.render_admin import import_embeds
from commands.views import guarded

FIX = "import-fix"  # a pending item: a document kept to be read again with corrections
FIX_DOUBTS, NAME_HEADS = "Fix doubts…", "Name heads…"
GONE = "This preview expired or was already used: upload the document again."
_ROOM = limits.TEXT_INPUT_VALUE  # a draft fills one form field at most


async def offer_import(
    interaction: Interaction,
    content: bytes,
    filename: str,
    options: dict[str, Any],
    written: str = "",
) -> None:
    """Preview ``content`` (the interaction is deferred) and offer Confirm/Cancel under it:
    the one preview a file upload and a paste share. Where it has doubts, or the page is
    refused with lines a moderator may name as heads, **Fix…** offers the corrections
    (``written``: the ones the moderator just wrote, offered again if they fail)."""
    kept = {"content": content, "filename": filename, "options": options, "draft": written}
    try:
        preview: ImportPreview = await asyncio.to_thread(
            interaction.client.rulings.preview_import, content, filename, **options
        )
    except ModerationError as exc:
        await _refused(interaction, exc, kept)
        return
    pending = interaction.client.pending
    token = pending.put(interaction.user.id, "import", {"preview": preview})
    if not preview.doubts:
        view = confirm_view(token)
    else:  # fixing comes first: Confirm only says why it cannot import yet
        draft = doubts_draft(preview.doubts, options.get("corrections"), filename, _ROOM)
        fixing = {**kept, "draft": draft, "preview_token": token}
        fix = FixButton(pending.put(interaction.user.id, FIX, fixing))
        view = discord.ui.View(timeout=None)
        for item in (fix, ConfirmButton(token), CancelButton(token)):
            view.add_item(item)
    # The embeds hold what fits; the attached file lists every entry (and every diff).
    listing = discord.File(
        io.BytesIO(preview.as_text(100).encode("utf-8")), filename="import-preview.txt"
    )
    await interaction.followup.send(
        embeds=import_embeds(preview),
        file=listing,
        view=view,
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )


async def _refused(interaction: Interaction, exc: ModerationError, kept: dict[str, Any]) -> None:
    """The refusal, with **Name heads…** where the reader listed lines that open like an
    entry (or **Fix…** where the moderator's own corrections were not applied)."""
    heads = getattr(exc, "heads", [])
    earlier = kept["options"].get("corrections")
    draft, label = kept["draft"], "Fix…"  # corrections that failed: edit them, not anew
    if heads and not draft:
        draft, label = heads_draft(heads, earlier, kept["filename"], _ROOM), NAME_HEADS
    elif earlier and not draft:  # an attached corrections file the reader could not apply
        draft = heads_draft([], earlier, kept["filename"], _ROOM)
    message = clamp(f"Not imported: {exc}", limits.MESSAGE_CONTENT)
    if not draft:
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=NO_PINGS)
        return
    token = interaction.client.pending.put(interaction.user.id, FIX, {**kept, "draft": draft})
    view = discord.ui.View(timeout=None)
    view.add_item(FixButton(token, label))
    view.add_item(CancelButton(token))
    await interaction.followup.send(message, view=view, ephemeral=True, allowed_mentions=NO_PINGS)


class FixButton(
    ModeratorOnly,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ra:fix:(?P<token>[0-9a-f]{16})",
):
    what = "Fix"

    def __init__(self, token: str, label: str = FIX_DOUBTS):
        super().__init__(
            discord.ui.Button(
                label=clamp(label, limits.BUTTON_LABEL),
                style=discord.ButtonStyle.primary,
                custom_id=f"ra:fix:{token}",
            )
        )
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["token"], item.label or FIX_DOUBTS)

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        # Looked at, not taken: the preview stays as it was if the form is dismissed.
        if (kept := await _kept(interaction, self.token)) is not None:
            await interaction.response.send_modal(FixModal(self.token, kept["draft"]))


class FixModal(ModeratorOnly, discord.ui.Modal):
    """One field: the corrections, drafted with every item commented out."""

    what = "import fix modal"

    def __init__(self, token: str, draft: str):
        super().__init__(title="Import: correct the entries", timeout=PENDING_SECONDS)
        self.token = token
        self.fixes = labelled(
            self,
            "Corrections (remove # to choose)",
            style=discord.TextStyle.paragraph,
            max_length=limits.TEXT_INPUT_VALUE,
            default=draft[: limits.TEXT_INPUT_VALUE] or None,
            placeholder="- {line: 3, confirm: true}",
        )

    async def on_submit(self, interaction: Interaction) -> None:
        if refusal := overlong_field(self):
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        if (payload := await _kept(interaction, self.token)) is None:
            return
        text = str(self.fixes.value or "")
        try:
            corrections = chosen(text)
        except CorrectionError as error:
            if text.strip():  # the next Fix opens with what was written, not the draft
                payload["draft"] = text
            await interaction.response.send_message(
                clamp(f"Corrections not read: {error}", limits.MESSAGE_CONTENT), ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        pending = interaction.client.pending
        # The new preview replaces this one: neither its Fix nor its Confirm acts again.
        pending.drop(self.token)
        pending.drop(payload.get("preview_token", ""))
        options = {**payload["options"], "corrections": corrections}
        await offer_import(interaction, payload["content"], payload["filename"], options, text)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await on_view_error(interaction, error, self)


async def _kept(interaction: Interaction, token: str) -> dict[str, Any] | None:
    """The document kept under ``token`` to be read again, left in place; None after
    telling the moderator it is gone (expired, used, another's, or let go for room)."""
    item = interaction.client.pending.peek(token, interaction.user.id)
    if item is None or item[0] != FIX or item[1].get("content") is None:
        await interaction.response.send_message(GONE, ephemeral=True)
        return None
    return item[1]


FIX_ITEMS = (FixButton,)

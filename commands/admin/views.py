"""The moderators' components: Confirm and Cancel under a preview, the add/edit modal, and
the stats menus that make a missed query an alias. All of them are moderator-only
(:class:`~commands.admin.checks.ModeratorOnly`), checked again on every click and submit."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.answers.moderation import AliasRepoint, ModerationError
from bot.answers.service import Rulings
from commands import limits
from commands.admin.changes import announce, apply_pending
from commands.admin.checks import ModeratorOnly, moderator_of
from commands.admin.pending import PENDING_SECONDS
from commands.app import Interaction
from commands.errors import on_view_error, reply
from commands.fields import labelled, overlong_field
from commands.render import NO_PINGS, answer_embed, clamp
from commands.render_admin import PREVIEW_NOTE, announcement, done_message, repoint_message
from commands.views import guarded

NEW_DOCUMENT = "new:"  # "new: Title" in the document field asks for a new document

log = logging.getLogger(__name__)


def confirm_view(token: str, label: str = "Confirm") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(token, label))
    view.add_item(CancelButton(token))
    return view


class ConfirmButton(
    ModeratorOnly,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ra:ok:(?P<token>[0-9a-f]{16})",
):
    what = "Confirm"

    def __init__(self, token: str, label: str = "Confirm"):
        super().__init__(
            discord.ui.Button(
                label=clamp(label, limits.BUTTON_LABEL),
                style=discord.ButtonStyle.danger,
                custom_id=f"ra:ok:{token}",
            )
        )
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["token"], item.label or "Confirm")

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        pending = interaction.client.pending
        seen = pending.peek(self.token, interaction.user.id)
        if seen is not None and seen[0] == "import" and seen[1]["preview"].doubts:
            # A doubt about entry boundaries or titles is never clicked away: it is fixed.
            # The preview stays, with its Fix button.
            await interaction.response.send_message(
                f"⚠ Not imported: {len(seen[1]['preview'].doubts)} doubt(s) about entry "
                "boundaries or titles (marked DOUBT in the preview). Fix the entries first: "
                "**Fix doubts…** under the preview offers the corrections to choose from.",
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
            return
        item = pending.take(self.token, interaction.user.id)
        if item is None:
            await interaction.response.edit_message(
                content="This preview expired or was already used: start again.",
                embed=None,
                view=None,
            )
            return
        action, payload = item
        warnings = payload["preview"].warnings if action == "import" else []
        if warnings and not payload.get("accept_warnings"):
            # Warnings were shown first; importing over them takes a second, explicit click.
            token = pending.put(interaction.user.id, action, {**payload, "accept_warnings": True})
            await interaction.response.edit_message(
                content=(
                    f"⚠ This document has {len(warnings)} warning(s), listed first in the "
                    "preview. Read them: click **Import despite warnings** to import it anyway, "
                    "or Cancel."
                ),
                view=confirm_view(token, "Import despite warnings"),
                allowed_mentions=NO_PINGS,
            )
            return
        try:
            change = await apply_pending(interaction, action, dict(payload))
        except ModerationError as exc:
            await interaction.response.edit_message(
                content=clamp(f"Not changed: {exc}", limits.MESSAGE_CONTENT), embed=None, view=None
            )
            return
        await interaction.response.edit_message(
            content=done_message(change), embed=None, view=None, allowed_mentions=NO_PINGS
        )
        await announce(interaction.client, announcement(change))


class CancelButton(
    ModeratorOnly,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ra:no:(?P<token>[0-9a-f]{16})",
):
    what = "Cancel"

    def __init__(self, token: str):
        super().__init__(
            discord.ui.Button(
                label="Cancel", style=discord.ButtonStyle.secondary, custom_id=f"ra:no:{token}"
            )
        )
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["token"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        interaction.client.pending.drop(self.token)
        await interaction.response.edit_message(
            content="Cancelled: nothing changed.", embed=None, view=None
        )


async def send_preview(
    interaction: Interaction, action: str, payload: dict[str, Any], note: str = PREVIEW_NOTE
) -> None:
    """Show the answer users will get once the change is made, byte for byte (the service
    builds it with the change applied and rolled back), with Confirm and Cancel; a change
    the core refuses is refused here, before any Confirm."""
    rulings = interaction.client.rulings
    try:
        answer = await asyncio.to_thread(
            rulings.preview, moderator_of(interaction), action, **dict(payload)
        )
    except AliasRepoint as exc:
        await interaction.response.send_message(
            clamp(f"Not changed: {exc} Use `/ruling-admin alias add` to move it.",
                  limits.MESSAGE_CONTENT),
            ephemeral=True, allowed_mentions=NO_PINGS,
        )  # fmt: skip
        return
    except ModerationError as exc:
        await _not_changed(interaction, exc)
        return
    token = interaction.client.pending.put(interaction.user.id, action, payload)
    embed, _ = answer_embed(answer)
    await interaction.response.send_message(
        note, embed=embed, view=confirm_view(token), ephemeral=True, allowed_mentions=NO_PINGS
    )


def document_field(value: str) -> tuple[str, bool]:
    """The document a moderator named, and whether they asked for a new one (``new: Title``)."""
    value = value.strip()
    if value.lower().startswith(NEW_DOCUMENT):
        return value[len(NEW_DOCUMENT) :].strip(), True
    return value, False


class RulingModal(ModeratorOnly, discord.ui.Modal):
    """Add or edit: title, text, document and date (add), aliases, reason.

    A ruling longer than one text field is never opened here (it would come back cut):
    ``/ruling-admin edit`` refuses it and takes the text as a file instead."""

    def __init__(self, action: str, edition: str, kind: str, entry: dict[str, Any] | None = None):
        if entry is not None and len(entry["text"]) > limits.TEXT_INPUT_VALUE:
            raise ValueError("a ruling longer than a text field cannot be edited in a modal")
        title = "Edit a ruling" if entry else "Add a ruling"
        super().__init__(title=title, timeout=PENDING_SECONDS)
        self.action, self.edition, self.kind, self.entry = action, edition, kind, entry
        self.what = f"{action} modal"
        self.ruling_title = labelled(
            self, "Title", max_length=200, default=entry["title"] if entry else None
        )
        self.text = labelled(
            self,
            "Ruling text",
            style=discord.TextStyle.paragraph,
            max_length=limits.TEXT_INPUT_VALUE,
            default=entry["text"] if entry else None,
        )
        if entry is None:
            self.document = labelled(
                self,
                "Document (id or title)",
                max_length=100,
                placeholder="2e-crd-2014-07-07 — or new: Title, for a new document",
            )
            self.date = labelled(self, "Document date (YYYY-MM-DD)", max_length=10, required=False)
        else:
            self.reason = labelled(self, "Why (for the log)", max_length=300, required=False)
        self.aliases = labelled(self, "Aliases, comma separated", max_length=300, required=False)

    async def on_submit(self, interaction: Interaction) -> None:
        if refusal := overlong_field(self):
            await reply(interaction, refusal)
            return
        aliases = [a.strip() for a in str(self.aliases.value or "").split(",") if a.strip()]
        if self.entry is None:
            document, new_document = document_field(str(self.document.value))
            payload = {
                "title": str(self.ruling_title.value), "edition": self.edition, "kind": self.kind,
                "text": str(self.text.value), "document": document,
                "date": str(self.date.value).strip() or None, "aliases": aliases,
                "new_document": new_document,
            }  # fmt: skip
        else:
            payload = {
                "entry_id": self.entry["id"], "based_on": self.entry["version"],
                "title": str(self.ruling_title.value), "text": str(self.text.value), "kind": self.kind,
                "aliases": aliases, "reason": str(self.reason.value or "") or None,
            }  # fmt: skip
        await send_preview(interaction, self.action, payload)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await on_view_error(interaction, error, self)


class AliasMissSelect(
    ModeratorOnly,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ral:(?P<query>.{1,96})",
):
    """One click: a query users typed and missed becomes an alias of the picked ruling."""

    what = "alias from stats"

    def __init__(
        self,
        query: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=f"ral:{query}",
                options=options or [discord.SelectOption(label="?", value="?")],
                placeholder=placeholder,
            )
        )
        self.query = query

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["query"], item.options, item.placeholder)

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        rulings = interaction.client.rulings
        entry = rulings.editable_entry(str(values[0])) if values else None
        if entry is None:
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        await add_alias(interaction, self.query, entry)


async def add_alias(interaction: Interaction, alias: str, entry: dict[str, Any]) -> None:
    """Add an alias at once; one that already leads to another ruling is moved only after a
    preview of where it will lead and the moderator's Confirm."""
    rulings = interaction.client.rulings
    try:
        change = await asyncio.to_thread(
            rulings.add_alias, moderator_of(interaction), alias, entry["topic"]
        )
    except AliasRepoint as exc:
        answer, _ = await asyncio.to_thread(rulings.show, entry["id"])
        token = interaction.client.pending.put(
            interaction.user.id, "alias", {"alias": alias, "target": entry["topic"]}
        )
        embed, _ = answer_embed(answer)
        await interaction.response.send_message(
            repoint_message(exc.alias, answer["title"], exc.current),
            embed=embed, view=confirm_view(token), ephemeral=True, allowed_mentions=NO_PINGS,
        )  # fmt: skip
        return
    except ModerationError as exc:
        await _not_changed(interaction, exc)
        return
    await interaction.response.send_message(
        done_message(change), ephemeral=True, allowed_mentions=NO_PINGS
    )


def stats_view(data: dict[str, Any], rulings: Rulings) -> discord.ui.View:
    """For each top miss of the stats, a menu to make it an alias of a near match."""
    view = discord.ui.View(timeout=None)
    for miss in data["top_misses"][: limits.ACTION_ROWS]:
        query = miss["query"]
        if len(f"ral:{query}") > limits.CUSTOM_ID:
            continue
        found = rulings.search(query, limit=10)
        options = [
            discord.SelectOption(
                label=clamp(f"{r['title']} ({r['edition']})", limits.SELECT_OPTION_LABEL),
                value=r["id"],
            )
            for r in found["results"]
            if len(r["id"]) <= limits.CHOICE_VALUE
        ][: limits.CHOICES]
        if options:
            placeholder = clamp(f"Add “{query}” as an alias of…", limits.SELECT_PLACEHOLDER)
            view.add_item(AliasMissSelect(query, options, placeholder))
    return view


MODERATION_ITEMS = (ConfirmButton, CancelButton, AliasMissSelect)


async def _not_changed(interaction: Interaction, exc: Exception) -> None:
    """A refused change, privately, clamped to one message."""
    await interaction.response.send_message(
        clamp(f"Not changed: {exc}", limits.MESSAGE_CONTENT),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )

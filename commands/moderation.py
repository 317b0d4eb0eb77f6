"""/ruling-admin: moderators of the home server change the rulings every server sees.

Registered only in the home server and hidden from members without Manage Messages
(``default_permissions``); every invocation (slash command, button, modal) is checked again
at run time against the member's current roles, because hiding is not enforcing. Changes
are previewed as users will see them and happen only on Confirm.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers.imports import ImportPreview
from bot.answers.moderation import ModerationError, Moderator, check_ruling
from commands import limits
from commands.render import NO_PINGS, answer_embed, clamp, paginate
from commands.views import guarded

log = logging.getLogger(__name__)

PENDING_SECONDS = 15 * 60
Kind = Literal["rule", "card ruling", "erratum", "clarification"]
Edition = Literal["1E", "2E"]


class NotModerator(app_commands.CheckFailure):
    def __init__(self) -> None:
        super().__init__("Only rulings moderators of the home server can do this.")


def is_moderator(interaction: discord.Interaction) -> bool:
    """The home server, and the moderator role (or a listed moderator id), right now."""
    settings = interaction.client.settings  # type: ignore[attr-defined]
    if settings.home_guild_id is None or interaction.guild_id != settings.home_guild_id:
        return False
    if interaction.user.id in settings.moderator_user_ids:
        return True
    role_id = settings.moderator_role_id
    if role_id is None or not isinstance(interaction.user, discord.Member):
        return False
    return (
        any(role.id == role_id for role in interaction.user.roles)
        or role_id in interaction.user._roles
    )


def _refuse_log(interaction: discord.Interaction, what: str) -> None:
    log.warning(
        "refused %s for user %s in guild %s: not a moderator",
        what,
        interaction.user.id,
        interaction.guild_id,
    )


async def moderator_check(interaction: discord.Interaction) -> bool:
    if not is_moderator(interaction):
        name = interaction.command.qualified_name if interaction.command else "?"
        _refuse_log(interaction, f"/{name}")
        raise NotModerator()
    return True


async def refuse_unless_moderator(interaction: discord.Interaction, what: str) -> bool:
    """For buttons and modals: True when allowed; otherwise an ephemeral refusal is sent."""
    if is_moderator(interaction):
        return True
    _refuse_log(interaction, what)
    await interaction.response.send_message(NotModerator().args[0], ephemeral=True)
    return False


def _moderator(interaction: discord.Interaction) -> Moderator:
    return Moderator(
        id=str(interaction.user.id), name=interaction.user.display_name or interaction.user.name
    )


class Pending:
    """Previewed changes waiting for Confirm, by token (kept in memory for 15 minutes)."""

    def __init__(self) -> None:
        self._items: dict[str, tuple[float, int, str, dict[str, Any]]] = {}

    def put(self, moderator_id: int, action: str, payload: dict[str, Any]) -> str:
        now = time.monotonic()
        self._items = {k: v for k, v in self._items.items() if now - v[0] < PENDING_SECONDS}
        token = secrets.token_hex(8)
        self._items[token] = (now, moderator_id, action, payload)
        return token

    def take(self, token: str, moderator_id: int) -> tuple[str, dict[str, Any]] | None:
        item = self._items.get(token)
        if item is None or time.monotonic() - item[0] >= PENDING_SECONDS or item[1] != moderator_id:
            return None
        del self._items[token]
        return item[2], item[3]

    def drop(self, token: str) -> None:
        self._items.pop(token, None)


def confirm_view(token: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(token))
    view.add_item(CancelButton(token))
    return view


def preview_answer(entry: dict[str, Any], source: str) -> dict[str, Any]:
    """An answer dict (as the service makes them) for an entry that does not exist yet."""
    return {
        "id": entry.get("id") or "(new)", "title": entry["title"], "edition": entry["edition"],
        "kind": entry["kind"], "text": entry["text"], "source": source, "date": entry.get("date"),
        "status": "current", "related": [], "versions": [],
    }  # fmt: skip


async def announce(bot: commands.Bot, text: str) -> None:
    """'Rulings updated: …' in every server's configured announcement channel."""
    for channel_id in await asyncio.to_thread(bot.state.announcement_channels):  # type: ignore[attr-defined]
        try:
            await bot.get_partial_messageable(channel_id).send(
                clamp(text, limits.MESSAGE_CONTENT), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            log.warning("could not announce in channel %s: %s", channel_id, exc)


def change_line(change: dict[str, Any]) -> str:
    reverted = f" · reverted by #{change['reverted_by'][0]}" if change.get("reverted_by") else ""
    reason = f" · why: {change['reason']}" if change.get("reason") else ""
    return f"**#{change['id']}** {change['at'][:16].replace('T', ' ')} · {change['moderator_name']} · {change['action']}: {change['summary']}{reason}{reverted}"


async def apply_pending(
    interaction: discord.Interaction, action: str, payload: dict[str, Any]
) -> dict[str, Any]:
    rulings = interaction.client.rulings  # type: ignore[attr-defined]
    moderator = _moderator(interaction)
    if action == "add":
        return await asyncio.to_thread(rulings.add_ruling, moderator, **payload)
    if action == "edit":
        entry_id, version = payload.pop("entry_id"), payload.pop("based_on")
        return await asyncio.to_thread(rulings.edit_ruling, moderator, entry_id, version, **payload)
    if action == "retire":
        return await asyncio.to_thread(
            rulings.retire_ruling, moderator, payload["entry_id"], payload["reason"]
        )
    if action == "import":
        return await asyncio.to_thread(rulings.apply_import, moderator, payload["preview"])
    raise ModerationError(f"Unknown change {action}.")


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"ra:ok:(?P<token>[0-9a-f]{16})"
):
    def __init__(self, token: str):
        super().__init__(
            discord.ui.Button(
                label="Confirm", style=discord.ButtonStyle.danger, custom_id=f"ra:ok:{token}"
            )
        )
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["token"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not await refuse_unless_moderator(interaction, "Confirm"):
            return
        pending = interaction.client.pending  # type: ignore[attr-defined]
        item = pending.take(self.token, interaction.user.id)
        if item is None:
            await interaction.response.edit_message(
                content="This preview expired or was already used: start again.",
                embed=None,
                view=None,
            )
            return
        action, payload = item
        try:
            change = await apply_pending(interaction, action, dict(payload))
        except ModerationError as exc:
            await interaction.response.edit_message(
                content=f"Not changed: {exc}", embed=None, view=None
            )
            return
        await interaction.response.edit_message(
            content=f"Done: {change_line(change)}", embed=None, view=None, allowed_mentions=NO_PINGS
        )
        date = next(
            (
                op["after"].get("date")
                for op in change["ops"]
                if op["kind"] == "document" and op["after"]
            ),
            None,
        )
        dated = f" (document dated {date})" if date else ""
        await announce(
            interaction.client, f"Rulings updated: {change['action']} {change['summary']}{dated}."
        )


class CancelButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"ra:no:(?P<token>[0-9a-f]{16})"
):
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
    async def callback(self, interaction: discord.Interaction) -> None:
        if not await refuse_unless_moderator(interaction, "Cancel"):
            return
        interaction.client.pending.drop(self.token)  # type: ignore[attr-defined]
        await interaction.response.edit_message(
            content="Cancelled: nothing changed.", embed=None, view=None
        )


class RulingModal(discord.ui.Modal):
    """Add or edit: title, text, document and date (add), aliases, reason."""

    def __init__(self, action: str, edition: str, kind: str, entry: dict[str, Any] | None = None):
        title = "Edit a ruling" if entry else "Add a ruling"
        super().__init__(title=title, timeout=PENDING_SECONDS)
        self.action, self.edition, self.kind, self.entry = action, edition, kind, entry
        self.ruling_title = discord.ui.TextInput(
            label="Title", max_length=200, default=entry["title"] if entry else None
        )
        self.text = discord.ui.TextInput(
            label="Ruling text",
            style=discord.TextStyle.paragraph,
            max_length=4000,
            default=entry["text"][:4000] if entry else None,
        )
        self.add_item(self.ruling_title)
        self.add_item(self.text)
        if entry is None:
            self.document = discord.ui.TextInput(
                label="Document (id or title)", max_length=100, placeholder="2e-crd-2014-07-07"
            )
            self.date = discord.ui.TextInput(
                label="Document date (YYYY-MM-DD)", max_length=10, required=False
            )
            self.add_item(self.document)
            self.add_item(self.date)
        else:
            self.reason = discord.ui.TextInput(
                label="Why (for the log)", max_length=300, required=False
            )
            self.add_item(self.reason)
        self.aliases = discord.ui.TextInput(
            label="Aliases, comma separated", max_length=300, required=False
        )
        self.add_item(self.aliases)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        if not await refuse_unless_moderator(interaction, f"{self.action} modal"):
            return
        aliases = [a.strip() for a in str(self.aliases.value or "").split(",") if a.strip()]
        if self.entry is None:
            payload = {
                "title": str(self.ruling_title.value), "edition": self.edition, "kind": self.kind,
                "text": str(self.text.value), "document": str(self.document.value).strip(),
                "date": str(self.date.value).strip() or None, "aliases": aliases,
            }  # fmt: skip
            try:
                check_ruling(
                    payload["title"], self.edition, self.kind, payload["text"], payload["date"]
                )
            except ModerationError as exc:
                await interaction.response.send_message(str(exc), ephemeral=True)
                return
            source = payload["document"] + (f" · {payload['date']}" if payload["date"] else "")
            answer = preview_answer({**payload}, source)
        else:
            payload = {
                "entry_id": self.entry["id"], "based_on": self.entry["version"],
                "title": str(self.ruling_title.value), "text": str(self.text.value), "kind": self.kind,
                "aliases": aliases, "reason": str(self.reason.value or "") or None,
            }  # fmt: skip
            answer = preview_answer(
                {
                    **self.entry,
                    "title": payload["title"],
                    "text": payload["text"],
                    "kind": self.kind,
                },
                self.entry["document"],
            )
        token = interaction.client.pending.put(interaction.user.id, self.action, payload)  # type: ignore[attr-defined]
        embed, _ = answer_embed(answer)
        await interaction.response.send_message(
            "Preview — this is what users will see. Confirm to change it for every server.",
            embed=embed,
            view=confirm_view(token),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        from commands.errors import on_view_error

        await on_view_error(interaction, error, self)


@app_commands.guild_only()
@app_commands.default_permissions(manage_messages=True)
class RulingAdmin(app_commands.Group):
    """Moderators: change the rulings every server sees."""

    alias = app_commands.Group(name="alias", description="Nicknames that lead to a ruling")

    def __init__(self) -> None:
        super().__init__(
            name="ruling-admin", description="Moderators: change the rulings every server sees"
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_check(interaction)

    @staticmethod
    def _rulings(interaction: discord.Interaction):
        return interaction.client.rulings  # type: ignore[attr-defined]

    async def _entry(self, interaction: discord.Interaction, query: str) -> dict[str, Any] | None:
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
    async def add(
        self, interaction: discord.Interaction, edition: Edition, kind: Kind = "rule"
    ) -> None:
        await interaction.response.send_modal(RulingModal("add", edition, kind))

    @app_commands.command(name="edit", description="Edit a ruling (a prefilled modal)")
    @app_commands.describe(query="The ruling to edit", kind="Change what sort of entry it is")
    async def edit(
        self, interaction: discord.Interaction, query: str, kind: Kind | None = None
    ) -> None:
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
        self, interaction: discord.Interaction, query: str, reason: app_commands.Range[str, 1, 300]
    ) -> None:
        entry = await self._entry(interaction, query)
        if entry is None:
            return
        token = interaction.client.pending.put(
            interaction.user.id, "retire", {"entry_id": entry["id"], "reason": reason}
        )  # type: ignore[attr-defined]
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
        self, interaction: discord.Interaction, query: str, alias: app_commands.Range[str, 1, 100]
    ) -> None:
        entry = await self._entry(interaction, query)
        if entry is None:
            return
        change = await asyncio.to_thread(
            self._rulings(interaction).add_alias,
            _moderator(interaction),
            alias,
            entry["topic"],
        )
        await interaction.response.send_message(
            f"Done: {change_line(change)}", ephemeral=True, allowed_mentions=NO_PINGS
        )

    @alias.command(name="remove", description="Remove a nickname from a ruling")
    @app_commands.describe(query="The ruling", alias="The nickname to remove")
    async def alias_remove(
        self, interaction: discord.Interaction, query: str, alias: app_commands.Range[str, 1, 100]
    ) -> None:
        entry = await self._entry(interaction, query)
        if entry is None:
            return
        change = await asyncio.to_thread(
            self._rulings(interaction).remove_alias,
            _moderator(interaction),
            alias,
            entry["topic"],
        )
        await interaction.response.send_message(
            f"Done: {change_line(change)}", ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(
        name="import", description="Import a new rules document (.txt or .md), with a preview"
    )
    @app_commands.describe(
        document="The document file",
        title="Its title",
        edition="Which game",
        date="Its date, YYYY-MM-DD",
    )
    async def import_document(
        self,
        interaction: discord.Interaction,
        document: discord.Attachment,
        title: app_commands.Range[str, 1, 200],
        edition: Edition,
        date: str,
    ) -> None:
        if document.size > 2 * 1024 * 1024:
            await interaction.response.send_message("The file is over 2 MB.", ephemeral=True)
            return
        if not document.filename.lower().endswith((".txt", ".md")):
            await interaction.response.send_message(
                "Only .txt (PDF text) and .md (Markdown) documents can be imported.", ephemeral=True
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
                date=date.strip(),
            )
        except ModerationError as exc:
            await interaction.followup.send(f"Not imported: {exc}", ephemeral=True)
            return
        token = interaction.client.pending.put(interaction.user.id, "import", {"preview": preview})  # type: ignore[attr-defined]
        await interaction.followup.send(
            embeds=import_embeds(preview),
            view=confirm_view(token),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="log", description="Recent changes: who, when, what, why")
    @app_commands.describe(count="How many (1-25)")
    async def log_(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 25] = 10
    ) -> None:
        rulings = self._rulings(interaction)
        changes = await asyncio.to_thread(rulings.change_log, count)
        conflicts = await asyncio.to_thread(rulings.conflicts)
        text = "\n".join(change_line(c) for c in changes) or "No changes yet."
        if conflicts:
            text += "\n\n**Conflicts with newer bundled data (not applied):**\n" + "\n".join(
                c["detail"] for c in conflicts
            )
        embed = discord.Embed(title="Rulings changes", description=paginate(text)[0])
        await interaction.response.send_message(
            embed=embed, ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="revert", description="Undo a change (the undo is logged too)")
    @app_commands.describe(change="The change number from the log")
    async def revert(
        self, interaction: discord.Interaction, change: app_commands.Range[int, 1]
    ) -> None:
        done = await asyncio.to_thread(
            self._rulings(interaction).revert_change, _moderator(interaction), change
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
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 90] = 7
    ) -> None:
        state = interaction.client.state  # type: ignore[attr-defined]
        data = await asyncio.to_thread(state.stats, days)
        embeds, view = stats_message(data, self._rulings(interaction))
        await interaction.response.send_message(
            embeds=embeds, view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="reports", description="Reports users sent about answers")
    @app_commands.describe(close="Close report number N (it was handled)")
    async def reports(
        self, interaction: discord.Interaction, close: app_commands.Range[int, 1] | None = None
    ) -> None:
        state = interaction.client.state  # type: ignore[attr-defined]
        if close is not None:
            closed = await asyncio.to_thread(state.close_report, close)
            note = f"Report #{close} closed." if closed else f"There is no open report #{close}."
            await interaction.response.send_message(note, ephemeral=True)
            return
        open_reports = await asyncio.to_thread(state.reports)
        lines = [
            f"**#{r['id']}** {r['at'][:16].replace('T', ' ')} · {r['user_name']} on `{r['entry']}`: {r['text']}"
            for r in open_reports
        ]
        embed = discord.Embed(
            title="Open reports", description=paginate("\n".join(lines) or "No open reports.")[0]
        )
        await interaction.response.send_message(
            embed=embed, ephemeral=True, allowed_mentions=NO_PINGS
        )

    @edit.autocomplete("query")
    @retire.autocomplete("query")
    @alias_add.autocomplete("query")
    @alias_remove.autocomplete("query")
    async def _query_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if not is_moderator(interaction):
            return []
        return [
            app_commands.Choice(name=label, value=entry)
            for entry, label in self._rulings(interaction).suggest(current)
        ]


def stats_message(data: dict[str, Any], rulings) -> tuple[list[discord.Embed], discord.ui.View]:
    """The stats embed, and for each top miss a menu to make it an alias of a near match."""
    days = (
        "\n".join(
            f"{d['day']}: {d['lookups']} lookups, {d['answered']} answered" for d in data["per_day"]
        )
        or "No lookups."
    )
    top = "\n".join(f"{q['count']} × {q['query']}" for q in data["top_queries"]) or "none"
    misses = "\n".join(f"{q['count']} × {q['query']}" for q in data["top_misses"]) or "none"
    embed = discord.Embed(title=f"Lookups over the last {data['days']} day(s)")
    embed.add_field(name="Per day", value=clamp(days, limits.EMBED_FIELD_VALUE), inline=False)
    embed.add_field(name="Top queries", value=clamp(top, limits.EMBED_FIELD_VALUE), inline=False)
    embed.add_field(
        name="Top misses (no confident answer)",
        value=clamp(misses, limits.EMBED_FIELD_VALUE),
        inline=False,
    )
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
    return [embed], view


class AliasMissSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"ral:(?P<query>.{1,96})"
):
    """One click: a query users typed and missed becomes an alias of the picked ruling."""

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
    async def callback(self, interaction: discord.Interaction) -> None:
        if not await refuse_unless_moderator(interaction, "alias from stats"):
            return
        values = (interaction.data or {}).get("values") or []
        rulings = interaction.client.rulings  # type: ignore[attr-defined]
        entry = rulings.editable_entry(str(values[0])) if values else None
        if entry is None:
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        try:
            change = await asyncio.to_thread(
                rulings.add_alias, _moderator(interaction), self.query, entry["topic"]
            )
        except ModerationError as exc:
            await interaction.response.send_message(f"Not changed: {exc}", ephemeral=True)
            return
        await interaction.response.send_message(
            f"Done: {change_line(change)}", ephemeral=True, allowed_mentions=NO_PINGS
        )


def import_embeds(preview: ImportPreview) -> list[discord.Embed]:
    """The preview of an import: counts, then what is new, changed (with diffs) and superseded."""
    d = preview.document

    def titles(items: list[dict[str, Any]]) -> str:
        return ", ".join(i["title"] for i in items) or "none"

    summary = (
        f"**{d['title']}** · {d['edition']} · {d['date']}\n"
        f"New: {len(preview.new)} · Changed: {len(preview.changed)} · Unchanged: {len(preview.unchanged)} · "
        f"Superseded: {len(preview.superseded)} · Warnings: {len(preview.warnings)}\n\n"
        f"**New:** {titles(preview.new)}\n**Changed:** {titles(preview.changed)}\n**Unchanged:** {titles(preview.unchanged)}"
    )
    if preview.warnings:
        summary += "\n\n**Parse warnings:**\n" + "\n".join(preview.warnings)
    embeds = [
        discord.Embed(
            title="Import preview — Confirm applies it all at once",
            description=paginate(summary)[0],
        )
    ]
    budget = limits.EMBED_TOTAL - len(embeds[0].description) - 200
    shown = 0
    for item in preview.changed:
        body = f"```diff\n{item['diff'][:1500]}\n```"
        if len(body) + 100 > budget or len(embeds) >= limits.EMBEDS_PER_MESSAGE - 1:
            break
        embeds.append(
            discord.Embed(
                title=clamp(f"Changed: {item['title']}", limits.EMBED_TITLE), description=body
            )
        )
        budget -= len(body) + 100
        shown += 1
    if shown < len(preview.changed):
        embeds.append(
            discord.Embed(
                description=f"…and {len(preview.changed) - shown} more changed entries (diffs not shown)."
            )
        )
    return embeds


class Announcements(commands.Cog):
    @app_commands.command(
        name="announcements", description="Where this server hears about ruling updates"
    )
    @app_commands.describe(
        channel="The channel for 'Rulings updated' notes; leave out to stop them"
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def announcements(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        state = interaction.client.state  # type: ignore[attr-defined]
        await asyncio.to_thread(
            state.set_announcements, interaction.guild_id, channel.id if channel else None
        )
        text = (
            f"Ruling updates will be announced in {channel.mention}."
            if channel
            else "Ruling updates will not be announced here."
        )
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)


MODERATION_ITEMS = (ConfirmButton, CancelButton, AliasMissSelect)


async def setup(bot: commands.Bot) -> None:
    bot.pending = Pending()  # type: ignore[attr-defined]
    bot.add_dynamic_items(*MODERATION_ITEMS)
    await bot.add_cog(Announcements())
    home = bot.settings.home_guild_id  # type: ignore[attr-defined]
    if home:
        bot.tree.add_command(RulingAdmin(), guild=discord.Object(id=home))
    else:
        log.info("RULINGS_HOME_GUILD_ID is not set: /ruling-admin is not registered")

"""The moderators' renderers: previews, change-log lines, lookup stats and import previews,
inside Discord's limits like every other renderer (see ``commands/render.py``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.answers.imports import ImportPreview
from commands import limits
from commands.render import clamp, paginate

PREVIEW_NOTE = "Preview — this is what users will see. Confirm to change it for every server."


def change_line(change: dict[str, Any]) -> str:
    reverted = f" · reverted by #{change['reverted_by'][0]}" if change.get("reverted_by") else ""
    reason = f" · why: {change['reason']}" if change.get("reason") else ""
    return f"**#{change['id']}** {change['at'][:16].replace('T', ' ')} · {change['moderator_name']} · {change['action']}: {change['summary']}{reason}{reverted}"


def done_message(change: dict[str, Any]) -> str:
    """The moderator's reply to a change that was made, inside one message's limit."""
    return clamp(f"Done: {change_line(change)}", limits.MESSAGE_CONTENT)


def announcement(change: dict[str, Any]) -> str:
    """'Rulings updated: …' for the servers that asked, inside one message's limit."""
    date = next(
        (
            op["after"].get("date")
            for op in change["ops"]
            if op["kind"] == "document" and op["after"]
        ),
        None,
    )
    dated = f" (document dated {date})" if date else ""
    return clamp(
        f"Rulings updated: {change['action']} {change['summary']}{dated}.", limits.MESSAGE_CONTENT
    )


def repoint_message(alias: str, target_title: str, current: list[tuple[str, str]]) -> str:
    """The question before an alias that leads elsewhere is moved."""
    where = ", ".join(f"**{title}**" for _, title in current)
    return clamp(
        f"“{alias}” already leads to {where} in every server. Re-point it to **{target_title}**? "
        "Users asking for it will then get the ruling below.",
        limits.MESSAGE_CONTENT,
    )


def changes_log_embed(
    changes: list[dict[str, Any]], conflicts: list[dict[str, Any]]
) -> discord.Embed:
    """/ruling-admin log: recent changes, then conflicts with newer bundled data."""
    text = "\n".join(change_line(c) for c in changes) or "No changes yet."
    if conflicts:
        text += "\n\n**Conflicts with newer bundled data (not applied):**\n" + "\n".join(
            c["detail"] for c in conflicts
        )
    return discord.Embed(title="Rulings changes", description=paginate(text)[0])


def reports_embed(open_reports: list[dict[str, Any]]) -> discord.Embed:
    """/ruling-admin reports: the open reports, oldest first as the state lists them."""
    lines = [
        f"**#{r['id']}** {r['at'][:16].replace('T', ' ')} · {r['user_name']} on `{r['entry']}`: {r['text']}"
        for r in open_reports
    ]
    return discord.Embed(
        title="Open reports", description=paginate("\n".join(lines) or "No open reports.")[0]
    )


def stats_embed(data: dict[str, Any]) -> discord.Embed:
    """Lookups per day, top queries and top misses (the menus under it are in admin.views)."""
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
    return embed


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
    description = paginate(summary)[0]
    embeds = [
        discord.Embed(
            title="Import preview — Confirm applies it all at once", description=description
        )
    ]
    budget = limits.EMBED_TOTAL - len(description) - 200
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

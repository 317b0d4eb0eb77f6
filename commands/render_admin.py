"""The moderators' renderers: previews, change-log lines, lookup stats and import previews,
inside Discord's limits like every other renderer (see ``commands/render.py``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.answers.imports import ImportPreview, words_of
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


_STATUS_MARK = {
    "new": "🆕 new",
    "changed": "✏️ changed",
    "unchanged": "= unchanged",
    "older": "⏳ older",
}
_ENTRY_LINE = 140  # one entry's line in the list: status, title, length, first words


def import_embeds(preview: ImportPreview) -> list[discord.Embed]:
    """The preview of an import, as ``rulings ingest`` prints it: the document (shape and
    encoding named), warnings first with line numbers, every entry with its status, length
    and first words (truncated to Discord's limits), then word diffs of changed entries."""
    d = preview.document
    counts = {status: 0 for status in _STATUS_MARK}
    for entry in preview.entries:
        counts[entry["status"]] += 1
    origin = "official" if d["official"] else "community"
    head = (
        f"**{d['title']}** · `{d['id']}`\n"
        f"{d['edition']} · {d['kind']} · {d['date'] or 'undated'} · {origin} · "
        f"shape **{d['shape']}** · encoding **{d['encoding']}**\n"
        f"Entries: {len(preview.entries)} — "
        + " · ".join(
            f"{label.split()[-1].capitalize()}: {counts[s]}" for s, label in _STATUS_MARK.items()
        )
        + f" · Warnings: {len(preview.warnings)}"
    )
    if counts["older"]:
        head += "\nOlder entries rank below the current version: they will not be current."
    if preview.warnings:
        head += f"\n\n{_warnings_heading(len(preview.doubts), len(preview.warnings))}\n"
        head += _lines(preview.warning_lines(), 2400, "warnings")
    title = "Import preview — Confirm applies it all at once"
    embeds = [discord.Embed(title=title, description=head[: limits.EMBED_DESCRIPTION])]
    budget = limits.EMBED_TOTAL - len(title) - len(embeds[0].description or "") - 100
    listing = [
        clamp(
            f"`{_STATUS_MARK[e['status']]}` **{e['title']}**"
            + (f" ({e['date']})" if e["date"] else "")
            + f" — {words_of(e)}: {e['first_words']}",
            _ENTRY_LINE,
        )
        for e in preview.entries
    ]
    room = min(limits.EMBED_DESCRIPTION, budget - 200)
    if room > 200:
        body = _lines(listing, room, "entries", "every entry is in the attached import-preview.txt")
        embeds.append(discord.Embed(title="Entries", description=body))
        budget -= len(body) + len("Entries")
    changed = [e for e in preview.entries if e.get("diff")]
    shown = 0
    for item in changed:
        body = clamp(item["diff"], 900)
        name = clamp(f"Changed: {item['title']}", limits.EMBED_TITLE)
        if len(body) + len(name) + 150 > budget or len(embeds) >= limits.EMBEDS_PER_MESSAGE - 1:
            break
        embeds.append(discord.Embed(title=name, description=body))
        budget -= len(body) + len(name)
        shown += 1
    if shown < len(changed):
        embeds.append(
            discord.Embed(
                description=f"…and {len(changed) - shown} more changed entries (diffs not shown)."
            )
        )
    return embeds


def _warnings_heading(doubts: int, warnings: int) -> str:
    """The warnings' heading says what they hold up: doubts block Confirm until corrected,
    notes only ask for a second click."""
    if not doubts:
        return "**⚠ Warnings (notes: confirming takes a second click):**"
    notes = warnings - doubts
    return (
        f"**⚠ Warnings: {doubts} doubt(s) block confirming until the entries are corrected "
        "(Fix doubts… below)" + (f"; {notes} note(s) take a second click" if notes else "") + ":**"
    )


def _lines(lines: list[str], room: int, what: str, hint: str = "") -> str:
    """As many whole lines as fit in ``room`` characters, then "…and N more"."""
    out: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        tail = f"…and {len(lines) - index} more {what}" + (f" ({hint})" if hint else "")
        if used + len(line) + 1 + len(tail) + 1 > room:
            out.append(tail)
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)

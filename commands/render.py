"""Core answers -> Discord embeds, choices and components, always inside Discord's limits.

Long rulings are paginated, never cut: ``paginate`` splits at paragraph, line, sentence or
word boundaries. Every message is sent with mentions disabled (``NO_PINGS``).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from commands import limits

NO_PINGS = discord.AllowedMentions.none()
EDITION_COLOUR = {"1E": discord.Colour(0x2F6FB3), "2E": discord.Colour(0xB3582F)}
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+")


def clamp(text: str, limit: int) -> str:
    """Shorten a label-like string (titles, names) with an ellipsis; never used for rulings."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def paginate(text: str, size: int = limits.PAGE_CHARS) -> list[str]:
    """Split text into pages of at most ``size`` characters without losing a character.

    Breaks at the last paragraph boundary that fits, else a line, a sentence, a space; only a
    single unbroken run longer than a page is split mid-word.
    """
    text = text.strip()
    if not text:
        return [""]
    pages: list[str] = []
    while len(text) > size:
        window = text[: size + 1]
        cut = -1
        for separator in ("\n\n", "\n"):
            cut = window.rfind(separator)
            if cut > size // 3:
                break
        if cut <= size // 3:
            ends = [m.end() for m in _SENTENCE_END.finditer(window) if m.end() <= size]
            cut = ends[-1] if ends and ends[-1] > size // 3 else window.rfind(" ")
        if cut <= 0:
            cut = size
        pages.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    pages.append(text)
    return pages


def edition_badge(edition: str) -> str:
    return f"[{edition}]"


def status_line(answer: dict[str, Any]) -> str:
    """Current or superseded, and what the version does to the earlier one."""
    if answer.get("retired"):
        return f"Retired: {answer.get('retired_reason') or 'no reason given'}"
    if answer["status"] != "current":
        newer = next((v for v in answer["versions"] if v["status"] == "current"), None)
        where = f" by {newer['source']} ({newer['date'] or 'undated'})" if newer else ""
        return f"Superseded{where}"
    line = "Current"
    actions = {a["action"] for a in answer.get("amendments", [])}
    older = [v for v in answer["versions"] if v["id"] != answer["id"]]
    if older and actions & {"replace entry", "supersedes"}:
        line += f" · replaces the entry in {older[0]['source']}"
    elif answer.get("base"):
        line += f" · amends the entry in {answer['base']['source']} (shown after the text)"
    return line


def answer_pages(answer: dict[str, Any]) -> list[str]:
    """The pages of an answer: its text, then the earlier entry it amends (if any)."""
    body = answer.get("note") or answer["text"] or "(no text)"
    if answer.get("rulings_note"):
        body = f"{body}\n\n*{answer['rulings_note']}*"
    if answer.get("passage"):  # the part that answers first, then the whole text
        body = f"**The part that answers:**\n> {answer['passage']['text']}\n\n{body}"
    pages = paginate(body)
    base = answer.get("base")
    if base:
        heading = f"**The entry it amends** ({base['source']}, {base['date'] or 'undated'}):\n\n"
        pages += [
            heading + page for page in paginate(base["text"], limits.PAGE_CHARS - len(heading))
        ]
    return pages


def answer_embed(
    answer: dict[str, Any], page: int = 0, *, as_of: str | None = None
) -> tuple[discord.Embed, int]:
    """One page of an answer as an embed; returns (embed, number of pages)."""
    pages = answer_pages(answer)
    page = max(0, min(page, len(pages) - 1))
    embed = discord.Embed(
        title=clamp(f"{answer['title']} {edition_badge(answer['edition'])}", limits.EMBED_TITLE),
        description=pages[page],
        colour=EDITION_COLOUR.get(answer["edition"]),
    )
    embed.add_field(
        name="Source",
        value=clamp(
            f"{answer['source']} · {answer['date'] or 'undated'}", limits.EMBED_FIELD_VALUE
        ),
        inline=False,
    )
    embed.add_field(
        name="Status", value=clamp(status_line(answer), limits.EMBED_FIELD_VALUE), inline=False
    )
    card = answer.get("card")
    if card and page == 0 and card.get("text"):
        embed.add_field(
            name=clamp(f"Card: {card['name']} ({card['type']})", limits.EMBED_FIELD_NAME),
            value=clamp(card["text"], limits.EMBED_FIELD_VALUE),
            inline=False,
        )
    footer = f"{answer['id']}"
    if len(pages) > 1:
        footer = f"Page {page + 1}/{len(pages)} · {footer}"
    if as_of:
        footer += f" · in force on {as_of}"
    embed.set_footer(text=clamp(footer, limits.EMBED_FOOTER))
    return embed, len(pages)


def choice_label(title: str, edition: str) -> str:
    return clamp(f"{title} ({edition})", limits.CHOICE_NAME)


def search_embed(found: dict[str, Any], snippets: dict[str, str]) -> discord.Embed:
    """The best matches of /search, one line of snippet each."""
    title = f"Results for “{clamp(found['query'], 150)}”"
    embed = discord.Embed(title=clamp(title, limits.EMBED_TITLE))
    lines = []
    for number, result in enumerate(found["results"][: limits.CHOICES], 1):
        snippet = clamp(snippets.get(result["id"], ""), 140)
        lines.append(
            f"**{number}. {clamp(result['title'], 90)}** {edition_badge(result['edition'])} — "
            f"{clamp(result['source'], 80)}, {result['date'] or 'undated'}\n{snippet}"
        )
    description = "\n".join(lines) if lines else "No rulings match those words."
    if not found["confident"] and lines:
        description = "No confident match; the closest rulings:\n\n" + description
    embed.description = paginate(description, limits.PAGE_CHARS)[0]
    return embed


def sources_embed(sources: list[dict[str, Any]]) -> discord.Embed:
    embed = discord.Embed(title="Documents the answers come from")
    for s in sources[: limits.EMBED_FIELDS]:
        kind = "official" if s["official"] else "community copy"
        embed.add_field(
            name=clamp(s["title"], limits.EMBED_FIELD_NAME),
            value=clamp(
                f"{s['edition']} · {s['kind']} ({kind}) · {s['date'] or 'undated'} · "
                f"{s['entries']} entries ({s['current']} current)",
                limits.EMBED_FIELD_VALUE,
            ),
            inline=False,
        )
    return embed


def history_pages(history: dict[str, Any]) -> list[str]:
    blocks = []
    for v in history["versions"]:
        marker = " ← in force then" if v.get("in_force") else ""
        head = f"**{v['status'].capitalize()}** · {v['source']} · {v['date'] or 'undated'}{marker}"
        blocks.append(f"{head}\n{v['text'] or '(text not in the bundled data)'}")
    return paginate("\n\n".join(blocks))


def history_embed(history: dict[str, Any], page: int = 0) -> tuple[discord.Embed, int]:
    pages = history_pages(history)
    page = max(0, min(page, len(pages) - 1))
    embed = discord.Embed(
        title=clamp(
            f"History: {history['title']} {edition_badge(history['edition'])}", limits.EMBED_TITLE
        ),
        description=pages[page],
        colour=EDITION_COLOUR.get(history["edition"]),
    )
    footer = f"{len(history['versions'])} version(s), newest first · {history['topic']}"
    if len(pages) > 1:
        footer = f"Page {page + 1}/{len(pages)} · {footer}"
    embed.set_footer(text=clamp(footer, limits.EMBED_FOOTER))
    return embed, len(pages)


def changes_embed(since: str, changes: list[dict[str, Any]]) -> discord.Embed:
    lines = [
        f"{c['date']} · **{c['change']}** · {clamp(c['title'], 80)} {edition_badge(c['edition'])}"
        for c in changes
    ]
    text = "\n".join(lines) if lines else f"Nothing was added or changed after {since}."
    pages = paginate(text)
    more = "\n\n…and more: narrow it with `edition`." if len(pages) > 1 else ""
    embed = discord.Embed(title=clamp(f"Rulings changed since {since}", limits.EMBED_TITLE))
    embed.description = pages[0] + more
    embed.set_footer(text=f"{len(changes)} change(s); pick one below to read it")
    return embed


def card_embed(card: dict[str, Any]) -> discord.Embed:
    embed = discord.Embed(
        title=clamp(f"{card['name']} {edition_badge(card['edition'])}", limits.EMBED_TITLE),
        description=paginate(card["text"] or "(no game text)")[0],
        colour=EDITION_COLOUR.get(card["edition"]),
    )
    embed.add_field(name="Type", value=clamp(card["type"] or "?", limits.EMBED_FIELD_VALUE))
    rulings = card.get("rulings") or []
    mentioned = card.get("mentioned_in") or []
    embed.add_field(
        name="Rulings about this card",
        value=clamp(", ".join(r["title"] for r in rulings) or "none", limits.EMBED_FIELD_VALUE),
        inline=False,
    )
    embed.add_field(
        name="Rulings that mention it",
        value=clamp(", ".join(r["title"] for r in mentioned) or "none", limits.EMBED_FIELD_VALUE),
        inline=False,
    )
    embed.set_footer(
        text=clamp(f"{card['id']} · sets: {', '.join(card.get('sets', []))}", limits.EMBED_FOOTER)
    )
    return embed


HELP_TEXT = (
    "**Star Trek CCG rulings**\n"
    "Send me a term, a card name or a question and I answer with the official ruling, "
    "its document and date. Examples: `matching commander`, `KTC`, `how do I win the game`.\n"
    "Add `1E` or `2E` to pick an edition: `stopped 2E`.\n"
    "In servers: `/ruling`, `/search`, `/history`, `/card`, `/sources`, `/changes`."
)

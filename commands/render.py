"""Core answers -> Discord embeds, choices and components, always inside Discord's limits.

Long rulings are paginated, never cut: ``paginate`` splits at paragraph, line, sentence or
word boundaries. Every message is sent with mentions disabled (``NO_PINGS``).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.answers.compose import BASE_MISSING, COMPOSED, REPLACED, SIDE_BY_SIDE
from bot.answers.results import passage_to_point_out
from bot.markup import markup_to_words
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


def clamp_page(page: int, pages: int) -> int:
    """A page number that exists: a stale or hand-made page past the end shows the last one."""
    return max(0, min(int(page), max(pages, 1) - 1))


def list_pages(lines: list[str], size: int = limits.PAGE_CHARS) -> list[str]:
    """Whole lines (list items) grouped into pages of at most ``size`` characters; an item
    longer than a page is split by ``paginate`` rather than cut."""
    pages: list[str] = []
    current = ""
    for line in lines:
        for piece in paginate(line, size) if len(line) > size else [line]:
            joined = f"{current}\n{piece}" if current else piece
            if len(joined) > size:
                pages.append(current)
                joined = piece
            current = joined
    pages.append(current)
    return pages


def edition_badge(edition: str) -> str:
    return f"[{edition}]"


def status_line(answer: dict[str, Any]) -> str:
    """The honest label (current, amended, superseded, retired, older copy) and why."""
    if answer.get("retired"):
        return f"Retired: {answer.get('retired_reason') or 'no reason given'}"
    label = answer.get("label")
    if label and label != "current":
        detail = answer.get("label_detail")
        return f"{label.capitalize()}: {detail}" if detail else label.capitalize()
    if answer["status"] != "current":
        newer = next((v for v in answer["versions"] if v["status"] == "current"), None)
        where = f" by {newer['source']} ({newer['date'] or 'undated'})" if newer else ""
        return f"Superseded{where}"
    line = "Current"
    in_force = answer.get("in_force") or {}
    base = answer.get("base")
    mode = in_force.get("mode")
    if mode == REPLACED and answer.get("versions"):
        older = [v for v in answer["versions"] if v["id"] != answer["id"]]
        if older:
            line += f" · replaces the entry in {older[0]['source']}"
    elif mode == COMPOSED and base:
        line += (
            f" · composed with the entry it amends ({base['source']}, {base['date'] or 'undated'})"
        )
    elif base:
        line += f" · amends the entry in {base['source']} (shown after the text)"
    return line


def _in_force_text(answer: dict[str, Any]) -> str:
    """The rule to show: amendments applied where they could be, changed paragraphs quoted;
    the editing instructions are provenance, never the first line."""
    in_force = answer.get("in_force")
    if not in_force:
        return answer["text"]
    if in_force.get("mode") == COMPOSED:
        parts = [
            "\n".join("> " + line for line in p["text"].split("\n")) if p["changed"] else p["text"]
            for p in in_force["paragraphs"]
        ]
        text = "*The rule as in force (quoted paragraphs are the amendment's):*\n\n"
        text += "\n\n".join(parts)
    else:
        text = in_force.get("text") or answer["text"]
        if in_force.get("note") and in_force.get("mode") in (SIDE_BY_SIDE, BASE_MISSING):
            text = f"*{in_force['note']}*\n\n{text}"
    if in_force.get("instructions"):
        text += "\n\n-# Editing instructions: " + " ".join(in_force["instructions"])
    return text


def answer_pages(answer: dict[str, Any]) -> list[str]:
    """The pages of an answer: the part that answers, the rule as in force, then the entry
    it amends where that is to be read with it."""
    body = answer.get("note") or _in_force_text(answer) or "(no text)"
    if answer.get("damaged_note"):
        body = f"*{answer['damaged_note']}*\n\n{body}"
    if answer.get("rulings_note"):
        body = f"{body}\n\n*{answer['rulings_note']}*"
    passage = passage_to_point_out(answer)
    if passage:  # the part that answers first, then the whole rule
        body = f"**The part that answers:**\n> {passage}\n\n{body}"
    pages = paginate(markup_to_words(body))
    base = answer.get("base")
    mode = (answer.get("in_force") or {}).get("mode")
    if base and mode != COMPOSED:
        heading = (
            "The entry it amends, to read with it"
            if mode == SIDE_BY_SIDE
            else "The text it adds to, still in force"
            if answer.get("in_force")
            else "The entry it amends"
        )
        heading = f"**{heading}** ({base['source']}, {base['date'] or 'undated'}):\n\n"
        pages += [
            heading + page
            for page in paginate(markup_to_words(base["text"]), limits.PAGE_CHARS - len(heading))
        ]
    return pages


def _link(text: str, url: str | None) -> str:
    """A document title, as a Markdown link to the document where its address is known."""
    if not url:
        return text
    label = text.replace("[", "(").replace("]", ")")
    return f"[{label}]({url.replace(')', '%29').replace(' ', '%20')})"


def status_word(answer: dict[str, Any]) -> str:
    if answer.get("retired"):
        return "retired"
    if answer.get("label"):
        return answer["label"]
    return "current" if answer["status"] == "current" else "superseded"


def answer_footer(answer: dict[str, Any], page: int, pages: int, as_of: str | None) -> str:
    """What a reader needs at a glance: the document, its date and the status, never an id."""
    footer = f"{answer['source']} · {answer['date'] or 'undated'} · {status_word(answer)}"
    if pages > 1:
        footer = f"Page {page + 1}/{pages} · {footer}"
    if as_of:
        footer += f" · in force on {as_of}"
    return clamp(footer, limits.EMBED_FOOTER)


def answer_embed(
    answer: dict[str, Any], page: int = 0, *, as_of: str | None = None
) -> tuple[discord.Embed, int]:
    """One page of an answer as an embed; returns (embed, number of pages)."""
    pages = answer_pages(answer)
    page = clamp_page(page, len(pages))
    embed = discord.Embed(
        title=clamp(f"{answer['title']} {edition_badge(answer['edition'])}", limits.EMBED_TITLE),
        description=pages[page],
        colour=EDITION_COLOUR.get(answer["edition"]),
        url=answer.get("url") or None,
    )
    source = f"{_link(answer['source'], answer.get('url'))} · {answer['date'] or 'undated'}"
    if len(source) > limits.EMBED_FIELD_VALUE:  # a link is never cut in half
        source = f"{answer['source']} · {answer['date'] or 'undated'}"
    embed.add_field(name="Source", value=clamp(source, limits.EMBED_FIELD_VALUE), inline=False)
    embed.add_field(
        name="Status", value=clamp(status_line(answer), limits.EMBED_FIELD_VALUE), inline=False
    )
    card = answer.get("card")
    if card and page == 0:
        name = "Card named" if card.get("subject") == "mentioned" else "Card"
        embed.add_field(
            name=clamp(f"{name}: {card['name']} ({card['type'] or '?'})", limits.EMBED_FIELD_NAME),
            value=clamp(card.get("text") or "(no game text)", limits.EMBED_FIELD_VALUE),
            inline=False,
        )
    if page == 0:
        _same_name_field(embed, answer.get("same_name"))
    embed.set_footer(text=answer_footer(answer, page, len(pages), as_of))
    return embed, len(pages)


def choice_label(title: str, edition: str) -> str:
    return clamp(f"{title} ({edition})", limits.CHOICE_NAME)


def search_lines(found: dict[str, Any], snippets: dict[str, str]) -> list[str]:
    lines = []
    for number, result in enumerate(found["results"], 1):
        snippet = clamp(snippets.get(result["id"], ""), 140)
        lines.append(
            f"**{number}. {clamp(result['title'], 90)}** {edition_badge(result['edition'])} — "
            f"{clamp(result['source'], 80)}, {result['date'] or 'undated'}\n{snippet}"
        )
    return lines


def search_embed(
    found: dict[str, Any], snippets: dict[str, str], page: int = 0
) -> tuple[discord.Embed, int]:
    """The matches of /search, one line of snippet each, a page at a time."""
    title = f"Results for “{clamp(found['query'], 150)}”"
    embed = discord.Embed(title=clamp(title, limits.EMBED_TITLE))
    lines = search_lines(found, snippets)
    if not lines:
        embed.description = "No rulings match those words."
        return embed, 1
    head = "No confident match; the closest rulings:\n\n" if not found["confident"] else ""
    pages = list_pages(lines, limits.PAGE_CHARS - len(head))
    page = clamp_page(page, len(pages))
    embed.description = head + pages[page]
    if len(pages) > 1:
        embed.set_footer(text=f"Page {page + 1}/{len(pages)} · {len(lines)} result(s)")
    return embed, len(pages)


def sources_embed(sources: list[dict[str, Any]], page: int = 0) -> tuple[discord.Embed, int]:
    """The documents, a page at a time, each title linked to the document where known."""
    lines = []
    for s in sources:
        kind = "official" if s["official"] else "community copy"
        lines.append(
            f"**{_link(clamp(s['title'], 200), s.get('url'))}**\n"
            f"{s['edition']} · {s['kind']} ({kind}) · {s['date'] or 'undated'} · "
            f"{s['entries']} entries ({s['current']} current)"
        )
    pages = list_pages(lines or ["No documents."])
    page = clamp_page(page, len(pages))
    embed = discord.Embed(title="Documents the answers come from", description=pages[page])
    footer = f"{len(sources)} document(s)"
    if len(pages) > 1:
        footer = f"Page {page + 1}/{len(pages)} · {footer}"
    embed.set_footer(text=footer)
    return embed, len(pages)


def history_pages(history: dict[str, Any]) -> list[str]:
    blocks = []
    for v in history["versions"]:
        marker = " ← in force then" if v.get("in_force") else ""
        head = f"**{v['status'].capitalize()}** · {v['source']} · {v['date'] or 'undated'}{marker}"
        text = markup_to_words(v["text"]) if v["text"] else "(text not in the bundled data)"
        blocks.append(f"{head}\n{text}")
    return paginate("\n\n".join(blocks))


def history_embed(history: dict[str, Any], page: int = 0) -> tuple[discord.Embed, int]:
    pages = history_pages(history)
    page = clamp_page(page, len(pages))
    embed = discord.Embed(
        title=clamp(
            f"History: {history['title']} {edition_badge(history['edition'])}", limits.EMBED_TITLE
        ),
        description=pages[page],
        colour=EDITION_COLOUR.get(history["edition"]),
    )
    footer = f"{len(history['versions'])} version(s), newest first"
    if len(pages) > 1:
        footer = f"Page {page + 1}/{len(pages)} · {footer}"
    embed.set_footer(text=clamp(footer, limits.EMBED_FOOTER))
    return embed, len(pages)


def changes_pages(since: str, changes: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The changes grouped into pages: each page's text fits, and its select holds them all."""
    pages: list[list[dict[str, Any]]] = [[]]
    size = 0
    for change in changes:
        line = len(change_line(change)) + 1
        if pages[-1] and (size + line > limits.PAGE_CHARS or len(pages[-1]) >= limits.CHOICES):
            pages.append([])
            size = 0
        pages[-1].append(change)
        size += line
    return pages


def change_line(c: dict[str, Any]) -> str:
    return (
        f"{c['date']} · **{c['change']}** · {clamp(c['title'], 80)} {edition_badge(c['edition'])}"
    )


def changes_embed(
    since: str, changes: list[dict[str, Any]], page: int = 0
) -> tuple[discord.Embed, int]:
    pages = changes_pages(since, changes)
    page = clamp_page(page, len(pages))
    lines = [change_line(c) for c in pages[page]]
    text = "\n".join(lines) if lines else f"Nothing was added or changed after {since}."
    embed = discord.Embed(title=clamp(f"Rulings changed since {since}", limits.EMBED_TITLE))
    embed.description = text
    footer = f"{len(changes)} change(s); pick one below to read it"
    if len(pages) > 1:
        footer = f"Page {page + 1}/{len(pages)} · {footer}"
    embed.set_footer(text=footer)
    return embed, len(pages)


def _same_name_field(embed: discord.Embed, same: list[dict[str, Any]] | None) -> None:
    """The other cards that bear the name asked for: never one picked in silence."""
    if same:
        embed.add_field(
            name=clamp(f"Also named so ({len(same)} more)", limits.EMBED_FIELD_NAME),
            value=clamp(
                "; ".join(f"{c['title']} ({c['edition']})" for c in same),
                limits.EMBED_FIELD_VALUE,
            ),
            inline=False,
        )


def card_embed(card: dict[str, Any]) -> discord.Embed:
    embed = discord.Embed(
        title=clamp(f"{card['name']} {edition_badge(card['edition'])}", limits.EMBED_TITLE),
        description=paginate(markup_to_words(card["text"]) or "(no game text)")[0],
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
    _same_name_field(embed, card.get("same_name"))
    sets = ", ".join(card.get("sets", [])) or "none listed"
    embed.set_footer(text=clamp(f"{card['edition']} card · sets: {sets}", limits.EMBED_FOOTER))
    return embed


# A miss in a server channel: `help` works only in direct messages, so say what works here.
MISS_HINT_DM = "Try other words; send `help` for examples."
MISS_HINT_CHANNEL = "Try other words, or `/ruling` and `/search`, which suggest as you type."
SLOW_DOWN = (
    "Slow down a little: I answer at most {per_minute} lookups a minute; try again in {wait} s."
)

HELP_TEXT = (
    "**Star Trek CCG rulings**\n"
    "Send me a term, a card name or a question and I answer with the official ruling, "
    "its document and date. Examples: `matching commander`, `KTC`, `how do I win the game`.\n"
    "Add `1E` or `2E` to pick an edition: `stopped 2E`.\n"
    "In servers: `/ruling`, `/search`, `/history`, `/card`, `/sources`, `/changes`."
)

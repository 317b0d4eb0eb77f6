"""Core answers -> Discord embeds, choices and components, always inside Discord's limits.

Long rulings are paginated, never cut: ``paginate`` splits at paragraph, line, sentence or
word boundaries. Every message is sent with mentions disabled (``NO_PINGS``).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.answers.layout import (
    ANSWER,
    PAGE_TARGET,
    Citation,
    Layout,
    Segment,
    answer_layout,
    answer_status,
    best_matches,
    pages,
    shortened,
)
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
    return (answer_status(answer) or "current").capitalize()


ANSWER_PAGE_MOST = PAGE_TARGET + 200  # headings and source lines included
DIVIDER = "─" * 16  # between the part that answers and the rest: fits a phone's width


def cite_text(cite: Citation) -> str:
    """A block's source line: the document (linked where its address is known), its date,
    and its status when it is not simply current."""
    text = cite.line
    if cite.url and len(cite.url) < 300:  # a link is never cut in half
        text = text.replace(cite.source, _link(cite.source, cite.url), 1)
    return f"*From {text}*"


def _segment_text(segment: Segment) -> str:
    block = segment.block
    lines = [f"**{block.heading}**" + ("" if segment.first else " (continued)")]
    if block.cite is not None and block.cite.source:
        lines.append(clamp(cite_text(block.cite), 600))
    if segment.first and block.note:
        lines.append(f"*{block.note}*")
    body = segment.text
    if block.role == ANSWER:
        body = "\n".join("> " + line if line.strip() else ">" for line in body.split("\n"))
    if body:
        lines.append(body)
    return "\n".join(lines)


def layout_pages(layout: Layout) -> list[str]:
    """The pages of a layout as embed descriptions: each block with its heading and one
    source line, the part that answers first and a divider after it."""
    out = []
    for page in pages(layout, PAGE_TARGET):
        parts = []
        for segment in page:
            if parts and parts[-1][0] == ANSWER and segment.block.role != ANSWER:
                parts.append(("", DIVIDER))
            parts.append((segment.block.role, _segment_text(segment)))
        text = "\n\n".join(text for _, text in parts)
        out.extend(paginate(text, limits.EMBED_DESCRIPTION - 96))  # a guard, never hit
    return out or ["(no text)"]


def answer_pages(answer: dict[str, Any], part: str | None = None) -> list[str]:
    """The pages of an answer: the part that answers with its own source, then the rest."""
    return layout_pages(answer_layout(answer, part))


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
    """Where the reader is: the page, and the date asked about; the sources are in the text."""
    footer = f"Page {page + 1}/{pages}" if pages > 1 else ""
    if pages > 1 and page == 0:
        footer += " · the rest of the ruling on the next pages"
    if as_of:
        footer = f"{footer} · in force on {as_of}" if footer else f"In force on {as_of}"
    return clamp(footer, limits.EMBED_FOOTER)


def answer_embed(
    answer: dict[str, Any], page: int = 0, *, as_of: str | None = None, part: str | None = None
) -> tuple[discord.Embed, int]:
    """One page of an answer as an embed; returns (embed, number of pages)."""
    pages_ = answer_pages(answer, part)
    page = clamp_page(page, len(pages_))
    embed = discord.Embed(
        title=clamp(f"{answer['title']} {edition_badge(answer['edition'])}", limits.EMBED_TITLE),
        description=pages_[page],
        colour=EDITION_COLOUR.get(answer["edition"]),
        url=answer.get("url") or None,
    )
    if page == 0:
        _same_name_field(embed, answer)
    footer = answer_footer(answer, page, len(pages_), as_of)
    if footer:
        embed.set_footer(text=footer)
    return embed, len(pages_)


def best_match_text(number: int, result: dict[str, Any]) -> str:
    """One best match: its title, edition, document and date, and the part that fits."""
    part = result["part"]
    cite = Citation(part["source"], part.get("date"), part.get("url"), part.get("status"))
    text = shortened(part["text"])
    quoted = "\n".join("> " + line for line in text.split("\n") if line.strip())
    head = f"**{number}. {clamp(result['title'], 90)}** {edition_badge(result['edition'])}"
    return f"{head}\n{clamp(cite_text(cite), 500)}\n{quoted}"


def best_matches_embed(query: str, results: list[dict[str, Any]]) -> discord.Embed | None:
    """A miss's best matches, each with the part of it that fits the question, plainly
    marked as best matches rather than the answer; None when none has a part to show."""
    shown = best_matches(results)
    if not shown:
        return None
    blocks = [best_match_text(n, r) for n, r in enumerate(shown, 1)]
    head = "*Not certain which ruling answers this. The best matches, and where each fits:*"
    embed = discord.Embed(
        title=clamp(f"Best matches for “{clamp(query, 150)}”", limits.EMBED_TITLE),
        description=clamp(head + "\n\n" + "\n\n".join(blocks), limits.EMBED_DESCRIPTION),
    )
    embed.set_footer(text="Open one to read it whole, at its part")
    return embed


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


BOLD_NOTE = (
    "*Bold words are as the documents print them: in a Current Rulings Document, wording "
    "new or changed since its previous edition (printed in red there) and the entries it "
    "refers you to (“See …”).*"
)


def history_pages(history: dict[str, Any]) -> list[str]:
    """Every version under the label and reason its answer gives it (current, amended,
    superseded, retired, older copy), editing instructions and all: here they are history."""
    blocks = []
    for v in history["versions"]:
        marker = " ← in force then" if v.get("in_force") else ""
        cite = Citation(v["source"], v.get("date")).line
        label = (v.get("label") or v["status"]).capitalize()
        detail = f": {v['label_detail']}" if v.get("label_detail") else ""
        head = f"**{label}**{detail}{marker}\n*From {cite}*"
        text = markup_to_words(v["text"]) if v["text"] else "(text not in the bundled data)"
        blocks.append(f"{head}\n{text}")
    if any("**" in (v["text"] or "") for v in history["versions"]):
        blocks.insert(0, BOLD_NOTE)  # said once
    return paginate("\n\n".join(blocks), PAGE_TARGET)


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


def _same_name_field(embed: discord.Embed, answer: dict[str, Any]) -> None:
    """The other cards that bear the name asked for, both editions: never one picked in
    silence. Said in one line; the menu below the answer lists them to pick from."""
    others = {c["id"] for c in [*answer.get("editions", [])[1:], *(answer.get("same_name") or [])]}
    others.discard(answer["id"])
    if not others or answer.get("kind") != "card":
        return
    editions = sorted({answer["edition"], *(c["edition"] for c in answer.get("editions", []))})
    embed.add_field(
        name=clamp(
            f"{len(others) + 1} cards bear this name ({' and '.join(editions)})",
            limits.EMBED_FIELD_NAME,
        ),
        value="Shown: the one with rulings, if any. Pick another from the menu below.",
        inline=False,
    )


# A miss in a server channel: `help` works only in direct messages, so say what works here.
MISS_HINT_DM = "Nothing in the rulings comes near it: try other words, or send `help` for examples."
MISS_HINT_CHANNEL = (
    "Nothing in the rulings comes near it: try other words, or `/search`, and `/ruling`, "
    "which suggest as you type."
)
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

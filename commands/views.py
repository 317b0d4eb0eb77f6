"""Buttons and selects. They are persistent (``DynamicItem``): the state lives in the
custom id, so a click works after a restart. Every click resolves its id again through the
core, because a custom id is user-controlled input.

Loaded as an extension too: its ``setup`` registers these components with the bot.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

import discord

from bot import validate
from bot.answers.layout import best_matches, part_at
from bot.answers.service import Rulings
from bot.markup import excerpt
from commands import limits
from commands.app import Interaction, RulingsClient
from commands.errors import on_view_error, reply
from commands.fields import labelled, overlong_field
from commands.render import (
    NO_PINGS,
    answer_embed,
    changes_embed,
    changes_pages,
    choice_label,
    clamp,
    clamp_page,
    history_embed,
    search_embed,
    sources_embed,
)

log = logging.getLogger(__name__)

PRIVATE, PUBLIC = "p", "o"
SEARCH_LIMIT = 25  # /search lists this many matches, paged
PAGED_QUERY = limits.CUSTOM_ID - len("rp:n:o:999:2E|")  # longest words a page button carries


async def count_lookup(
    client: RulingsClient, guild_id: int | None, command: str, query: str, answer: dict | None
) -> None:
    """Count a lookup for /ruling-admin stats; counting never stands in an answer's way."""
    try:
        await asyncio.to_thread(
            client.state.record_lookup,
            command,
            query,
            answer["id"] if answer else None,
            answer is not None,
            guild_id,
        )
    except Exception:  # noqa: BLE001 - statistics are best effort
        log.exception("could not count a lookup")


async def in_time(interaction: Interaction, work, *, ephemeral: bool):
    """Run a lookup; when it is not done in a moment (the first lookup after a change, a
    miss, a card), defer, so the reply never misses Discord's 3 s. Replies then go through
    :func:`send`, which follows a deferred interaction up."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=limits.DEFER_AFTER)
    if not done and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await task


async def send(interaction: Interaction, content: str | None = None, **kwargs) -> None:
    """The reply: the interaction's response, or its follow-up once it was deferred."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        if kwargs.get("view") is None:
            kwargs.pop("view", None)
        await interaction.followup.send(content, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


def guarded(callback):
    """Component callbacks: an unexpected error is logged and the user gets an apology.

    (discord.py only logs exceptions raised in dynamic item callbacks.)
    """

    @functools.wraps(callback)
    async def wrapper(self, interaction: discord.Interaction) -> None:
        try:
            await callback(self, interaction)
        except Exception as exc:  # noqa: BLE001 - this is the last line of defence
            await on_view_error(interaction, exc, self)

    return wrapper


def _rulings(interaction: Interaction) -> Rulings:
    return interaction.client.rulings


def _page_buttons(
    kind: str, vis: str, page: int, pages: int, target: str, row: int | None = 0
) -> list[discord.ui.Item]:
    """Previous / Next for a page that exists: the page is clamped first, so the two buttons
    never share a custom id (a stale "Next" on the last page would otherwise repeat it)."""
    if pages <= 1:
        return []
    page = clamp_page(page, pages)
    return [
        PageButton(kind, vis, max(page - 1, 0), target, "◀ Previous", disabled=page == 0, row=row),
        PageButton(
            kind, vis, min(page + 1, pages - 1), target, "Next ▶",
            disabled=page >= pages - 1, row=row,
        ),
    ]  # fmt: skip


def related_label(related: dict[str, Any]) -> str:
    """A related term with its edition (1E and 2E are different games)."""
    edition = related.get("edition")
    title = related["title"]
    if edition and not title.endswith(f"({edition})"):
        title = f"{title} ({edition})"
    return title


def answer_view(
    answer: dict[str, Any], page: int, pages: int, private: bool, *, shared: bool = False
) -> discord.ui.View:
    """Pagination, related-term buttons, and "show everyone" on private answers (disabled
    once it was used: ``shared``)."""
    view = discord.ui.View(timeout=None)
    vis = PRIVATE if private else PUBLIC
    page = clamp_page(page, pages)
    for button in _page_buttons("a", vis, page, pages, answer["id"]):
        view.add_item(button)
    switch = {f"rs:{vis}:{e['id']}" for e in answer.get("editions", [])[1:2]}
    for other in answer.get("editions", [])[1:2]:  # both editions match: one click to the other
        if len(f"rs:{vis}:{other['id']}") <= limits.CUSTOM_ID:
            view.add_item(RelatedButton(vis, other["id"], f"Show {other['edition']}", row=0))
    choices = card_choices(answer)
    if choices:  # the menu takes row 1; the related buttons keep one row
        pick_view(choices, vis, "n", f"{len(choices)} more cards named so: pick one…", None, view)
    first_row, most = (2, 5) if choices else (1, 10)
    for position, related in enumerate(answer.get("related", [])[:most]):
        custom_id = f"rs:{vis}:{related['id']}"
        if len(custom_id) <= limits.CUSTOM_ID and custom_id not in switch:
            view.add_item(
                RelatedButton(
                    vis, related["id"], related_label(related), row=first_row + position // 5
                )
            )
    if private:
        view.add_item(PublicButton(page, answer["id"], row=3, disabled=shared))
    if len(f"rr:{answer['id']}") <= limits.CUSTOM_ID:
        view.add_item(ReportButton(answer["id"], row=4))
    return view


def card_choices(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The other cards that bear a card answer's name, both editions, those with rulings
    first, as menu items saying how many rulings each has: the choice, never a silent pick."""
    if answer.get("kind") != "card":
        return []
    others = [*answer.get("editions", [])[1:], *(answer.get("same_name") or [])]
    seen, out = {answer["id"]}, []
    for card in sorted(others, key=lambda c: c.get("rulings", 0) == 0):
        if card["id"] in seen:
            continue
        seen.add(card["id"])
        count = card.get("rulings", 0)
        words = f"{count} ruling{'s' if count != 1 else ''}" if count else "no rulings"
        out.append({**card, "description": f"{card['edition']} card · {words}"})
    return out


def pick_view(
    results: list[dict[str, Any]],
    vis: str,
    mode: str,
    placeholder: str,
    asker: int | None = None,
    view: discord.ui.View | None = None,
) -> discord.ui.View:
    """A select of rulings ("did you mean", search results, changes). ``asker``: the user it
    answers; anyone else who picks gets a private answer of their own."""
    view = view or discord.ui.View(timeout=None)
    options = []
    seen = set()
    for result in results:
        if result["id"] in seen or len(result["id"]) > limits.CHOICE_VALUE:
            continue
        seen.add(result["id"])
        passage = result.get("description") or (result.get("passage") or {}).get("text")
        options.append(
            discord.SelectOption(
                label=choice_label(result["title"], result["edition"]),
                value=result["id"],
                # where the ruling fits the question: a question's words are rarely a title's
                description=excerpt(passage, limits.SELECT_OPTION_DESCRIPTION) if passage else None,
            )
        )
        if len(options) == limits.CHOICES:
            break
    if options:
        view.add_item(
            PickSelect(
                vis, mode, options, clamp(placeholder, limits.SELECT_PLACEHOLDER), asker, row=1
            )
        )
    return view


def best_matches_view(
    results: list[dict[str, Any]], vis: str, asker: int | None = None
) -> discord.ui.View:
    """A button per best match, opening that ruling at its part; a menu for the rest."""
    view = discord.ui.View(timeout=None)
    shown = best_matches(results)
    for number, result in enumerate(shown, 1):
        at = result["part"].get("at")
        label = f"Open {number}: {related_label(result)}"
        if at and len(BestMatchButton.custom_id_for(vis, at, result["id"])) <= limits.CUSTOM_ID:
            view.add_item(BestMatchButton(vis, at, result["id"], label, row=0))
        elif len(f"rs:{vis}:{result['id']}") <= limits.CUSTOM_ID:  # a card: opens whole
            view.add_item(RelatedButton(vis, result["id"], label, row=0))
    ids = {r["id"] for r in shown}
    rest = [r for r in results if r["id"] not in ids]
    if rest:
        pick_view(rest, vis, "n", "Other rulings that may fit…", asker, view)
    return view


def list_view(
    kind: str,
    target: str,
    page: int,
    pages: int,
    items: list[dict[str, Any]],
    placeholder: str,
    asker: int | None = None,
) -> discord.ui.View:
    """A paged list (changes, search results, sources): page buttons, then a select of the
    rulings on this page."""
    view = discord.ui.View(timeout=None)
    if _fits_page_id(kind, target):
        for button in _page_buttons(kind, PUBLIC, page, pages, target):
            view.add_item(button)
    return pick_view(items, PUBLIC, "n", placeholder, asker, view) if items else view  # fmt: skip


def _fits_page_id(kind: str, target: str) -> bool:
    return len(f"rp:{kind}:o:999:{target}") <= limits.CUSTOM_ID


def search_target(words: str, edition: str | None) -> str:
    return f"{edition or '-'}|{words}"


def changes_target(since: str, edition: str | None) -> str:
    return f"{edition or '-'}|{since}"


def _valid_list_target(kind: str, target: str) -> bool:
    """A search or changes page id as this module writes it: an edition (or "-"), then the
    words, or for changes an ISO date."""
    edition, rest = _split_target(target)
    try:
        if edition is not None:
            validate.edition(edition)
        if kind == "c":
            validate.iso_date(rest)
    except validate.InvalidValue:
        return False
    return "|" in target


def _split_target(target: str) -> tuple[str | None, str]:
    edition, _, rest = target.partition("|")
    return (None if edition == "-" else edition), rest


async def render_list(
    interaction: Interaction, kind: str, target: str, page: int, asker: int | None = None
) -> tuple[discord.Embed, discord.ui.View, Any]:
    """Page ``page`` of a listed result (s: sources, n: search, c: changes), looked up again;
    with the looked-up data."""
    rulings = _rulings(interaction)
    if kind == "s":
        sources = await asyncio.to_thread(rulings.sources)
        embed, pages = sources_embed(sources, page)
        return embed, list_view("s", target, page, pages, [], ""), sources
    edition, rest = _split_target(target)
    if kind == "n":
        found = await asyncio.to_thread(rulings.search, rest, edition, SEARCH_LIMIT)
        snippets = await asyncio.to_thread(rulings.snippets, [r["id"] for r in found["results"]])
        embed, pages = search_embed(found, snippets, page)
        if pages > 1 and not _fits_page_id(kind, target):
            # The words are too long to ride in a button: say so rather than hide the rest.
            embed.set_footer(
                text=f"Page 1/{pages}: shorter words (under {PAGED_QUERY} characters) page "
                "through the rest"
            )
        view = list_view(
            "n", target, page, pages, found["results"], "Open one of these rulings", asker
        )
        return embed, view, found
    changes = await asyncio.to_thread(rulings.changes, rest, edition)
    embed, pages = changes_embed(rest, changes, page)
    grouped = changes_pages(rest, changes)
    listed = [
        {"id": c["id"], "title": c["title"], "edition": c["edition"]}
        for c in grouped[clamp_page(page, len(grouped))]
    ]
    view = list_view("c", target, page, pages, listed, "Read one of these rulings", asker)
    return embed, view, changes


async def render_answer(
    interaction: Interaction,
    query: str,
    *,
    edition: str | None,
    as_of: str | None,
    page: int,
    private: bool,
):
    """Look up and render (embed, view) or None with the suggestions dict."""
    answer, suggestions = await asyncio.to_thread(_rulings(interaction).show, query, edition, as_of)
    suggestions["answer"] = answer  # the caller counts the lookup by what it matched
    if answer is None:
        return None, suggestions
    embed, pages = answer_embed(answer, page, as_of=as_of)
    return (embed, answer_view(answer, page, pages, private)), suggestions


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"rp:(?P<kind>[ahsnc]):(?P<vis>[po]):(?P<page>\d{1,3}):(?P<id>.{1,89})",
):
    def __init__(
        self,
        kind: str,
        vis: str,
        page: int,
        target: str,
        label: str = "Page",
        disabled: bool = False,
        row: int | None = None,
    ):
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=f"rp:{kind}:{vis}:{page}:{target}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                row=row,
            )
        )
        self.kind, self.vis, self.page, self.target = kind, vis, page, target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["kind"], match["vis"], int(match["page"]), match["id"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        private = self.vis == PRIVATE
        if self.kind in "nc" and not _valid_list_target(self.kind, self.target):
            # A page id is whatever the client sends: a forged one is refused, not a traceback.
            await interaction.response.send_message(
                "That page link is not valid: run the command again.", ephemeral=True
            )
            return
        if self.kind in "snc":
            embed, view, _ = await render_list(
                interaction, self.kind, self.target, self.page, _message_asker(interaction)
            )
            await interaction.response.edit_message(embed=embed, view=view)
            return
        if self.kind == "h":
            history = await asyncio.to_thread(_rulings(interaction).history, self.target)
            if history is None:
                await interaction.response.send_message(
                    "That ruling is no longer available.", ephemeral=True
                )
                return
            embed, pages = history_embed(history, self.page)
            await interaction.response.edit_message(
                embed=embed, view=history_view(history, self.page, pages, private)
            )
            return
        rendered, _ = await render_answer(
            interaction, self.target, edition=None, as_of=None, page=self.page, private=private
        )
        if rendered is None:
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        embed, view = rendered
        await interaction.response.edit_message(embed=embed, view=view)


class BestMatchButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"rb:(?P<vis>[po]):(?P<start>\d{1,6}):(?P<length>\d{1,4}):(?P<check>[0-9a-f]{4}):(?P<id>.{1,80})",
):
    """Opens a best match at its part, pointed out. The id carries where the part sits in
    the ruling (start, length, a check); it is read again against the ruling as it is now,
    and a stale or hand-made one opens the ruling without a part."""

    def __init__(self, vis: str, at, target: str, label: str = "Open", row: int | None = None):
        start, length, check = at
        super().__init__(
            discord.ui.Button(
                label=clamp(label, limits.BUTTON_LABEL),
                custom_id=self.custom_id_for(vis, at, target),
                style=discord.ButtonStyle.primary,
                row=row,
            )
        )
        self.vis, self.at, self.target = vis, (int(start), int(length), str(check)), target

    @staticmethod
    def custom_id_for(vis: str, at, target: str) -> str:
        start, length, check = at
        return f"rb:{vis}:{start}:{length}:{check}:{target}"

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        at = (int(match["start"]), int(match["length"]), match["check"])
        return cls(match["vis"], at, match["id"], item.label or "Open")

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        asker = _message_asker(interaction)
        private = self.vis == PRIVATE or (asker is not None and interaction.user.id != asker)
        answer, _ = await in_time(
            interaction,
            asyncio.to_thread(_rulings(interaction).show, self.target),
            ephemeral=private,
        )
        if answer is None:
            await send(interaction, "That ruling is no longer available.", ephemeral=True)
            return
        part = part_at(answer, *self.at)
        embed, pages = answer_embed(answer, 0, part=part)
        await send(
            interaction, embed=embed, view=answer_view(answer, 0, pages, private), ephemeral=private
        )


class RelatedButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"rs:(?P<vis>[po]):(?P<id>.{1,95})"
):
    def __init__(self, vis: str, target: str, label: str = "Related", row: int | None = None):
        super().__init__(
            discord.ui.Button(
                label=clamp(label, limits.BUTTON_LABEL),
                custom_id=f"rs:{vis}:{target}",
                style=discord.ButtonStyle.primary,
                row=row,
            )
        )
        self.vis, self.target = vis, target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["vis"], match["id"], item.label or "Related")

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        # A related term answers the person who clicked, privately, with "show everyone".
        rendered, _ = await in_time(
            interaction,
            render_answer(interaction, self.target, edition=None, as_of=None, page=0, private=True),
            ephemeral=True,
        )
        if rendered is None:
            await send(interaction, "That ruling is no longer available.", ephemeral=True)
            return
        embed, view = rendered
        await send(interaction, embed=embed, view=view, ephemeral=True)


class PublicButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"rv:(?P<page>\d{1,3}):(?P<id>.{1,90})"
):
    """Show a private answer to everyone, once: the button is disabled as it posts, and a
    second click that raced it is told so instead of posting a duplicate."""

    shared: set[int] = set()  # private messages already shown, in this process
    MAX_REMEMBERED = 10_000  # then forgotten: by then the disabled button speaks for itself

    def __init__(self, page: int, target: str, row: int | None = None, *, disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                label="Shown to everyone" if disabled else "Show everyone",
                custom_id=f"rv:{page}:{target}",
                style=discord.ButtonStyle.success,
                row=row,
                disabled=disabled,
            )
        )
        self.page, self.target = page, target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["page"]), match["id"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        message_id = interaction.message.id if interaction.message else interaction.id
        if message_id in self.shared:
            await interaction.response.send_message(
                "This answer was already shown to everyone.", ephemeral=True
            )
            return
        if len(self.shared) >= self.MAX_REMEMBERED:
            self.shared.clear()
        self.shared.add(message_id)
        answer, _ = await asyncio.to_thread(_rulings(interaction).show, self.target)
        if answer is None:
            self.shared.discard(message_id)
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        _, pages = answer_embed(answer, self.page)
        await interaction.response.edit_message(
            view=answer_view(answer, self.page, pages, True, shared=True)
        )
        embed, pages = answer_embed(answer, self.page)
        await interaction.followup.send(
            embed=embed,
            view=answer_view(answer, self.page, pages, False),
            allowed_mentions=NO_PINGS,
        )


def _message_asker(interaction: Interaction) -> int | None:
    """Who a list was made for: the user of the command whose answer carries it."""
    metadata = getattr(interaction.message, "interaction_metadata", None)
    user = getattr(metadata, "user", None)
    return user.id if user else None


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"rk:(?P<vis>[po]):(?P<mode>[en])(?::(?P<asker>\d{1,20}))?",
):
    """mode e: replace the message with the answer; mode n: answer in a new message.

    The asker (in the custom id) is who the menu answers: anyone else who picks gets the
    answer privately, and the asker's message stays as it was."""

    def __init__(
        self,
        vis: str,
        mode: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        asker: int | None = None,
        row: int | None = None,
    ):
        custom_id = f"rk:{vis}:{mode}" + (f":{asker}" if asker else "")
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="?", value="?")],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.vis, self.mode, self.asker = vis, mode, asker

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        asker = int(match["asker"]) if match["asker"] else None
        return cls(match["vis"], match["mode"], item.options, item.placeholder, asker)

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values:
            await interaction.response.send_message("Nothing was picked.", ephemeral=True)
            return
        someone_else = self.asker is not None and interaction.user.id != self.asker
        private = self.vis == PRIVATE or someone_else
        rendered, _ = await render_answer(
            interaction, str(values[0]), edition=None, as_of=None, page=0, private=private
        )
        if rendered is None:
            await interaction.response.send_message(
                "That ruling is no longer available.", ephemeral=True
            )
            return
        embed, view = rendered
        if self.mode == "e" and not someone_else:
            await interaction.response.edit_message(content=None, embed=embed, view=view)
        else:
            await interaction.response.send_message(
                embed=embed, view=view, ephemeral=private, allowed_mentions=NO_PINGS
            )


class ReportModal(discord.ui.Modal):
    """'Report this answer': what is wrong, for the moderators' queue."""

    def __init__(self, entry: str):
        super().__init__(title="Report this answer", timeout=600)
        self.entry = entry
        self.problem = labelled(
            self, "What is wrong with it?", style=discord.TextStyle.paragraph, max_length=1000
        )

    async def on_submit(self, interaction: Interaction) -> None:
        if refusal := overlong_field(self):
            await reply(interaction, refusal)
            return
        bot = interaction.client
        report_id = await asyncio.to_thread(
            bot.state.add_report,
            interaction.user.id,
            interaction.user.name,
            interaction.guild_id,
            self.entry,
            str(self.problem.value),
        )
        await interaction.response.send_message(
            f"Thank you: report #{report_id} is in the moderators' queue.", ephemeral=True
        )
        # Only to the moderators' channel the home server chose: a report quotes a user word
        # for word, which is not for the public announcement channel.
        home = bot.settings.home_guild_id
        channel = await asyncio.to_thread(bot.state.reports_channel, home) if home else None
        if channel:
            text = f"Report #{report_id} on {self.entry}: {self.problem.value}"
            try:
                await bot.get_partial_messageable(channel).send(
                    clamp(text, limits.MESSAGE_CONTENT), allowed_mentions=NO_PINGS
                )
            except discord.HTTPException as exc:
                log.warning("could not post report #%s: %s", report_id, exc)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await on_view_error(interaction, error, self)


class ReportButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rr:(?P<id>.{1,97})"):
    def __init__(self, target: str, row: int | None = None):
        super().__init__(
            discord.ui.Button(
                label="Report this answer",
                custom_id=f"rr:{target}",
                style=discord.ButtonStyle.secondary,
                row=row,
            )
        )
        self.target = target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["id"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        # The id comes from the button, which a client can forge: only a ruling that exists
        # can be reported.
        known = await asyncio.to_thread(_rulings(interaction).snippets, [self.target])
        if self.target not in known:
            await interaction.response.send_message(
                "That ruling does not exist (any more): there is nothing to report.",
                ephemeral=True,
            )
            return
        await interaction.response.send_modal(ReportModal(self.target))


def history_view(history: dict[str, Any], page: int, pages: int, private: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    vis = PRIVATE if private else PUBLIC
    for button in _page_buttons("h", vis, page, pages, history["topic"], row=None):
        view.add_item(button)
    return view


DYNAMIC_ITEMS = (PageButton, BestMatchButton, RelatedButton, PublicButton, PickSelect, ReportButton)


async def setup(bot: RulingsClient) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)

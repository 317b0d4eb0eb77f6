"""Every response the bot can produce from the bundled data fits Discord's limits.

Each entry is rendered through every command's renderer (every page of it) and checked by
the same validator the fake Discord uses to refuse bodies.
"""

import discord
import pytest

from bot.markup import markup_to_words
from commands import render
from commands.views import answer_view, history_view, list_view, pick_view
from tests.fakediscord import limits


def _message(
    embed: discord.Embed | None = None, view: discord.ui.View | None = None, content=None
) -> dict:
    body: dict = {"allowed_mentions": render.NO_PINGS.to_dict()}
    if content is not None:
        body["content"] = content
    if embed is not None:
        body["embeds"] = [embed.to_dict()]
    if view is not None:
        body["components"] = view.to_components()
    return body


def _check(problems: list[str], where: str, body: dict) -> None:
    for problem in limits.validate_message(body):
        problems.append(f"{where}: {problem}")


async def test_every_version_of_every_entry_renders_within_limits(rulings):
    problems: list[str] = []
    rows = list(rulings.store.db.query("SELECT id FROM entries"))
    assert len(rows) > 150
    for row in rows:
        answer, _ = rulings.show(row["id"])
        assert answer is not None, row["id"]
        for private in (False, True):
            first, pages = render.answer_embed(answer, 0)
            for page in range(pages):
                embed, _ = render.answer_embed(answer, page, as_of="2014-01-01")
                _check(
                    problems,
                    f"{row['id']} page {page}",
                    _message(embed, answer_view(answer, page, pages, private)),
                )
        # Paginated, never cut: the pages hold every word of the rule as in force; its
        # editing instructions are left to /history (issue 35), never shown with the rule.
        pages = render.answer_pages(answer)
        joined = " ".join(pages)
        in_force = answer.get("in_force") or {}
        shown = markup_to_words(in_force.get("text") or answer["text"] or "")
        missing = [w for w in shown.split() if w not in joined]
        if missing:
            problems.append(f"{row['id']}: words lost in pagination: {missing[:5]}")
        flat_pages = " ".join(joined.split())
        for instruction in in_force.get("instructions", []):
            if len(instruction) > 40 and " ".join(instruction.split()) in flat_pages:
                problems.append(f"{row['id']}: editing instructions shown: {instruction}")
        # A phone's page: broken between paragraphs at about 1,200-1,500 characters.
        for number, page in enumerate(pages[1:], 1):  # the first also holds the part
            if len(page) > render.ANSWER_PAGE_MOST:
                problems.append(f"{row['id']} page {number}: {len(page)} characters")
    assert not problems, "\n".join(problems[:50])


async def test_every_history_renders_within_limits(rulings):
    problems: list[str] = []
    for target in rulings.index.targets:
        history = rulings.history(target.topic)
        _, pages = render.history_embed(history)
        for page in range(pages):
            embed, _ = render.history_embed(history, page)
            _check(
                problems,
                f"history {target.topic} page {page}",
                _message(embed, history_view(history, page, pages, False)),
            )
    assert not problems, "\n".join(problems[:50])


async def test_search_sources_changes_and_suggestions_render_within_limits(rulings):
    problems: list[str] = []
    for target in rulings.index.targets:
        found = rulings.search(target.title, limit=10)
        snippets = rulings.snippets([r["id"] for r in found["results"]])
        embed, _ = render.search_embed(found, snippets)
        _check(
            problems,
            f"search {target.title}",
            _message(embed, pick_view(found["results"], "o", "n", "Open", 123)),
        )
        choices = rulings.suggest(target.title[:3])
        problems += [
            f"suggest {target.title[:3]}: {p}"
            for p in limits.validate_choices([{"name": n, "value": v} for v, n in choices])
        ]
    _check(problems, "sources", _message(render.sources_embed(rulings.sources())[0]))
    for since in ("1990-01-01", "2012-01-01", "2030-01-01"):
        changes = rulings.changes(since)
        listed = [{"id": c["id"], "title": c["title"], "edition": c["edition"]} for c in changes]
        _, pages = render.changes_embed(since, changes)
        for page in range(pages):
            embed, _ = render.changes_embed(since, changes, page)
            _check(
                problems,
                f"changes {since} page {page}",
                _message(embed, list_view("c", f"-|{since}", page, pages, listed[:25], "Read", 1)),
            )
    assert not problems, "\n".join(problems[:50])


async def test_cards_with_rulings_render_within_limits(rulings):
    problems: list[str] = []
    card_ids = set()
    for row in rulings.store.db.query("SELECT mentions FROM entries"):
        for mention in __import__("json").loads(row["mentions"] or "[]"):
            card_ids.update(mention.get("card_ids", []))
    longest = rulings.store.db.query("SELECT id FROM cards ORDER BY length(text) DESC LIMIT 50")
    card_ids.update(r["id"] for r in longest)
    assert len(card_ids) > 100
    for card_id in sorted(card_ids):
        # /card and /ruling show a card in the one answer layout, every page of it.
        answer, _ = rulings.show(card_id)
        _, pages = render.answer_embed(answer)
        for page in range(pages):
            embed, _ = render.answer_embed(answer, page)
            view = answer_view(answer, page, pages, False)
            _check(problems, f"card {card_id} page {page}", _message(embed, view))
    assert not problems, "\n".join(problems[:50])


@pytest.mark.parametrize("size", [1, 50, 3500, 3501, 9000, 20000])
def test_paginate_never_loses_a_character(size):
    text = ("word " * (size // 5 + 1))[:size]
    pages = render.paginate(text)
    assert all(len(p) <= 3500 for p in pages)
    assert "".join(pages).replace(" ", "") == text.strip().replace(" ", "")


def test_one_unbroken_run_is_split_not_lost():
    text = "x" * 8000
    pages = render.paginate(text)
    assert "".join(pages) == text and all(len(p) <= 3500 for p in pages)


def test_mentions_in_ruling_text_never_ping():
    answer = {
        "id": "t:x", "title": "@everyone test", "edition": "2E", "text": "Hello @everyone and <@123> and @here.",
        "source": "test", "date": None, "status": "current", "related": [], "versions": [],
    }  # fmt: skip
    embed, _ = render.answer_embed(answer)
    body = _message(embed)
    assert body["allowed_mentions"] == {"parse": []}
    assert "@everyone" in body["embeds"][0]["description"]


async def test_card_links_icon_codes_and_lost_icons_read_as_words(rulings):
    """What Discord shows reads as the CLI does: no Lackey braces, icon codes as words, a
    lost icon marked as one (the 1E CRD's species entry lost three)."""
    card, _ = rulings.show("1e-1-000-tribbles-bonus")
    shown = " ".join(render.answer_pages(card))
    assert "{" not in shown and "Ooby Dooby" in shown
    species, _ = rulings.show("species", edition="1E")
    pages = " ".join(render.answer_pages(species))
    assert "non- personnel" not in pages and "(, , or )" not in pages
    assert "non-(icon) personnel" in pages and "(icon, icon, or icon)" in pages
    history = " ".join(render.history_pages(rulings.history("1e-species")))
    assert "(, , or )" not in history and "(icon, icon, or icon)" in history

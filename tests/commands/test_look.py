"""How answers look and behave in Discord (issue 12) and the adapter's limits under load and
faults (issue 13), end to end: the real bot on the fake Discord, raw payloads in."""

import asyncio
import gc
import logging
import threading
import time

import pytest

from commands import app as bot_app
from commands import render
from commands.errors import APOLOGY
from tests.commands.helpers import blocks
from tests.commands.helpers import sources as source_lines
from tests.fakediscord import limits, payloads

GUILD = payloads.GUILD_ID
EPHEMERAL = 1 << 6
WAIT = 20  # the machine is shared: generous waits, they only matter when something is wrong
OTHER_USER = payloads.user("1500000000000000077", "bystander")


def _components(data: dict) -> list[dict]:
    return [c for row in data.get("components", []) for c in row.get("components", [])]


def _custom_ids(data: dict) -> list[str]:
    return [c.get("custom_id") for c in _components(data)]


def _channel_posts(fake) -> list:
    return [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]


async def _posts(fake, count: int, settle: float = 0.3) -> list:
    """Wait until ``count`` channel messages were posted, then a little more for extras."""
    for _ in range(int(WAIT / 0.05)):
        if len(_channel_posts(fake)) >= count:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(settle)
    return _channel_posts(fake)


# ----------------------------------------------------------------------------- issue 12


async def test_document_title_links_to_the_document_where_known(fake_discord, running):
    async with running():
        glossary = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "Major Rakal"}, guild_id=GUILD), WAIT
        )
        crd = await fake_discord.interact(
            payloads.slash_command(
                "ruling", {"query": "matching commander", "edition": "1E"}, guild_id=GUILD
            ),
            WAIT,
        )
        sources = await fake_discord.interact(payloads.slash_command("sources", guild_id=GUILD))
    url = "http://st1e.stccgfaq.open-cards.com/encyclopedia1e/rules/gm.htm"
    embed = glossary.body["data"]["embeds"][0]
    assert embed["url"] == url
    assert source_lines(embed["description"])[0] == (
        f"[First Edition Glossary (letter M page)]({url}) · undated"
    )
    # No address is known for the CRD: plain text, no link, no url.
    crd_embed = crd.body["data"]["embeds"][0]
    assert "url" not in crd_embed
    assert "](" not in source_lines(crd_embed["description"])[0]
    listed = sources.body["data"]["embeds"][0]["description"]
    assert f"**[First Edition Glossary (letter M page)]({url})**" in listed
    assert "**First Edition Current Rulings Document (3 November 2014)**" in listed
    for callback in (glossary, crd, sources):
        assert limits.validate_message(callback.body["data"]) == []


async def test_source_line_is_document_date_and_status_not_an_id(fake_discord, running):
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command(
                "ruling", {"query": "matching commander", "edition": "1E"}, guild_id=GUILD
            ),
            WAIT,
        )
        old = await fake_discord.interact(
            payloads.slash_command(
                "ruling",
                {"query": "attempting missions", "edition": "2E", "as_of": "2012-01-01"},
                guild_id=GUILD,
            ),
            WAIT,
        )
    embed = callback.body["data"]["embeds"][0]
    # The document once per block (its title holds its date); no status when simply current;
    # the footer says only where the reader is.
    assert source_lines(embed["description"]) == [
        "First Edition Current Rulings Document (3 November 2014)"
    ]
    assert "1e-crd-2014-11-03:" not in str(embed)
    assert "Rulings Document" not in embed["footer"]["text"]
    old_embed = old.body["data"]["embeds"][0]
    # The 2011 text is printed again unchanged in 2014: an older copy, not superseded.
    assert source_lines(old_embed["description"])[0].startswith(
        "Second Edition Current Rulings Document (5 October 2011) · older copy"
    )
    assert old_embed["footer"]["text"].endswith("in force on 2012-01-01")


async def test_related_buttons_carry_the_edition(fake_discord, running):
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command(
                "ruling", {"query": "matching commander", "edition": "1E"}, guild_id=GUILD
            ),
            WAIT,
        )
    labels = {c["custom_id"]: c["label"] for c in _components(callback.body["data"])}
    assert labels["rs:o:1e-named-in-lore"] == "named in lore (1E)"
    assert labels["rs:o:1e-facility-commander"] == "facility commander (1E)"


async def test_card_is_shown_when_a_card_is_the_subject(fake_discord, running):
    async with running():
        mentioned_ix = payloads.slash_command(
            "ruling", {"query": "Ptol cost reduction"}, guild_id=GUILD
        )
        mentioned = await fake_discord.interact(mentioned_ix, WAIT)
        card = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "Ptol"}, guild_id=GUILD), WAIT
        )
        titled = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "KTC"}, guild_id=GUILD), WAIT
        )
        topic = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "cost reduction"}, guild_id=GUILD), WAIT
        )
        pages = await _page_through(fake_discord, mentioned, mentioned_ix["token"])
    embed = mentioned.body["data"]["embeds"][0]
    assert embed["title"] == "cost reduction [2E]"  # the ruling that names the card
    named = {h: t for p in pages for h, _, t in blocks(p["embeds"][0]["description"])}
    assert len(pages) == 1 or named  # the card is on the first page, with the part
    first = {h: t for h, _, t in blocks(embed["description"])}
    assert first["**The card it names: Ptol (Personnel)**"].startswith(
        "When you play this personnel"
    )
    # The card's name alone: the card is the answer, with the ruling that mentions it.
    answered = card.body["data"]
    assert answered["embeds"][0]["title"] == "Ptol [2E]"
    assert "When you play this personnel" in str(answered["embeds"][0])
    assert "rs:o:2e-crd-2014-07-07:cost-reduction" in {
        c["custom_id"] for c in _components(answered)
    }
    titled_blocks = [h for h, _, _ in blocks(titled.body["data"]["embeds"][0]["description"])]
    assert "**The card: Klingon Tea Ceremony (Event)**" in titled_blocks
    # Asked for the rule itself, no single card is the subject.
    topic_blocks = [h for h, _, _ in blocks(topic.body["data"]["embeds"][0]["description"])]
    assert not any(h.startswith("**The card") for h in topic_blocks)


async def test_show_everyone_is_one_shot(fake_discord, running):
    async with running():
        ix = payloads.slash_command("ruling", {"query": "KTC", "private": True}, guild_id=GUILD)
        data = (await fake_discord.interact(ix, WAIT)).body["data"]
        share = next(cid for cid in _custom_ids(data) if cid.startswith("rv:"))
        message = fake_discord.original_message(ix["token"])
        # Two clicks at once (before Discord redraws the button): one public post only.
        first = payloads.button_click(share, message, guild_id=GUILD)
        second = payloads.button_click(share, message, guild_id=GUILD)
        await fake_discord.dispatch("INTERACTION_CREATE", first)
        await fake_discord.dispatch("INTERACTION_CREATE", second)
        answers = [
            await fake_discord.wait_for_callback(first["id"], WAIT),
            await fake_discord.wait_for_callback(second["id"], WAIT),
        ]
        await asyncio.sleep(0.5)
        public = [
            r
            for r in fake_discord.requests
            if r.method == "POST" and "/webhooks/" in r.path and r.json and r.json.get("embeds")
        ]
        after = fake_discord.original_message(ix["token"])
    assert len(public) == 1 and not public[0].json.get("flags")
    kinds = sorted(a.body["type"] for a in answers)
    assert kinds == [4, 7]  # one shares (updates the button), the other is told
    told = next(a for a in answers if a.body["type"] == 4).body["data"]
    assert told["flags"] & EPHEMERAL and "already shown" in told["content"]
    button = next(c for c in _components(after) if c["custom_id"] == share)
    assert button["disabled"] is True


async def test_best_matches_answer_only_their_asker(fake_discord, running):
    async with running():
        ix = payloads.slash_command(
            "ruling", {"query": "matching commander vs facility commander"}, guild_id=GUILD
        )
        data = (await fake_discord.interact(ix, WAIT)).body["data"]
        button = next(c for c in _components(data) if c.get("custom_id", "").startswith("rb:"))
        message = fake_discord.original_message(ix["token"])
        before = dict(message)
        other = await fake_discord.interact(
            payloads.button_click(button["custom_id"], message, guild_id=GUILD, user=OTHER_USER),
            WAIT,
        )
        unchanged = fake_discord.original_message(ix["token"])
        assert unchanged["content"] == before["content"]
        assert unchanged["embeds"] == before["embeds"]
        mine = await fake_discord.interact(
            payloads.button_click(button["custom_id"], message, guild_id=GUILD), WAIT
        )
    # The bystander gets an answer of their own, privately; the asker's message stays, and
    # the asker's click answers in a new message, the best matches kept above it.
    assert other.body["type"] == 4 and other.body["data"]["flags"] & EPHEMERAL
    assert mine.body["type"] == 4 and not mine.body["data"].get("flags")
    title = mine.body["data"]["embeds"][0]["title"]
    assert title == other.body["data"]["embeds"][0]["title"]
    assert title.split(" [")[0] in data["embeds"][0]["description"]


async def test_dm_best_matches_menu_names_its_asker(fake_discord, running):
    async with running():
        await fake_discord.dispatch(
            "MESSAGE_CREATE", payloads.dm_message("matching commander vs facility commander")
        )
        sent = (await _posts(fake_discord, 1))[0]
    select = next(c for c in _components(sent.json) if c["type"] == 3)
    assert select["custom_id"] == f"rk:o:n:{payloads.USER_ID}"


async def _page_through(fake, callback, first_token) -> list[dict]:
    """Click Next until it is disabled; every page's data."""
    seen = [callback.body["data"]]
    message = fake.original_message(first_token)
    for _ in range(10):
        nxt = next((c for c in _components(message) if c.get("label") == "Next ▶"), None)
        if nxt is None or nxt.get("disabled"):
            break
        click = payloads.button_click(nxt["custom_id"], message, guild_id=GUILD)
        answer = await fake.interact(click, WAIT)
        assert answer.body["type"] == 7
        seen.append(answer.body["data"])
        message = fake.original_message(click["token"])
    return seen


async def test_changes_are_paged_not_cut(fake_discord, running, rulings):
    changes = rulings.changes("1990-01-01")
    async with running():
        ix = payloads.slash_command("changes", {"since": "1990-01-01"}, guild_id=GUILD)
        first = await fake_discord.interact(ix, WAIT)
        pages = await _page_through(fake_discord, first, ix["token"])
    assert len(pages) >= 2
    text = "\n".join(p["embeds"][0]["description"] for p in pages)
    assert "…and more" not in text
    assert text.count("\n") + 1 == len(changes)  # every change on some page, once
    picked = set()
    for number, page in enumerate(pages, 1):
        assert limits.validate_message(page) == []
        assert page["embeds"][0]["footer"]["text"].startswith(f"Page {number}/{len(pages)}")
        select = next(c for c in _components(page) if c["type"] == 3)
        picked |= {o["value"] for o in select["options"]}
    assert picked == {c["id"] for c in changes}  # each one can be opened from its page


async def test_search_results_are_paged(fake_discord, running, rulings):
    found = rulings.search("personnel", None, 25)
    assert len(found["results"]) > 10
    async with running():
        ix = payloads.slash_command("search", {"words": "personnel"}, guild_id=GUILD)
        first = await fake_discord.interact(ix, WAIT)
        pages = await _page_through(fake_discord, first, ix["token"])
    assert len(pages) >= 2
    text = "\n".join(p["embeds"][0]["description"] for p in pages)
    for number, result in enumerate(found["results"], 1):
        assert f"**{number}. {render.clamp(result['title'], 90)}**" in text


def test_sources_are_paged_when_there_are_many():
    sources = [
        {
            "id": f"d{n}", "title": f"Document number {n} " + "x" * 150, "edition": "1E",
            "kind": "current rulings", "date": "2014-01-01", "official": True,
            "url": f"https://example.org/{n}", "entries": n, "current": n,
        }
        for n in range(40)
    ]  # fmt: skip
    _, pages = render.sources_embed(sources)
    assert pages > 1
    text = "\n".join(render.sources_embed(sources, p)[0].description for p in range(pages))
    assert all(f"Document number {n} " in text for n in range(40))
    for page in range(pages):
        embed, _ = render.sources_embed(sources, page)
        assert limits.validate_message({"embeds": [embed.to_dict()]}) == []


def test_list_pages_keep_every_line_whole():
    lines = [f"line {n} " + "y" * (n * 37 % 300) for n in range(200)]
    pages = render.list_pages(lines, 1000)
    assert all(len(p) <= 1000 for p in pages)
    assert "\n".join(pages).split("\n") == lines


async def test_inline_miss_does_not_send_users_to_dm_help(fake_discord, running, state):
    state.set_inline(int(GUILD), True)
    async with running():
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.guild_message("what is [[qwzxv]]"))
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("qwzxv"))
        sent = await _posts(fake_discord, 2)
    by_channel = {r.path.split("/")[-2]: r.json["content"] for r in sent}
    inline = by_channel[payloads.CHANNEL_ID]
    assert "help" not in inline and "/ruling" in inline
    dm = next(text for channel, text in by_channel.items() if channel != payloads.CHANNEL_ID)
    assert "send `help`" in dm


# ----------------------------------------------------------------------------- issue 13


async def test_stale_page_button_past_the_end_is_clamped(fake_discord, running, rulings):
    longest = max(rulings.index.targets, key=lambda t: len(rulings.store.entry(t.entry)["text"]))
    answer, _ = rulings.show(longest.entry)
    _, pages = render.answer_embed(answer)
    assert pages >= 2
    stale = f"rp:a:o:{pages}:{answer['id']}"  # page == page count: one past the last
    async with running():
        ix = payloads.slash_command("ruling", {"query": answer["id"]}, guild_id=GUILD)
        await fake_discord.interact(ix, WAIT)
        message = fake_discord.original_message(ix["token"])
        # A message from an older version of the data, whose Next points past today's end.
        nxt = next(c for c in _components(message) if c.get("label") == "Next ▶")
        nxt["custom_id"] = stale
        callback = await fake_discord.interact(
            payloads.button_click(stale, message, guild_id=GUILD), WAIT
        )
    assert callback.status in (200, 204)  # Discord took it (a 400 fails the test too)
    data = callback.body["data"]
    ids = _custom_ids(data)
    assert len(ids) == len(set(ids))
    assert limits.validate_message(data) == []
    footer = data["embeds"][0]["footer"]["text"]
    assert footer.startswith(f"Page {pages}/{pages}")  # the last page
    nxt = next(c for c in _components(data) if c.get("label") == "Next ▶")
    assert nxt["disabled"] is True


def test_views_clamp_every_page_number(rulings):
    from commands.views import answer_view, history_view, list_view

    answer, _ = rulings.show("KTC")
    for view in (
        answer_view(answer, 7, 3, False),
        history_view({"topic": "2e-klingon-tea-ceremony"}, 3, 3, False),
        list_view("c", "-|2000-01-01", 9, 4, [], "Read"),
    ):
        ids = [c["custom_id"] for row in view.to_components() for c in row["components"]]
        assert len(ids) == len(set(ids)), ids


CORE_CALLS = ("show", "search", "history", "card", "changes", "sources", "snippets",
              "suggest", "suggest_cards")  # fmt: skip


async def test_no_core_call_runs_on_the_event_loop(fake_discord, running, rulings, monkeypatch):
    on_loop: list[str] = []
    calls: list[str] = []
    for name in CORE_CALLS:
        original = getattr(rulings, name)

        def spy(*args, _name=name, _original=original, **kwargs):
            calls.append(_name)
            try:
                asyncio.get_running_loop()
                on_loop.append(_name)
            except RuntimeError:
                pass  # a worker thread: no loop here, as it should be
            return _original(*args, **kwargs)

        monkeypatch.setattr(rulings, name, spy)
    async with running():
        for payload in (
            payloads.autocomplete(
                "ruling", {"query": "matching c"}, focused="query", guild_id=GUILD
            ),
            payloads.autocomplete("card", {"name": "kira"}, focused="name", guild_id=GUILD),
            payloads.slash_command("ruling", {"query": "KTC"}, guild_id=GUILD),
            payloads.slash_command("search", {"words": "personnel"}, guild_id=GUILD),
            payloads.slash_command("history", {"query": "KTC"}, guild_id=GUILD),
            payloads.slash_command("card", {"name": "Ptol"}, guild_id=GUILD),
            payloads.slash_command("changes", {"since": "2012-01-01"}, guild_id=GUILD),
            payloads.slash_command("sources", guild_id=GUILD),
        ):
            await fake_discord.interact(payload, WAIT)
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("KTC"))
        await _posts(fake_discord, 1)
    assert set(calls) == set(CORE_CALLS)
    assert on_loop == []


async def test_lookup_is_counted_after_the_reply(fake_discord, running, state, monkeypatch):
    replied_first: list[bool] = []
    original = state.record_lookup

    def record(command, query, *args, **kwargs):
        if command == "ruling":
            replied_first.append(any(r.path.endswith("/callback") for r in fake_discord.requests))
        return original(command, query, *args, **kwargs)

    monkeypatch.setattr(state, "record_lookup", record)
    async with running():
        await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "KTC"}, guild_id=GUILD), WAIT
        )
        for _ in range(100):
            if replied_first:
                break
            await asyncio.sleep(0.05)
    assert replied_first == [True]


async def test_dm_flood_is_limited_and_its_memory_bounded(fake_discord, running, settings):
    from commands.limits import COOLDOWN_WINDOW

    settings.cooldown_per_minute = 2
    async with running() as bot:
        flooder = asyncio.ensure_future(
            bot.wait_for("message", check=lambda m: m.author.id == int(payloads.USER["id"]))
        )
        for _ in range(6):
            await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("KTC"))
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("KTC", OTHER_USER))
        sent = await _posts(fake_discord, 4, settle=1.0)
        message = await asyncio.wait_for(flooder, WAIT)
        guard = bot.get_cog("Messages").lookups
        users_tracked = len(guard._cache)  # the mapping's storage: what memory holds
        # A window later, the next lookup finds every bucket of the flood expired and dropped.
        guard.get_bucket(message, current=time.time() + COOLDOWN_WINDOW + 1)
        users_after_a_window = len(guard._cache)
    answers = [r for r in sent if r.json.get("embeds")]
    told = [r for r in sent if (r.json.get("content") or "").startswith("Slow down")]
    assert len(answers) == 3  # two for the flooder, one for the bystander
    other_channel = payloads.dm_channel_id(OTHER_USER["id"])
    assert sum(1 for r in answers if other_channel in r.path) == 1
    assert len(told) == 1 and "2 lookups a minute" in told[0].json["content"]
    assert len(sent) == 4
    assert users_tracked == 2 and users_after_a_window == 1


@pytest.mark.allow_logged_errors
async def test_dm_and_inline_get_the_apology(fake_discord, running, rulings, state, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(rulings, "show", broken)
    state.set_inline(int(GUILD), True)
    async with running():
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("KTC"))
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.guild_message("[[KTC]]"))
        sent = await _posts(fake_discord, 2)
    assert [r.json["content"] for r in sent] == [APOLOGY, APOLOGY]
    inline = next(r for r in sent if r.path.split("/")[-2] == payloads.CHANNEL_ID)
    assert inline.json["message_reference"]["message_id"]
    logged = [r for r in fake_discord.logged_errors if "lookup failed" in r.getMessage()]
    assert len(logged) == 2


@pytest.mark.allow_logged_errors
async def test_broken_store_is_logged_once_per_state_change(
    fake_discord, running, rulings, monkeypatch, caplog
):
    monkeypatch.setattr(bot_app, "WATCH_SECONDS", 0.01)
    broken = {"now": True}
    original = rulings.refresh_if_changed

    def refresh():
        if broken["now"]:
            raise OSError("database disk image is malformed")
        return original()

    monkeypatch.setattr(rulings, "refresh_if_changed", refresh)
    # The watcher warms the answers up before its first refresh: in a fresh process that
    # takes longer than the broken spell below, which would pass unseen.
    monkeypatch.setattr(rulings, "warm_up", lambda: None)
    caplog.set_level(logging.INFO, logger="commands.app")
    async with running():
        await asyncio.sleep(0.6)  # dozens of ticks
        broken["now"] = False
        await asyncio.sleep(0.3)
        broken["now"] = True
        await asyncio.sleep(0.3)
    watcher = [r for r in caplog.records if r.name == "commands.app"]
    failures = [r for r in watcher if "store watcher failed" in r.getMessage()]
    recoveries = [r for r in watcher if "recovered" in r.getMessage()]
    assert len(failures) == 2  # broken, then broken again after recovering
    assert failures[0].exc_info is not None
    assert len(recoveries) == 1


async def test_search_words_too_long_to_page_say_so(fake_discord, running):
    words = (
        "personnel mission card play dilemma ship attempt opponent headquarters download "
        "cost skills"
    )
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command("search", {"words": words}, guild_id=GUILD), WAIT
        )
    data = callback.body["data"]
    assert limits.validate_message(data) == []
    assert not any(cid.startswith("rp:") for cid in _custom_ids(data))
    assert data["embeds"][0]["footer"]["text"].startswith("Page 1/2: shorter words")


async def test_the_bot_warms_its_answers_up_before_the_first_lookup(fake_discord, running, live):
    # What answers build on first use is built by the bot at start-up, so a burst of
    # lookups just after it does not wait for the first of them to build it.
    lazy = [
        live._answers.cards.card_index,
        live._answers.index.passages.edition_lean.card_vocabulary,
    ]
    assert not any(value.built for value in lazy)
    async with running(live):
        for _ in range(200):
            if all(value.built for value in lazy):
                break
            await asyncio.sleep(0.05)
    assert all(value.built for value in lazy)


async def test_closing_the_bot_waits_for_the_watchers_thread(
    fake_discord, running, live, monkeypatch
):
    # A worker thread cannot be stopped: were the bot closed (and the store after it) while
    # the watcher's thread still read the store, the reads would run on a closed store.
    started, release = threading.Event(), threading.Event()
    ended: list[float] = []

    def slow_warm_up() -> None:
        started.set()
        release.wait(5)
        ended.append(time.monotonic())

    monkeypatch.setattr(live, "warm_up", slow_warm_up)
    async with running(live):
        assert await asyncio.to_thread(started.wait, 5)
        asyncio.get_running_loop().call_later(0.2, release.set)
    closed = time.monotonic()
    assert ended and ended[0] <= closed


async def test_a_watchers_thread_failing_as_the_bot_closes_leaves_no_unread_error(
    fake_discord, running, live, monkeypatch
):
    # The store breaks while the bot is closing: the watcher is cancelled, its thread ends
    # with the error, and nothing reads it; asyncio would then log "Task exception was never
    # retrieved" at some later moment, in whatever test or task runs then.
    started, release = threading.Event(), threading.Event()

    def failing_warm_up() -> None:
        started.set()
        release.wait(5)
        raise OSError("database disk image is malformed")

    monkeypatch.setattr(live, "warm_up", failing_warm_up)
    loop = asyncio.get_running_loop()
    unread: list[dict] = []
    default = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: unread.append(context))
    try:
        async with running(live):
            assert await asyncio.to_thread(started.wait, 5)
            loop.call_later(0.1, release.set)
        gc.collect()  # an unread task error is reported when the task is collected
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(default)
    assert not [c for c in unread if "never retrieved" in str(c.get("message"))], unread

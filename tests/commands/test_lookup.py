"""The Discord commands end to end: the real bot on the fake Discord, raw payloads in,
exact JSON out."""

import asyncio

import pytest

from bot.markup import markup_to_words
from commands.errors import APOLOGY
from tests.commands.helpers import blocks, reply_data
from tests.commands.helpers import sources as source_lines
from tests.fakediscord import limits, payloads

GUILD = payloads.GUILD_ID
EPHEMERAL = 1 << 6


def _buttons(message_or_data: dict) -> list[dict]:
    return [c for row in message_or_data.get("components", []) for c in row.get("components", [])]


def _custom_ids(data: dict) -> list[str]:
    return [c.get("custom_id") for c in _buttons(data)]


async def test_synced_commands_are_valid(fake_discord, running):
    async with running():
        put = await fake_discord.wait_for_request(
            lambda r: r.method == "PUT" and r.path.endswith("/commands")
        )
    assert limits.validate_command_payload(put.json) == []
    names = {c["name"] for c in put.json}
    assert names == {
        "ruling",
        "search",
        "history",
        "sources",
        "card",
        "changes",
        "inline",
        "announcements",
    }
    lookup = next(c for c in put.json if c["name"] == "ruling")
    assert set(lookup["contexts"]) == {0, 1, 2}  # servers, the bot's DMs, private channels
    inline = next(c for c in put.json if c["name"] == "inline")
    assert (
        inline["contexts"] == [0]
        and int(inline["default_member_permissions"]) == payloads.MANAGE_GUILD
    )


async def test_ruling_matching_commander_1e(fake_discord, running):
    async with running():
        ix = payloads.slash_command(
            "ruling", {"query": "matching commander", "edition": "1E"}, guild_id=GUILD
        )
        callback = await fake_discord.interact(ix)
    assert callback.status == 200
    body = callback.body
    assert body["type"] == 4
    data = body["data"]
    assert data["allowed_mentions"] == {"parse": []}
    assert not data.get("flags")  # public in servers
    embed = data["embeds"][0]
    assert embed["title"] == "matching commander [1E]"
    assert "such as Rinnak Pire and Regent Worf" in embed["description"]
    # One block, one source line: the document once (its title holds its date), and no
    # status, since it is simply the version in force; no Source/Status fields repeating it.
    assert source_lines(embed["description"]) == [
        "First Edition Current Rulings Document (3 November 2014)"
    ]
    assert "This replaces the older entry whole." in embed["description"]
    assert not embed.get("fields")
    assert "rs:o:1e-named-in-lore" in _custom_ids(data)
    assert "rs:o:1e-facility-commander" in _custom_ids(data)
    assert limits.validate_message(data) == []


async def test_related_button_answers_with_that_ruling(fake_discord, running):
    async with running():
        ix = payloads.slash_command(
            "ruling", {"query": "matching commander", "edition": "1E"}, guild_id=GUILD
        )
        await fake_discord.interact(ix)
        message = fake_discord.original_message(ix["token"])
        click = payloads.button_click("rs:o:1e-named-in-lore", message, guild_id=GUILD)
        callback = await fake_discord.interact(click)
    assert callback.body["type"] == 4
    data = callback.body["data"]
    assert data["flags"] & EPHEMERAL  # the clicker reads it; "show everyone" shares it
    assert data["embeds"][0]["title"] == "named in lore [1E]"
    assert any(cid.startswith("rv:0:1e-crd-2014-11-03:named-in-lore") for cid in _custom_ids(data))


async def test_private_answer_then_show_everyone(fake_discord, running):
    async with running():
        ix = payloads.slash_command("ruling", {"query": "KTC", "private": True}, guild_id=GUILD)
        callback = await fake_discord.interact(ix)
        data = callback.body["data"]
        assert data["flags"] & EPHEMERAL
        share = next(cid for cid in _custom_ids(data) if cid.startswith("rv:"))
        message = fake_discord.original_message(ix["token"])
        click = payloads.button_click(share, message, guild_id=GUILD)
        shared = await fake_discord.interact(click, timeout=20)
        posted = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and click["token"] in r.path and "/webhooks/" in r.path,
            timeout=20,
        )
    # The private message keeps its answer, its button now disabled: one-shot.
    assert shared.body["type"] == 7
    button = next(b for b in _buttons(shared.body["data"]) if b.get("custom_id") == share)
    assert button["disabled"] is True and button["label"] == "Shown to everyone"
    # Everyone sees the answer in a new, public message.
    assert not posted.json.get("flags")
    assert posted.json["embeds"][0]["title"] == "Klingon Tea Ceremony [2E]"
    assert not any(cid.startswith("rv:") for cid in _custom_ids(posted.json))


async def test_no_confident_match_shows_the_best_matches(fake_discord, running):
    async with running():
        ix = payloads.slash_command(
            "ruling", {"query": "matching commander vs facility commander"}, guild_id=GUILD
        )
        data = await reply_data(fake_discord, ix)
        assert data["content"].startswith(
            "No confident match for “matching commander vs facility commander”."
        )
        # Plainly best matches, never the answer: no embed is titled as a ruling.
        (embed,) = data["embeds"]
        assert embed["title"].startswith("Best matches for")
        assert limits.validate_message(data) == []
        opens = [c for c in _buttons(data) if c.get("custom_id", "").startswith("rb:")]
        assert 2 <= len(opens) <= 3
        targets = {c["custom_id"].split(":", 5)[5] for c in opens}
        assert {
            "1e-crd-2014-11-03:matching-commander",
            "1e-crd-2014-11-03:facility-commander",
        } <= targets
        message = fake_discord.original_message(ix["token"])
        first = opens[0]["custom_id"]
        opened = await reply_data(
            fake_discord, payloads.button_click(first, message, guild_id=GUILD)
        )
    # The button opens that ruling, its part first under its own source.
    assert opened["embeds"][0]["title"].split(" [")[0] in embed["description"]
    assert limits.validate_message(opened) == []


async def test_a_miss_shows_where_each_best_match_fits_the_question(fake_discord, running):
    # A question's words are rarely a title's: each best match shows, in the reply itself,
    # the part of that ruling that fits the question, with its document.
    question = "When my Away Team is stopped, can a new away team be formed and beamed down?"
    async with running():
        data = await reply_data(
            fake_discord,
            payloads.slash_command("ruling", {"query": question, "edition": "1E"}, guild_id=GUILD),
        )
    assert limits.validate_message(data) == []
    shown = blocks(data["embeds"][0]["description"])
    assert 2 <= len(shown) <= 3
    for _heading, cited, text in shown:
        assert len(cited) == 1 and text.startswith("> ")  # one source line, then the part
    assert any("Away Team" in text for _, _, text in shown)
    for select in (c for c in _buttons(data) if c["type"] == 3):
        for option in select["options"]:
            assert len(option.get("description") or "") <= limits.SELECT_OPTION_TEXT


async def test_a_miss_in_the_edition_asked_names_the_other_editions_ruling(fake_discord, running):
    # KTC asked in 1E: say it is a 2E ruling, and offer it first, one click away.
    async with running():
        ix = payloads.slash_command("ruling", {"query": "KTC", "edition": "1E"}, guild_id=GUILD)
        data = await reply_data(fake_discord, ix)
        assert "“Klingon Tea Ceremony” is a 2E ruling; there is none in 1E." in data["content"]
        first = next(c for c in _buttons(data) if c.get("custom_id", "").startswith("rb:"))
        assert first["custom_id"].endswith(":2e-crd-2011-10-05:klingon-tea-ceremony")
        message = fake_discord.original_message(ix["token"])
        picked = await reply_data(
            fake_discord, payloads.button_click(first["custom_id"], message, guild_id=GUILD)
        )
    assert picked["embeds"][0]["title"] == "Klingon Tea Ceremony [2E]"


async def test_a_card_name_several_cards_bear_offers_the_choice(fake_discord, running):
    # Never a silent pick: the reply says how many cards bear the name and offers each in a
    # menu, both editions, the cards with rulings first.
    async with running():
        ruling = await reply_data(
            fake_discord, payloads.slash_command("ruling", {"query": "Kira Nerys"}, guild_id=GUILD)
        )
        answer = await reply_data(
            fake_discord,
            payloads.slash_command("ruling", {"query": "Data", "edition": "2E"}, guild_id=GUILD),
        )
        card = await reply_data(
            fake_discord,
            payloads.slash_command("card", {"name": "Data", "edition": "2E"}, guild_id=GUILD),
        )
    for data in (ruling, answer, card):
        assert limits.validate_message(data) == []
        shown = data["embeds"][0]["title"].split(" [")[0]
        menu = next(c for c in _buttons(data) if c["type"] == 3)
        labels = [o["label"] for o in menu["options"]]
        assert labels and not any(label.startswith(f"{shown} (") for label in labels)
        counts = [o["description"].endswith("no rulings") for o in menu["options"]]
        assert counts == sorted(counts)  # the cards with rulings first
        fields = {f["name"] for f in data["embeds"][0].get("fields", [])}
        assert any(name.startswith(f"{len(labels) + 1} cards bear this name") for name in fields)
    assert any(label == "Data, Lucasian Chair (2E)" for label in labels)
    # Kira Nerys: the one card a ruling is about is shown, its ruling's sentence visible,
    # and both editions' cards are offered.
    kira = ruling["embeds"][0]
    assert kira["title"] == "Kira Nerys, Iliana Ghemor [2E]"
    assert blocks(kira["description"])[0][0] == "**Ruling: Kira Nerys, Iliana Ghemor**"
    menu = next(c for c in _buttons(ruling) if c["type"] == 3)
    assert {"1E", "2E"} <= {o["label"][-3:-1] for o in menu["options"]}


async def test_gibberish_gets_an_honest_no(fake_discord, running):
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "qwzxv"}, guild_id=GUILD)
        )
    data = callback.body["data"]
    assert "No confident match" in data["content"]
    assert not data.get("embeds")


async def test_autocomplete_round_trip(fake_discord, running):
    async with running():
        ix = payloads.autocomplete(
            "ruling", {"query": "matching c"}, focused="query", guild_id=GUILD
        )
        callback = await fake_discord.interact(ix)
    assert callback.body["type"] == 8
    choices = callback.body["data"]["choices"]
    assert 1 <= len(choices) <= 25
    assert {
        "name": "matching commander (1E)",
        "value": "1e-crd-2014-11-03:matching-commander",
    } in choices
    assert limits.validate_choices(choices) == []


async def test_autocomplete_value_is_resolved_again(fake_discord, running):
    async with running():
        ix = payloads.slash_command(
            "ruling", {"query": "1e-crd-2014-11-03:matching-commander"}, guild_id=GUILD
        )
        callback = await fake_discord.interact(ix)
    assert callback.body["data"]["embeds"][0]["title"] == "matching commander [1E]"


async def test_longest_ruling_is_paginated_within_limits(fake_discord, running, rulings):
    longest = max(rulings.index.targets, key=lambda t: len(rulings.store.entry(t.entry)["text"]))
    async with running():
        ix = payloads.slash_command("ruling", {"query": longest.entry}, guild_id=GUILD)
        first = await fake_discord.interact(ix)
        data = first.body["data"]
        assert limits.validate_message(data) == []
        footer = data["embeds"][0]["footer"]["text"]
        assert footer.startswith("Page 1/")
        pages = int(footer.split("/")[1].split(" ")[0])
        seen = [data["embeds"][0]["description"]]
        message = fake_discord.original_message(ix["token"])
        for page in range(1, pages):
            following = next(
                cid for cid in _custom_ids(message) if cid.startswith(f"rp:a:o:{page}:")
            )
            callback = await fake_discord.interact(
                payloads.button_click(following, message, guild_id=GUILD)
            )
            assert callback.body["type"] == 7
            assert limits.validate_message(callback.body["data"]) == []
            seen.append(callback.body["data"]["embeds"][0]["description"])
            message = fake_discord.original_message(click_token(callback)) or message
    # the ruling as a reply words it: icons the source lost marked "(icon)", cards unbraced
    text = markup_to_words(rulings.store.entry(longest.entry)["text"])
    seen = ["\n\n".join(text for _, _, text in blocks(page)) for page in seen]
    assert (
        "".join(seen)
        .replace("\n", "")
        .replace(" ", "")
        .startswith(text.replace("\n", "").replace(" ", "")[:2000])
    )
    joined = " ".join(seen)
    assert all(word in joined for word in text.split()[-20:])  # nothing at the end was cut


def click_token(callback) -> str:
    return callback.path.split("/")[3]


async def test_dm_ktc_gets_the_clarification(fake_discord, running):
    async with running():
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("KTC"))
        sent = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith("/messages")
        )
    embed = sent.json["embeds"][0]
    assert embed["title"] == "Klingon Tea Ceremony [2E]"
    (heading, cited, text), *_ = blocks(embed["description"])
    assert text.startswith(
        "If a single action downloads multiple cards simultaneously, it will trigger KTC."
    )
    assert cited == ["Second Edition Current Rulings Document (5 October 2011)"]
    assert sent.json["allowed_mentions"] == {"parse": []}


async def test_dm_help(fake_discord, running):
    async with running():
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("help"))
        sent = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith("/messages")
        )
    assert "Send me a term" in sent.json["content"]


async def test_dm_edition_word(fake_discord, running):
    async with running():
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("species 1E"))
        sent = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith("/messages")
        )
    assert sent.json["embeds"][0]["title"] == "species [1E]"


async def test_inline_lookups_only_where_enabled(fake_discord, running, state):
    async with running():
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.guild_message("what about [[KTC]]?"))
        await asyncio.sleep(0.3)
        assert not [
            r for r in fake_discord.requests if r.method == "POST" and r.path.endswith("/messages")
        ]
        state.set_inline(int(GUILD), True)
        content = "[[KTC]] and [[matching commander]] and [[species]] and [[stopped]]"
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.guild_message(content))
        for _ in range(50):
            sent = [
                r
                for r in fake_discord.requests
                if r.method == "POST" and r.path.endswith("/messages")
            ]
            if len(sent) >= 3:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        sent = [
            r for r in fake_discord.requests if r.method == "POST" and r.path.endswith("/messages")
        ]
    assert len(sent) == 3  # at most three per message
    assert sent[0].json["embeds"][0]["title"] == "Klingon Tea Ceremony [2E]"
    assert sent[0].json["message_reference"]["message_id"]


async def test_inline_toggle_command_needs_manage_server(fake_discord, running, state):
    async with running():
        member = payloads.slash_command("inline", {"enabled": True}, guild_id=GUILD, permissions=0)
        refused = await fake_discord.interact(member)
        manager = payloads.slash_command(
            "inline", {"enabled": True}, guild_id=GUILD, permissions=payloads.MANAGE_GUILD
        )
        allowed = await fake_discord.interact(manager)
    assert refused.body["data"]["flags"] & EPHEMERAL
    assert "permission" in refused.body["data"]["content"]
    assert "Inline lookups are on" in allowed.body["data"]["content"]
    assert state.inline_enabled(int(GUILD))


async def test_search_history_sources_card_changes(fake_discord, running):
    async with running():
        search = await reply_data(
            fake_discord,
            payloads.slash_command("search", {"words": "dilemma actions"}, guild_id=GUILD),
        )
        history = await reply_data(
            fake_discord,
            payloads.slash_command(
                "history", {"query": "attempting missions", "edition": "2E"}, guild_id=GUILD
            ),
        )
        sources = await reply_data(fake_discord, payloads.slash_command("sources", guild_id=GUILD))
        card = await reply_data(
            fake_discord, payloads.slash_command("card", {"name": "Ptol"}, guild_id=GUILD)
        )
        changes = await reply_data(
            fake_discord,
            payloads.slash_command(
                "changes", {"since": "2012-01-01", "edition": "2E"}, guild_id=GUILD
            ),
        )
        old = await reply_data(
            fake_discord,
            payloads.slash_command(
                "ruling",
                {"query": "attempting missions", "edition": "2E", "as_of": "2012-01-01"},
                guild_id=GUILD,
            ),
        )
    # Each the response or, for a slow lookup, the follow-up of its deferral.
    for data in (search, history, sources, card, changes, old):
        assert limits.validate_message(data) == []
    assert "dilemmas" in search["embeds"][0]["description"]
    history_text = history["embeds"][0]["description"]
    assert source_lines(history_text)[0] == "Second Edition Current Rulings Document (7 July 2014)"
    sources_text = sources["embeds"][0]["description"]
    assert sources_text.count("\n**") == 4  # five documents, one block each
    card_embed = card["embeds"][0]
    assert card_embed["title"] == "Ptol [2E]"
    # The ruling that names the card, with its sentence, before the card's text (once).
    headings = [heading for heading, _, _ in blocks(card_embed["description"])]
    assert headings[0] == "**Ruling: cost reduction**"
    assert card_embed["description"].count("**Card: Ptol") == 1  # the card's text once
    assert "attempting missions" in changes["embeds"][0]["description"]
    old_embed = old["embeds"][0]
    assert old_embed["footer"]["text"].endswith("in force on 2012-01-01")
    assert source_lines(old_embed["description"])[0].startswith(
        "Second Edition Current Rulings Document (5 October 2011) · older copy"
    )


async def test_bad_date_is_a_short_ephemeral_error(fake_discord, running):
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command("changes", {"since": "last tuesday"}, guild_id=GUILD)
        )
    data = callback.body["data"]
    assert data["flags"] & EPHEMERAL
    assert data["content"] == "dates are written YYYY-MM-DD, not 'last tuesday'"


async def test_card_autocomplete(fake_discord, running):
    async with running():
        callback = await fake_discord.interact(
            payloads.autocomplete("card", {"name": "kira nerys il"}, focused="name", guild_id=GUILD)
        )
    choices = callback.body["data"]["choices"]
    assert choices and choices[0]["value"] == "2e-kira-nerys-iliana-ghemor"
    assert limits.validate_choices(choices) == []


async def test_cooldown_refuses_a_flood(fake_discord, running, settings):
    settings.cooldown_per_minute = 2
    async with running():
        for _ in range(2):
            ok = await fake_discord.interact(
                payloads.slash_command("ruling", {"query": "KTC"}, guild_id=GUILD)
            )
            assert ok.body["data"]["embeds"]
        refused = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "KTC"}, guild_id=GUILD)
        )
    assert refused.body["data"]["flags"] & EPHEMERAL
    assert refused.body["data"]["content"].startswith("Slow down a little")


async def test_dm_slash_command(fake_discord, running):
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "KTC"}, dm=True)
        )
    assert callback.body["data"]["embeds"][0]["title"] == "Klingon Tea Ceremony [2E]"


@pytest.mark.allow_logged_errors
async def test_unexpected_exception_reaches_the_user_as_an_apology(
    fake_discord, running, rulings, monkeypatch, caplog
):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(rulings, "show", broken)
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "KTC"}, guild_id=GUILD)
        )
    assert callback.body["data"]["content"] == APOLOGY
    assert callback.body["data"]["flags"] & EPHEMERAL
    logged = [
        r
        for r in caplog.records
        if r.levelname == "ERROR" and "command ruling failed" in r.getMessage()
    ]
    assert logged and str(payloads.USER_ID) in logged[0].getMessage()


@pytest.fixture(scope="module")
def pinging_rulings(tmp_path_factory, data_dir):
    """The bundled data with one ruling rewritten to contain @everyone and a user mention."""
    import shutil

    from bot.answers.service import Rulings

    data = tmp_path_factory.mktemp("ping") / "rulings_data"
    shutil.copytree(data_dir, data)
    path = data / "entries" / "2e-crd-2011-10-05.yaml"
    text = path.read_text(encoding="utf-8")
    marker = "If a single action downloads multiple cards simultaneously"
    assert marker in text
    path.write_text(
        text.replace(marker, "@everyone <@123456789012345678> " + marker, 1), encoding="utf-8"
    )
    service = Rulings.open(tmp_path_factory.mktemp("ping-store") / "db.sqlite3", data)
    yield service
    service.close()


async def test_everyone_in_ruling_text_pings_nobody(fake_discord, running, pinging_rulings):
    async with running(pinging_rulings):
        callback = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "KTC"}, guild_id=GUILD)
        )
        await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("KTC"))
        dm = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith("/messages")
        )
    for body in (callback.body["data"], dm.json):
        assert blocks(body["embeds"][0]["description"])[0][2].startswith(
            "@everyone <@123456789012345678> If a single action"
        )
        assert body["allowed_mentions"] == {"parse": []}


LOOKUPS = [
    ("ruling", {"query": "KTC"}, "show"),
    ("search", {"words": "KTC"}, "search"),
    ("history", {"query": "KTC"}, "history"),
    ("card", {"name": "Ptol"}, "card"),
    ("changes", {"since": "2012-01-01"}, "changes"),
    ("sources", None, "sources"),
]


@pytest.mark.parametrize(("command", "options", "_"), LOOKUPS, ids=[c[0] for c in LOOKUPS])
async def test_every_lookup_works_in_a_dm(fake_discord, running, command, options, _):
    async with running():
        callback = await fake_discord.interact(payloads.slash_command(command, options, dm=True))
    assert callback.body["type"] == 4
    assert callback.body["data"]["embeds"], callback.body
    assert limits.validate_message(callback.body["data"]) == []


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("ruling", {"query": "qwzxv"}),
        ("history", {"query": "qwzxv"}),
        ("card", {"name": "qwzxv"}),
        ("search", {"words": "qwzxv"}),
    ],
)
async def test_every_lookup_says_no_confident_match(fake_discord, running, command, options):
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command(command, options, guild_id=GUILD)
        )
    data = callback.body["data"]
    text = data.get("content") or data["embeds"][0]["description"]
    assert "No confident match" in text or "No card matches" in text or "No rulings match" in text


@pytest.mark.allow_logged_errors
@pytest.mark.parametrize(("command", "options", "method"), LOOKUPS, ids=[c[0] for c in LOOKUPS])
async def test_every_lookup_apologises_for_an_unexpected_error(
    fake_discord, running, rulings, monkeypatch, command, options, method
):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(rulings, method, broken)
    async with running():
        callback = await fake_discord.interact(
            payloads.slash_command(command, options, guild_id=GUILD)
        )
    assert callback.body["data"]["content"] == APOLOGY
    assert callback.body["data"]["flags"] & EPHEMERAL


async def test_history_autocomplete_and_card_autocomplete_round_trip(fake_discord, running):
    async with running():
        history = await fake_discord.interact(
            payloads.autocomplete("history", {"query": "tea cer"}, focused="query", guild_id=GUILD)
        )
        empty = await fake_discord.interact(
            payloads.autocomplete("ruling", {"query": ""}, focused="query", guild_id=GUILD)
        )
    assert history.body["data"]["choices"][0]["name"] == "Klingon Tea Ceremony (2E)"
    assert 1 <= len(empty.body["data"]["choices"]) <= 25

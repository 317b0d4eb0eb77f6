"""The fake Discord harness, proven end to end with a tiny real discord.py bot."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import limits, payloads, strip_nonce
from tests.fakediscord.plugin import run_bot, teardown_problems
from tests.fakediscord.server import FakeDiscord

WORDS = ["picard", "pike", "kirk", "janeway", "sisko"]


class ClickView(discord.ui.View):
    def __init__(self, clicks: list[str]) -> None:
        super().__init__(timeout=None)
        self.clicks = clicks

    @discord.ui.button(label="Click me", custom_id="demo:click", style=discord.ButtonStyle.primary)
    async def click(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.clicks.append(interaction.user.name)
        await interaction.response.edit_message(content="clicked", view=None)


class AskModal(discord.ui.Modal, title="Ask"):
    question = discord.ui.TextInput(label="Question", custom_id="ask:question")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"asked: {self.question.value}", ephemeral=True)


class TinyBot(commands.Bot):
    """One of each thing the harness must carry: command, autocomplete, view, DM."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.clicks: list[str] = []
        self.app_errors: list[app_commands.AppCommandError] = []
        self.seen: list[discord.Message] = []
        self.tree.on_error = self.on_app_command_error

        @self.tree.command(name="ping", description="Replies with pong.")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @self.tree.command(name="search", description="Finds a captain.")
        @app_commands.describe(query="Part of a name")
        async def search(interaction: discord.Interaction, query: str) -> None:
            await interaction.response.send_message(query)

        @search.autocomplete("query")
        async def search_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=w.title(), value=w) for w in WORDS if w.startswith(current)
            ][:25]

        @self.tree.command(name="buttons", description="Shows a button.")
        async def buttons(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("press it", view=ClickView(self.clicks))

        @self.tree.command(name="long", description="Sends too much.")
        async def long(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("x" * 2001)

        @self.tree.command(name="slow", description="Defers, follows up, edits.")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True, ephemeral=True)
            await interaction.followup.send("done")
            await interaction.followup.send("more", file=discord.File(io.BytesIO(b"hi"), "a.txt"))
            await interaction.edit_original_response(content="edited")
            await interaction.user.send("a DM")

        @self.tree.command(name="ask", description="Opens a modal.")
        async def ask(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(AskModal())

        @self.tree.command(name="boom", description="Raises.")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("kaboom")

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.app_errors.append(error)
        if isinstance(getattr(error, "original", None), RuntimeError):
            # Unexpected: log it the way discord.py's default handler does.
            await app_commands.CommandTree.on_error(self.tree, interaction, error)

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)
        if message.author.bot:
            return
        if message.guild is None:
            await message.channel.send(f"echo: {message.content}")


@pytest.fixture
async def bot(fake_discord: FakeDiscord):
    async with run_bot(TinyBot(), fake_discord) as running:
        yield running


async def test_login_and_ready_reach_the_fake(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    assert bot.is_ready()
    assert str(bot.user.id) == payloads.BOT_ID
    assert bot.application_id == int(payloads.BOT_ID)
    assert fake_discord.intents == discord.Intents.default().value
    assert fake_discord.gateway_query["v"] == "10"
    guild = bot.get_guild(int(payloads.GUILD_ID))
    assert guild is not None and guild.me is not None
    assert guild.get_channel(int(payloads.CHANNEL_ID)).name == "general"
    paths = [(r.method, r.path) for r in fake_discord.requests]
    assert paths[:2] == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]


async def test_every_answer_is_exactly_application_json(fake_discord: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(
            f"{fake_discord.api_base}/users/@me", headers={"Authorization": "Bot t"}
        ) as resp:
            assert resp.headers["Content-Type"] == "application/json"
        async with session.get(f"{fake_discord.api_base}/nope") as resp:
            assert (resp.status, resp.headers["Content-Type"]) == (404, "application/json")
    assert [r.path for r in fake_discord.unexpected] == ["/nope"]
    assert len(fake_discord.pop_errors()) == 1
    assert fake_discord.unexpected == []


async def test_sync_records_a_valid_command_payload(
    bot: TinyBot, fake_discord: FakeDiscord
) -> None:
    synced = await bot.tree.sync()
    put = await fake_discord.wait_for_request(lambda r: r.method == "PUT")
    assert put.path == f"/applications/{payloads.BOT_ID}/commands"
    assert limits.validate_command_payload(put.json) == []
    assert sorted(c["name"] for c in put.json) == [
        "ask",
        "boom",
        "buttons",
        "long",
        "ping",
        "search",
        "slow",
    ]
    assert all(c.id for c in synced)
    assert {c["name"] for c in fake_discord.commands} == {c.name for c in synced}
    assert [c.id for c in await bot.tree.fetch_commands()] == [c.id for c in synced]
    # Once commands are registered, Discord only sends interactions for those.
    with pytest.raises(ValueError, match="not registered"):
        await fake_discord.dispatch("INTERACTION_CREATE", payloads.slash_command("nope"))


async def test_guild_sync_is_recorded_per_guild(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    guild = discord.Object(int(payloads.GUILD_ID))
    bot.tree.copy_global_to(guild=guild)
    synced = await bot.tree.sync(guild=guild)
    assert all(c.guild_id == guild.id for c in synced)
    assert len(fake_discord.guild_commands[payloads.GUILD_ID]) == len(synced)
    assert fake_discord.commands == []
    with pytest.raises(discord.Forbidden):
        await bot.tree.sync(guild=discord.Object(1))
    assert fake_discord.pop_errors()[0].response["code"] == 50001


async def test_an_invalid_command_payload_is_refused(
    bot: TinyBot, fake_discord: FakeDiscord
) -> None:
    bad = [{"name": "Ping", "description": "", "type": 1}]
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.bulk_upsert_global_commands(bot.application_id, payload=bad)
    assert (info.value.status, info.value.code) == (400, 50035)
    [error] = fake_discord.pop_errors()
    assert set(error.response["errors"]["0"]) == {"name", "description"}


async def test_slash_command_gets_exactly_one_callback(
    bot: TinyBot, fake_discord: FakeDiscord
) -> None:
    interaction = payloads.slash_command("ping")
    callback = await fake_discord.interact(interaction)
    assert callback.status == 200
    assert strip_nonce(callback.json) == {
        "type": 4,
        "data": {
            "content": "pong",
            "tts": False,
            "allowed_mentions": {"parse": []},
        },
    }
    assert [r.status for r in fake_discord.callbacks_for(interaction["id"])] == [200]
    assert fake_discord.original_message(interaction["token"])["content"] == "pong"


async def test_a_second_response_is_refused(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    interaction = payloads.slash_command("ping")
    await fake_discord.interact(interaction)
    # discord.py blocks a second response on one Interaction object, so answer again
    # through a second object for the same interaction, as a duplicate handler would.
    again = discord.Interaction(data=interaction, state=bot._connection)
    with pytest.raises(discord.HTTPException) as info:
        await again.response.send_message("pong again")
    assert (info.value.status, info.value.code) == (400, 40060)
    assert [r.status for r in fake_discord.callbacks_for(interaction["id"])] == [200, 400]
    assert len(fake_discord.pop_errors()) == 1


async def test_an_unknown_interaction_is_refused(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    never_sent = payloads.slash_command("ping")
    with pytest.raises(discord.NotFound) as info:
        await discord.Interaction(data=never_sent, state=bot._connection).response.send_message(
            "hi"
        )
    assert info.value.code == 10062
    fake_discord.pop_errors()


async def test_autocomplete_round_trip(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    callback = await fake_discord.interact(
        payloads.autocomplete("search", {"query": "pi"}, focused="query")
    )
    assert callback.json == {
        "type": 8,
        "data": {
            "choices": [{"name": "Picard", "value": "picard"}, {"name": "Pike", "value": "pike"}]
        },
    }


async def test_button_click_reaches_the_view(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    command = payloads.slash_command("buttons")
    shown = await fake_discord.interact(command)
    assert shown.json["data"]["components"][0]["components"][0]["custom_id"] == "demo:click"
    message = fake_discord.original_message(command["token"])

    click = payloads.button_click("demo:click", message, user=payloads.MOD_USER)
    callback = await fake_discord.interact(click)
    assert callback.json == {
        "type": 7,
        "data": {
            "content": "clicked",
            "components": [],
            "tts": False,
            "allowed_mentions": {"parse": []},
        },
    }
    assert bot.clicks == ["moderator"]
    assert fake_discord.messages[message["id"]]["content"] == "clicked"


async def test_clicking_a_component_that_is_not_on_the_message_is_a_test_error(
    bot: TinyBot, fake_discord: FakeDiscord
) -> None:
    command = payloads.slash_command("ping")
    await fake_discord.interact(command)
    message = fake_discord.original_message(command["token"])
    with pytest.raises(ValueError, match="no component"):
        await fake_discord.dispatch(
            "INTERACTION_CREATE", payloads.button_click("demo:click", message)
        )


async def test_defer_followups_edit_and_dm(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    command = payloads.slash_command("slow")
    deferred = await fake_discord.interact(command)
    assert deferred.json == {"type": 5, "data": {"flags": 64}}
    dm = await fake_discord.wait_for_request(
        lambda r: r.path.startswith("/channels/") and r.method == "POST"
    )
    first, second = fake_discord.followups_for(command["token"])
    assert (first.query["wait"], first.body["content"]) == ("1", "done")
    # The first follow-up replaces the "thinking" message, which stays ephemeral.
    original = fake_discord.original_message(command["token"])
    assert first.response["id"] == original["id"] and original["flags"] == 64
    assert second.body["content"] == "more" and second.files[0]["filename"] == "a.txt"
    assert second.response["attachments"][0]["filename"] == "a.txt"
    assert original["content"] == "edited"
    assert dm.body["content"] == "a DM"
    assert dm.path == f"/channels/{fake_discord._dm_by_user[payloads.USER_ID]['id']}/messages"


async def test_modal_round_trip(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    shown = await fake_discord.interact(payloads.slash_command("ask"))
    assert shown.json["type"] == 9 and shown.json["data"]["title"] == "Ask"
    modal_id = shown.json["data"]["custom_id"]
    answer = await fake_discord.interact(payloads.modal_submit(modal_id, {"ask:question": "why?"}))
    assert answer.body["data"]["content"] == "asked: why?"
    assert answer.body["data"]["flags"] == 64


async def test_dm_message_is_echoed_to_the_channel(bot: TinyBot, fake_discord: FakeDiscord) -> None:
    dm = payloads.dm_message("hello", payloads.USER)
    assert await fake_discord.dispatch("MESSAGE_CREATE", dm)
    sent = await fake_discord.wait_for_request(
        lambda r: r.path == f"/channels/{dm['channel_id']}/messages"
    )
    assert sent.method == "POST"
    assert sent.body == {
        "content": "echo: hello",
        "tts": False,
        "allowed_mentions": {"parse": []},
        "components": [],
    }


async def test_guild_content_is_blank_without_the_message_content_intent(
    bot: TinyBot, fake_discord: FakeDiscord
) -> None:
    message = payloads.guild_message("secret", author=payloads.USER)
    await fake_discord.dispatch("MESSAGE_CREATE", message)
    await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("sync point"))
    await fake_discord.wait_for_request(lambda r: r.path.startswith("/channels/"))
    assert [m.content for m in bot.seen] == ["", "sync point"]


async def test_an_over_limit_message_is_refused_and_raises(
    bot: TinyBot, fake_discord: FakeDiscord
) -> None:
    callback = await fake_discord.interact(payloads.slash_command("long"))
    assert callback.status == 400
    assert callback.response["code"] == 50035
    assert "content" in callback.response["errors"]["data"]
    await _until(lambda: bot.app_errors)
    [error] = bot.app_errors
    assert isinstance(error, app_commands.CommandInvokeError)
    assert isinstance(error.original, discord.HTTPException) and error.original.code == 50035
    assert fake_discord.pop_errors() == [callback]


async def test_errors_discord_py_only_logs_fail_the_test(
    bot: TinyBot, fake_discord: FakeDiscord
) -> None:
    assert teardown_problems(fake_discord) == []
    await fake_discord.dispatch("INTERACTION_CREATE", payloads.slash_command("boom"))
    await _until(lambda: fake_discord.logged_errors)
    assert "kaboom" in str(fake_discord.logged_errors[0].exc_info[1])
    [problem] = teardown_problems(fake_discord)
    assert "Ignoring exception in command 'boom'" in problem
    assert teardown_problems(fake_discord, allow_logged_errors=True) == []
    fake_discord.logged_errors.clear()


async def test_refused_requests_fail_the_test_unless_popped(
    bot: TinyBot, fake_discord: FakeDiscord
) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=1))
    [problem] = teardown_problems(fake_discord)
    assert "GET /guilds/1/bans -> 404" in problem
    assert [r.path for r in fake_discord.unexpected] == ["/guilds/1/bans"]
    fake_discord.pop_errors()
    assert teardown_problems(fake_discord) == []


async def _until(condition, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def _row(*items: dict) -> dict:
    return {"type": 1, "components": list(items)}


def _button(custom_id: str = "b", **extra: object) -> dict:
    return {"type": 2, "style": 1, "label": "b", "custom_id": custom_id, **extra}


def _select(n_options: int = 1, **extra: object) -> dict:
    options = [{"label": "l", "value": str(i)} for i in range(n_options)]
    return {"type": 3, "custom_id": "s", "options": options, **extra}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"content": "x" * 2001}, "content: Must be 2000 or fewer"),
        ({"embeds": [{}] * 11}, "embeds: Must be 10 or fewer"),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title"),
        ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description"),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
            "embeds.0.fields: Must be 25",
        ),
        (
            {"embeds": [{"fields": [{"name": "n", "value": " "}]}]},
            "fields.0.value: Must be 1 or more",
        ),
        ({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, "embeds.0.fields.0.name"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embeds.0.fields.0.value"),
        ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embeds.0.footer.text"),
        ({"embeds": [{"author": {"name": "a" * 257}}]}, "embeds.0.author.name"),
        (
            {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
            "Embed size exceeds",
        ),
        ({"components": [_row(_button(str(i))) for i in range(6)]}, "components: Must be 5"),
        (
            {"components": [_row(*(_button(str(i)) for i in range(6)))]},
            "components.0.components: Must be 5",
        ),
        ({"components": [_row(_button(), _select())]}, "must be alone in its row"),
        ({"components": [_row(_button(label="l" * 81))]}, "label: Must be 80"),
        ({"components": [_row(_button("c" * 101))]}, "custom_id: Must be 100"),
        ({"components": [_row(_button()), _row(_button())]}, "Duplicate custom_id"),
        ({"components": [_row(_select(26))]}, "options: Must be between 1 and 25"),
        ({"components": [_row(_select(placeholder="p" * 151))]}, "placeholder: Must be 150"),
        (
            {"components": [_row(_select(options=[{"label": "l" * 101, "value": "v"}]))]},
            "options.0.label",
        ),
        ({"allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "mutually exclusive"),
    ],
)
def test_validate_message_finds_each_limit(body: dict, problem: str) -> None:
    problems = limits.validate_message(body)
    assert any(problem in p for p in problems), problems


def test_validate_message_accepts_a_full_legal_message() -> None:
    body = {
        "content": "c" * 2000,
        "embeds": [
            {
                "title": "t" * 256,
                "description": "d" * 4096,
                "fields": [{"name": "n", "value": "v" * 1024}],
            }
        ],
        "components": [
            {
                "type": 1,
                "components": [{"type": 2, "style": 5, "label": "docs", "url": "https://x.y"}],
            }
        ],
        "allowed_mentions": {"parse": []},
    }
    assert limits.validate_message(body) == []


def test_choices_and_modal_limits() -> None:
    assert limits.validate_choices([{"name": "n", "value": "v"}] * 26)
    assert limits.validate_choices([{"name": "", "value": "v"}])
    assert limits.validate_choices([{"name": "n", "value": "v" * 101}])
    assert limits.validate_choices([{"name": "n", "value": 3}]) == []
    modal = {"type": 9, "data": {"title": "t" * 46, "custom_id": "m", "components": []}}
    assert {p.split(":")[0] for p in limits.validate_callback(modal)} == {
        "data.title",
        "data.components",
    }


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ({"name": "Ping", "description": "d"}, "must be lowercase"),
        ({"name": "a b", "description": "d"}, "must match"),
        ({"name": "p" * 33, "description": "d"}, "must match"),
        ({"name": "ping", "description": ""}, "description: Must be 1 or more"),
        ({"name": "ping", "description": "d" * 101}, "description: Must be 100"),
        (
            {
                "name": "ping",
                "description": "d",
                "options": [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)],
            },
            "options: Must be 25",
        ),
        (
            {
                "name": "ping",
                "description": "d",
                "options": [
                    {"type": 3, "name": "a", "description": "d"},
                    {"type": 3, "name": "b", "description": "d", "required": True},
                ],
            },
            "Required options must be placed before",
        ),
        (
            {
                "name": "ping",
                "description": "d",
                "options": [
                    {
                        "type": 3,
                        "name": "a",
                        "description": "d",
                        "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
                    }
                ],
            },
            "choices: Must be 25",
        ),
        (
            {
                "name": "ping",
                "description": "d",
                "options": [
                    {
                        "type": 3,
                        "name": "a",
                        "description": "d",
                        "autocomplete": True,
                        "choices": [{"name": "x", "value": "x"}],
                    }
                ],
            },
            "autocomplete cannot be combined",
        ),
    ],
)
def test_validate_command_payload_finds_each_rule(command: dict, problem: str) -> None:
    problems = limits.validate_command_payload([{"type": 1, **command}])
    assert any(problem in p for p in problems), problems


def test_validate_command_payload_limits_the_number_of_commands() -> None:
    many = [{"type": 1, "name": f"c{i}", "description": "d"} for i in range(101)]
    assert limits.validate_command_payload(many[:100]) == []
    assert limits.validate_command_payload(many)


def test_payload_builders_make_unique_interactions() -> None:
    a, b = (
        payloads.slash_command("rules search", {"query": "x", "limit": 3}),
        payloads.slash_command("ping", dm=True),
    )
    assert a["id"] != b["id"] and a["token"] != b["token"]
    assert a["data"]["options"] == [
        {
            "type": 1,
            "name": "search",
            "options": [
                {"name": "query", "type": 3, "value": "x"},
                {"name": "limit", "type": 4, "value": 3},
            ],
        }
    ]
    assert (a["context"], b["context"]) == (0, 1)
    assert "member" in a and "user" not in a
    assert "user" in b and "member" not in b and b["channel"]["type"] == 1

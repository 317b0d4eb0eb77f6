"""`rulings bot` / `rulings sync`: one-line errors for a missing, malformed or rejected token,
and the token never printed."""

import asyncio
import threading

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.cli.main import main
from tests.fakediscord.server import FakeDiscord

GOOD = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GgoodX.abcdefghijklmnopqrstuvwxyz0123"
WRONG = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GwrongX.zyxwvutsrqponmlkjihgfedcba3210"


@pytest.fixture
def env(monkeypatch, tmp_path):
    for name in (
        "DISCORD_TOKEN",
        "RULINGS_HOME_GUILD_ID",
        "RULINGS_MODERATOR_ROLE_ID",
        "RULINGS_SHARD_COUNT",
        "RULINGS_SHARD_IDS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RULINGS_DB", str(tmp_path / "db.sqlite3"))
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    return monkeypatch


@pytest.mark.parametrize(
    ("token", "message"),
    [(None, "DISCORD_TOKEN is not set"), ("abc", "does not look like a bot token")],
)
@pytest.mark.parametrize("command", ["bot", "sync"])
def test_missing_or_malformed_token_is_one_line(env, capsys, token, message, command):
    if token:
        env.setenv("DISCORD_TOKEN", token)
    assert main([command]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rulings: error:") and message in err and err.count("\n") == 1
    assert not token or token not in err


def test_shard_ids_without_a_count_is_refused(env, capsys):
    env.setenv("DISCORD_TOKEN", GOOD)
    env.setenv("RULINGS_SHARD_IDS", "0,1")
    assert main(["bot"]) == 2
    assert "RULINGS_SHARD_IDS needs RULINGS_SHARD_COUNT" in capsys.readouterr().err


@pytest.fixture
def rejecting_discord():
    """A fake Discord (in its own thread) that only accepts the GOOD token."""
    loop = asyncio.new_event_loop()
    fake = FakeDiscord(token=GOOD)
    ready = threading.Event()

    def serve():
        asyncio.set_event_loop(loop)
        loop.run_until_complete(fake.start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(10)
    old = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = fake.api_base, yarl.URL(fake.gateway_url)
    yield fake
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old
    asyncio.run_coroutine_threadsafe(fake.stop(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


@pytest.mark.parametrize("command", ["bot", "sync"])
def test_rejected_token_is_one_line_never_echoed(env, capsys, rejecting_discord, command):
    env.setenv("DISCORD_TOKEN", WRONG)
    assert main([command]) == 2
    captured = capsys.readouterr()
    assert "Discord rejected the token" in captured.err
    assert WRONG not in captured.err + captured.out
    assert "Traceback" not in captured.err
    rejecting_discord.pop_errors()


def test_sync_registers_global_and_home_commands(env, capsys, rejecting_discord):
    env.setenv("DISCORD_TOKEN", GOOD)
    env.setenv("RULINGS_HOME_GUILD_ID", rejecting_discord.guild["id"])
    assert main(["sync"]) == 0
    out = capsys.readouterr().out
    assert "/ruling" in out and "/ruling-admin" in out
    assert {c["name"] for c in rejecting_discord.commands} >= {"ruling", "search", "card"}
    assert [c["name"] for c in rejecting_discord.guild_commands[rejecting_discord.guild["id"]]] == [
        "ruling-admin"
    ]

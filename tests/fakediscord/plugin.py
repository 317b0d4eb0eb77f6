"""Pytest fixtures for the fake Discord: `fake_discord` and the `run_bot` helper.

Loaded from tests/conftest.py via ``pytest_plugins``. At teardown `fake_discord` fails the
test on anything Discord would have refused (4xx answers, unknown routes, odd gateway
traffic) and on every ERROR log record (discord.py only *logs* exceptions raised in event
handlers, views and app commands). Tests that provoke these on purpose take them with
``fake.pop_errors()`` / ``fake.logged_errors.clear()`` or opt out with the markers
``fake_discord_allow_errors`` and ``allow_logged_errors``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import FakeDiscord


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "fake_discord_allow_errors: do not fail on 4xx answers from the fake Discord"
    )
    config.addinivalue_line(
        "markers",
        "allow_logged_errors: do not fail on ERROR log records during a fake Discord test",
    )


class _ErrorRecords(logging.Handler):
    """Collects ERROR (and worse) records into a list."""

    def __init__(self, sink: list[logging.LogRecord]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record)


@pytest.fixture
def fake_discord_options() -> dict[str, Any]:
    """Keyword arguments for FakeDiscord (override in a module to change guilds, token ...)."""
    return {}


@pytest.fixture
async def fake_discord(
    request: pytest.FixtureRequest, fake_discord_options: dict[str, Any]
) -> AsyncIterator[FakeDiscord]:
    """A started fake Discord, with discord.py pointed at it for the duration of the test."""
    fake = FakeDiscord(**fake_discord_options)
    await fake.start()
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    # The root logger sees discord.*, asyncio ("Task exception was never retrieved") and
    # the bot's own loggers.
    handler = _ErrorRecords(fake.logged_errors)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield fake
    finally:
        root.removeHandler(handler)
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway
        await fake.stop()

    problems = teardown_problems(
        fake,
        allow_errors=request.node.get_closest_marker("fake_discord_allow_errors") is not None,
        allow_logged_errors=request.node.get_closest_marker("allow_logged_errors") is not None,
    )
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def teardown_problems(
    fake: FakeDiscord, *, allow_errors: bool = False, allow_logged_errors: bool = False
) -> list[str]:
    """What makes `fake_discord` fail a test at teardown."""
    problems = []
    if not allow_errors:
        problems += [f"fake Discord refused: {r!r} -> {r.response}" for r in fake.errors]
    problems += [f"fake Discord gateway: {p}" for p in fake.gateway_problems]
    if not allow_logged_errors:
        problems += [
            f"logged {r.levelname} from {r.name}: {_describe(r)}" for r in fake.logged_errors
        ]
    return problems


def _describe(record: logging.LogRecord) -> str:
    text = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
    return text


@contextlib.asynccontextmanager
async def run_bot(
    bot: discord.Client, fake: FakeDiscord, token: str = "x.y.z", *, timeout: float = 20.0
) -> AsyncIterator[discord.Client]:
    """Log `bot` into the fake, connect, wait for READY; close it cleanly on exit."""
    # Refuse to run against anything but the fake: tests must never reach discord.com.
    if Route.BASE != fake.api_base or str(DiscordWebSocket.DEFAULT_GATEWAY) != fake.gateway_url:
        raise RuntimeError("discord.py is not pointed at this fake; use the fake_discord fixture")
    # discord.py waits this long after the last GUILD_CREATE before READY (default 2 s).
    bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, 0.01)
    await bot.login(token)
    connect = asyncio.create_task(bot.connect(reconnect=False), name="fake-discord-connect")
    ready = asyncio.create_task(bot.wait_until_ready(), name="fake-discord-ready")
    try:
        done, _ = await asyncio.wait(
            {connect, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            if connect in done:
                connect.result()  # raises why connecting failed
                raise RuntimeError("bot.connect() returned before READY")
            raise TimeoutError(f"bot was not ready within {timeout}s")
        yield bot
    finally:
        ready.cancel()
        await bot.close()
        try:
            # connect() returns by itself once close() has shut the websocket.
            await asyncio.wait_for(connect, timeout)
        except discord.ConnectionClosed as exc:
            if exc.code != 1000:
                raise

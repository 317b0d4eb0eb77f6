"""Fixtures for the Discord adapter: the real bot, wired to the bundled data, on the fake."""

import contextlib

import discord
import pytest

from bot.settings import Settings
from bot.store.state import State
from commands.app import RulingsBot
from tests.fakediscord import payloads
from tests.fakediscord.plugin import run_bot


@pytest.fixture
def settings():
    """The fake's first guild is the home server, its Moderator role the moderators'."""
    return Settings(
        token="x.y.z",
        message_content_intent=True,
        cooldown_per_minute=50,
        home_guild_id=int(payloads.GUILD_ID),
        moderator_role_id=int(payloads.MOD_ROLE_ID),
    )


@pytest.fixture
def state():
    store = State(":memory:")
    yield store
    store.close()


@pytest.fixture
def running(fake_discord, rulings, state, settings):
    """``async with running() as bot``: the bot logged in, connected and its commands synced."""

    @contextlib.asynccontextmanager
    async def start(service=None):
        bot = RulingsBot(service or rulings, state, settings)
        async with run_bot(bot, fake_discord) as ready:
            await ready.tree.sync()
            if settings.home_guild_id:  # the moderators' commands live in the home server only
                await ready.tree.sync(guild=discord.Object(id=settings.home_guild_id))
            yield ready

    return start

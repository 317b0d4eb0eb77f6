"""Fixtures for the Discord adapter: the real bot, wired to the bundled data, on the fake."""

import contextlib

import discord
import pytest

from bot.settings import Settings
from bot.store.state import State
from commands import limits
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


# Most adapter tests read an interaction's first callback as its reply. A lookup the bot
# defers (not done within ``limits.DEFER_AFTER``, 1 s as shipped) answers in a follow-up
# instead; on a loaded machine that would turn those reads into failures that say nothing
# of what they test. Here the bot defers only near the fake's own 3 s deadline, as Discord
# would expire it; the deferral itself is tested with the shipped value
# (tests/commands/test_glance_discord.py).
TEST_DEFER_AFTER = 2.5


@pytest.fixture
def running(fake_discord, rulings, state, settings, monkeypatch):
    """``async with running() as bot``: the bot logged in, connected and its commands synced."""
    monkeypatch.setattr(limits, "DEFER_AFTER", TEST_DEFER_AFTER)

    @contextlib.asynccontextmanager
    async def start(service=None):
        bot = RulingsBot(service or rulings, state, settings)
        async with run_bot(bot, fake_discord) as ready:
            await ready.tree.sync()
            if settings.home_guild_id:  # the moderators' commands live in the home server only
                await ready.tree.sync(guild=discord.Object(id=settings.home_guild_id))
            yield ready

    return start

"""The bot: one ``commands.Bot`` subclass with its dependencies handed in.

Command modules type their interactions as :data:`Interaction`, so ``interaction.client``
is this bot (``.rulings``, ``.state``, ``.settings``, ``.pending``) to a type checker too.
This module imports no command module (they import it), so it stays at the bottom of
``commands/``'s import graph.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import discord
from discord.ext import commands

from bot import heartbeat
from bot.answers.service import Rulings
from bot.settings import Settings
from bot.store.state import State
from commands.admin.pending import Pending
from commands.errors import on_tree_error
from commands.render import NO_PINGS

log = logging.getLogger(__name__)
T = TypeVar("T")

# One extension per feature; each registers its own commands and persistent components.
EXTENSIONS = (
    "commands.views",
    "commands.lookup",
    "commands.messages",
    "commands.server_settings",
    "commands.admin.group",
)
WATCH_SECONDS = 0.25  # how soon another process's change is answered here
# Writing the answers' snapshot takes the interpreter for a while (seconds at 100,000
# entries): not in the first minute after a start, when a burst of lookups may arrive.
SNAPSHOT_AFTER_SECONDS = 60.0


def intents_for(settings: Settings) -> discord.Intents:
    """Only what the bot needs: servers, DMs (content arrives without the privileged intent),
    and guild message content only when an operator enabled inline lookups."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    if settings.message_content_intent:
        intents.guild_messages = True
        intents.message_content = True
    return intents


if TYPE_CHECKING:
    # To a type checker the shared part is a Bot (it is always mixed into one); at run time
    # a plain mixin, placed before Bot or AutoShardedBot in each class's bases.
    _BotBase = commands.Bot
else:
    _BotBase = object


class _RulingsBotBase(_BotBase):
    """What every bot process has, sharded or not: its dependencies, extensions, watcher."""

    rulings: Rulings
    state: State
    settings: Settings
    pending: Pending  # previews waiting for Confirm; set up by the commands.admin.group extension

    def __init__(self, rulings: Rulings, state: State, settings: Settings, **options):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents_for(settings),
            help_command=None,
            allowed_mentions=NO_PINGS,
            **options,
        )
        self.rulings = rulings
        self.state = state
        self.settings = settings

    async def setup_hook(self) -> None:
        self.tree.error(on_tree_error)  # the one error handler of every command
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self._watcher = asyncio.create_task(self._watch_store(), name="rulings-store-watcher")
        self._beater = asyncio.create_task(self._beat(), name="rulings-heartbeat")

    async def on_socket_event_type(self, event_type: str) -> None:
        self._last_event = time.time()  # any gateway event: the connection is alive

    def _write_beat(self, connected: bool) -> None:
        heartbeat.write(
            heartbeat.path_for(self.rulings.store.path, self.settings.shard_ids),
            connected=connected,
            latency=self.latency,
            last_event=getattr(self, "_last_event", None),
        )

    async def _beat(self) -> None:
        """Write the heartbeat ``rulings health`` reads, every ``heartbeat.INTERVAL_SECONDS``
        (from this loop: a loop that froze stops beating too)."""
        while True:
            connected = self.is_ready() and not self.is_closed()
            try:
                await asyncio.to_thread(self._write_beat, connected)
            except OSError as exc:  # a full disk must not stop the bot; health says so
                log.warning("could not write the heartbeat: %s", exc)
            await asyncio.sleep(heartbeat.INTERVAL_SECONDS)

    async def _watcher_thread(self, work: Callable[..., T], *args: Any) -> T:
        """``work`` in a worker thread, shielded: a thread cannot be stopped, so ``close``
        waits for it to end before the store it reads may be closed."""
        self._watcher_work = asyncio.ensure_future(asyncio.to_thread(work, *args))
        return await asyncio.shield(self._watcher_work)

    async def _watch_store(self) -> None:
        """Pick up changes other processes committed to the shared store, every
        ``WATCH_SECONDS``; forget lookups past the retention limit once an hour.

        A broken store is logged once when it breaks (with the traceback), and once when it
        is readable again, not on every tick.

        It first warms the answers up (see ``Rulings.warm_up``), and again after each
        refresh: a burst of lookups just after start-up otherwise waits for what the first
        of them builds; then it keeps their snapshot (``Rulings.keep_snapshot``)."""
        last_prune = 0.0
        began_watching = time.monotonic()
        failing: str | None = None  # what is wrong now, None while all is well
        warm = False
        while True:
            try:
                if not warm:
                    began = time.perf_counter()
                    await self._watcher_thread(self.rulings.warm_up)
                    log.debug("answers warmed up in %.2f s", time.perf_counter() - began)
                    warm = True
                # Answers built from the store (a first start, a change) are kept for the
                # next start, off the event loop, once the start-up's first lookups had the
                # process to themselves; nothing is written while they stay the same.
                if time.monotonic() - began_watching >= SNAPSHOT_AFTER_SECONDS:
                    await self._watcher_thread(self.rulings.keep_snapshot)
                if await self._watcher_thread(self.rulings.refresh_if_changed):
                    log.info("store changed by another process: index refreshed")
                    warm = False
                if time.monotonic() - last_prune > 3600:
                    removed = await self._watcher_thread(
                        self.state.prune_lookups, self.settings.stats_days
                    )
                    last_prune = time.monotonic()
                    if removed:
                        log.info(
                            "forgot %d lookups older than %d days",
                            removed,
                            self.settings.stats_days,
                        )
                if failing is not None:
                    log.warning("store watcher recovered after: %s", failing)
                    failing = None
            except Exception as exc:  # noqa: BLE001 - the watcher must outlive a bad moment
                problem = f"{type(exc).__name__}: {exc}"
                if problem != failing:
                    log.exception("store watcher failed (%s); retrying quietly", problem)
                    failing = problem
            await asyncio.sleep(WATCH_SECONDS)

    async def close(self) -> None:
        watcher = getattr(self, "_watcher", None)
        if watcher is not None:
            watcher.cancel()
        beater = getattr(self, "_beater", None)
        if beater is not None:
            beater.cancel()
            try:
                self._write_beat(False)  # stopped on purpose: unhealthy at once
            except OSError:
                pass
        work = getattr(self, "_watcher_work", None)
        if work is not None:
            await asyncio.wait([work])
            # The cancelled watcher no longer awaits it, so its failure is read here, or
            # asyncio logs it as never retrieved at some later moment. A failure as the bot
            # closes was the watcher's to log, and it is gone: a debug line is enough.
            if not work.cancelled() and work.exception() is not None:
                log.debug(
                    "store watcher's last read failed as the bot closed: %s", work.exception()
                )
        await super().close()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))
        try:
            await asyncio.to_thread(self._write_beat, True)  # healthy from the first moment
        except OSError as exc:
            log.warning("could not write the heartbeat: %s", exc)


class RulingsBot(_RulingsBotBase, commands.Bot):
    """One process, one gateway connection."""


class ShardedRulingsBot(_RulingsBotBase, commands.AutoShardedBot):
    """Past 2,500 servers Discord requires sharding: this process runs the shards it is given
    (``RULINGS_SHARD_IDS`` of ``RULINGS_SHARD_COUNT``); several processes share one store."""

    def __init__(self, rulings: Rulings, state: State, settings: Settings, **options):
        options.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids:
            options.setdefault("shard_ids", settings.shard_ids)
        super().__init__(rulings, state, settings, **options)


RulingsClient: TypeAlias = RulingsBot | ShardedRulingsBot
"""What ``interaction.client`` (and a cog's ``bot``) is in this application."""

Interaction: TypeAlias = discord.Interaction[RulingsClient]
"""The interactions the commands receive, with the bot's own attributes typed."""


def bot_class(settings: Settings) -> type[RulingsClient]:
    return ShardedRulingsBot if settings.shard_count or settings.shard_ids else RulingsBot

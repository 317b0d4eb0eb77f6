"""The running bot's heartbeat: a small file beside the store that the bot rewrites while it
runs, so that a health check outside the process (Docker's HEALTHCHECK, a systemd timer, a
monitor) can tell a bot connected to Discord from a process that is merely alive.

The bot writes it from its event loop, so a loop that froze stops the writes too."""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

from bot.ingest.dataset import write_text_atomically

INTERVAL_SECONDS = 30  # how often the bot rewrites the file
STALE_SECONDS = 120  # a heartbeat older than this: the bot is stuck or gone


def path_for(db_path: Path, shard_ids: tuple[int, ...] | list[int] | None = None) -> Path:
    """The heartbeat file of the bot process answering from the store at ``db_path``: one
    per process, so processes running other shards beside one store each have their own."""
    if shard_ids:
        return db_path.with_name(f"heartbeat-shards-{'-'.join(map(str, shard_ids))}.json")
    return db_path.with_name("heartbeat.json")


def write(path: Path, *, connected: bool, latency: float, last_event: float | None) -> None:
    """Record now as the bot's latest beat (atomically: a reader never sees half a file)."""
    beat = {
        "time": time.time(),
        "connected": connected,
        "latency_seconds": round(latency, 3) if math.isfinite(latency) else None,
        "last_event": last_event,
        "pid": os.getpid(),
    }
    write_text_atomically(path, json.dumps(beat))


@dataclass(frozen=True)
class Health:
    healthy: bool
    reason: str
    beat: dict | None


def check(path: Path, now: float | None = None, stale: float = STALE_SECONDS) -> Health:
    """Whether the bot's last beat says it is connected, and is recent."""
    now = time.time() if now is None else now
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        age = now - float(beat["time"])
    except FileNotFoundError:
        return Health(False, f"no heartbeat at {path}: the bot has not started", None)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return Health(False, f"heartbeat at {path} is unreadable ({exc})", None)
    if age > stale:
        return Health(False, f"last heartbeat {age:.0f} s ago (over {stale:.0f} s)", beat)
    if not beat.get("connected"):
        return Health(False, f"not connected to Discord (heartbeat {age:.0f} s ago)", beat)
    return Health(True, f"connected to Discord (heartbeat {age:.0f} s ago)", beat)

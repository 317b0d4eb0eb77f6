"""Previewed changes waiting for a moderator's Confirm, in memory, by a random token."""

from __future__ import annotations

import secrets
import time
from typing import Any

PENDING_SECONDS = 15 * 60


class Pending:
    """Previewed changes waiting for Confirm, by token (kept in memory for 15 minutes)."""

    def __init__(self) -> None:
        self._items: dict[str, tuple[float, int, str, dict[str, Any]]] = {}

    def put(self, moderator_id: int, action: str, payload: dict[str, Any]) -> str:
        now = time.monotonic()
        self._items = {k: v for k, v in self._items.items() if now - v[0] < PENDING_SECONDS}
        token = secrets.token_hex(8)
        self._items[token] = (now, moderator_id, action, payload)
        return token

    def take(self, token: str, moderator_id: int) -> tuple[str, dict[str, Any]] | None:
        item = self._items.get(token)
        if item is None or time.monotonic() - item[0] >= PENDING_SECONDS or item[1] != moderator_id:
            return None
        del self._items[token]
        return item[2], item[3]

    def drop(self, token: str) -> None:
        self._items.pop(token, None)

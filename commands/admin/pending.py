"""Previewed changes waiting for a moderator's Confirm, in memory, by a random token.

An import's item keeps the uploaded document (``payload["content"]``) so that its preview
can be corrected without uploading it again. Those documents are kept up to a budget; past
it, the oldest are let go first (their previews can still be confirmed, not corrected).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

PENDING_SECONDS = 15 * 60
KEPT_BYTES = 64 * 1024 * 1024  # documents kept for corrections, all pending items together


class Pending:
    """Previewed changes waiting for Confirm, by token (kept in memory for 15 minutes)."""

    def __init__(self) -> None:
        self._items: dict[str, tuple[float, int, str, dict[str, Any]]] = {}

    def put(self, moderator_id: int, action: str, payload: dict[str, Any]) -> str:
        now = time.monotonic()
        self._items = {k: v for k, v in self._items.items() if now - v[0] < PENDING_SECONDS}
        token = secrets.token_hex(8)
        self._items[token] = (now, moderator_id, action, payload)
        self._keep_within(KEPT_BYTES)
        return token

    def peek(self, token: str, moderator_id: int) -> tuple[str, dict[str, Any]] | None:
        """The item (action, payload) left in place: a form opened from a preview may be
        dismissed, and the preview must still work."""
        item = self._items.get(token)
        if item is None or time.monotonic() - item[0] >= PENDING_SECONDS or item[1] != moderator_id:
            return None
        return item[2], item[3]

    def _keep_within(self, budget: int) -> None:
        """Let the oldest kept documents go until those left fit ``budget`` bytes (an
        import's items, its preview and its fix, share one document)."""
        sharing: dict[int, list[dict[str, Any]]] = {}
        for _, _, _, payload in self._items.values():  # oldest first, as they were put
            if payload.get("content") is not None:
                sharing.setdefault(id(payload["content"]), []).append(payload)
        total = sum(len(payloads[0]["content"]) for payloads in sharing.values())
        for payloads in sharing.values():
            if total <= budget:
                return
            total -= len(payloads[0]["content"])
            for payload in payloads:
                payload["content"] = None

    def take(self, token: str, moderator_id: int) -> tuple[str, dict[str, Any]] | None:
        """The item (action, payload), removed: a preview is confirmed once."""
        item = self.peek(token, moderator_id)
        if item is not None:
            del self._items[token]
        return item

    def drop(self, token: str) -> None:
        self._items.pop(token, None)

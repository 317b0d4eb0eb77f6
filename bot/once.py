"""Values built on first need, once, however many threads ask for them at the same time.

``functools.cache`` lets every thread that asks before the first build ends build the value
too: a burst of lookups just after start-up each built the card index and the card lists'
vocabulary, and the work, shared out over the GIL, kept them all waiting past Discord's
3-second deadline. A ``Once`` builds under a lock; the others wait for that one build.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Once(Generic[T]):
    """Call it for the value: built by ``build`` on the first call, kept after."""

    def __init__(self, build: Callable[[], T]):
        self._build = build
        self._lock = threading.Lock()
        self._built = False
        self._value: T | None = None
        self.__doc__ = getattr(build, "__doc__", None)

    @property
    def built(self) -> bool:
        return self._built

    def __call__(self) -> T:
        if not self._built:
            with self._lock:
                if not self._built:  # another thread may have built it while this one waited
                    self._value = self._build()
                    self._built = True
        return self._value  # type: ignore[return-value]


def once(build: Callable[[], T]) -> Once[T]:
    """Decorator form of :class:`Once`, for a function without arguments."""
    return Once(build)

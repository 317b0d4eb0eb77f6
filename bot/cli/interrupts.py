"""Ctrl-C that is never lost.

Python raises a signal's KeyboardInterrupt in whatever Python code runs next, and some of
that code swallows it: a callback SQLite calls (its progress handler), a generator's
clean-up as it is freed ("Exception ignored in: <generator …>"). The command line's handler
records the interrupt as well as raising it, so long work can ask again (:func:`check`) and
the exit status still says the command was interrupted.
"""

from __future__ import annotations

import signal
import threading

_received = False


def install() -> None:
    """Take over Ctrl-C in the main thread, unless it is ignored (a ``nohup`` start) or
    someone else's handler holds it."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_interrupt)


def _on_interrupt(signum, frame) -> None:
    global _received
    _received = True
    raise KeyboardInterrupt


def received() -> bool:
    """Whether a Ctrl-C came, raised or swallowed."""
    return _received


def check() -> None:
    """Raise KeyboardInterrupt again where a Ctrl-C came and was swallowed."""
    if _received:
        raise KeyboardInterrupt

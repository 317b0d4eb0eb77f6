"""A Ctrl-C is never lost: Python raises it in whatever Python code runs next, and some code
swallows it (a generator's clean-up as it is freed, a callback SQLite calls). A fresh-clone
run once saw `rulings eval` exit 0 after its Ctrl-C."""

from __future__ import annotations

import io
import os
import signal
import sys

import pytest

from bot.cli import interrupts
from bot.cli.eval import Progress
from bot.cli.main import EXIT_INTERRUPTED, main


@pytest.fixture()
def handler(monkeypatch):
    """The command line's handler installed as `rulings` installs it, taken off after."""
    monkeypatch.setattr(interrupts, "_received", False)
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupts.install()
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _swallowed_by_a_generators_clean_up(monkeypatch) -> list:
    unraisable: list = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)

    def cleaned_up():
        try:
            yield 1
        finally:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C lands in the clean-up

    generator = cleaned_up()
    next(generator)
    del generator  # freed: Python reports the interrupt as "ignored" and goes on
    return unraisable


def test_a_swallowed_ctrl_c_stops_the_next_progress_tick(handler, monkeypatch):
    unraisable = _swallowed_by_a_generators_clean_up(monkeypatch)
    assert [u.exc_type for u in unraisable] == [KeyboardInterrupt]  # swallowed indeed
    assert interrupts.received()
    with pytest.raises(KeyboardInterrupt):
        Progress(io.StringIO()).tick()


def test_a_command_that_swallowed_a_ctrl_c_exits_interrupted(handler, monkeypatch, capsys, rulings):
    monkeypatch.setenv("RULINGS_DB", str(rulings.store.path))
    assert main(["sources"]) == 0  # the command as it runs
    _swallowed_by_a_generators_clean_up(monkeypatch)
    assert main(["sources"]) == EXIT_INTERRUPTED  # it ran on, but its status says so
    capsys.readouterr()


def test_an_ignored_ctrl_c_stays_ignored(monkeypatch):
    # started with Ctrl-C ignored (nohup, a background job): the handler is not taken over
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        interrupts.install()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)

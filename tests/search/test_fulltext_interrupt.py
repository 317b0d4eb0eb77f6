"""Ctrl-C while SQLite runs a full-text query: Python delivers the signal in the first Python
code to run, the query's progress handler, and sqlite3 swallows whatever the handler raises
(the query just stops). `rulings eval` once finished with exit 0 after a Ctrl-C so."""

from __future__ import annotations

import sqlite3

import pytest

from bot.search.fulltext import fulltext_hits
from bot.store.schema import fill_fulltext


class _SignalInTheHandler:
    """A connection whose progress handler is hit by a signal: the handler raises
    KeyboardInterrupt as Python raises it there, inside SQLite's call."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def set_progress_handler(self, handler, steps: int) -> None:
        def signalled() -> bool:
            raise KeyboardInterrupt

        self.conn.set_progress_handler(signalled if handler else None, 1 if handler else 0)

    def execute(self, sql: str, params=()):
        return self.conn.execute(sql, params)


@pytest.fixture()
def conn():
    conn = sqlite3.connect(":memory:")
    # enough rows for the query to pass SQLite's progress handler (every 1000 steps)
    rows = [
        (f"t-{n}", "1E", f"Dilemma {n}", "A dilemma is met by an Away Team.") for n in range(500)
    ]
    fill_fulltext(conn, rows)
    yield conn
    conn.close()


def test_a_ctrl_c_during_a_full_text_query_is_not_swallowed(conn):
    with pytest.raises(KeyboardInterrupt):
        fulltext_hits(_SignalInTheHandler(conn), ["dilemma"], None, {"t-1": 0})
    conn.execute("SELECT 1").fetchone()  # the handler is taken off again


def test_a_query_over_its_budget_is_stopped_quietly(conn, monkeypatch):
    monkeypatch.setattr("bot.search.fulltext.FULLTEXT_BUDGET", 0)  # spent at once
    assert fulltext_hits(conn, ["dilemma"], None, {"t-1": 0}) == []
    monkeypatch.setattr("bot.search.fulltext.FULLTEXT_BUDGET", 120)
    assert len(fulltext_hits(conn, ["dilemma"], None, {f"t-{n}": n for n in range(500)})) == 20

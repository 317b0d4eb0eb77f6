"""Full-text relevance from the store's SQLite FTS5 table, for an index built without
passages: which topics hold a query's words, best first, in a bounded amount of work.
Everything the user typed is a quoted string, data and never FTS5 syntax."""

from __future__ import annotations

import logging
import sqlite3

log = logging.getLogger(__name__)

FULLTEXT_BUDGET = 120  # thousands of SQLite VM steps per full-text query (about 10 ms)


def fulltext_hits(
    conn: sqlite3.Connection | None,
    words: list[str],
    edition: str | None,
    by_topic: dict[str, int],
    limit: int = 20,
) -> list[tuple[int, float]]:
    """The targets (positions in ``by_topic``) whose text holds the words, each once with
    its bm25 score, best first: all the words if any text holds them, else any."""
    if conn is None or not words:
        return []
    # Every word as a quoted string: user text is data, never FTS5 syntax. All words
    # first (selective and fast), any word only when that finds nothing.
    quoted = [f'"{w}"' for w in words[:12]]
    # A bounded amount of work: SQLite calls the handler every 1000 VM steps and a true
    # return interrupts the query, so one pathological query cannot stall an answer.
    steps = [FULLTEXT_BUDGET]

    def spend() -> bool:
        steps[0] -= 1
        return steps[0] < 0

    conn.set_progress_handler(spend, 1000)
    rows: list = []
    try:
        rows = _fulltext_rows(conn, quoted, edition, limit)
    except sqlite3.OperationalError as exc:  # interrupted, or odd input: never an error
        if "interrupt" in str(exc) and steps[0] >= 0:
            # Stopped, though the budget was not spent: something raised inside the
            # handler, which sqlite3 swallows. Only a signal can (Ctrl-C lands in the first
            # Python code to run, the handler, while SQLite works): it must still stop us.
            raise KeyboardInterrupt from None
        log.debug("full-text query for %r stopped: %s", quoted, exc)
    finally:
        conn.set_progress_handler(None, 0)
    seen: set[str] = set()
    out = []
    for topic, score in rows:
        if topic in by_topic and topic not in seen:
            seen.add(topic)
            out.append((by_topic[topic], score))
    return out


def _fulltext_rows(
    conn: sqlite3.Connection, quoted: list[str], edition: str | None, limit: int
) -> list:
    rows: list = []
    for joiner in (" AND ", " OR "):
        expression = joiner.join(quoted)
        sql = "SELECT topic, bm25(fulltext, 0.0, 0.0, 4.0, 1.0) AS score FROM fulltext WHERE fulltext MATCH ?"
        params: list = [expression]
        if edition:
            sql += " AND edition = ?"
            params.append(edition)
        sql += " ORDER BY score LIMIT ?"
        params.append(limit)
        rows = conn.execute(sql, params).fetchall()
        if rows or len(quoted) == 1:
            break
    return rows

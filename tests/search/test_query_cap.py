"""Issue 36, finding 7: the work one query costs is bounded.

A 25,000-word query took 107 s in the CLI. The library reads a query up to the one cap
Discord's commands are declared with (``bot.validate.MAX_QUERY_CHARS``), and the CLI
refuses a longer one with a line that says so.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.validate import MAX_QUERY_CHARS, query_text

DATA = Path(__file__).resolve().parents[2] / "rulings_data"


@pytest.fixture(scope="module")
def long_query(rulings) -> str:
    """25,000 words: card names, one after another (each run of them is a name to look up)."""
    titles = [target.title for target in rulings._answers.cards.card_index().targets]
    rng = random.Random(36)
    words: list[str] = []
    while len(words) < 25_000:
        words += rng.choice(titles).split()
    return " ".join(words)


def test_the_library_reads_a_query_up_to_the_cap_only(rulings, long_query):
    head = query_text(long_query)
    assert len(head) == MAX_QUERY_CHARS and long_query.startswith(head)
    # The answer to the whole query is the answer to its first MAX_QUERY_CHARS characters:
    # nothing past the cap is read, so nothing past it costs.
    assert rulings.show(long_query) == rulings.show(head)
    assert rulings.search(long_query) == rulings.search(head)
    assert rulings.card(long_query) == rulings.card(head)


def test_the_cli_refuses_a_query_past_the_cap(long_query, store_copy, capsys):
    for command in ("show", "search", "card"):
        with pytest.raises(SystemExit) as exited:
            main(["--data", str(DATA), "--db", str(store_copy), command, long_query])
        err = capsys.readouterr().err
        assert exited.value.code == 2
        assert f"a query may be {MAX_QUERY_CHARS} at most" in err
    at_cap = long_query[:MAX_QUERY_CHARS]
    assert main(["--data", str(DATA), "--db", str(store_copy), "search", at_cap]) in (0, 1)


def test_discord_commands_declare_the_same_cap():
    import inspect

    from commands import lookup

    source = inspect.getsource(lookup)
    assert "Range[str, 1, MAX_QUERY_CHARS]" in source and "Range[str, 1, 300]" not in source

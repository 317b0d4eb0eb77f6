"""Load benchmark: the real bot process under a burst of simultaneous lookups.

    python -m tests.bench_load [--users 200] [--rounds 1] [--cold] [--json]

Starts the project's fake Discord on loopback, launches the real bot (``rulings bot``'s code,
``tests.fakediscord.launch_bot``) in its own process against it, then sends ``--users``
simultaneous ``/ruling`` interactions, each from a different user, and measures each one's
first response (the interaction callback Discord must receive within 3 seconds); with
``--cold`` the burst is the bot's first traffic, as after a restart. It also
measures the in-process ``show`` over the bundled data. It is a benchmark, not a test: it
prints figures and never runs in the test suite; it touches nothing but loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from bot.answers.service import Rulings
from tests.fakediscord import payloads
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rulings_data"
TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfakeX.abcdefghijklmnopqrstuvwxyz0123"
DEADLINE = 3.0


def _queries() -> list[str]:
    """What people ask: the labelled search table's queries (titles, typos, questions)."""
    cases = yaml.safe_load((ROOT / "tests" / "search" / "cases.yaml").read_text())["cases"]
    return [str(c["query"]) for c in cases]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def _burst(fake: FakeDiscord, queries: list[str], users: int, start_id: int) -> list[float]:
    async def one(number: int) -> float:
        user = payloads.user(start_id + number, f"player{number}")
        payload = payloads.slash_command(
            "ruling", {"query": queries[number % len(queries)]}, guild_id=payloads.GUILD_ID,
            user=user,
        )  # fmt: skip
        began = time.perf_counter()
        await fake.interact(payload, timeout=60)
        return time.perf_counter() - began

    return list(await asyncio.gather(*(one(n) for n in range(users))))


def _show_timings(db: Path, queries: list[str]) -> list[float]:
    service = Rulings.open(db, DATA)
    try:
        for query in queries[:20]:  # warm up
            service.show(query)
        times = []
        for _ in range(3):
            for query in queries:
                began = time.perf_counter()
                service.show(query)
                times.append(time.perf_counter() - began)
        return times
    finally:
        service.close()


async def run(users: int, rounds: int, cold: bool = False) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="rulings-load-"))
    db = folder / "rulings.sqlite3"
    Rulings.open(db, DATA).close()  # built before the bot starts, as a deployment does
    queries = _queries()
    env = {
        **os.environ, "DISCORD_TOKEN": TOKEN, "RULINGS_DB": str(db), "RULINGS_DATA": str(DATA),
        "RULINGS_HOME_GUILD_ID": payloads.GUILD_ID, "RULINGS_MODERATOR_ROLE_ID": payloads.MOD_ROLE_ID,
        "RULINGS_LOG_LEVEL": "WARNING",
    }  # fmt: skip
    fake = FakeDiscord(callback_deadline=None)  # measure late answers instead of refusing them
    await fake.start()
    log = (folder / "bot.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fakediscord.launch_bot", fake.api_base, fake.gateway_url],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (fake.ready.is_set() and fake.connected and fake.identify):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the bot did not connect; see {folder / 'bot.log'}")
            await asyncio.sleep(0.05)
        if not cold:
            await _burst(fake, queries, 5, 10**17)  # warm-up: first-use costs are not the load
        times: list[float] = []
        began = time.perf_counter()
        for number in range(rounds):
            times += await _burst(fake, queries, users, 2 * 10**17 + number * users)
        elapsed = time.perf_counter() - began
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        await fake.stop()
        log.close()
    show = _show_timings(db, queries)
    shutil.rmtree(folder, ignore_errors=True)
    return {
        "users": users,
        "rounds": rounds,
        "cold": cold,
        "first_response_ms": {
            "p50": round(statistics.median(times) * 1000, 1),
            "p99": round(_percentile(times, 0.99) * 1000, 1),
            "max": round(max(times) * 1000, 1),
        },
        "answers_per_second": round(len(times) / elapsed, 1),
        "past_deadline": sum(t > DEADLINE for t in times),
        "show_in_process_ms": {
            "p50": round(statistics.median(show) * 1000, 2),
            "p99": round(_percentile(show, 0.99) * 1000, 2),
            "queries": len(show),
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench_load", description=__doc__)
    parser.add_argument("--users", type=int, default=200, help="simultaneous lookups (200)")
    parser.add_argument("--rounds", type=int, default=1, help="bursts, one after another (1)")
    parser.add_argument(
        "--cold", action="store_true", help="no warm-up: the burst is the bot's first traffic"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args.users, args.rounds, args.cold))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        fr, show = report["first_response_ms"], report["show_in_process_ms"]
        print(
            f"{report['users']} simultaneous /ruling x {report['rounds']}"
            f"{' (cold)' if report['cold'] else ''}: first response "
            f"p50 {fr['p50']} ms, p99 {fr['p99']} ms, max {fr['max']} ms; "
            f"{report['answers_per_second']} answers/s; {report['past_deadline']} past 3 s\n"
            f"in-process show over {show['queries']} lookups: p50 {show['p50']} ms, "
            f"p99 {show['p99']} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``rulings bench --visibility``: how soon a moderator change is answered by every process.

A store of N entries (the bundled data plus generated entries, written straight into a copy
of the store) is opened by this process, the writer, and by a second process, the follower,
which does what a bot shard does: every ``WATCH_SECONDS`` it asks the service whether another
process committed (``refresh_if_changed``), and between those it answers. The writer then
makes K changes (a new ruling under a new title, then an edit of its text), each time telling
the follower the moment the change was asked for; the follower reports when it first answered with the
change. The baseline, in the same run, is what every change cost before: building the whole
index again (``Answers`` from scratch) at the same size.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bot.answers.lookups import Answers
from bot.answers.moderation import Moderator
from bot.answers.service import Rulings
from bot.cli.bench import add_generated_entries
from bot.ingest.dataset import default_data_dir
from bot.store.build import open_store

# The bot's watcher period (commands/app.py WATCH_SECONDS), repeated so that the core does
# not import the Discord adapter; the follower below polls exactly like it.
WATCH_SECONDS = 0.25
BENCH_DOCUMENT = "bench-generated"
BENCHER = Moderator("0", "bench")


def fill_store(path: Path, entries: int, seed: int) -> int:
    """Add generated entries to a built store until it holds ``entries``; returns the count."""
    rng = random.Random(seed)
    store = open_store(path, default_data_dir())
    conn = store.db.conn
    have = conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    words = sorted(
        {w.lower() for (text,) in conn.execute("SELECT text FROM entries") for w in text.split()}
        - {""}
    )
    words = [w for w in words if w.isalpha() and len(w) > 3] or ["ruling"]
    cards = [row[0] for row in conn.execute("SELECT name FROM cards")]
    rows = []
    for number in range(max(0, entries - have)):
        title = f"{rng.choice(cards)} {rng.choice(words)} {number}"
        topic = f"bench-{number}"
        text = " ".join(rng.choice(words) for _ in range(rng.randint(20, 60)))
        rows.append((f"{BENCH_DOCUMENT}:{topic}", topic, title, "2E", text))
    with conn:
        add_generated_entries(conn, BENCH_DOCUMENT, rows)
    total = conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    store.close()
    return total


def follow(path: Path) -> int:
    """The follower: answer what the writer announces on stdin, as soon as it is visible.

    Each stdin line is ``[wall-clock time the change was asked for, title, expected text]``
    (JSON); each stdout line is the seconds from then to the first answer showing it.
    """
    rulings = Rulings.open(path, default_data_dir())
    stop = threading.Event()

    def watch() -> None:  # the bot's store watcher, on its own thread
        while not stop.is_set():
            rulings.refresh_if_changed()
            stop.wait(WATCH_SECONDS)

    # A running shard has answered before: what answers build on first use (the card
    # lookups, the passages' vocabulary) is built now, not charged to the first change.
    rulings.show("how many copies of a card may my deck hold")
    rulings.show("Klingon Tea Ceremony")
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    print("ready", flush=True)
    for line in sys.stdin:
        asked, title, text = json.loads(line)
        while True:
            answer, _ = rulings.show(title)
            if answer is not None and answer["text"] == text:
                break
            time.sleep(0.005)
        print(f"{time.time() - asked:.4f}", flush=True)
    stop.set()
    watcher.join()
    rulings.close()
    return 0


def run(entries: int, changes: int, seed: int, progress) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="rulings-visibility-") as folder:
        path = Path(folder) / "rulings.sqlite3"
        progress(f"building a store of {entries} entries")
        total = fill_store(path, entries, seed)
        progress("measuring a whole rebuild of the answers (the baseline)")
        store = open_store(path, default_data_dir())
        began = time.perf_counter()
        whole = Answers(store)
        rebuild = time.perf_counter() - began
        whole.readers.close()
        store.close()
        progress("starting the follower process")
        follower = subprocess.Popen(
            [sys.executable, "-m", "bot.cli.visibility", str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert follower.stdin and follower.stdout
        if follower.stdout.readline().strip() != "ready":
            raise RuntimeError("the follower process did not start")
        writer = Rulings.open(path, default_data_dir())
        here, there = [], []
        try:
            for number in range(changes):
                title = f"Visibility Check {number}"
                text = f"Added by the benchmark, change {number}."
                if number % 2 == 1:
                    title = f"Visibility Check {number - 1}"
                    entry = writer.show(title)[0]["id"]
                    version = writer.editable_entry(entry)["version"]
                # Timed from the moment the change is asked for: its write, then the update.
                asked = time.time()
                began = time.perf_counter()
                if number % 2 == 0:
                    writer.add_ruling(
                        BENCHER, title=title, edition="2E", kind="rule", text=text,
                        document="Moderator Clarifications", date="2026-11-01", aliases=[], new_document=True,
                    )  # fmt: skip
                else:
                    writer.edit_ruling(BENCHER, entry, version, text=text)
                here.append(time.perf_counter() - began)
                progress(f"change {number + 1}/{changes}")
                follower.stdin.write(json.dumps([asked, title, text]) + "\n")
                follower.stdin.flush()
                there.append(float(follower.stdout.readline()))
        finally:
            writer.close()
            follower.stdin.close()
            follower.wait(timeout=60)
    return {
        "entries": total,
        "changes": changes,
        "watch_seconds": WATCH_SECONDS,
        "writer_change_and_update_seconds": _summary(here),
        "other_process_visible_after_seconds": _summary(there),
        "baseline_whole_rebuild_seconds": round(rebuild, 3),
    }


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50": round(ordered[len(ordered) // 2], 3),
        "max": round(ordered[-1], 3),
    }


def main(args) -> int:
    if args.entries < 1 or args.changes < 1:
        raise ValueError("--entries and --changes must be positive")
    report = run(
        args.entries,
        args.changes,
        args.seed,
        progress=lambda step: print(f"bench: {step} ...", file=sys.stderr, flush=True),
    )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    here, there = (
        report["writer_change_and_update_seconds"],
        report["other_process_visible_after_seconds"],
    )
    print(
        f"entries {report['entries']}  changes {report['changes']}  watcher period {WATCH_SECONDS} s"
    )
    print(f"writing process: change + update   p50 {here['p50']} s  max {here['max']} s")
    print(f"other process: visible after       p50 {there['p50']} s  max {there['max']} s")
    print(f"baseline: whole rebuild per change {report['baseline_whole_rebuild_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(follow(Path(sys.argv[1])))

"""``rulings bench --start``: how soon a new process answers, and how much memory it holds,
with and without the answers' snapshot (see :mod:`bot.answers.snapshot`); and a cold
``rulings show`` timed beside ``rulings --version``, in the same run.

For each size, a store of that many entries (the bundled data plus the generated entries of
``rulings bench``'s corpus, written straight into a copy of the store) is opened by a new
process, as a bot or a CLI call starts: first with no snapshot (it builds the answers from the
store, answers, then writes the snapshot), then from the snapshot, ``--rounds`` times. Each
process reports when it had opened the store and when it had answered its first lookup,
measured from its launch, and its peak memory (RSS) at that moment.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SIZES = (1_000, 10_000, 100_000)
QUERY, EDITION = "matching commander", "1E"
BENCH_DOCUMENT = "bench-corpus"


def fill_store(path: Path, entries: int, seed: int) -> int:
    """A store at ``path`` of the bundled data plus generated entries (the corpus of
    ``rulings bench``: several paragraphs each, naming cards) until it holds ``entries``
    live topics; returns how many it holds."""
    from bot.cli.bench import Corpus, add_generated_entries
    from bot.ingest.dataset import default_data_dir
    from bot.store.build import open_store

    store = open_store(path, default_data_dir())
    conn = store.db.conn
    have = conn.execute("SELECT count(*) FROM topics").fetchone()[0]
    wanted = max(entries - have, 0)
    corpus = Corpus(entries + have, seed)  # the bundled entries first, then generated ones
    generated = [(i, e) for i, e in enumerate(corpus.entries) if e.text is None][:wanted]
    rows = [
        (f"{BENCH_DOCUMENT}:g{i}", f"bench-g{i}", e.title, e.edition, corpus.text(i))
        for i, e in generated
    ]
    with conn:
        add_generated_entries(conn, BENCH_DOCUMENT, rows)
    total = conn.execute("SELECT count(*) FROM topics").fetchone()[0]
    store.close()
    return total


def started(path: Path) -> int:
    """The measured process: open the store, answer one lookup, report; then keep the
    snapshot (when it had to build) and report how long that took."""
    from bot.answers.service import Rulings
    from bot.ingest.dataset import default_data_dir

    rulings = Rulings.open(path, default_data_dir())
    print(json.dumps({"opened": True}), flush=True)
    answer, _ = rulings.show(QUERY, edition=EDITION)
    print(
        json.dumps(
            {
                "answered": answer is not None,
                "from_snapshot": rulings._answers.from_snapshot,
                "rss_mb": round(_peak_rss_mb(), 1),
                "rss_now_mb": round(_rss_now_mb(), 1),
            }
        ),
        flush=True,
    )
    began = time.perf_counter()
    wrote = rulings.keep_snapshot()
    print(json.dumps({"wrote": wrote, "write_s": round(time.perf_counter() - began, 2)}))
    rulings.close()
    return 0


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_now_mb() -> float:
    """The memory held now (the peak includes what reading the store or snapshot let go)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _start_once(path: Path) -> dict[str, Any]:
    """One process started on ``path``: seconds from launch to the store opened and to the
    first answer, its peak RSS then, and whether it read a snapshot (or wrote one)."""
    launched = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli.bench_start", str(path)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    lines = []
    times = []
    for line in child.stdout:
        times.append(time.perf_counter() - launched)
        lines.append(json.loads(line))
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0 or len(lines) != 3 or not lines[1]["answered"]:
        raise RuntimeError(f"the started process failed: {lines}")
    return {
        "start_s": round(times[0], 3),
        "first_answer_s": round(times[1], 3),
        "rss_mb": lines[1]["rss_mb"],
        "rss_now_mb": lines[1]["rss_now_mb"],
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),  # writing the snapshot included
        "from_snapshot": lines[1]["from_snapshot"],
        "wrote_snapshot": lines[2]["wrote"],
        "write_s": lines[2]["write_s"],
    }


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return round(statistics.median(r[key] for r in runs), 3)


def measure_size(entries: int, rounds: int, seed: int, progress) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="rulings-start-") as folder:
        path = Path(folder) / "rulings.sqlite3"
        progress(f"a store of {entries:,} entries")
        total = fill_store(path, entries, seed)
        progress(f"{entries:,}: a start with no snapshot (builds, answers, writes it)")
        built = _start_once(path)
        if not built["wrote_snapshot"] or built["from_snapshot"]:
            raise RuntimeError("the first start did not build and write the snapshot")
        size = (path.with_name(path.name + ".snapshot")).stat().st_size
        progress(f"{entries:,}: {rounds} starts from the snapshot")
        kept = [_start_once(path) for _ in range(rounds)]
        if not all(r["from_snapshot"] for r in kept):
            raise RuntimeError("a start did not read the snapshot")
    return {
        "entries": total,
        "without_snapshot": built,
        "with_snapshot": {
            key: _median(kept, key) for key in ("start_s", "first_answer_s", "rss_mb", "rss_now_mb")
        }
        | {"runs": kept, "snapshot_mb": round(size / 1e6, 1)},
    }


def _rulings_command() -> list[str]:
    """How a user runs ``rulings`` here: the installed script beside this interpreter."""
    script = Path(sys.executable).with_name("rulings")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def cli_beside_version(rounds: int, progress) -> dict[str, Any]:
    """A cold ``rulings show`` and ``rulings --version``, alternated, ``rounds`` times each
    (after one of each unmeasured): medians and their ratio, measured side by side."""
    command = _rulings_command()
    with tempfile.TemporaryDirectory(prefix="rulings-cli-") as folder:
        env = {**os.environ, "RULINGS_DB": str(Path(folder) / "rulings.sqlite3")}
        show = [*command, "show", QUERY, "--edition", EDITION]
        version = [*command, "--version"]

        def timed(argv: list[str]) -> float:
            began = time.perf_counter()
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
            return time.perf_counter() - began

        progress("the bundled store and its snapshot, built by a first lookup")
        timed(show)
        timed(version)
        progress(f"{rounds} cold `rulings show` beside {rounds} `rulings --version`")
        shows, versions = [], []
        for _ in range(rounds):
            versions.append(timed(version))
            shows.append(timed(show))
    show_s, version_s = statistics.median(shows), statistics.median(versions)
    return {
        "command": shlex.join(show[len(command) :]),
        "rounds": rounds,
        "show_s": round(show_s, 3),
        "version_s": round(version_s, 3),
        "ratio": round(show_s / version_s, 2),
        "show_runs": [round(t, 3) for t in shows],
        "version_runs": [round(t, 3) for t in versions],
    }


def run(sizes: list[int], rounds: int, seed: int, progress) -> dict[str, Any]:
    report: dict[str, Any] = {"cli": cli_beside_version(rounds, progress)}
    report["sizes"] = [measure_size(n, rounds, seed, progress) for n in sizes]
    return report


def main(args) -> int:
    sizes = [args.entries] if args.entries_given else list(SIZES)
    if any(n < 1 for n in sizes) or args.rounds < 1:
        raise ValueError("--entries and --rounds must be positive")
    report = run(
        sizes,
        args.rounds,
        args.seed,
        progress=lambda step: print(f"bench: {step} ...", file=sys.stderr, flush=True),
    )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    cli = report["cli"]
    print(
        f"cold `rulings {cli['command']}` {cli['show_s']} s, `rulings --version` "
        f"{cli['version_s']} s: {cli['ratio']}x (medians of {cli['rounds']}, side by side)"
    )
    for size in report["sizes"]:
        built, kept = size["without_snapshot"], size["with_snapshot"]
        print(
            f"{size['entries']:>7,} entries  no snapshot: start {built['start_s']} s, first "
            f"answer {built['first_answer_s']} s, RSS {built['rss_mb']} MB (snapshot written "
            f"in {built['write_s']} s)   snapshot ({kept['snapshot_mb']} MB): start "
            f"{kept['start_s']} s, first answer {kept['first_answer_s']} s, RSS {kept['rss_mb']} MB "
            f"(peak; {kept['rss_now_mb']} MB held after the answer)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(started(Path(sys.argv[1])))

"""Issue 36, finding 6: ``rulings import`` replaces its entries files all together.

Killed part-way, an import used to leave 1-4 of the 5 entries files rewritten, and the store
was built from the mixture. The files are written into a copy of the folder and swapped in by
two renames now. A child process is killed (SIGKILL) at every step of the swap in turn; the
folder must then hold exactly the old set or exactly the new one.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from bot.ingest.dataset import ENTRIES_DIR, content_hash, recover_folder

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f"doc-{n}.yaml" for n in range(5)]
OLD = {name: f"document: {name}\nentries: [old]\n" for name in NAMES}
NEW = {name: f"document: {name}\nentries: [new, {'x' * 5_000}]\n" for name in NAMES}

KILLER = textwrap.dedent(
    """
    import json, os, shutil, signal, sys
    from pathlib import Path
    import bot.ingest.dataset as dataset

    folder, stop_at, new = Path(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
    steps = 0

    def step(real):
        def wrapped(*args, **kwargs):
            global steps
            steps += 1
            if steps == stop_at:
                os.kill(os.getpid(), signal.SIGKILL)  # no cleanup, as a power cut
            return real(*args, **kwargs)
        return wrapped

    dataset.os.replace = step(os.replace)
    dataset._fsync = step(dataset._fsync)
    dataset.shutil.copytree = step(shutil.copytree)
    dataset.shutil.rmtree = step(shutil.rmtree)
    Path.write_text = step(Path.write_text)
    dataset.replace_files_together(folder, new)
    print(steps)
    """
)


def _run(folder: Path, stop_at: int) -> subprocess.CompletedProcess:
    import json

    return subprocess.run(
        [sys.executable, "-c", KILLER, str(folder), str(stop_at), json.dumps(NEW)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "rulings_data" / ENTRIES_DIR
    folder.mkdir(parents=True)
    for name, text in OLD.items():
        (folder / name).write_text(text)
    return folder


def _contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def test_a_kill_at_any_step_leaves_the_old_set_or_the_new_one(tmp_path):
    whole = _run(_folder(tmp_path / "whole"), 0)  # never killed: count the steps
    assert whole.returncode == 0, whole.stderr
    steps = int(whole.stdout)
    assert steps >= len(NAMES) * 2 + 2  # the writes, their syncs, the two renames
    outcomes = {"old": 0, "new": 0}
    for stop_at in range(1, steps + 1):
        folder = _folder(tmp_path / f"kill-{stop_at}")
        killed = _run(folder, stop_at)
        assert killed.returncode == -9, (stop_at, killed.stderr)
        data = folder.parent
        content_hash(data)  # a reader (the bot starting) finishes or undoes the swap
        recover_folder(folder)
        found = _contents(folder)
        assert found in (OLD, NEW), f"killed at step {stop_at}: a mixture of old and new"
        outcomes["old" if found == OLD else "new"] += 1
        assert sorted(p.name for p in data.iterdir() if p.name != ".entries.lock") == [
            ENTRIES_DIR
        ]  # nothing left beside it
    assert outcomes["old"] >= 1 and outcomes["new"] >= 1  # kills landed on both sides


def test_rulings_import_rewrites_every_changed_file_through_the_swap(tmp_path, data_dir):
    import shutil

    from bot.ingest.importer import run_import

    data = tmp_path / "rulings_data"
    shutil.copytree(data_dir, data)
    folder = data / ENTRIES_DIR
    bundled = _contents(folder)
    for path in folder.iterdir():
        path.write_text(path.read_text().replace("entries:", "entries:\n# stale", 1))
    reports = run_import(data)
    assert all(report.changed for report in reports)
    assert _contents(folder) == bundled
    assert not (data / f"{ENTRIES_DIR}.incoming").exists()
    assert not (data / f"{ENTRIES_DIR}.previous").exists()

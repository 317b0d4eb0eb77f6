"""The package as an operator installs it answers exactly as the checkout does.

The wheel is built from the shipped folders, installed (not editable) into a fresh virtual
environment and run from a folder outside the checkout, with no ``RULINGS_DATA``: it must
find its data and fitted parameters inside itself, answer the labelled table and a few
questions exactly as the checkout's editable install, and warn of nothing. Offline: the
dependencies come from this test run's own environment, not from an index."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "search" / "eval_cases.yaml"
# What the wheel is built from: the project file and the three shipped folders.
SHIPPED = ("pyproject.toml", "README.md", "bot", "commands", "rulings_data")
QUESTIONS = [
    ("matching commander", "1E"),
    ("Can I reattempt a mission on the same turn?", None),
    ("what time is it", None),  # no document answers it: never confident
]

pytestmark = pytest.mark.slow


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode in (0, 1), f"{cmd}: exit {done.returncode}\n{done.stderr}"
    assert "WARNING" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment holding the wheel; its ``bin/`` folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
        + ["--no-index", "-w", str(work / "dist"), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = (work / "dist").glob("stccg_rulings-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The dependencies (and pip) from this run's environment, as a plain path: its .pth
    # files, among them the checkout's editable install, are not read from there.
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return venv / "bin"


def _env(store: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RULINGS_", "PYTHON", "COV"))}
    return env | {"RULINGS_DB": str(store), "NO_COLOR": "1", "COLUMNS": "200"}


def test_the_installed_package_is_the_wheel_not_the_checkout(installed, tmp_path):
    where = _run(
        [
            str(installed / "python"),
            "-c",
            "import bot, rulings_data, bot.paths as p; print(bot.__file__); "
            "print(p.bundled_data_dir())",
        ],
        tmp_path,
        _env(tmp_path / "s.sqlite3"),
    ).split()
    assert all(str(ROOT) not in path and "site-packages" in path for path in where), where
    assert Path(where[1], "documents.yaml").is_file()
    assert Path(where[0]).with_name("search").joinpath("confidence.json").is_file()


def test_the_installed_package_answers_as_the_checkout(installed, tmp_path, store_copy, rulings):
    from bot.cli.eval import evaluate

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    # The installed package builds its own store from its own data, and reports through its
    # own command line; the checkout's figures come from this process (the same code path
    # as `rulings eval --no-fit`, without paying for a second process to rank every case).
    installed_env = _env(tmp_path / "installed.sqlite3")
    report = json.loads(
        _run(
            [str(installed / "rulings"), "eval", "--no-fit", "--json", "--table", str(TABLE)],
            outside,
            installed_env,
        )
    )
    checkout = json.loads(json.dumps(evaluate(rulings, TABLE, 5, refit=False), ensure_ascii=False))
    assert report == checkout
    # The fitted parameters were read: the fixed rule answers far fewer confidently right.
    assert report["overall"]["cases"] > 500
    assert report["overall"]["confident_precision"] >= 0.98
    # A few answers as a user sees them, from both command lines (the checkout's on a copy
    # of the session's store with its answers' snapshot: that command line's first start
    # would otherwise build the answers again, and write the snapshot, for nothing tested).
    checkout_env = _env(store_copy)
    for question, edition in QUESTIONS:
        cmd = ["show", question, "--json"] + (["--edition", edition] if edition else [])
        theirs = _run([str(installed / "rulings"), *cmd], outside, installed_env)
        ours = _run([str(Path(sys.executable).with_name("rulings")), *cmd], outside, checkout_env)
        assert json.loads(theirs) == json.loads(ours), question


def test_a_missing_parameter_file_stops_the_start(installed, tmp_path):
    copy = tmp_path / "venv"
    shutil.copytree(installed.parent, copy, symlinks=True)
    lib = next(copy.glob("lib/python3*/site-packages"))
    (lib / "bot" / "search" / "confidence.json").unlink()
    done = subprocess.run(
        [str(copy / "bin" / "python"), "-m", "bot.cli", "show", "matching commander"],
        cwd=tmp_path,
        env=_env(tmp_path / "s.sqlite3"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "confidence.json" in done.stderr and "reinstall" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout

"""Two bot processes on one store: a change made through one is answered by the other.

Each process is the real bot (``python -m tests.fakediscord.launch_bot``) connected to its own
fake Discord on loopback; they share only the SQLite store, as shards on one machine do.
The measured delay is printed (run with -s) and documented in deploy/SCALING.md.
"""

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.commands.helpers import reply_data
from tests.fakediscord import payloads
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfakeX.abcdefghijklmnopqrstuvwxyz0123"


def _launch(fake: FakeDiscord, env: dict[str, str], log: Path) -> subprocess.Popen:
    handle = log.open("w")
    return subprocess.Popen(
        [sys.executable, "-m", "tests.fakediscord.launch_bot", fake.api_base, fake.gateway_url],
        cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
    )  # fmt: skip


def _logs(tmp_path: Path, processes: list[subprocess.Popen]) -> str:
    """What each bot process said, for a failure message."""
    parts = []
    for number, process in enumerate(processes):
        text = (tmp_path / f"bot{number}.log").read_text(errors="replace")
        parts.append(f"--- bot{number} (exit code {process.poll()}) ---\n{text[-4000:]}")
    return "\n".join(parts)


async def _until(predicate, timeout: float, what: str, processes, tmp_path: Path):
    """Wait for ``predicate``; fail early, with the bots' logs, if a bot process died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if any(process.poll() is not None for process in processes):
            raise AssertionError(
                f"a bot process exited before {what}\n{_logs(tmp_path, processes)}"
            )
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}\n{_logs(tmp_path, processes)}")


async def test_a_change_through_one_process_is_answered_by_the_other(
    tmp_path, store_copy, data_copy
):
    # Built once, before both processes start, with its answers' snapshot, as a deployed
    # store has one after its first start: neither process builds the answers again.
    db = store_copy
    env = {
        **os.environ, "DISCORD_TOKEN": TOKEN, "RULINGS_DB": str(db), "RULINGS_DATA": str(data_copy),
        "RULINGS_HOME_GUILD_ID": payloads.GUILD_ID, "RULINGS_MODERATOR_ROLE_ID": payloads.MOD_ROLE_ID,
    }  # fmt: skip
    fakes = [FakeDiscord(), FakeDiscord()]
    processes = []
    try:
        for number, fake in enumerate(fakes):
            await fake.start()
            processes.append(_launch(fake, env, tmp_path / f"bot{number}.log"))
        for number, fake in enumerate(fakes):
            await _until(
                lambda f=fake: f.ready.is_set() and f.connected and f.identify,
                60,
                f"bot process {number} to connect",
                processes,
                tmp_path,
            )
        first, second = fakes
        # Before: the other process does not know the nickname.
        # A reply is the response or, for a slow lookup (the first one), the follow-up of
        # its deferral.
        before = await reply_data(
            second,
            payloads.slash_command(
                "ruling", {"query": "the big chair"}, guild_id=payloads.GUILD_ID
            ),
            timeout=10,
        )
        assert "No confident match" in (before.get("content") or "")
        # How soon is measured by `rulings bench` (the visibility bench), against a baseline
        # in the same run; here only that it arrives, however loaded the machine.
        nickname = "the big chair again"
        change = payloads.slash_command(
            "ruling-admin alias add", {"query": "matching commander", "alias": nickname},
            guild_id=payloads.GUILD_ID, user=payloads.MOD_USER, member_roles=[payloads.MOD_ROLE_ID],
            command_guild_id=payloads.GUILD_ID,
        )  # fmt: skip
        done = await first.interact(change, timeout=30)
        assert done.body["data"]["content"].startswith("Done:")
        changed_at = time.monotonic()
        for _ in range(600):  # bounded: the watcher polls four times a second
            ask = payloads.slash_command("ruling", {"query": nickname}, guild_id=payloads.GUILD_ID)
            reply = await reply_data(second, ask, timeout=30)
            embeds = reply.get("embeds") or []
            if embeds and embeds[0]["title"] == "matching commander [1E]":
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the second process never saw the change")
        print(
            f"\nchange made through process 1 answered by process 2 after "
            f"{round((time.monotonic() - changed_at) * 1000)} ms"
        )
    except Exception as error:
        if processes and not isinstance(error, AssertionError):
            raise AssertionError(f"{error!r}\n{_logs(tmp_path, processes)}") from error
        raise
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        for fake in fakes:
            await fake.stop()
    for number, process in enumerate(processes):
        log = (tmp_path / f"bot{number}.log").read_text()
        assert process.returncode == 0, log  # SIGTERM: a graceful shutdown
        assert "Traceback" not in log, log

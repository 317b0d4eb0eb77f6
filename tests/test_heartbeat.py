"""The bot's heartbeat and `rulings health`: healthy only while connected and recent."""

import json

from bot import heartbeat
from bot.cli.main import main


def test_a_recent_connected_beat_is_healthy_and_anything_else_is_not(tmp_path):
    path = heartbeat.path_for(tmp_path / "rulings.sqlite3")
    assert not heartbeat.check(path).healthy  # the bot never started
    heartbeat.write(path, connected=True, latency=0.04, last_event=None)
    now = json.loads(path.read_text())["time"]
    assert heartbeat.check(path, now=now + 1).healthy
    assert not heartbeat.check(path, now=now + heartbeat.STALE_SECONDS + 1).healthy
    heartbeat.write(path, connected=False, latency=float("inf"), last_event=None)
    found = heartbeat.check(path)
    assert not found.healthy and "not connected" in found.reason
    path.write_text("{half a")
    assert not heartbeat.check(path).healthy


def test_rulings_health_exits_by_the_heartbeat(tmp_path, capsys):
    db = tmp_path / "rulings.sqlite3"
    assert main(["--db", str(db), "health"]) == 1
    assert capsys.readouterr().out.startswith("unhealthy: no heartbeat")
    heartbeat.write(heartbeat.path_for(db), connected=True, latency=0.1, last_event=None)
    assert main(["--db", str(db), "health", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["healthy"] is True

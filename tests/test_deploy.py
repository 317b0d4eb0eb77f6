"""deploy/: the Dockerfile, compose file, systemd unit, env example and the build steps."""

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"


def test_dockerfile_is_multi_stage_non_root_with_volume_health_and_command():
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert len(re.findall(r"^FROM python:3\.11-slim", text, re.M)) == 2
    assert re.search(r"^COPY --from=build ", text, re.M)
    users = re.findall(r"^USER (\S+)", text, re.M)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r"^VOLUME \[\"/data\"\]", text, re.M)
    assert re.search(r"^HEALTHCHECK .*rulings.*doctor", text, re.M)
    assert re.search(r'^CMD \["rulings", "bot"\]', text, re.M)
    assert "RULINGS_DB=/data/rulings.sqlite3" in text and "RULINGS_DATA=/app/rulings_data" in text


def test_compose_file_uses_the_env_file_and_a_volume():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["rulings"]
    assert service["env_file"] == "../.env"
    assert "rulings-data:/data" in service["volumes"] and "rulings-data" in compose["volumes"]
    assert service["restart"] == "unless-stopped"


def test_systemd_unit_has_what_the_deployment_needs():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(DEPLOY / "rulings.service")
    service = unit["Service"]
    assert service["EnvironmentFile"] == "/etc/rulings/env"
    assert service["StateDirectory"] == "rulings"
    assert service["Restart"] == "on-failure"
    assert service["User"] == "rulings"
    assert service["ExecStart"].endswith("rulings bot")
    assert unit["Install"]["WantedBy"] == "multi-user.target"


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here"
)
def test_systemd_analyze_verify(tmp_path):
    # The unit names /opt/rulings; point ExecStart at this checkout's script to verify the rest.
    unit = (DEPLOY / "rulings.service").read_text(encoding="utf-8")
    script = Path(sys.executable).with_name("rulings")
    (tmp_path / "rulings.service").write_text(
        unit.replace("/opt/rulings/.venv/bin/rulings", str(script)), encoding="utf-8"
    )
    done = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "rulings.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_env_example_lists_every_setting_the_code_reads():
    example = (DEPLOY / "env.example").read_text(encoding="utf-8")
    listed = set(re.findall(r"^#?\s*([A-Z_]+)=", example, re.M))
    read = set()
    for path in list((ROOT / "bot").rglob("*.py")) + list((ROOT / "commands").rglob("*.py")):
        read |= set(
            re.findall(
                r"""(?:environ|env)(?:\.get\(|\[)\s*["']((?:RULINGS|DISCORD)_[A-Z_]+)""",
                path.read_text(encoding="utf-8"),
            )
        )
    assert read >= {"DISCORD_TOKEN", "RULINGS_DB", "RULINGS_HOME_GUILD_ID"}
    assert not read - listed, f"settings missing from env.example: {sorted(read - listed)}"


@pytest.mark.slow
def test_build_steps_script(tmp_path):
    # The image's steps as a script (no Docker engine here): about 20 s, mostly pip.
    done = subprocess.run(
        ["bash", str(DEPLOY / "build-steps.sh"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Rinnak Pire and Regent Worf" in " ".join(done.stdout.split())  # wrapped text

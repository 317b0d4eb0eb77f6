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
    # Health is the bot's own heartbeat (connected to Discord), not a check of the store.
    assert re.search(r'^HEALTHCHECK .*CMD \["rulings", "health"\]', text, re.M)
    assert re.search(r'^CMD \["rulings", "bot"\]', text, re.M)
    # The data ships inside the package: no RULINGS_DATA pointing at a copy beside it.
    assert "RULINGS_DB=/data/rulings.sqlite3" in text and "RULINGS_DATA" not in text


def test_dockerfile_installs_the_lock_before_the_code_and_downloads_nothing_after():
    lines = (DEPLOY / "Dockerfile").read_text(encoding="utf-8").splitlines()
    stages = [i for i, line in enumerate(lines) if line.startswith("FROM")]
    text = "\n".join(lines[stages[0] : stages[1]])  # the build stage
    lock = text.index("--require-hashes --no-deps -r deploy/requirements.lock")
    assert lock < text.index("COPY bot") and lock < text.index("COPY rulings_data")
    assert "--no-deps --no-build-isolation --no-index ." in text


def test_the_lock_pins_every_runtime_dependency_with_hashes():
    import tomllib

    lock = (DEPLOY / "requirements.lock").read_text(encoding="utf-8")
    pinned = {
        m.group(1).lower().replace("_", "-")
        for m in re.finditer(r"^([A-Za-z0-9_.-]+)==\S+ \\$", lock, re.M)
    }
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {
        re.match(r"[A-Za-z0-9_.-]+", d).group(0).lower().replace("_", "-").replace(".", "-")
        for d in project["dependencies"]
    }
    assert wanted <= {p.replace(".", "-") for p in pinned}, wanted - pinned
    assert "setuptools" in pinned  # builds the package inside the image, offline
    entries = re.findall(
        r"^\S+==\S+ \\\n((?:\s+--hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)", lock, re.M
    )
    assert len(entries) == len(pinned)


def test_the_build_context_leaves_out_secrets_environments_and_history():
    ignored = set((ROOT / ".dockerignore").read_text(encoding="utf-8").split())
    assert {".env", ".git", ".venv", "**/__pycache__"} <= ignored
    for needed in ("bot", "commands", "rulings_data", "pyproject.toml", "deploy"):
        assert needed not in ignored


def test_compose_file_uses_the_env_file_a_volume_a_memory_limit_and_log_rotation():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["rulings"]
    assert service["env_file"] == "../.env"
    assert "rulings-data:/data" in service["volumes"] and "rulings-data" in compose["volumes"]
    assert service["restart"] == "unless-stopped"
    assert service["mem_limit"]
    assert service["logging"]["options"]["max-size"] and service["logging"]["options"]["max-file"]


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


def _units(tmp_path: Path) -> Path:
    """The unit and the shard template (the same file plus its drop-in), with ExecStart on
    this environment's script so that `verify` finds the executable."""
    unit = (DEPLOY / "rulings.service").read_text(encoding="utf-8")
    unit = unit.replace(
        "/opt/rulings/.venv/bin/rulings", str(Path(sys.executable).with_name("rulings"))
    )
    (tmp_path / "rulings.service").write_text(unit, encoding="utf-8")
    (tmp_path / "rulings@.service").write_text(unit, encoding="utf-8")
    shutil.copytree(DEPLOY / "rulings@.service.d", tmp_path / "rulings@.service.d")
    return tmp_path


needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here"
)


@needs_systemd
@pytest.mark.parametrize("unit", ["rulings.service", "rulings@2.service"])
def test_systemd_analyze_verify(tmp_path, unit):
    done = subprocess.run(
        ["systemd-analyze", "verify", unit],
        cwd=_units(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@needs_systemd
def test_systemd_unit_is_hardened_to_an_exposure_of_3_or_better(tmp_path):
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "rulings.service"],
        cwd=_units(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    score = re.search(r"Overall exposure level for rulings\.service: ([0-9.]+)", done.stdout)
    assert score, done.stdout + done.stderr
    assert float(score.group(1)) <= 3.0, done.stdout


def test_the_shard_template_runs_the_shard_its_instance_names():
    dropin = (DEPLOY / "rulings@.service.d" / "shard.conf").read_text(encoding="utf-8")
    assert "Environment=RULINGS_SHARD_IDS=%i" in dropin
    scaling = (DEPLOY / "SCALING.md").read_text(encoding="utf-8")
    assert "rulings@.service" in scaling and "shard.conf" in scaling


def test_the_recipes_create_the_folders_they_use():
    recipe = (DEPLOY / "README.md").read_text(encoding="utf-8")
    folders = set(re.findall(r"rulings backup (/\S+?)/\$", recipe))
    folders |= set(re.findall(r"RULINGS_DB=(/\S+?)/rulings\.sqlite3", recipe))
    assert folders, "no folder found in the recipe: the check would pass on nothing"
    for folder in folders:
        assert re.search(rf"install -d[^\n]*{re.escape(folder)}", recipe), folder


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

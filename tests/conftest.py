"""Shared pytest configuration: the shipped data, built once into a temporary store."""

from pathlib import Path

import pytest

pytest_plugins = ["tests.fakediscord.plugin"]

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rulings_data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def rulings(tmp_path_factory):
    """The service over the bundled data, in a store of its own (never the user's cache)."""
    from bot.service import Rulings

    service = Rulings.open(tmp_path_factory.mktemp("store") / "rulings.sqlite3", DATA)
    yield service
    service.close()

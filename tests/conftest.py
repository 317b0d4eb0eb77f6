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
    from bot.answers.service import Rulings

    service = Rulings.open(tmp_path_factory.mktemp("store") / "rulings.sqlite3", DATA)
    yield service
    service.close()


@pytest.fixture(autouse=True)
def _root_logger_restored():
    """The CLI's entry point configures logging, with a handler on the stderr pytest captured
    for that one test; put the root logger back so later tests don't log to a closed stream."""
    import logging

    root = logging.getLogger()
    level = root.level
    yield
    for handler in list(root.handlers):
        if type(handler) is logging.StreamHandler:  # pytest's own handlers are subclasses
            root.removeHandler(handler)
    root.setLevel(level)

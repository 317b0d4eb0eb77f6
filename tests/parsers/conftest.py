from pathlib import Path

import pytest

SOURCES = Path(__file__).resolve().parents[2] / "rulings_data" / "sources"


@pytest.fixture(scope="session")
def source_text():
    def read(name: str) -> str:
        return (SOURCES / name).read_text(encoding="utf-8")

    return read

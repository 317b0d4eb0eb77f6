"""The core never imports Discord: walk every module of bot/ and check its imports."""

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[1] / "bot"
FORBIDDEN = ("discord", "commands")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted(CORE.rglob("*.py")), ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_does_not_import_discord(path):
    bad = [n for n in _imports(path) if n.split(".")[0] in FORBIDDEN]
    assert not bad, f"{path} imports {bad}: bot/ must stay free of Discord"


def test_the_walk_sees_the_core():
    assert len(list(CORE.rglob("*.py"))) >= 8

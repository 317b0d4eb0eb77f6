"""No class in the core or the Discord adapter grows past what a newcomer can read: about 300 lines, one job each.

When a class nears the limit, split it by job (see docs/search.md for how the search is
divided); do not raise the limit.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted((ROOT / "bot").rglob("*.py")) + sorted((ROOT / "commands").rglob("*.py"))
MAX_CLASS_LINES = 300


def _classes(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        (node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    ]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_class_is_over_the_limit(path):
    long = [(name, size) for name, size in _classes(path) if size > MAX_CLASS_LINES]
    assert not long, f"{path}: {long} over {MAX_CLASS_LINES} lines; split by job"


def test_the_walk_sees_both_layers():
    assert {p.relative_to(ROOT).parts[0] for p in MODULES} == {"bot", "commands"}


def test_the_measure_counts_a_class_whole(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("class A:\n" + "    x = 1\n" * 400 + "\nclass B:\n    pass\n")
    assert _classes(sample) == [("A", 401), ("B", 2)]

"""An auditor scans the controller for Python's `random`: draws use `secrets`, and so does all
else, so the scan finds nothing to explain."""

from __future__ import annotations

import ast
from pathlib import Path

import controller

PACKAGE = Path(controller.__file__).parent


def random_imports(source: str) -> list[int]:
    """Lines importing the `random` module (or anything from it)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        else:
            continue
        if any(m.split(".")[0] == "random" for m in modules):
            lines.append(node.lineno)
    return lines


def test_the_controller_package_imports_no_random_module():
    sources = sorted(p for p in PACKAGE.rglob("*.py") if "node_modules" not in p.parts)
    assert len(sources) > 50
    found = [f"{p.relative_to(PACKAGE.parent)}:{line}" for p in sources
             for line in random_imports(p.read_text(encoding="utf-8"))]
    assert not found, f"`random` imported at {found}; use `secrets`"


def test_the_scan_finds_each_way_of_importing_random():
    assert random_imports("import random\nimport os, random as r\nfrom random import choice\n"
                          "import secrets\nfrom random.x import y\n") == [1, 2, 3, 5]

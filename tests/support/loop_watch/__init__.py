"""Whether a controller child's event loop ever made a blocking network call.

`watch_children` puts this folder's sitecustomize.py (the hook) on the PYTHONPATH of every
controller started afterwards (they inherit the environment, child_env); the hook writes each
blocking call it sees to a file per process; `Watch.read` reads them back for a test to assert
none, and `describe` says which function of ours made one and through what.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.application.child_process import ROOT
from tests.support.loop_watch.sitecustomize import ENV

HOOK_DIR = Path(__file__).parent
OURS = ("controller", "showrunner")


def watch_children(monkeypatch: pytest.MonkeyPatch, directory: Path) -> None:
    """Arm the hook in every controller process started from now on, writing into
    `directory`."""
    monkeypatch.setenv(ENV, str(directory))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(HOOK_DIR), os.environ.get("PYTHONPATH")) if p))


@dataclass(frozen=True)
class Watch:
    armed: frozenset[int]  # the processes the hook ran in
    blocked: list[dict[str, Any]]  # with "pid", "call", "detail", "thread", "stack"

    @classmethod
    def read(cls, directory: Path) -> Watch:
        armed: set[int] = set()
        blocked = []
        for path in sorted(directory.glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if "armed" in record:
                    armed.add(record["armed"])
                else:
                    blocked.append({"pid": int(path.stem), **record})
        return cls(frozenset(armed), blocked)


def _ours(filename: str) -> str | None:
    """`filename` relative to the repository when it is our code, not a library."""
    path = Path(filename)
    if not path.is_relative_to(ROOT):
        return None
    relative = path.relative_to(ROOT)
    return str(relative) if relative.parts[0] in OURS else None


def _caller(stack: list[list[Any]]) -> int:
    """The frame of ours nearest the call: the function that made it, through libraries."""
    return max((i for i, (filename, *_) in enumerate(stack) if _ours(filename)), default=0)


def describe(blocked: list[dict[str, Any]]) -> str:
    """Each function of ours that made a blocking call ('sendall (...) from
    controller/x.py:12 in f, in processes [N]'), with the stack of its first call from a few
    frames above it down to the socket."""
    places: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for call in blocked:
        filename, line, function, _ = call["stack"][_caller(call["stack"])]
        where = f"{_ours(filename) or filename}:{line} in {function}"
        places.setdefault((call["call"], where), []).append(call)
    out = []
    for (name, where), calls in places.items():
        stack = calls[0]["stack"]
        out.append(f"{name} ({calls[0]['detail']}) from {where}, in processes "
                   f"{sorted({c['pid'] for c in calls})}\n"
                   + "\n".join(f"    {_ours(f) or f}:{n} in {fn}: {text}"
                               for f, n, fn, text in stack[max(0, _caller(stack) - 6):]))
    return "\n\n".join(out)

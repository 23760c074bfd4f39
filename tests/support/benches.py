"""Running a bench from a test: it must end well and print every figure it promises, each a
finite number (the bench's own figures are read by people, never asserted on)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterable
from typing import Any

from controller.application.child_process import ROOT


def bench_figures(args: list[str], figures: Iterable[str], timeout: float) -> dict[str, Any]:
    """`python bench/...` with `args`: its JSON, every one of `figures` in it a finite number."""
    try:
        run = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired as stopped:  # what it said so far tells where it was
        said = stopped.stderr.decode() if isinstance(stopped.stderr, bytes) else stopped.stderr
        raise AssertionError(f"{args[0]} ran over {timeout} s; its stderr:\n"
                             f"{(said or '')[-3000:]}") from None
    assert run.returncode == 0, run.stderr[-3000:]
    result: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    for figure in figures:
        value = result[figure]
        assert isinstance(value, int | float) and not isinstance(value, bool), (figure, value)
        assert math.isfinite(value), (figure, value)
    return result

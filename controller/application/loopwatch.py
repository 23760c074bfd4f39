"""The loop's stalls and the collector's pauses, measured inside a controller for a bench.

With `SHOWRUNNER_LOOP_WATCH=FILE` in its environment (bench/fanout.py sets it), a controller
appends to FILE one JSON line per event-loop callback that ran `FLOOR_MS` or longer (what
asyncio's debug mode reports as a slow callback, without the cost debug mode adds to every
call) and per garbage collection of that length or of the oldest generation:
`{"at": wall-clock ms, "stall_ms": ..., "cpu_ms": ..., "callback": what ran}` or
`{"at": ..., "gc_ms": ..., "cpu_ms": ..., "generation": 2, "collected": objects}`.
`cpu_ms` is the thread's CPU time of it: on a shared machine, `stall_ms` also counts the time
another process had the core. A stall includes any collection that ran inside that callback.
Off without the variable.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from pathlib import Path
from typing import Any, TextIO

ENV = "SHOWRUNNER_LOOP_WATCH"
FLOOR_MS = 1.0  # shorter callbacks and young collections are not written


class LoopWatch:
    """Times every callback the loop runs and every collection, writing the long ones."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.gc_began = self.gc_cpu = 0.0
        self.run = asyncio.events.Handle._run

    def install(self) -> None:
        """Wrap `Handle._run`, through which asyncio's loop runs each callback and task step."""
        run, record = self.run, self.record

        def timed(handle: asyncio.events.Handle) -> None:
            began, cpu = time.perf_counter(), time.thread_time()
            run(handle)
            ms = (time.perf_counter() - began) * 1000
            if ms >= FLOOR_MS:
                record({"stall_ms": round(ms, 2),
                        "cpu_ms": round((time.thread_time() - cpu) * 1000, 2),
                        "callback": callback_name(handle)})

        asyncio.events.Handle._run = timed  # type: ignore[method-assign,assignment]
        gc.callbacks.append(self.collected)

    def collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.gc_began, self.gc_cpu = time.perf_counter(), time.thread_time()
            return
        ms = (time.perf_counter() - self.gc_began) * 1000
        if ms >= FLOOR_MS or info["generation"] == 2:
            self.record({"gc_ms": round(ms, 2),
                         "cpu_ms": round((time.thread_time() - self.gc_cpu) * 1000, 2),
                         "generation": info["generation"], "collected": info["collected"]})

    def record(self, fields: dict[str, Any]) -> None:
        self.out.write(json.dumps({"at": round(time.time() * 1000, 1), **fields}) + "\n")


def callback_name(handle: asyncio.events.Handle) -> str:
    """What ran: a task's coroutine, or the function called back."""
    callback = handle._callback  # type: ignore[attr-defined]
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        return str(owner.get_coro().__qualname__)  # type: ignore[union-attr]
    return str(getattr(callback, "__qualname__", type(callback).__name__))


def watch_from_env() -> None:
    """Start the watch when the environment names a file for it (benches only)."""
    path = os.environ.get(ENV)
    if path:
        out = Path(path).open("a", buffering=1, encoding="utf-8")  # noqa: SIM115 (open for life)
        LoopWatch(out).install()

"""controller/application/loopwatch.py: a process with SHOWRUNNER_LOOP_WATCH set writes its
slow callbacks and full collections, named, for bench/fanout.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from controller.application.child_process import ROOT
from controller.application.loopwatch import ENV

PROGRAM = """
import asyncio, gc, time
from controller.application.loopwatch import watch_from_env

async def busy():
    time.sleep(0.01)  # holds the loop well past the floor
    gc.collect()

watch_from_env()
async def main():
    await asyncio.gather(busy())
asyncio.run(main())
"""


def test_a_slow_callback_and_a_full_collection_are_written_and_nothing_without_the_variable(
        tmp_path):
    watched = tmp_path / "loop.jsonl"
    env = {**os.environ, ENV: str(watched)}
    subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, check=True)
    records = [json.loads(line) for line in watched.read_text().splitlines()]
    busy = next(r for r in records if r.get("callback") == "busy")  # the task's coroutine
    assert busy["stall_ms"] >= 10 and busy["cpu_ms"] < busy["stall_ms"]  # it slept
    assert any(r.get("generation") == 2 and r["gc_ms"] >= 0 for r in records)
    env.pop(ENV)
    watched.unlink()
    subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, check=True)
    assert not watched.exists()

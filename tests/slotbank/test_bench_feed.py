"""bench/feed.py runs small and prints its figures as one JSON object (no timing threshold:
the figures are for reading, on the machine they were taken on)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from controller.application.child_process import ROOT

KEYS = {"benchmark", "machines", "rate", "screens", "seconds", "readings", "count", "missing",
        "p50_ms", "p95_ms", "p99_ms", "max_ms", "posts", "post_p50_ms", "post_p99_ms",
        "post_max_ms", "controller_cpu", "screens_cpu", "target_p99_ms", "cpus", "heat_end",
        "wall_s", "bursts", "burst_missing", "burst_p50_ms", "burst_p99_ms", "burst_max_ms",
        "burst_target_ms", "burst_within_target", "live_messages"}


async def test_the_feed_bench_prints_its_figures():
    # issue 24: feed -> screen applied with the controller's CPU share while fed
    done = await asyncio.to_thread(subprocess.run, [
        sys.executable, "bench/feed.py", "--machines", "10", "--seconds", "3", "--screens", "2",
        "--bursts", "3", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=110)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) == KEYS
    assert (figures["benchmark"], figures["machines"], figures["screens"]) == ("feed", 10, 2)
    # every machine reported and both screens held the values (10 machines at 2 a second)
    assert figures["readings"] > 0 and figures["count"] > 0 and figures["posts"] > 0
    assert figures["heat_end"] == "recorded"
    assert figures["controller_cpu"] >= 0 and figures["screens_cpu"] >= 0
    # issue 47: the burst case ran, each burst's two values held by both screens
    assert (figures["bursts"], figures["burst_missing"]) == (3, 0)
    assert figures["burst_max_ms"] >= figures["burst_p50_ms"] > 0

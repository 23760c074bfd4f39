"""Work shared out over the machine's cores, for the pixel work that lets go of the GIL.

A display is one process with one drawing thread, and a 4K frame's copies, blends and scales
are bound by memory: two cores move a frame's bytes in little more than half the time one does.
numkong's kernels (where this host runs them fast, showrunner.engine.framepaths) and pygame's
nearest-neighbour scale release the GIL while they work, so a frame's rows cut into one band a
core (up to 4) run side by side on a few helper threads.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait

CORES = max(1, min(4, os.cpu_count() or 1))


def cuts(rows: int) -> list[int]:
    """Where the bands of `rows` rows begin and end, a band a core."""
    return [band * rows // CORES for band in range(CORES + 1)]


def on_every_core(jobs: Sequence[Callable[[], object]]) -> None:
    """Run the jobs in as many even groups, in order, as there are cores: the last group on
    this thread, the others on the helpers. Returns when every group is done or has failed,
    and raises what one raised."""
    count = len(jobs)
    groups = [jobs[core * count // CORES:(core + 1) * count // CORES] for core in range(CORES)]
    groups = [group for group in groups if group]
    helping = [_helpers().submit(_run, group) for group in groups[:-1]]
    try:
        if groups:
            _run(groups[-1])
    finally:
        wait(helping)  # none still at work on the caller's pixels once it goes on
    for group in helping:
        group.result()


def _run(jobs: Sequence[Callable[[], object]]) -> None:
    for job in jobs:
        job()


@functools.cache
def _helpers() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max(1, CORES - 1), thread_name_prefix="cores")

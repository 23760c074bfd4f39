"""Freed surfaces go back to the system.

glibc serves a large allocation (a 4K surface is 31.6 MiB) with its own mmap and unmaps it when
freed, until the first such free: then it raises its threshold to that block's size (up to
32 MiB) and serves later ones from its heap, where a freed surface stays resident. A display
frees a scene's layers every time a scene leaves, so its memory stayed at its busiest moment
(measured at 4K on the demo show: two layers more, 64 MiB, all the time). A fixed threshold
turns the raise off. Smaller surfaces (text, a leaderboard's rows: 20 MiB at 4K) stay in the
heap, quick to reuse; at rest after a scene has left, `trim` hands back what it freed there
(measured: 20 to 27 MiB after a leaderboard, in 0.3 to 2.5 ms).
"""

from __future__ import annotations

import ctypes
import functools
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
MMAP_THRESHOLD = 4 << 20  # full screens (8 MiB at 1080p) and up; rows and text stay in the heap


@functools.cache
def _glibc(name: str) -> Callable[..., int] | None:
    try:
        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):  # not glibc: nothing to do
        return None


def return_freed_surfaces() -> None:
    """Keep glibc's mmap threshold where it is."""
    mallopt = _glibc("mallopt")
    if mallopt is not None and not mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD):
        log.warning("could not fix the malloc mmap threshold; freed surfaces may stay resident")


def trim() -> None:
    """Hand the heap's free pages back to the system (after a scene has left)."""
    malloc_trim = _glibc("malloc_trim")
    if malloc_trim is not None:
        malloc_trim(0)

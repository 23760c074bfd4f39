"""Freed full-screen surfaces go back to the system.

glibc serves a large allocation (a 4K surface is 31.6 MiB) with its own mmap and unmaps it when
freed, until the first such free: then it raises its threshold to that block's size (up to
32 MiB) and serves later ones from its heap, where a freed surface stays resident. A display
frees a scene's layers every time a scene leaves, so its memory stayed at its busiest moment
(measured at 4K on the demo show: 321 MiB after two minutes, 210 with this). A fixed threshold
turns the raise off.
"""

from __future__ import annotations

import ctypes
import logging

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
MMAP_THRESHOLD = 4 << 20  # full screens (8 MiB at 1080p) and up; rows and text stay in the heap


def return_freed_surfaces() -> None:
    """Keep glibc's mmap threshold where it is; elsewhere (no glibc) nothing to do."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    if not mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD):
        log.warning("could not fix the malloc mmap threshold; freed surfaces may stay resident")

"""Which way each whole-frame operation takes on this host (showrunner.engine.wholeframe):
numkong's kernels on every core, or pygame's own blits and fills; measured once as a display
starts (`choose`), in about 25 ms, never again while it runs.

numkong is fast only on the CPUs its kernels were built for: where it falls to its serial
kernels (an AVX machine without AVX2) a 4K copy took 87 ms against pygame's 4.9, and its u8
blend is slower than pygame's alpha blit even on some AVX-512 machines. So each operation is
timed both ways on a band of rows of the screen's width (`SAMPLE_BYTES`, scaled up to a whole
frame, numkong's sharing out over the cores counted once), and numkong is taken only where it
is faster by `MARGIN`. Its kernel is first timed alone on one core over a small
buffer (`PROBE_BYTES`): where that is already slower than pygame by more than the cores could
make up, it has lost, and the slow kernels are not run on the whole band (an 8 MiB band would
take the serial ones 30 to 60 ms an operation).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numkong
import pygame

from showrunner.engine import wholeframe
from showrunner.engine.cores import CORES, on_every_core
from showrunner.engine.still import Still
from showrunner.engine.wholeframe import OPERATIONS, Way

log = logging.getLogger(__name__)

MARGIN = 1.25  # numkong is taken where pygame takes this many times as long
#: a band of rows of the screen's width: a whole 1080p frame, a quarter of a 4K one. Bands of
#: 1 MiB fit the caches, where a frame's copy does not: on a 2-core Xeon they put pygame's 4K
#: copy at 1.5 ms a frame (2.5 in the frame) and chose between the ways by noise, start to start
SAMPLE_BYTES = 8 << 20
PROBE_BYTES = 64 << 10  # numkong's kernel alone first, on one core
REPEATS = 3  # each way timed this many times; the fastest counts (the others' load)
SIMD_FLAGS = ("sse2", "sse4_2", "avx", "fma", "f16c", "avx2", "avx512f", "avx512bw", "neon",
              "asimd", "sve")


@dataclass(frozen=True)
class Timing:
    """One operation on this host, both ways, in ms per whole frame of the screen (scaled up
    from the band measured), and the way chosen. `probed`: numkong lost on its kernel alone,
    and its figure is that kernel's estimate shared perfectly over the cores."""

    numkong_ms: float
    pygame_ms: float
    way: Way
    probed: bool = False

    def __str__(self) -> str:
        how = " at best, from its kernel alone" if self.probed else ""
        return (f"{self.way} (numkong {self.numkong_ms:.2f} ms{how}, "
                f"pygame {self.pygame_ms:.2f} ms a frame)")


def decide(numkong_ms: float, pygame_ms: float) -> Way:
    """numkong's way only where it is faster than pygame's by the margin."""
    return "numkong" if numkong_ms * MARGIN < pygame_ms else "pygame"


def choose(screen: pygame.Surface,
           timings: Mapping[str, Timing] | None = None) -> dict[str, Timing]:
    """Measure (unless `timings` are given), take each operation's way
    (wholeframe.use) and log the choice with its figures and the CPU."""
    if timings is None:
        timings = measure(screen)
    wholeframe.use({operation: timing.way for operation, timing in timings.items()})
    cpu = host()
    log.info("whole frames at %dx%d on %s (%s; numkong: %s): %s", *screen.get_size(),
             cpu["cpu"], " ".join(cpu["simd"]), " ".join(cpu["numkong"]),
             "; ".join(f"{operation} {timing}" for operation, timing in timings.items())
             or f"pygame's way for all: the screen ({screen.get_bitsize()} bits a pixel) is "
                "not laid out for numkong")
    return dict(timings)


def measure(screen: pygame.Surface) -> dict[str, Timing]:
    """Each operation timed both ways on a band of rows laid out as `screen` is."""
    width, height = screen.get_size()
    rows = max(1, min(height, SAMPLE_BYTES // (width * 4)))
    target = pygame.Surface((width, rows), 0, screen)
    source = pygame.Surface((width, rows), 0, screen)
    source.fill((40, 90, 160))
    still = Still().take((width, rows))
    if not (wholeframe.alike(target, source) and wholeframe.alike(target, still)):
        return {}  # not laid out for numkong: pygame's way, whatever this host does
    operations: dict[str, Callable[[], None]] = {
        "copy": lambda: wholeframe.copy(target, source),
        "crossfade": lambda: wholeframe.crossfade(target, still, 128),
        "dim": lambda: wholeframe.dim(target, 128)}
    per_frame = height / rows
    timings = {}
    for operation in OPERATIONS:
        run = operations[operation]
        pygame_ms = _fastest(run, operation, "pygame") * per_frame
        alone_ms = _kernel_alone(operation) * width * 4 * height / PROBE_BYTES
        if alone_ms > pygame_ms * CORES * MARGIN:  # lost, however the cores share it
            timings[operation] = Timing(alone_ms / CORES, pygame_ms, "pygame", probed=True)
            continue
        # a frame shares its work out over the cores once, not once a band
        sharing = _sharing_out()
        numkong_ms = (_fastest(run, operation, "numkong") - sharing) * per_frame + sharing
        timings[operation] = Timing(numkong_ms, pygame_ms, decide(numkong_ms, pygame_ms))
    return timings


def _fastest(run: Callable[[], None], operation: str, way: Way) -> float:
    """The fastest of REPEATS runs of `run` with `operation` taking `way`, in ms (after one
    untimed run: the first touches the pages)."""
    with wholeframe.using({operation: way}):
        run()
        best = float("inf")
        for _ in range(REPEATS):
            began = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - began)
    return best * 1000


def _sharing_out() -> float:
    """What handing nothing to every core and waiting for it costs, in ms (the fastest of
    REPEATS)."""
    best = float("inf")
    for _ in range(REPEATS):
        began = time.perf_counter()
        on_every_core([_nothing] * CORES)
        best = min(best, time.perf_counter() - began)
    return best * 1000


def _nothing() -> None:
    pass


def _kernel_alone(operation: str) -> float:
    """numkong's kernel of `operation` on PROBE_BYTES, on this thread, in ms (the faster of
    two runs)."""
    kernel = wholeframe.KERNELS[operation]
    read, written = bytearray(PROBE_BYTES), bytearray(PROBE_BYTES)  # zeroed: in memory
    with memoryview(read) as source, memoryview(written) as into:
        best = float("inf")
        for _ in range(2):
            began = time.perf_counter()
            kernel(source, into)
            best = min(best, time.perf_counter() - began)
    return best * 1000


def host() -> dict[str, str | list[str]]:
    """The CPU (model and the SIMD flags that matter here), numkong's kernels enabled and the
    vector units SDL reports (pygame's blitters choose by them), for the log and the benches'
    figures."""
    model, flags = "unknown CPU", set[str]()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and model == "unknown CPU":
                model = value.strip()
            elif key.strip() in ("flags", "Features") and not flags:
                flags = set(value.split())
    except OSError:
        pass
    sdl = pygame.system.get_cpu_instruction_sets()
    return {"cpu": model, "simd": [flag for flag in SIMD_FLAGS if flag in flags],
            "numkong": kernels(), "sdl": [name for name, on in sdl.items() if on]}


def kernels() -> list[str]:
    """numkong's kernel families enabled in this process."""
    return sorted(name for name, on in numkong.get_capabilities().items() if on)


def serial_kernels() -> None:
    """numkong's serial kernels only, in this process: the stand-in for a CPU without AVX2
    (the benches' `--cpu no-avx2`, bench/no_avx2.py)."""
    for name in kernels():
        if name != "serial":
            numkong.disable_capability(name)

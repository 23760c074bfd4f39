"""Frame benchmark: p50/p99 update+draw time per scene at its busiest moment, 1080p and 4K.

Prints one JSON object per scene and size: {"scene", "size", "frames", "p50_ms", "p99_ms",
"change_p50_ms", "change_max_ms", "paths"}. Targets (headless): p99 <= 4 ms at 1920x1080 and
<= 8 ms at 3840x2160. The change figures are the frames in which a new view document arrives
(the scene rebuilds what it caches): they should fit a 60 Hz frame (16.7 ms), so an update
never drops a frame. `--profile SCENE` prints a cProfile of that scene's frames instead.

Before them: one object {"host": {"cpu", "simd", "numkong", "sdl", "video_driver"}} (the CPU's
model, its SIMD flags, numkong's kernels enabled, the vector units SDL reports to pygame's
blitters, SDL's video driver: dummy, headless), and for each
size the start-up check a display makes (showrunner.engine.framepaths): {"frame_paths": size,
then per operation {"way", "numkong_ms", "pygame_ms", "probed"}}; `paths` on each scene's line
is the way each whole-frame operation took. `--cpu no-avx2` runs as on a CPU without AVX2:
numkong on its serial kernels and pygame on its SSE2 blitters (bench/no_avx2.py), the stand-in
for such a machine on one that has it.
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from bench import no_avx2
from showrunner.engine import framepaths
from showrunner.engine.host import SceneHost
from showrunner.engine.memory import return_freed_surfaces
from showrunner.engine.render import SteppedClock, entered, init_headless
from showrunner.engine.wholeframe import ways
from showrunner.scenes.samples import BASE_MS, CASES, Case

SIZES = ((1920, 1080), (3840, 2160))
WARMUP = 30
CHANGES = 20
TRANSITIONS = ("crossfade", "slide")
TRANSITION_S = 0.6


def shown(case: Case, views: dict, size: tuple[int, int],
          at: float) -> tuple[pygame.Surface, SteppedClock, SceneHost]:
    """The case's scene `at` seconds in, its first frame drawn (a display's first frame sets up
    what later frames reuse): (screen, clock, host)."""
    host, clock = entered(case.scene, views, size, case.params, at, BASE_MS)
    screen = init_headless(size)
    host.draw(screen)
    return screen, clock, host


def frame(screen: pygame.Surface, clock: SteppedClock, host: SceneHost) -> float:
    """One 60 Hz frame (update + draw); its milliseconds. Then, untimed, what a display does
    between frames when the scene is at rest (draws nothing until its next change): the
    scene draws ahead (SceneHost.draw_ahead). The frame is drawn and timed even at rest,
    where a display would draw none."""
    start = time.perf_counter()
    clock.seconds += 1 / 60
    host.update(1 / 60)
    host.draw(screen)
    took = (time.perf_counter() - start) * 1000
    now = clock.now_ms()
    next_change = host.next_change_ms(now)
    if next_change is None or next_change > now:
        host.draw_ahead()
    return took


def measure(case: Case, size: tuple[int, int], frames: int) -> list[float]:
    """Milliseconds per frame, starting a little before the case's busy moment so the
    measured frames span it."""
    scene = shown(case, case.views, size, max(0.0, case.at - frames / 60 / 2))
    return [frame(*scene) for _ in range(WARMUP + frames)][WARMUP:]


def measure_changes(case: Case, size: tuple[int, int], changes: int) -> list[float]:
    """Milliseconds of each frame in which the views change (alternately `updated`, original)."""
    views = copy.deepcopy(case.views)
    scene = shown(case, views, size, case.at)
    times = []
    for i in range(changes):
        views.update(copy.deepcopy(case.updated if case.updated and i % 2 == 0 else case.views))
        times.append(frame(*scene))
        for _ in range(3):  # a few ordinary frames between changes
            frame(*scene)
    return times


def measure_transitions(kind: str, size: tuple[int, int], frames: int) -> list[float]:
    """Milliseconds per frame of `kind` transitions back and forth between two busy scenes,
    the switch frame (the incoming scene's entry) included; the full screen a transition
    needs is made ready before each switch, untimed, as a display does a band at a time
    between its frames (SceneHost.prepare)."""
    busy = {c.scene: c for c in CASES if c.busy}
    scenes = [busy["leaderboard"], busy["jackpot_ticker"]]
    views = {name: doc for case in scenes for name, doc in copy.deepcopy(case.views).items()}
    scene = shown(scenes[0], views, size, 1.0)
    host = scene[2]
    per_transition = round(TRANSITION_S * 60)
    times: list[float] = []
    step = 0
    while len(times) < frames:
        step += 1
        case = scenes[step % 2]
        host.switch(case.scene, case.params, transition=kind, duration=TRANSITION_S)
        during = [frame(*scene) for _ in range(per_transition)]
        for _ in range(6):  # the incoming scene alone for a moment
            frame(*scene)
        while not host.prepare(size):  # as a display does between its frames before a switch
            pass
        if step > 2:  # after two warm-up switches
            times += during
    return times[:frames]


def checked(size: tuple[int, int], timings: dict[str, framepaths.Timing]) -> dict[str, object]:
    """The start-up check's figures at `size`, as JSON."""
    return {"frame_paths": f"{size[0]}x{size[1]}",
            **{operation: {"way": t.way, "numkong_ms": round(t.numkong_ms, 3),
                           "pygame_ms": round(t.pygame_ms, 3), "probed": t.probed}
               for operation, t in timings.items()}}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="JSON lines (the default output)")
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--scene", action="append", help="only these scenes (a transition: "
                        "transition:crossfade, transition:slide)")
    parser.add_argument("--profile", metavar="SCENE", help="cProfile one scene at 4K")
    parser.add_argument("--cpu", choices=("host", "no-avx2"), default="host",
                        help="no-avx2: numkong's serial kernels and pygame's SSE2 blitters, as "
                        "on a CPU without AVX2 (bench/no_avx2.py)")
    args = parser.parse_args()
    busy = {c.scene: c for c in CASES if c.busy}
    return_freed_surfaces()  # as a display does: a full screen freed leaves the process
    if args.cpu == "no-avx2":
        no_avx2.enter()
    if args.profile:
        framepaths.choose(init_headless(SIZES[1]))
        profiler = cProfile.Profile()
        profiler.enable()
        measure(busy[args.profile], SIZES[1], args.frames)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return 0
    init_headless(SIZES[0])
    print(json.dumps({"host": {**framepaths.host(), "video_driver": pygame.display.get_driver()}}),
          flush=True)
    chosen = {size: framepaths.choose(init_headless(size)) for size in SIZES}  # as a display
    for size, timings in chosen.items():
        print(json.dumps(checked(size, timings)), flush=True)
    wanted = args.scene or [*sorted(busy), *(f"transition:{kind}" for kind in TRANSITIONS)]
    for scene in [name for name in wanted if name in busy]:
        for size in SIZES:
            framepaths.choose(init_headless(size), chosen[size])
            times = measure(busy[scene], size, args.frames)
            changes = measure_changes(busy[scene], size, CHANGES)
            print(json.dumps({"scene": scene, "size": f"{size[0]}x{size[1]}",
                              "frames": len(times),
                              "p50_ms": round(statistics.median(times), 3),
                              "p99_ms": round(percentile(times, 0.99), 3),
                              "change_p50_ms": round(statistics.median(changes), 3),
                              "change_max_ms": round(max(changes), 3),
                              "paths": ways()}), flush=True)
    for kind in TRANSITIONS:
        if f"transition:{kind}" in wanted:
            for size in SIZES:
                framepaths.choose(init_headless(size), chosen[size])
                times = measure_transitions(kind, size, args.frames)
                print(json.dumps({"scene": f"transition:{kind}", "size": f"{size[0]}x{size[1]}",
                                  "frames": len(times),
                                  "p50_ms": round(statistics.median(times), 3),
                                  "p99_ms": round(percentile(times, 0.99), 3),
                                  "max_ms": round(max(times), 3), "paths": ways()}),
                      flush=True)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())

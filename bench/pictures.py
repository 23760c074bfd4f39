"""Attract loop in real time while its photos load: does the frame loop ever wait for a load?

Writes `--images` photo-sized JPEGs (4000x2250) to a temporary folder, enters the attract loop
at 4K with 2 s slots so a new picture loads in the background every 2 s, and runs the frame loop
against the wall clock at 60 fps for `--seconds`. Prints one JSON object: per-frame work
(update + draw) p50/p99/max, frames that overran their 16.7 ms slot, frames that showed a
stand-in because a picture was not loaded yet, and how long one picture takes to load.

    python bench/pictures.py --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from frames import percentile  # the frame benchmark, beside this script
from PIL import Image

from showrunner.engine.host import SceneHost
from showrunner.engine.render import SteppedClock, init_headless
from showrunner.engine.scene import SceneContext
from showrunner.engine.theme import Theme
from showrunner.scenes import REGISTRY
from showrunner.scenes.attract import OVERSCAN

SIZE = (3840, 2160)
FRAME = 1 / 60
SLOT_S = 2.0  # seconds per picture: short, so pictures keep loading while the loop runs


def photos(folder: Path, count: int) -> list[str]:
    """Detailed JPEGs, each a different part of the Mandelbrot set, like a camera's output."""
    names = []
    for i in range(count):
        x = -2.0 + 0.3 * i
        img = Image.effect_mandelbrot((4000, 2250), (x, -1.0, x + 2.4, 0.35), 60)
        mirrored = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        img = Image.merge("RGB", (img, img.rotate(180), mirrored))
        path = folder / f"photo{i}.jpg"
        img.save(path, quality=90)
        names.append(str(path))
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="JSON (the default output)")
    parser.add_argument("--images", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=12.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        names = photos(Path(folder), args.images)
        screen = init_headless(SIZE)
        clock = SteppedClock(0)
        ctx = SceneContext.create(SIZE, Theme.load(), {}, clock.now_ms)
        started = time.perf_counter()
        ctx.assets.pictures.get(names[0], (round(SIZE[0] * OVERSCAN), round(SIZE[1] * OVERSCAN)))
        ctx.assets.pictures.wait()
        load_ms = (time.perf_counter() - started) * 1000
        host = SceneHost(ctx, REGISTRY)
        host.switch("attract", {"images": ",".join(names), "seconds": SLOT_S})
        work, overruns, stand_ins = [], 0, 0
        next_frame = time.perf_counter()
        for _ in range(round(args.seconds / FRAME)):
            start = time.perf_counter()
            clock.seconds += FRAME
            host.update(FRAME)
            host.draw(screen)
            took = time.perf_counter() - start
            work.append(took * 1000)
            overruns += took > FRAME
            stand_ins += bool(host.current.standing_in)
            next_frame += FRAME
            time.sleep(max(0.0, next_frame - time.perf_counter()))
    print(json.dumps({"size": f"{SIZE[0]}x{SIZE[1]}", "images": args.images,
                      "frames": len(work), "load_one_ms": round(load_ms),
                      "work_p50_ms": round(statistics.median(work), 3),
                      "work_p99_ms": round(percentile(work, 0.99), 3),
                      "work_max_ms": round(max(work), 3),
                      "overrun_frames": overruns, "stand_in_frames": stand_ins}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

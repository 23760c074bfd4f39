"""A 4K display's resident memory while it plays the demo show.

    python bench/display_memory.py --minutes 2 --json
    python bench/display_memory.py --minutes 10 --json   # the issue's figure (display_rss_mib)

A real controller (tests/support/live.py) with the demo's Slots leaderboard (the demo's twelve
players entered and scored, a score changing every second), and one real display process
(`showrunner display --size 3840x2160`, SDL dummy driver) enrolled as a screen playing the
demo's playlist (playlists/demo.yaml: leaderboard, jackpot ticker, prize table, with a crossfade
and a slide between them, and the demo's reel, skipped here), for `--minutes`. Its memory is
read from /proc/PID/status every second: `display_rss_mib`, the median over the last playlist
cycle (45 s: what it holds after `--minutes`, not the second of a switch, when a screen holds
one more full screen),
`display_end_mib` the last reading (VmRSS), `display_peak_mib` (VmHWM), `max_rss_mib` the
largest sample after the first cycle, and `cycle_rss_mib` each cycle's median, which stays flat
when nothing leaks. bench/fanout.py measures its display with `watch` too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.show import DISPLAY, Board, enrol, has_views, start_display
from controller.demo.night import MC
from tests.support.live import LiveController

SAMPLE_S = 1.0
# playlists/demo.yaml: 20 + 8 + 8 + 9 seconds (the reel: here, where the screen has no such
# file, it is skipped and the leaderboard takes its time)
CYCLE_S = 45.0


def status_kib(pid: int, field: str) -> int:
    """A VmXXX figure of /proc/PID/status, in KiB (0 once the process has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def mib(kib: int) -> float:
    return round(kib / 1024, 1)


async def watch(display: subprocess.Popen[bytes], board: Board,
                minutes: float) -> dict[str, Any]:
    """Sample `display`'s memory every second for `minutes` while a score changes every
    second; its figures."""
    began = time.monotonic()
    cycles: list[list[int]] = [[]]
    next_cycle = began + CYCLE_S
    while (now := time.monotonic()) - began < minutes * 60 or not cycles[-1]:
        if display.poll() is not None:
            raise RuntimeError(f"the display process ended early (exit {display.returncode})")
        if now >= next_cycle:
            cycles.append([])
            next_cycle += CYCLE_S
        cycles[-1].append(status_kib(display.pid, "VmRSS"))
        await board.change()
        await asyncio.sleep(SAMPLE_S)
    settled = [kib for cycle in cycles[1:] for kib in cycle]
    return {"display_rss_mib": mib(int(statistics.median(cycles[-1]))),
            "display_end_mib": mib(status_kib(display.pid, "VmRSS")),
            "display_peak_mib": mib(status_kib(display.pid, "VmHWM")),
            "max_rss_mib": mib(max(settled, default=0)),
            "cycle_rss_mib": [mib(int(statistics.median(c))) for c in cycles if c],
            "display_minutes": round((time.monotonic() - began) / 60, 2)}


async def run(minutes: float, work: Path) -> dict[str, Any]:
    controller = LiveController(work / "memory.db")
    controller.issue_keys()
    await controller.start()
    mc = MC(lambda _: None)
    display = None
    try:
        await mc.connect(controller.url, controller.keys["operator"])
        board = Board(mc)
        await board.seed()
        [auth] = await enrol(controller.url, controller.keys["technician"], [DISPLAY])
        display = start_display(controller.url, auth["key"], work)
        await has_views(work / "screens" / f"{DISPLAY}.json", display)
        return {"benchmark": "display_memory", "size": "3840x2160",
                **await watch(display, board, minutes)}
    finally:
        await mc.close()
        if display is not None:
            display.terminate()
            display.wait(10)
        controller.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=2.0,
                        help="how long the display plays (the issue asks 10)")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    args = parser.parse_args()
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run(args.minutes, Path(tmp)))
    print(json.dumps({**result, "wall_s": round(time.monotonic() - began, 1)}))


if __name__ == "__main__":
    main()

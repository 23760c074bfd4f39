"""What a floor PC pays to present frames into a real X window (Xvfb), at rest and moving.

    python bench/present.py --json [--seconds 60] [--sizes 1920x1080,3840x2160]
                            [--phases board,video] [--players 10] [--cpu no-avx2]

For each size: starts Xvfb on a free display number at that size, a real controller with a
Slots tournament of ten players (one page of the leaderboard; `--players 12` is the demo's
night, two pages of six that turn every 10 s, the next drawn ahead while one rests, so `rest`
holds a page turn every 10 s), and one display process
fullscreen in the X server, reading the board through the real link. After the board has come
in, `rest` runs `--seconds` with no score changes; `moving` runs `--seconds` while a score lifts
the lowest player to the top every second, so rows keep sliding. For each: the display
process's CPU (from /proc/<pid>/stat; 100 = one core), frames presented a second, frames
dropped while moving (a frame over 1.5 frame times late), CPU ms a frame and the share of a
60 fps frame's budget that is (figures that hold on a machine busy with other work, where fps
alone would not), and the longest frame of the phase (update, draw and present) in ms. Xvfb's
own CPU is reported beside it.

`video` (a phase of its own display): the video scene full screen playing a 30 fps H.264 clip
made at the screen's size with PyAV (showrunner.video.clips: a scrolling texture
under numbered blocks, 4 s, looping), decoded in software, for `--seconds`: the display's CPU,
frames presented a second (the clip's 30, the display resting between them), video frames
dropped (due but never shown, the decoder or the loop late), CPU ms a frame and the share of a
30 fps frame's budget. Synthetic content decodes faster than camera footage of the same size;
its CPU figures are a lower bound for real footage. Needs Xvfb (`apt-get install xvfb`,
scripts/setup). Prints one JSON object with --json.

Each size's figures also say what the display ran on: its SDL video driver, the CPU (model,
SIMD flags, numkong's kernels enabled) and the way each whole-frame operation took after the
display's start-up check (showrunner.engine.framepaths), with the check's figures.
`--cpu no-avx2` runs the display as on a CPU without AVX2: numkong on its serial kernels and
pygame on its SSE2 blitters (bench/no_avx2.py), the stand-in for such a machine on one that has
it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WARM_UP_S = 5.0
FPS = 60  # the frame budget: 1000 / FPS ms
PLAYERS = 10  # one page: the board can come to rest
VIDEO_FPS = 30


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- the display process, measured from inside -----------------------------------------------

def child(args: argparse.Namespace) -> int:
    """Run one display with a thread that writes its frame count and longest frame to a file
    twice a second (the thread sleeps in between; its cost is in the figures)."""
    import pygame

    from bench import no_avx2
    from showrunner.engine import framepaths
    from showrunner.engine.display import Display, DisplayOptions

    if args.cpu == "no-avx2":
        no_avx2.enter()
    cpu = framepaths.host()

    class Measured(Display):
        longest = 0.0
        _began = 0.0

        def frame(self, *args):  # type: ignore[no-untyped-def]
            self._began = time.perf_counter()
            return super().frame(*args)

        def plan(self, host, drawn_at):  # type: ignore[no-untyped-def]  # right after present
            self.longest = max(self.longest, time.perf_counter() - self._began)
            return super().plan(host, drawn_at)

    video = {"scene": "video", "params": {"media": args.video}} if args.video else {}
    display = Measured(DisplayOptions(controller=args.controller, screen="bench-1",
                                      key=os.environ["SHOWRUNNER_DISPLAY_KEY"], fullscreen=True,
                                      state_dir=Path(args.stats).parent / "screens", **video))
    stats = Path(args.stats)

    def new_phase(*_: object) -> None:  # the bench starts a phase: its own longest frame
        display.longest = 0.0

    signal.signal(signal.SIGUSR1, new_phase)

    def report() -> None:
        while True:
            tmp = stats.with_suffix(".tmp")
            tmp.write_text(json.dumps({
                "frames": display.frames, "longest_ms": display.longest * 1000,
                "dropped": display.video.dropped if args.video else display.dropped,
                "ran_on": {"video_driver": pygame.display.get_driver()
                           if pygame.display.get_init() else "", **cpu,
                           "frame_paths": {operation: str(timing) for operation, timing
                                           in display.frame_paths.items()}}}))
            os.replace(tmp, stats)
            time.sleep(0.5)

    threading.Thread(target=report, daemon=True).start()
    return display.run()


# --- the bench ----------------------------------------------------------------------------------

class Phase:
    """CPU and frames between start() and stop()."""

    def __init__(self, display: int, xvfb: int, stats: Path, fps: int = FPS) -> None:
        self.pids, self.stats, self.fps = (display, xvfb), stats, fps

    async def read(self) -> tuple[float, float, float, dict[str, Any]]:
        await asyncio.sleep(0.6)  # a fresh stats file
        return (time.monotonic(), cpu_seconds(self.pids[0]), cpu_seconds(self.pids[1]),
                json.loads(self.stats.read_text()))

    async def start(self) -> None:
        os.kill(self.pids[0], signal.SIGUSR1)
        self.began = await self.read()

    async def stop(self) -> dict[str, Any]:
        t1, cpu1, x1, s1 = await self.read()
        t0, cpu0, x0, s0 = self.began
        span, frames = t1 - t0, s1["frames"] - s0["frames"]
        per_frame = 1000 * (cpu1 - cpu0) / frames if frames else 0.0
        self.ran_on = s1["ran_on"]
        return {"seconds": round(span, 1), "cpu_percent": round(100 * (cpu1 - cpu0) / span, 1),
                "xvfb_cpu_percent": round(100 * (x1 - x0) / span, 1),
                "fps": round(frames / span, 2),
                "dropped_frames": s1["dropped"] - s0["dropped"],
                "cpu_ms_per_frame": round(per_frame, 2),
                "frame_budget_used": round(per_frame / (1000 / self.fps), 3),
                "longest_frame_ms": round(s1["longest_ms"], 1)}


class Operator:
    """The MC's tablet: a real /control client sending one command at a time."""

    def __init__(self) -> None:
        import socketio

        self.sio = socketio.AsyncClient()

    async def connect(self, url: str, key: str) -> None:
        await self.sio.connect(url, namespaces=["/control"], auth={"key": key},
                               transports=["websocket"])

    async def send(self, type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        envelope = {"type": type_, "payload": payload, "command_id": uuid.uuid4().hex}
        ack = await self.sio.call("command", envelope, namespace="/control")
        if not ack["ok"]:
            raise RuntimeError(f"{type_}: {ack['error']['message']}")
        return ack


def measure(size: tuple[int, int], seconds: float, phases: list[str], cpu: str,
            players: int = PLAYERS) -> dict[str, Any]:
    from controller.access.keys import issue_key
    from controller.application.child_process import ControllerProcess
    from controller.application.service import wall_clock_ms
    from controller.store.sqlite import EventLog
    from tests.support.xvfb import start_xvfb

    work = Path(tempfile.mkdtemp(prefix="present-"))
    log = EventLog.open(work / "show.db")
    operator = issue_key(log, "operator", "bench operator", wall_clock_ms())
    screen_key = issue_key(log, "display", "bench screen", wall_clock_ms())
    log.close()
    xvfb, where = start_xvfb(size)
    controller = ControllerProcess(work / "show.db")
    display: list[subprocess.Popen[bytes]] = []
    try:
        url = controller.start()
        result: dict[str, Any] = {"size": f"{size[0]}x{size[1]}"}
        if "board" in phases:
            result.update(asyncio.run(show(url, operator, screen_key, where, work, xvfb.pid,
                                           seconds, display, cpu, players)))
        if "video" in phases:
            result["video"] = asyncio.run(play_video(url, screen_key, where, work, xvfb.pid,
                                                     size, seconds, display, cpu))
        return result
    finally:
        for process in display:
            process.terminate()
            process.wait(10)
        controller.stop()
        xvfb.terminate()
        xvfb.wait(10)


async def show(url: str, operator: str, screen_key: str, where: str, work: Path, xvfb: int,
               seconds: float, started: list[subprocess.Popen[bytes]], cpu: str,
               players: int) -> dict[str, Any]:
    """Seed the board, start the display, measure it at rest and then moving."""
    from controller.demo.night import PLAYERS as NAMES

    mc = Operator()
    await mc.connect(url, operator)
    try:
        scores: dict[str, int] = {}
        for i, name in enumerate(NAMES[:players]):
            score = 18_000 - 700 * i
            card = f"{8_000_100 + i}"
            await mc.send("register_member", {"card": card, "display_name": name})
            ack = await mc.send("slots.enter", {"card": card})
            entry = ack["events"][0]["data"]["entry"]
            await mc.send("slots.record_score", {"entry": entry, "score": score})
            scores[entry] = score
        stats = work / "stats.json"
        display = spawn(url, screen_key, where, stats, ["--cpu", cpu])
        started.append(display)
        await wait_for(stats)
        await asyncio.sleep(WARM_UP_S)
        phase = Phase(display.pid, xvfb, stats)
        await phase.start()
        await asyncio.sleep(seconds)
        rest = await phase.stop()
        await phase.start()
        end = time.monotonic() + seconds
        while time.monotonic() < end:  # the lowest player climbs to the top each second
            low = min(scores, key=lambda e: scores[e])
            scores[low] = max(scores.values()) + 10
            await mc.send("slots.record_score", {"entry": low, "score": scores[low]})
            await asyncio.sleep(1.0)
        moving = await phase.stop()
        return {"rest": rest, "moving": moving, "ran_on": phase.ran_on}
    finally:
        await mc.sio.disconnect()


async def play_video(url: str, screen_key: str, where: str, work: Path, xvfb: int,
                     size: tuple[int, int], seconds: float,
                     started: list[subprocess.Popen[bytes]], cpu: str) -> dict[str, Any]:
    """A display of its own playing a 30 fps clip of the screen's size, measured."""
    from showrunner.video.clips import make_clip

    clip = make_clip(work / f"clip-{size[0]}x{size[1]}.mp4", size, VIDEO_FPS, 4 * VIDEO_FPS,
                     crf=20)
    stats = work / "video-stats.json"
    display = spawn(url, screen_key, where, stats, ["--video", str(clip), "--cpu", cpu])
    started.append(display)
    await wait_for(stats)
    await asyncio.sleep(WARM_UP_S)
    phase = Phase(display.pid, xvfb, stats, VIDEO_FPS)
    await phase.start()
    await asyncio.sleep(seconds)
    result = await phase.stop()
    display.terminate()
    display.wait(10)
    return {"clip": f"{size[0]}x{size[1]} H.264 {VIDEO_FPS} fps, software decoding",
            **result, "ran_on": phase.ran_on}


def spawn(url: str, screen_key: str, where: str, stats: Path,
          extra: list[str]) -> subprocess.Popen[bytes]:
    """A measured display process, fullscreen in the X server `where`."""
    env = {**os.environ, "DISPLAY": where, "SHOWRUNNER_DISPLAY_KEY": screen_key}
    env.pop("SDL_VIDEODRIVER", None)
    return subprocess.Popen([sys.executable, __file__, "--child", "--controller", url,
                             "--stats", str(stats), *extra], cwd=ROOT, env=env)


async def wait_for(stats: Path) -> None:
    deadline = time.monotonic() + 30
    while not stats.exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="per phase and size")
    parser.add_argument("--sizes", default="1920x1080,3840x2160")
    parser.add_argument("--phases", default="board,video",
                        help="board (rest and moving), video, or both")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--players", type=int, choices=range(1, 13), default=PLAYERS,
                        metavar="1..12", help="on the board (12: the demo's night, two pages)")
    parser.add_argument("--cpu", choices=("host", "no-avx2"), default="host",
                        help="no-avx2: numkong's serial kernels and pygame's SSE2 blitters, as "
                        "on a CPU without AVX2 (bench/no_avx2.py)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--video", help=argparse.SUPPRESS)
    parser.add_argument("--controller", help=argparse.SUPPRESS)
    parser.add_argument("--stats", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    phases = args.phases.split(",")
    results = [measure(tuple(int(v) for v in s.split("x")), args.seconds,  # type: ignore[arg-type]
                       phases, args.cpu, args.players) for s in args.sizes.split(",")]
    if args.json:
        print(json.dumps({"present": results}, indent=2))
    else:
        for r in results:
            print(f"{r['size']}: " + "  ".join(f"{k} {r[k]}" for k in ("rest", "moving", "video")
                                                if k in r))
    return 0


if __name__ == "__main__":
    sys.exit(main())

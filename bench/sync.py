"""Scene-change sync across a group of screens: how far apart, on the controller's clock, the
displays show the same scene change.

    python bench/sync.py --displays 20 --json [--phase scenes|video]

Runs a real controller process on a temporary SQLite file and N real `showrunner display`
processes (headless, small window) enrolled in one group that plays a playlist changing scene
every second. Each display reports, in its heartbeat, the show-clock time (its local clock
corrected by its estimated offset) of the first frame of each new scene; the bench reads them
from GET /screens. Prints one JSON object; `spread_p99_ms` is the 99th percentile, over scene
changes, of (latest - earliest) across displays.

`--phase video`: the group plays a 30 fps clip (made with PyAV, showrunner.video.clips) with
`start: clock`, so every screen shows the frame for the show clock. Each display (run here as a
measured child) notes the show-clock time at which it presented each frame of the clip; the
spread of a frame is (latest - earliest) across displays, and `spread_p99_ms` its 99th
percentile over the frames every display presented (one frame period is 33 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.access.keys import issue_key
from controller.application.child_process import ROOT, ControllerProcess
from controller.http.client import screens as screens_report
from controller.http.client import send
from controller.store.sqlite import EventLog

GROUP = "bench"
PLAYLIST = """\
name: sync-bench
transition: cut
scenes:
  - {scene: announcement, duration: 1s, params: {view: null, title: One}}
  - {scene: announcement, duration: 1s, params: {view: null, title: Two}}
"""
SIZE = "192x108"
VIDEO_FPS = 30
VIDEO_PLAYLIST = """\
name: sync-video
transition: cut
scenes:
  - {{scene: video, duration: 1h, params: {{media: {media}, start: clock}}}}
"""


def enrol_all(url: str, tech: str, count: int) -> dict[str, str]:
    from controller.http.client import enrol

    keys = {}
    for i in range(count):
        screen = f"bench-{i + 1}"
        keys[screen], ack = enrol(url, tech, screen, GROUP)
        assert ack["ok"], ack
        assert send(url, tech, "screens.authorise", {"screen": screen})["ok"]
    return keys


def start_displays(url: str, keys: dict[str, str], state: Path,
                   notes: Path | None = None) -> list[subprocess.Popen]:
    """The displays: `showrunner display`, or with `notes` the measured child noting the
    frames it presents into notes/<screen>.json."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "showrunner.cli", "display"] if notes is None else \
        [sys.executable, __file__, "--child", str(notes)]
    return [subprocess.Popen(
        [*command, "--controller", url, "--screen", screen, "--size", SIZE,
         "--state-dir", str(state)],
        cwd=ROOT, env={**env, "SHOWRUNNER_DISPLAY_KEY": key},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for screen, key in keys.items()]


def child(notes: Path, argv: list[str]) -> int:
    """A display that notes (frame number, show-clock ms) of each video frame it presents,
    written to notes/<screen>.json when it is stopped."""
    from showrunner.cli import build_parser
    from showrunner.engine.display import Display, DisplayOptions
    from showrunner.engine.host import SceneHost
    from showrunner.scenes.video import Video

    args = build_parser().parse_args(["display", *argv])

    class Noting(Display):
        def __init__(self, options: DisplayOptions) -> None:
            super().__init__(options)
            self.shown: list[tuple[int, int]] = []
            self.last: object = None

        def plan(self, host: SceneHost, drawn_at: float) -> float:  # right after present
            scene = host.current
            if isinstance(scene, Video) and scene.drawn is not None and \
                    scene.drawn is not self.last:
                self.last = scene.drawn
                self.shown.append((scene.drawn.number, self.clock.now_ms()))
            return super().plan(host, drawn_at)

    display = Noting(DisplayOptions(controller=args.controller, screen=args.screen,
                                    key=os.environ["SHOWRUNNER_DISPLAY_KEY"], size=args.size,
                                    state_dir=args.state_dir))
    code = display.run()
    (notes / f"{args.screen}.json").write_text(json.dumps(display.shown))
    return code


def video_spreads(notes: Path, count: int) -> list[int]:
    """Per frame every display presented: latest - earliest show-clock ms."""
    seen: dict[int, list[int]] = {}
    for path in notes.glob("*.json"):
        for number, at in dict(json.loads(path.read_text())).items():
            seen.setdefault(number, []).append(at)
    return sorted(max(t) - min(t) for t in seen.values() if len(t) == count)


def collect(url: str, tech: str, count: int, seconds: float) -> dict[int, dict[str, int]]:
    """Scene change (by its boundary second) -> {screen: reported switch time}."""
    changes: dict[int, dict[str, int]] = {}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for row in screens_report(url, tech)["screens"]:
            switched = row.get("switched_ms")
            if switched and row.get("scene") == "announcement":
                changes.setdefault(round(switched / 1000), {})[row["screen"]] = switched
        time.sleep(0.1)
    return {k: v for k, v in changes.items() if len(v) == count}


def run(displays: int, seconds: float, phase: str = "scenes") -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        log = EventLog.open(db)
        tech = issue_key(log, "technician", "bench", 0)
        log.close()
        controller = ControllerProcess(db)
        url = controller.start()
        procs: list[subprocess.Popen] = []
        try:
            keys = enrol_all(url, tech, displays)
            notes = Path(tmp) / "notes" if phase == "video" else None
            text = PLAYLIST
            if notes is not None:
                from showrunner.video.clips import make_clip

                notes.mkdir()
                clip = make_clip(Path(tmp) / "clip.mp4", (192, 108), VIDEO_FPS, 10 * VIDEO_FPS)
                text = VIDEO_PLAYLIST.format(media=json.dumps(str(clip)))
            procs = start_displays(url, keys, Path(tmp) / "screens", notes)
            wait_online(url, tech, displays)
            time.sleep(3)  # clock samples taken at connect
            payload = {"file": "sync.yaml", "yaml": text, "groups": [GROUP],
                       "screens": []}
            assert send(url, tech, "playlists.assign", payload)["ok"]
            time.sleep(2)  # the playlist starts at the next boundary
            if notes is None:
                changes = collect(url, tech, displays, seconds)
            else:
                time.sleep(seconds)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(60)  # twenty screens decoding video on a small PC stop slowly
            controller.stop()
        if notes is not None:
            spreads = video_spreads(notes, displays)
    if phase == "scenes":
        spreads = sorted(max(c.values()) - min(c.values()) for c in changes.values())
    if len(spreads) < 2:
        raise SystemExit("too few complete scene changes were observed")
    cuts = statistics.quantiles(spreads, n=100, method="inclusive")
    return {"benchmark": "sync", "phase": phase, "displays": displays,
            ("frames" if phase == "video" else "changes"): len(spreads),
            "spread_p50_ms": round(cuts[49], 2), "spread_p99_ms": round(cuts[98], 2),
            "spread_max_ms": max(spreads)}


def wait_online(url: str, tech: str, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = screens_report(url, tech)["screens"]
        if sum(1 for r in rows if r["online"]) == count:
            return
        time.sleep(0.5)
    raise SystemExit("the displays did not all connect")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--displays", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure")
    parser.add_argument("--phase", choices=["scenes", "video"], default="scenes",
                        help="scene changes (default) or the frames of a clip on the show clock")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    if sys.argv[1:2] == ["--child"]:
        sys.exit(child(Path(sys.argv[2]), sys.argv[3:]))
    args = parser.parse_args()
    print(json.dumps(run(args.displays, args.seconds, args.phase)))


if __name__ == "__main__":
    main()

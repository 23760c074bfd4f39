"""Scene-change sync across a group of screens: how far apart, on the controller's clock, the
displays show the same scene change.

    python bench/sync.py --displays 20 --json

Runs a real controller process on a temporary SQLite file and N real `showrunner display`
processes (headless, small window) enrolled in one group that plays a playlist changing scene
every second. Each display reports, in its heartbeat, the show-clock time (its local clock
corrected by its estimated offset) of the first frame of each new scene; the bench reads them
from GET /screens. Prints one JSON object; `spread_p99_ms` is the 99th percentile, over scene
changes, of (latest - earliest) across displays.
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


def enrol_all(url: str, tech: str, count: int) -> dict[str, str]:
    from controller.http.client import enrol

    keys = {}
    for i in range(count):
        screen = f"bench-{i + 1}"
        keys[screen], ack = enrol(url, tech, screen, GROUP)
        assert ack["ok"], ack
        assert send(url, tech, "screens.authorise", {"screen": screen})["ok"]
    return keys


def start_displays(url: str, keys: dict[str, str], state: Path) -> list[subprocess.Popen]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return [subprocess.Popen(
        [sys.executable, "-m", "showrunner.cli", "display", "--controller", url,
         "--screen", screen, "--size", SIZE, "--state-dir", str(state)],
        cwd=ROOT, env={**env, "SHOWRUNNER_DISPLAY_KEY": key},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for screen, key in keys.items()]


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


def run(displays: int, seconds: float) -> dict:
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
            procs = start_displays(url, keys, Path(tmp) / "screens")
            wait_online(url, tech, displays)
            time.sleep(3)  # clock samples taken at connect
            payload = {"file": "sync.yaml", "yaml": PLAYLIST, "groups": [GROUP],
                       "screens": []}
            assert send(url, tech, "playlists.assign", payload)["ok"]
            time.sleep(2)  # the playlist starts at the next boundary
            changes = collect(url, tech, displays, seconds)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(10)
            controller.stop()
    spreads = sorted(max(c.values()) - min(c.values()) for c in changes.values())
    if len(spreads) < 2:
        raise SystemExit("too few complete scene changes were observed")
    cuts = statistics.quantiles(spreads, n=100, method="inclusive")
    return {"benchmark": "sync", "displays": displays, "changes": len(spreads),
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
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    args = parser.parse_args()
    print(json.dumps(run(args.displays, args.seconds)))


if __name__ == "__main__":
    main()

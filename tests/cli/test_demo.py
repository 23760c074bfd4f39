"""The Quick-start demo, run as a user runs it: a controller, an enrolled screen playing the demo
playlist, the tablet; Ctrl-C stops every process it started."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from controller.process import ROOT
from controller.remote import KEY_HEADER


def screens(url: str, key: str) -> list[dict]:
    request = urllib.request.Request(f"{url}/screens", headers={KEY_HEADER: key})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)["screens"]


def until(predicate, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError("condition never held")


def processes_mentioning(text: str) -> list[str]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in args:
            found.append(args)
    return found


def test_the_demo_plays_its_playlist_on_an_enrolled_screen_and_stops_cleanly(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    demo = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--dir", str(tmp_path / "demo"),
         "--port", "0"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)
    try:
        lines: list[str] = []
        for line in demo.stdout:
            lines.append(line)
            if line.startswith("Feeding live scores"):
                break
        printed = "".join(lines)
        url, operator_key = re.search(r"tablet \(MC\) (\S+)/tablet\?key=(\w+)", printed).groups()
        assert "screen demo-1 plays playlists/demo.yaml" in printed

        screen = until(lambda: next((s for s in screens(url, operator_key)
                                     if s["screen"] == "demo-1" and s.get("scene")), None))
        assert screen["status"] == "authorised" and screen["online"]
        assert screen["playlists"] == ["demo"]
        assert screen["scene"] == "leaderboard"  # the playlist's first scene
        until(lambda: (tmp_path / "demo" / "screen.png").exists())

        demo.send_signal(signal.SIGINT)  # Ctrl-C
        rest = demo.communicate(timeout=30)[0]
        assert demo.returncode == 0, rest
        until(lambda: not processes_mentioning(str(tmp_path)), timeout=10)
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()

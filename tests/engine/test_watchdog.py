"""The systemd watchdog: the frame loop pings, a frozen display stops pinging and is restarted.

The supervisor here does what systemd does with Type=notify and WatchdogSec= (and nothing
more): it reads the notify datagrams, and kills and starts again a service whose last ping is
older than the watchdog interval. deploy/showrunner-display@.service asks systemd for exactly
this; tests/test_deploy.py checks that unit with systemd-analyze.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from showrunner.engine.watchdog import Notifier

ROOT = Path(__file__).resolve().parents[2]
WATCHDOG_S = 3.0


def listener(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    return sock


def test_the_notifier_says_ready_and_pings_at_half_the_interval(tmp_path):
    sock = listener(tmp_path / "notify")
    sock.settimeout(5)
    notifier = Notifier.from_env({"NOTIFY_SOCKET": str(tmp_path / "notify"),
                                  "WATCHDOG_USEC": "2000000"})
    notifier.ready()
    for now in (0.0, 0.5, 0.99, 1.0, 1.5, 2.0):  # simulated seconds
        notifier.alive(now)
    got = []
    sock.setblocking(False)
    while True:
        try:
            got.append(sock.recv(100).decode())
        except BlockingIOError:
            break
    assert got == ["READY=1", "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"]


def test_without_systemd_it_sends_nothing():
    notifier = Notifier.from_env({})
    notifier.ready()
    notifier.alive(0.0)
    assert notifier.sock is None


class Supervisor:
    """systemd's Type=notify + WatchdogSec=, for one display process."""

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "notify"
        self.sock = listener(self.path)
        self.state = tmp_path / "screens"
        self.starts = 0
        self.ready = False  # the watchdog runs from the first READY=1
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "NOTIFY_SOCKET": str(self.path), "WATCHDOG_USEC": str(int(WATCHDOG_S * 1e6)),
               "SHOWRUNNER_DISPLAY_KEY": "k"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "showrunner.cli", "display", "--controller",
             "http://127.0.0.1:9", "--screen", "w1", "--state-dir", str(self.state),
             "--size", "320x180"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        self.starts += 1

    def wait_for(self, message: str, timeout: float = 90.0) -> None:
        """Until `message` arrives; restarts the service whenever its watchdog runs out."""
        deadline = time.monotonic() + timeout
        last_ping = time.monotonic()
        while time.monotonic() < deadline:
            self.sock.settimeout(0.2)
            try:
                got = self.sock.recv(100).decode()
            except TimeoutError:
                got = ""
            if got == message:
                return
            if got in ("READY=1", "WATCHDOG=1"):
                last_ping = time.monotonic()
            elif self.ready and time.monotonic() - last_ping > WATCHDOG_S:
                self.restart()
                last_ping = time.monotonic()
        raise AssertionError(f"no {message} within {timeout:g} s")

    def restart(self) -> None:
        assert self.process is not None
        self.process.kill()  # systemd: SIGABRT, then SIGKILL; then Restart=on-failure
        self.process.wait(10)
        self.start()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def test_a_frozen_display_is_restarted_by_the_watchdog(tmp_path):
    supervisor = Supervisor(tmp_path)
    supervisor.start()
    try:
        supervisor.wait_for("READY=1")
        supervisor.ready = True
        supervisor.wait_for("WATCHDOG=1")
        frozen = supervisor.process
        assert frozen is not None
        frozen.send_signal(signal.SIGSTOP)  # a frozen frame loop
        supervisor.wait_for("READY=1")  # a new display came up
        assert supervisor.starts >= 2 and frozen.poll() is not None
        supervisor.wait_for("WATCHDOG=1")  # and its loop pings
    finally:
        supervisor.stop()

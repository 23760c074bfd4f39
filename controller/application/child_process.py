"""Run a controller as a child process and learn its address: for the demo, tests and benches."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from controller.application.settings import CONFIG_DIR_ENV
from controller.store.target import LogAt, is_database

ROOT = Path(__file__).resolve().parents[2]
LISTENING = "listening on "


def child_env() -> dict[str, str]:
    """This environment for a controller that runs from the repository's root: a venue's
    config folder named relative to where we are still names the same folder there."""
    env = dict(os.environ)
    if env.get(CONFIG_DIR_ENV):
        env[CONFIG_DIR_ENV] = os.path.abspath(env[CONFIG_DIR_ENV])
    return env


class ControllerProcess:
    """`showrunner-controller serve` on one SQLite file; port 0 picks a free port once and
    restarts reuse it, so clients can reconnect to the same URL."""

    command = "serve"  # or "rehearse", with its options in extra_args

    def __init__(self, db_path: LogAt, host: str = "127.0.0.1", port: int = 0,
                 extra_args: tuple[str, ...] = (), cwd: Path = ROOT) -> None:
        self.db_path = db_path
        self.cwd = cwd  # where files beside a PostgreSQL log are kept (its "PC")
        self.extra_args = extra_args
        self.host = host
        self.port = port
        self.url = ""
        self.output: list[str] = []
        self.process: subprocess.Popen[str] | None = None
        self._ready = threading.Event()

    def start(self, timeout: float = 30.0) -> str:
        """Start and block until it listens; returns its URL."""
        self.spawn()
        return self.listening(timeout)

    def spawn(self) -> None:
        """Start it, not waiting (a standby listens only once it takes over)."""
        self.output, self.url = [], ""
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-m", "controller.cli", self.command,
             "--db", self.db_path if is_database(self.db_path) else os.path.abspath(self.db_path),
             "--host", self.host, "--port", str(self.port), *self.extra_args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=self.cwd,
            env=child_env(),
        )
        self._ready = threading.Event()
        threading.Thread(target=self._read, args=(self._ready,), daemon=True).start()

    def listening(self, timeout: float = 30.0) -> str:
        """Block until the spawned process listens (or ends); its URL."""
        if not self._ready.wait(timeout) or not self.url:
            self.kill()
            raise RuntimeError("controller did not start:\n" + "".join(self.output))
        self.port = int(self.url.rsplit(":", 1)[1])
        return self.url

    def _read(self, ready: threading.Event) -> None:
        """Watch for the listening line, then keep draining so a full pipe never blocks it."""
        assert self.process and self.process.stdout
        for line in self.process.stdout:
            self.output.append(line)
            if line.startswith(LISTENING) and not ready.is_set():
                self.url = line.removeprefix(LISTENING).strip()
                ready.set()
        ready.set()

    def kill(self) -> None:
        """SIGKILL: no cleanup runs, like a power cut to the process."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

"""The reader and the simulator as real processes, and a real pseudo-terminal a test writes to.

No mocks: the reader opens LINK (a symlink to a pty's slave) with pyserial-asyncio as it
would /dev/ttyUSB0, and talks to a real controller over Socket.IO.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

from controller.application.child_process import ROOT, child_env


class Pty:
    """A pseudo-terminal in raw mode with LINK pointing at its slave, like a wheel's port."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master = self.slave = -1
        self.open()

    def open(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # the slave is held open so writes never see a hang-up
        temporary = self.link.with_name(self.link.name + ".new")
        temporary.symlink_to(os.ttyname(self.slave))
        os.replace(temporary, self.link)

    def write(self, *lines: str | bytes) -> None:
        for line in lines:
            data = line.encode() if isinstance(line, str) else line
            os.write(self.master, data + b"\r\n")

    def close(self) -> None:
        """The cable pulled: the reader's next read of the slave fails, and the device is
        gone, as a USB adapter's node is (a link left to the closed pty would point at the
        next terminal the machine opens under its number: another test's)."""
        self.link.unlink(missing_ok=True)
        os.close(self.master)
        os.close(self.slave)


class Watched:
    """A child process whose output is kept, line by line, for the test to wait on."""

    def __init__(self, args: list[str], stdin: bool = False) -> None:
        self.output: list[str] = []
        self._changed = threading.Condition()
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-m", "controller.cli", *args], cwd=ROOT, env=child_env(),
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            with self._changed:
                self.output.append(line)
                self._changed.notify_all()

    def seen(self, pattern: str) -> int:
        return sum(1 for line in list(self.output) if re.search(pattern, line))

    def _wait_sync(self, pattern: str, count: int, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                hits = [line for line in self.output if re.search(pattern, line)]
                if len(hits) >= count:
                    return hits[count - 1]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"never saw {pattern!r}; output:\n"
                                         + "".join(self.output[-40:]))
                self._changed.wait(min(remaining, 0.5))

    async def wait_for(self, pattern: str, count: int = 1, timeout: float = 15.0) -> str:
        """The `count`-th output line matching `pattern`; fails the test after `timeout`."""
        return await asyncio.to_thread(self._wait_sync, pattern, count, timeout)

    def send(self, text: str) -> None:
        assert self.process.stdin
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def kill(self) -> None:
        """SIGKILL: like pulling the reader PC's power."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    @property
    def running(self) -> bool:
        return self.process.poll() is None


def key_file(directory: Path, key: str) -> Path:
    path = directory / "device.key"
    path.write_text(key)
    path.chmod(0o600)
    return path


def reader(url: str, key_path: Path, link: Path, protocol: str = "cammegh",
           table: str = "AR14") -> Watched:
    return Watched(["wheel", "--url", url, "--key-file", str(key_path), "--table", table,
                    "--device", str(link), "--protocol", protocol])


def wheel_sim(link: Path, *options: str) -> Watched:
    return Watched(["wheel-sim", "--pty", str(link), *options], stdin=True)

"""The demo's floor devices: the wheel's number reader on a real pseudo-terminal fed by the
wheel simulator, and a slot bank's tournament system played by the bank simulator.

Each is the real process a venue runs (`showrunner-controller wheel`, `wheel-sim`,
`slots-feed-sim`), with a device key of its own in a file the demo writes (docs/wheel.md,
docs/slots-feed.md). The reader runs all night and reconnects to the port by itself; the
simulator plays the numbers of one Super 9 game and stops, so between games the console shows
that the wheel is not being read. Their output goes to `devices.log` in the demo's directory.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from controller.application.child_process import ROOT
from controller.domain.keys import new_key

TABLE = "AR14"  # the shipped configs' wheel for Super 9 and the Spin-Off (docs/wheel.md)
BANK = "bank-1"
READER_REOPEN_S = 6  # over controller/wheel/port.py's longest backoff (5 s)
FILES = ("wheel.key", "bank.key", "wheel.pty", "devices.log")  # what the demo writes here


class Devices:
    """The keys (the same every cycle, like the screen's) and the processes."""

    def __init__(self, directory: Path, interval_s: float) -> None:
        self.directory = directory
        self.interval_s = interval_s  # the simulated wheel's status line period
        self.keys = {TABLE: new_key(), BANK: new_key()}
        self.pty = directory / "wheel.pty"
        self.url = ""  # the controller's, once the reader starts
        self.reader: subprocess.Popen[bytes] | None = None
        self.running: set[asyncio.subprocess.Process] = set()
        self._log: IO[bytes] | None = None

    def key_file(self, name: str) -> Path:
        path = self.directory / ("wheel.key" if name == TABLE else "bank.key")
        if not path.exists():
            path.write_text(self.keys[name] + "\n", encoding="utf-8")
            path.chmod(0o600)
        return path

    @property
    def log(self) -> IO[bytes]:
        if self._log is None:
            self._log = (self.directory / "devices.log").open("ab")
        return self._log

    def start_reader(self, url: str) -> None:
        """The wheel's reader, beside the wheel for the whole night: Cammegh's protocol on the
        simulator's pseudo-terminal (it waits for the port until a game is played)."""
        self.url = url
        self.reader = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "wheel", "--url", url, "--key-file",
             str(self.key_file(TABLE)), "--table", TABLE, "--device", str(self.pty),
             "--protocol", "cammegh"], cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)

    async def spin_wheel(self, numbers: Sequence[int]) -> None:
        """The wheel plays one game per number, in order, through the real pty, after the
        table shows closed for longer than the reader's longest wait to reopen its port."""
        await self._play("wheel-sim", "--pty", str(self.pty), "--closed-for",
                         str(READER_REOPEN_S), "--interval",
                         str(self.interval_s), "--numbers", ",".join(map(str, numbers)),
                         "--games", str(len(numbers)))

    async def play_bank(self, machines: int, seconds: int) -> None:
        """One heat on the bank's machines, from its start to the machines' final credits."""
        await self._play("slots-feed-sim", "--url", self.url, "--key-file",
                         str(self.key_file(BANK)), "--bank", BANK, "--machines", str(machines),
                         "--duration", str(seconds))

    async def _play(self, *args: str) -> None:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "controller.cli", *args, cwd=ROOT, stdout=self.log,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.running.add(process)
        try:
            await process.wait()
        finally:
            if process.returncode is None:
                process.terminate()
                await process.wait()
            self.running.discard(process)

    def children(self) -> list[subprocess.Popen[bytes]]:
        """The long-running reader (the simulators are stopped with the script's task)."""
        return [self.reader] if self.reader is not None else []

    def stop_simulators(self) -> None:
        for process in self.running:
            if process.returncode is None:
                process.terminate()

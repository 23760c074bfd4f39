"""A rehearsal started from the live console: its own controller process, on its own log.

The live controller runs `showrunner-controller rehearse` as a child on a free port, on a new
file beside the live log (`rehearsals/SHOW-PROMOTION-YYYYmmdd-HHMMSS.db`), so the rehearsal
never shares a writer, a clock or a log with the live show: `rehearse` refuses a live log and
`serve` a rehearsal one (controller/rehearsal/log.py), and the audit export refuses rehearsal logs.
Nothing is written to the live log: who started it is recorded in the rehearsal's own log (its
people, copied from the live log so they log in with their own passwords, come before its
`RehearsalStarted`). One rehearsal at a time; it stops when asked or with the live controller.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.access.people import copy_user
from controller.application.child_process import ControllerProcess
from controller.domain.config import ConfigError
from controller.rehearsal.log import rehearsing
from controller.store.sqlite import EventLog
from controller.store.users import User

START_TIMEOUT_S = 30.0


class RehearsalProcess(ControllerProcess):
    command = "rehearse"


@dataclass(frozen=True)
class Running:
    promotion: str
    at: str
    timezone: str
    speed: int
    db: Path
    by: str
    port: int


class RehearsalRunner:
    """Starts and stops the one rehearsal of a live controller."""

    def __init__(self, live_db: Path, host: str, people: Callable[[], list[User]]) -> None:
        self.folder = live_db.resolve().parent / "rehearsals"
        self.stem = live_db.stem
        self.host = host
        self.people = people  # the live log's people, read when a rehearsal starts
        self.process: RehearsalProcess | None = None
        self.running: Running | None = None
        self._lock = asyncio.Lock()

    def status(self) -> dict[str, Any]:
        r = self.running
        if r is None or self.process is None or self.process.process is None:
            return {"running": False}
        if self.process.process.poll() is not None:
            last = "".join(self.process.output[-3:]).strip()
            self.running = None
            return {"running": False, "ended": f"The rehearsal stopped by itself: {last}"}
        return {"running": True, "promotion": r.promotion, "at": r.at, "timezone": r.timezone,
                "speed": r.speed, "db": r.db.name, "by": r.by, "port": r.port}

    async def start(self, promotion: str, at: str, speed: int, by: str) -> dict[str, Any]:
        """Start a rehearsal; ConfigError with a sentence (and nothing started) if it cannot."""
        async with self._lock:
            if self.status()["running"]:
                raise ConfigError("A rehearsal is already running: stop it first.")
            start = rehearsing(promotion, at, speed)
            db = self._new_file(promotion)
            self._give_people(db)
            process = RehearsalProcess(db, self.host, 0, (
                "--promotion", start.promotion, "--at", start.at_local,
                "--speed", str(start.speed), "--stop-with-parent"))
            try:
                await asyncio.to_thread(process.start, START_TIMEOUT_S)
            except RuntimeError as exc:
                raise ConfigError(f"The rehearsal did not start: {exc}") from None
            self.process = process
            self.running = Running(start.promotion, start.at_local, start.timezone,
                                   start.speed, db, by, process.port)
            return self.status()

    async def stop(self) -> dict[str, Any]:
        async with self._lock:
            if self.process is not None:
                await asyncio.to_thread(self.process.stop)
            self.process = self.running = None
            return {"running": False}

    def _new_file(self, promotion: str) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        db = self.folder / f"{self.stem}-{promotion}-{stamp}.db"
        n = 1
        while db.exists():
            n += 1
            db = self.folder / f"{self.stem}-{promotion}-{stamp}-{n}.db"
        return db

    def _give_people(self, db: Path) -> None:
        """The live log's active people, with their password hashes, into the new log."""
        now = int(dt.datetime.now(dt.UTC).timestamp() * 1000)
        with EventLog.open(db) as log:
            for user in self.people():
                if not user.disabled:
                    copy_user(log, user, now)

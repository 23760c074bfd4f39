"""The reader: the port's lines, parsed and tracked, sent to the controller as readings.

Each line is parsed by its protocol; a line that is not a reading (noise, a number off the
wheel) is logged with the line as read and skipped. Each reading becomes a `wheel.reading`
command whose id names it for ever: Cammegh `wheel:TABLE:RUN:GAME:KIND` (the run is the
tracker's: a wheel whose counter restarts, or a restarted reader, begins a new one, so an old
id is never met again), plain lines `wheel:TABLE:line:UUID` (every line is a new spin). What
one game gives once is the controller's to keep once: a restarted reader resending a number
its predecessor sent is told `already_read` (docs/wheel.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from typing import Literal

from controller.wheel.link import ControllerLink, Outgoing
from controller.wheel.port import Port
from controller.wheel.protocols import LineError, parse_cammegh, parse_plain, raw_text
from controller.wheel.tracker import CammeghTracker, Reading, plain_reading

log = logging.getLogger(__name__)

Protocol = Literal["cammegh", "line"]
MOMENTS = ("ball_in_track", "no_more_bets")  # stale once a later game is read
TICK_S = 0.5  # how often the reader notes that it runs
STALL_S = 3.0  # not run for longer: its process was stopped, or the PC slept
BACKLOG_S = 0.25  # after a stall, what the port gives this soon waited in its buffer


class ReaderStopped(Exception):
    """One of the reader's jobs ended, which none should while it runs."""


class Reader:
    """One table's wheel: turns lines into queued readings for the link."""

    def __init__(self, table: str, protocol: Protocol, link: ControllerLink,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.protocol = protocol
        self.link = link
        self.clock = clock
        self.tracker = CammeghTracker(clock)
        self.alive = clock()  # when the reader last ran (`_tick`)
        self.stall_said: float | None = None  # the stall last logged, by when it began
        self.blind_until = float("-inf")

    def port_changed(self, is_open: bool, detail: str) -> None:
        """The port's state for the controller; an open after an outage is a gap in the
        stream, which the tracker must know of (a no spin is not inferred across it)."""
        if is_open:
            self.tracker.gap()
        self.link.set_port(is_open, detail)

    def take(self, line: bytes) -> list[Outgoing]:
        """The commands one line makes (queued on the link); a line that is no reading is
        logged."""
        try:
            readings = self._readings(line, self._stalled())
        except LineError as exc:
            log.warning("not a reading: %s (line %r)", exc, raw_text(line))
            return []
        sent = []
        for reading in readings:
            outgoing = self.outgoing(reading)
            log.info("read %s (line %r)", outgoing.command_id, reading.raw)
            self.link.submit(outgoing)
            sent.append(outgoing)
        return sent

    def _readings(self, line: bytes, blind: bool) -> list[Reading]:
        if self.protocol == "line":
            return [plain_reading(parse_plain(line), raw_text(line), self.clock(), blind)]
        return self.tracker.feed(parse_cammegh(line), blind)

    def _stalled(self) -> bool:
        """Has the reader just come back from not running for STALL_S (its process stopped,
        the PC asleep)? The lines the port gives at once then (for BACKLOG_S) waited in its
        buffer meanwhile: when each showed is unknown, so they are read blind (a number is
        sent as not seen spun)."""
        now = self.clock()
        self._came_back(now)
        return now < self.blind_until

    def _came_back(self, now: float) -> None:
        """After a stall, whichever runs first (a line or the tick) begins the blind time."""
        if now - self.alive > STALL_S and self.stall_said != self.alive:
            self.stall_said, self.blind_until = self.alive, now + BACKLOG_S
            self.tracker.gap()
            log.warning("the reader did not run for %.0f s (its process stopped, or the PC "
                        "slept): the lines that waited meanwhile are read blind, their numbers "
                        "sent as not seen spun (held for the MC)", now - self.alive)

    async def _tick(self) -> None:
        while True:
            now = self.clock()
            self._came_back(now)
            self.alive = now
            await asyncio.sleep(TICK_S)

    def outgoing(self, reading: Reading) -> Outgoing:
        if reading.game is None:
            command_id, game = f"wheel:{self.table}:line:{uuid.uuid4().hex}", None
        else:
            game = f"{reading.run}:{reading.game}"
            command_id = f"wheel:{self.table}:{game}:{reading.kind}"
        payload = {"table": self.table, "kind": reading.kind, "number": reading.number,
                   "game": reading.game, "raw": reading.raw, "run": reading.run,
                   "ball_unseen": reading.ball_unseen}
        return Outgoing(command_id, payload, reading.raw, reading.read_at, reading.ball_at,
                        game, reading.kind in MOMENTS)

    async def run(self, port: Port) -> None:
        """Read for ever: the port's lines, the link to the controller (each reconnecting on
        its own) and the tick, side by side. None of them ends while the reader runs; should
        one (a fault no loop of theirs catches), the others are stopped and `ReaderStopped`
        says which, so the process ends loudly and its service starts it again, rather than
        reading on with nothing sending (a task dead without a word)."""
        jobs = [asyncio.create_task(self._read(port), name="reading the wheel's port"),
                asyncio.create_task(self.link.run(), name="sending to the controller"),
                asyncio.create_task(self._tick(), name="the reader's clock")]
        try:
            done, _ = await asyncio.wait(jobs, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
        ended = next(job for job in jobs if job in done)
        raise ReaderStopped(f"{ended.get_name()} ended") from ended.exception()

    async def _read(self, port: Port) -> None:
        async for line in port.lines():
            self.take(line)

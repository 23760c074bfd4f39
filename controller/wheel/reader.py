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


class Reader:
    """One table's wheel: turns lines into queued readings for the link."""

    def __init__(self, table: str, protocol: Protocol, link: ControllerLink,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.protocol = protocol
        self.link = link
        self.clock = clock
        self.tracker = CammeghTracker(clock)

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
            readings = self._readings(line)
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

    def _readings(self, line: bytes) -> list[Reading]:
        if self.protocol == "line":
            return [plain_reading(parse_plain(line), raw_text(line), self.clock())]
        return self.tracker.feed(parse_cammegh(line))

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
        """Read for ever; the link runs beside the port, each reconnecting on its own."""
        sender = asyncio.create_task(self.link.run())
        try:
            async for line in port.lines():
                self.take(line)
        finally:
            sender.cancel()

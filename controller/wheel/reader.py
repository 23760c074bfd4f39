"""The reader: the port's lines, parsed and tracked, sent to the controller as readings.

Each line is parsed by its protocol; a line that is not a reading (noise, a number off the
wheel) is logged with the line as read and skipped. Each reading becomes a `wheel.reading`
command whose id the controller deduplicates: Cammegh `wheel:TABLE:GAME:KIND` (a restarted
reader resending a game's number is told `already_read`), plain lines
`wheel:TABLE:line:UUID` (every line is a new spin).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Literal

from controller.wheel.link import ControllerLink, Outgoing
from controller.wheel.port import Port
from controller.wheel.protocols import LineError, parse_cammegh, parse_plain, raw_text
from controller.wheel.tracker import CammeghTracker, Reading, plain_reading

log = logging.getLogger(__name__)

Protocol = Literal["cammegh", "line"]


class Reader:
    """One table's wheel: turns lines into queued readings for the link."""

    def __init__(self, table: str, protocol: Protocol, link: ControllerLink) -> None:
        self.table = table
        self.protocol = protocol
        self.link = link
        self.tracker = CammeghTracker()

    def take(self, line: bytes) -> Outgoing | None:
        """The command one line makes (queued on the link), or None (logged if not a reading)."""
        try:
            reading = self._reading(line)
        except LineError as exc:
            log.warning("not a reading: %s (line %r)", exc, raw_text(line))
            return None
        if reading is None:
            return None
        outgoing = self.outgoing(reading)
        log.info("read %s (line %r)", outgoing.command_id, reading.raw)
        self.link.submit(outgoing)
        return outgoing

    def _reading(self, line: bytes) -> Reading | None:
        if self.protocol == "line":
            return plain_reading(parse_plain(line), raw_text(line))
        return self.tracker.feed(parse_cammegh(line))

    def outgoing(self, reading: Reading) -> Outgoing:
        if reading.game is None:
            command_id = f"wheel:{self.table}:line:{uuid.uuid4().hex}"
        else:
            command_id = f"wheel:{self.table}:{reading.game}:{reading.kind}"
        payload = {"table": self.table, "kind": reading.kind, "number": reading.number,
                   "game": reading.game, "raw": reading.raw}
        return Outgoing(command_id, payload, reading.raw)

    async def run(self, port: Port) -> None:
        """Read for ever; the link runs beside the port, each reconnecting on its own."""
        sender = asyncio.create_task(self.link.run())
        try:
            async for line in port.lines():
                self.take(line)
        finally:
            sender.cancel()

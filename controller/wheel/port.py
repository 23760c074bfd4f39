"""The wheel's byte stream: a serial port (RS-232, 9600 8N1) or a TCP socket, split into
lines, reopened for ever.

A cable pulled, a USB adapter unplugged or a serial server restarted is an outage, not an
end: the port is reopened with a capped backoff (0.5 s doubling to 5 s), and each outage is
logged once, not once per attempt. A "line" longer than MAX_LINE bytes (noise, a wrong baud
rate) is passed on cut to MAX_LINE + 1 bytes, for the parser to refuse, and the rest of it up
to the next line end is skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable

import serial_asyncio

from controller.wheel.protocols import MAX_LINE

log = logging.getLogger(__name__)

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
Opener = Callable[[], Awaitable[Streams]]
OnChange = Callable[[bool, str], None]  # (open, detail)
LINE_END = re.compile(rb"[\r\n]")
CHUNK = 4096


def serial_opener(device: str, baud: int = 9600) -> Opener:
    """Opens `device` 8N1 at `baud`; what waited in its buffer before is dropped, so the
    reader starts from what the wheel says now."""

    async def open_() -> Streams:
        reader, writer = await serial_asyncio.open_serial_connection(url=device, baudrate=baud)
        with contextlib.suppress(Exception):
            writer.transport.serial.reset_input_buffer()
        return reader, writer

    return open_


def tcp_opener(host: str, port: int) -> Opener:
    """A serial-to-Ethernet server (or the simulator's --tcp-listen)."""

    async def open_() -> Streams:
        return await asyncio.open_connection(host, port)

    return open_


async def split_lines(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """Non-empty lines (CR, LF or CRLF ends) until the stream ends; an over-long one cut."""
    buffer, skipping = b"", False
    while True:
        chunk = await reader.read(CHUNK)
        if not chunk:
            return
        buffer += chunk
        while True:
            end = LINE_END.search(buffer)
            if end is None:
                if len(buffer) > MAX_LINE:
                    if not skipping:
                        yield buffer[:MAX_LINE + 1]
                    buffer, skipping = b"", True
                break
            line, buffer = buffer[:end.start()], buffer[end.end():]
            if skipping:
                skipping = False
            elif len(line) > MAX_LINE:
                yield line[:MAX_LINE + 1]
            elif line.strip():
                yield line


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


class Port:
    """The lines of one port, across every outage; `on_change` hears each open and close."""

    def __init__(self, opener: Opener, name: str, on_change: OnChange,
                 backoff_first_s: float = 0.5, backoff_max_s: float = 5.0) -> None:
        self.opener = opener
        self.name = name
        self.on_change = on_change
        self.backoff_first_s = backoff_first_s
        self.backoff_max_s = backoff_max_s

    def backoff(self, failures: int) -> float:
        return min(self.backoff_max_s, self.backoff_first_s * 2 ** min(max(failures - 1, 0), 8))

    async def lines(self) -> AsyncIterator[bytes]:
        failures, reason, in_outage = 0, "", False
        while True:
            try:
                reader, writer = await self.opener()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a missing device, a refused connection: try again
                failed = f"cannot open {self.name}: {_describe(exc)}"
                if not in_outage:  # an outage is logged once, not once per attempt
                    log.warning("%s; trying again until it opens", failed)
                elif failed != reason:
                    log.info("still closed: %s", failed)
                if failed != reason:
                    self.on_change(False, failed)
                reason, in_outage, failures = failed, True, failures + 1
                await asyncio.sleep(self.backoff(failures))
                continue
            log.info("%s open%s", self.name, " again" if in_outage else "")
            self.on_change(True, f"{self.name} open")
            try:
                async for line in split_lines(reader):
                    yield line
                reason = f"{self.name} closed (end of stream)"
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a read error is an outage like any other
                reason = f"{self.name} failed: {_describe(exc)}"
            finally:
                with contextlib.suppress(Exception):
                    writer.close()
            log.warning("%s; reopening until it opens", reason)
            self.on_change(False, reason)
            in_outage, failures = True, 1
            await asyncio.sleep(self.backoff(failures))

"""Socket.IO packets written straight to each client's WebSocket: one frame per message.

python-socketio sends a broadcast by starting one task per client; each queues the packet for
that client's engine.io writer task, which wakes, encodes it and hands it to aiohttp, which
deflates it when the client offered permessage-deflate (the Node client and the browsers do):
three task switches and a zlib run per client per message. At a thousand screens that made a
score change take a quarter of a second to reach the floor. Here, as socket.io's own broadcast
does with its pre-encoded WebSocket frame:

- `DirectManager.emit` encodes a message once, frames it once and writes the frame to each
  recipient's transport in turn, with no task (giving the loop back every few ms: a client that
  leaves meanwhile is skipped);
- `DirectEngine.send_packet` writes a single packet (an ack, a message to one client) the same
  way, so a client's Socket.IO packets leave in the order they were sent;
- `DirectWebSocket` declines permessage-deflate: a view message is about 1 KB, and deflating it
  once per client cost more than it saved and kept a zlib state per connection.

Engine.IO's own packets (open, ping, close) still go through its queue and writer task; their
order against messages does not matter. A client that stops reading is cut once
`MAX_BUFFERED_BYTES` wait for it: it reconnects and resyncs, where its buffer would grow.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from typing import Any

import engineio
import socketio
from aiohttp.web import WebSocketResponse
from engineio import packet as eio_packet
from engineio.async_drivers import aiohttp as aiohttp_driver
from socketio import packet

from controller.realtime.outbox import Slices

log = logging.getLogger(__name__)

MAX_BUFFERED_BYTES = 4 << 20  # a screen this far behind is cut and resyncs on reconnect
WRITES_PER_CHECK = 50  # writes between looks at the clock (`Slices`)
TEXT, BINARY = 0x1, 0x2


def websocket_frame(encoded: str | bytes) -> bytes:
    """One unmasked, final WebSocket frame (RFC 6455 §5.2) carrying an encoded engine.io packet:
    text for a str, binary for bytes."""
    payload, opcode = (encoded.encode(), TEXT) if isinstance(encoded, str) else (encoded, BINARY)
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x80 | opcode, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 126, size)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 127, size)
    return header + payload


class DirectWebSocket(aiohttp_driver.WebSocket):
    """engine.io's aiohttp WebSocket, uncompressed, its transport known to the engine while the
    connection is open."""

    async def __call__(self, environ: dict[str, Any]) -> WebSocketResponse:
        request = environ["aiohttp.request"]
        self._sock = WebSocketResponse(max_msg_size=self.server.max_http_buffer_size,
                                       compress=False)
        await self._sock.prepare(request)
        self.environ = environ
        sid = self.handler.__self__.sid  # the handler is the engine.io socket's bound method
        self.server.writable[sid] = request.transport
        try:
            await self.handler(self)
        finally:
            self.server.writable.pop(sid, None)
        return self._sock


class DirectEngine(engineio.AsyncServer):
    """The engine.io server whose packets to an open WebSocket are written at once."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._async: dict[str, Any] = {**self._async, "websocket": DirectWebSocket}  # driver parts
        self.writable: dict[str, asyncio.Transport] = {}  # sid -> its open WebSocket's transport

    def write(self, sid: str, frame: bytes) -> bool:
        """Write `frame` to client `sid` now; False if it has no open WebSocket here."""
        transport = self.writable.get(sid)
        if transport is None or transport.is_closing():
            return False
        if transport.get_write_buffer_size() > MAX_BUFFERED_BYTES:
            log.warning("a client stopped reading (%d bytes waiting); cut, it will resync",
                        transport.get_write_buffer_size())
            transport.abort()
            return True
        transport.write(frame)
        return True

    async def send_packet(self, sid: str, pkt: eio_packet.Packet) -> None:
        if not self.write(sid, websocket_frame(pkt.encode())):
            await super().send_packet(sid, pkt)


class DirectManager(socketio.AsyncManager):
    """A manager whose `emit` writes one frame to every recipient (see the module's docstring).
    After a pub/sub manager in a subclass's bases, messages from the queue come here too."""

    async def emit(self, event: str, data: Any, namespace: str, room: Any = None,
                   skip_sid: Any = None, callback: Any = None, to: Any = None,
                   **kwargs: Any) -> None:
        if callback is not None:  # one packet per recipient, each with its own ack id
            await super().emit(event, data, namespace, room=room, skip_sid=skip_sid,
                               callback=callback, to=to, **kwargs)
            return
        room = to or room
        if namespace not in self.rooms:
            return
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        skip = skip_sid if isinstance(skip_sid, list) else [skip_sid]
        encoded = self.server.packet_class(packet.EVENT, namespace=namespace,
                                           data=[event, *args]).encode()
        packets = [eio_packet.Packet(eio_packet.MESSAGE, part)
                   for part in (encoded if isinstance(encoded, list) else [encoded])]
        frames = b"".join(websocket_frame(p.encode()) for p in packets)
        engine = self.server.eio
        queued = []
        slices = Slices()  # a thousand writes take a few ms: the loop is given back between
        for n, (sid, eio_sid) in enumerate(list(self.get_participants(namespace, room))):
            if sid not in skip and not engine.write(eio_sid, frames):
                queued.append(eio_sid)
            if n % WRITES_PER_CHECK == WRITES_PER_CHECK - 1:
                await slices.pause()
        for eio_sid in queued:  # not on an open WebSocket here: engine.io's own path
            for p in packets:
                await self.server._send_eio_packet(eio_sid, p)


class DirectRedisManager(socketio.AsyncRedisManager, DirectManager):
    """The Redis manager of a show served by several processes: each process writes what the
    queue brings it to its own clients directly."""

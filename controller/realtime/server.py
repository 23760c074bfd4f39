"""The Socket.IO server, hardened: malformed packets are answered, not tracebacks.

python-socketio lets a packet that does not decode, or an event of the wrong shape, raise
inside the library (a 30-line traceback each, and no answer). Here each such packet is one log
line and, when it carries an ack id, an error ack `{ok: false, error: {code: "bad_packet"}}`;
the connection goes on. Only the audiences' namespaces accept connections (`/` refuses), and
only over WebSocket (every client uses it; HTTP long-polling would be one more parser facing
the network, and its undecodable bodies were answered 200).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import socketio
from socketio import packet

from controller.access.attempts import remote_address
from controller.domain.errors import refusal
from controller.domain.strict_json import JsonRefused
from controller.realtime.direct import DirectEngine, DirectManager
from controller.realtime.packets import JsonPacket

log = logging.getLogger("controller.realtime.server")

BAD_PACKET = "That message could not be read, so nothing was done."
MAX_ARGS = 1  # every handler takes at most one argument (the event's data)


def bad_packet_ack(why: str = BAD_PACKET) -> dict[str, Any]:
    return refusal("bad_packet", why)


def answers(handler: Any, event: str) -> bool:
    """Does this namespace's handler answer `event` (its `on_<event>`, or a query)?"""
    return hasattr(handler, f"on_{event}") or event in getattr(handler, "queries", {})


class OneLine(logging.Filter):
    """The libraries' own error logs (e.g. engine.io's "Unknown receive error" for a packet
    below Socket.IO) as one line: the exception's type and message, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {type(exc).__name__}: {str(exc)[:120]!r}"
            record.args = None
            record.exc_info = record.exc_text = None
        return True


class WireServer(socketio.AsyncServer):
    """Packets go straight to each WebSocket (controller/realtime/direct.py), JSON only
    (controller/realtime/packets.py)."""

    def __init__(self, namespaces: list[str], client_manager: socketio.AsyncManager | None = None,
                 **options: Any) -> None:
        super().__init__(client_manager=client_manager or DirectManager(), async_mode="aiohttp",
                         namespaces=namespaces, transports=["websocket"],
                         serializer=JsonPacket, **options)
        for library_log in (self.logger, self.eio.logger):
            if not any(isinstance(f, OneLine) for f in library_log.filters):
                library_log.addFilter(OneLine())

    def _engineio_server_class(self) -> type[DirectEngine]:
        return DirectEngine

    async def _handle_eio_message(self, eio_sid: str, data: Any) -> None:
        try:
            await super()._handle_eio_message(eio_sid, data)
        except Exception as exc:  # whatever the library raised: answer once, go on
            self._binary_packet.pop(eio_sid, None)
            partial = JsonPacket()  # its data is not read past the doors' limits
            if isinstance(data, str):
                with contextlib.suppress(Exception):  # only its namespace and id are wanted
                    partial.decode(data)
            if partial.packet_type == packet.CONNECT and isinstance(exc, JsonRefused):
                await self._refuse_connect(eio_sid, partial.namespace, exc)
                return
            await self._refuse(eio_sid, partial.namespace, partial.id, exc)

    async def _refuse_connect(self, eio_sid: str, namespace: str | None,
                              exc: JsonRefused) -> None:
        """A connect whose auth could not be read: one log line, and a refused connect saying
        why (the client would otherwise wait for an answer that never comes)."""
        address = remote_address(self.environ.get(eio_sid, {}))
        log.warning("bad packet from %s on %s: %s: %r", address, namespace or "/",
                    type(exc).__name__, str(exc)[:120])
        await self._send_packet(eio_sid, self.packet_class(
            packet.CONNECT_ERROR, namespace=namespace,
            data={"message": f"That connection could not be read: {exc}"}))

    async def _handle_event(self, eio_sid: str, namespace: str | None, id: int | None,
                            data: Any) -> None:
        if not (isinstance(data, list) and data and isinstance(data[0], str)
                and len(data) <= 1 + MAX_ARGS):
            await self._refuse(eio_sid, namespace, id,
                               ValueError("an event must be [name] or [name, data]"))
            return
        handler = self.namespace_handlers.get(namespace or "/")
        if data[0] in self.reserved_events or not answers(handler, data[0]):
            # a client sending "disconnect" would otherwise run the server's own handler
            await self._refuse(eio_sid, namespace, id, ValueError(f"no event {data[0]!r:.40}"))
            return
        await super()._handle_event(eio_sid, namespace, id, data)

    async def _handle_event_internal(self, server: Any, sid: str, eio_sid: str, data: Any,
                                     namespace: str, id: int | None) -> None:
        try:
            await super()._handle_event_internal(server, sid, eio_sid, data, namespace, id)
        except Exception as exc:  # a handler's bug must not kill the socket
            await self._refuse(eio_sid, namespace, id, exc)

    async def _refuse(self, eio_sid: str, namespace: str | None, id: int | None,
                      exc: Exception) -> None:
        """One log line; an error ack if the packet had an id on a connected namespace."""
        namespace = namespace or "/"
        address = remote_address(self.environ.get(eio_sid, {}))
        log.warning("bad packet from %s on %s: %s: %r", address, namespace,
                    type(exc).__name__, str(exc)[:120])
        if id is None or self.manager.sid_from_eio_sid(eio_sid, namespace) is None:
            return
        why = (f"That message could not be read, so nothing was done: {exc}"
               if isinstance(exc, JsonRefused) else BAD_PACKET)
        await self._send_packet(eio_sid, self.packet_class(
            packet.ACK, namespace=namespace, id=id, data=[bad_packet_ack(why)]))

"""The reader's line to the controller: Socket.IO on `/device`, reconnected for ever.

Readings are commands (`wheel.reading`) with ids made from the table, the run, the game and
the kind, so a reading resent after a lost ack is applied once. While the controller is away
they wait (controller/wheel/waiting.py: every number kept, stale moments dropped) and are sent
in order when it is back; one leaves the queue only when its ack is in. Each send carries the
reading's age at that moment, so a resend's payload differs from the first: a resend answered
`command_id_reused` was recorded by an earlier send whose ack was lost, and the link asks again
with that send's payload to log what was recorded. The port's state goes as a `status` message
on every change and every STATUS_EVERY_S, which the controller shows on the console ("wheel
AR14: reading since ..."). A refusal is logged with the line as read and the controller's
sentence; it never stops the reader (common.md, "Wheel").

Several controllers on one PostgreSQL log (docs/operations.md): the link is given all their
addresses and moves to the next when a session fails, or when a reading is answered
`not_leader` (the controller it reached does not lead; nothing was written): that reading
stays first in the queue and goes to the leader.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import socketio

from controller.wheel.waiting import Outgoing, Waiting

log = logging.getLogger(__name__)

NAMESPACE = "/device"
STATUS_EVERY_S = 5.0


@dataclass(frozen=True)
class LinkTimings:
    """How long the link waits for anything; tests may shorten them."""

    connect_s: float = 5.0
    call_s: float = 4.0
    status_every_s: float = STATUS_EVERY_S
    backoff_first_s: float = 0.5
    backoff_max_s: float = 5.0

    def backoff(self, failures: int) -> float:
        step = min(self.backoff_max_s, self.backoff_first_s * 2 ** min(failures, 16))
        return step * (500 + secrets.randbelow(501)) / 1000  # jitter: 0.5 to 1 of a step


class LinkLost(Exception):
    """The connection is gone or no longer answers."""


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


class ControllerLink:
    """Holds the queue and the port's state; `run` keeps a session up for ever."""

    def __init__(self, urls: tuple[str, ...], key: str,
                 timings: LinkTimings | None = None) -> None:
        self.urls = urls
        self.at = 0  # the address tried now
        self.key = key
        self.timings = timings or LinkTimings()
        self.queue = Waiting()
        self.port_status = {"port": "closed", "detail": "not opened yet"}
        self._wake = asyncio.Event()
        self._status_due = True

    # -- from the reader -------------------------------------------------------------------
    def submit(self, outgoing: Outgoing) -> None:
        """Queue a reading (stale moments and, past the limit, the oldest dropped: logged)."""
        self.queue.add(outgoing)
        self._wake.set()

    def set_port(self, is_open: bool, detail: str) -> None:
        self.port_status = {"port": "open" if is_open else "closed", "detail": detail[:200]}
        self._status_due = True
        self._wake.set()

    # -- the reconnect loop ----------------------------------------------------------------
    @property
    def url(self) -> str:
        return self.urls[self.at]

    async def run(self) -> None:
        failures, last_reason = 0, ""
        while True:
            online = False
            try:
                online = await self._session()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # whatever breaks a session, the reader tries again
                reason = _describe(exc)
                (log.debug if reason == last_reason else log.warning)(
                    "controller %s: %s; trying again", self.url, reason)
                last_reason = reason
            if online:
                last_reason = ""
            failures = 0 if online else failures + 1
            self.at = (self.at + 1) % len(self.urls)  # the leader may be another now
            await asyncio.sleep(self.timings.backoff(failures // len(self.urls)))

    async def _session(self) -> bool:
        """Connect, then send status and readings until the link dies. True once online."""
        t = self.timings
        lost = asyncio.Event()
        http = aiohttp.ClientSession()
        sio = socketio.AsyncClient(reconnection=False, http_session=http)
        refusal: list[str] = []

        async def on_disconnect(reason: Any = None) -> None:
            lost.set()
            self._wake.set()

        async def on_connect_error(data: Any = None) -> None:
            message = data.get("message") if isinstance(data, dict) else data
            if message:
                refusal.append(str(message))

        sio.on("disconnect", on_disconnect, namespace=NAMESPACE)
        sio.on("connect_error", on_connect_error, namespace=NAMESPACE)
        online = False
        try:
            try:
                await asyncio.wait_for(sio.connect(
                    self.url, namespaces=[NAMESPACE], transports=["websocket"],
                    auth={"key": self.key}, wait_timeout=t.connect_s), t.connect_s + 1)
            except TimeoutError as exc:
                raise LinkLost(f"no answer within {t.connect_s:g} s") from exc
            except socketio.exceptions.ConnectionError as exc:
                raise LinkLost(refusal[-1] if refusal else _describe(exc)) from exc
            online = True
            log.info("connected to the controller at %s", self.url)
            self._status_due = True
            await self._pump(sio, lost)
        except LinkLost as exc:
            if online:
                log.warning("controller %s lost: %s; reconnecting", self.url, exc)
            else:
                raise
        finally:
            await _discard(sio, http)
        return online

    async def _pump(self, sio: socketio.AsyncClient, lost: asyncio.Event) -> None:
        """Status when due, then the queue in order, each reading until its ack is in."""
        loop = asyncio.get_running_loop()
        next_status = loop.time()
        while True:
            if lost.is_set():
                raise LinkLost("the connection closed")
            if self._status_due or loop.time() >= next_status:
                self._status_due = False
                await self._call(sio, "status", dict(self.port_status))
                next_status = loop.time() + self.timings.status_every_s
            outgoing = self.queue.first()
            if outgoing is not None:
                self.queue.in_flight = outgoing
                try:
                    ack = await self._send(sio, outgoing)
                finally:
                    self.queue.in_flight = None
                self.queue.done(outgoing)
                _log_ack(outgoing, ack)
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.0, next_status - loop.time()))

    async def _send(self, sio: socketio.AsyncClient, outgoing: Outgoing) -> Any:
        """The reading's ack; a resend refused `command_id_reused` was recorded by an earlier
        send (its ack lost on the way): that send's ack, asked again with its payload."""
        ack = await self._call(sio, "command", outgoing.envelope(time.monotonic()))
        if _not_leader(ack):  # nothing written here: the reading waits for the leader
            raise LinkLost(ack["error"].get("message", "this controller does not lead"))
        if _code(ack) != "command_id_reused":
            return ack
        log.info("%s was recorded by an earlier send whose ack was lost; asking for it",
                 outgoing.command_id)
        for earlier in reversed(outgoing.sent[:-1]):
            again = await self._call(sio, "command", {"type": "wheel.reading",
                                                      "payload": earlier,
                                                      "command_id": outgoing.command_id})
            if isinstance(again, dict) and again.get("ok"):
                return again
        return ack

    async def _call(self, sio: socketio.AsyncClient, event: str, data: Any) -> Any:
        try:
            return await sio.call(event, data, namespace=NAMESPACE, timeout=self.timings.call_s)
        except socketio.exceptions.TimeoutError as exc:
            raise LinkLost(f"no answer to {event} within {self.timings.call_s:g} s") from exc
        except socketio.exceptions.SocketIOError as exc:
            raise LinkLost(f"{event} failed: {_describe(exc)}") from exc


def _code(ack: Any) -> str | None:
    error = ack.get("error") if isinstance(ack, dict) else None
    return error.get("code") if isinstance(error, dict) else None


def _not_leader(ack: Any) -> bool:
    return _code(ack) == "not_leader"


def _log_ack(outgoing: Outgoing, ack: Any) -> None:
    """Accepted or refused, the line as read goes in the log with what the controller said:
    the events it recorded (a spin, or a reading held for the MC) or its sentence."""
    if isinstance(ack, dict) and ack.get("ok"):
        events = ack.get("events")
        told = ", ".join(str(e.get("type")) for e in events
                         if isinstance(e, dict)) if isinstance(events, list) else ""
        log.info("accepted %s: %s (line %r)", outgoing.command_id, told or "done",
                 outgoing.raw)
        return
    error = ack.get("error") if isinstance(ack, dict) else None
    code = error.get("code", "?") if isinstance(error, dict) else "?"
    message = error.get("message", str(ack)) if isinstance(error, dict) else str(ack)
    log.warning("refused %s [%s]: %s (line %r)", outgoing.command_id, code, message,
                outgoing.raw)


async def _discard(sio: socketio.AsyncClient, http: aiohttp.ClientSession) -> None:
    """Close a client that may be talking to a frozen peer: never wait long for it."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(sio.disconnect(), 1)
    for task in (sio.eio.read_loop_task, sio.eio.write_loop_task):
        if task is not None and not task.done():
            task.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(http.close(), 1)

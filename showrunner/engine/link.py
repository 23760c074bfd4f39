"""The screen's line to the controller: a Socket.IO client on its own thread.

The render loop never waits on the network: everything the link learns is put on `inbox`
(a thread-safe queue) as small messages, which the loop drains once per frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import socketio

from showrunner.engine.clock import OffsetEstimator, local_ms

log = logging.getLogger(__name__)

NAMESPACE = "/display"
CLOCK_SAMPLES_AT_CONNECT = 5
CLOCK_INTERVAL_S = 10.0


@dataclass(frozen=True)
class ViewChanged:
    name: str
    revision: int
    doc: dict[str, Any]


@dataclass(frozen=True)
class LinkStatus:
    online: bool
    since_ms: int
    reason: str = ""


@dataclass(frozen=True)
class ClockOffset:
    offset_ms: float


@dataclass(frozen=True)
class LinkRefused:
    """The controller refused this screen's key; `reason` is its sentence, shown on screen."""

    reason: str


@dataclass(frozen=True)
class ScreenshotRequested:
    pass


LinkMessage = ViewChanged | LinkStatus | ClockOffset | LinkRefused | ScreenshotRequested


class Link:
    """Connects, resyncs by revision, keeps the clock offset fresh, reconnects with backoff
    and jitter (python-socketio's own reconnection, also applied to the first attempt)."""

    def __init__(self, url: str, screen: str, key: str,
                 held_revisions: Mapping[str, int] | None = None) -> None:
        self.url = url
        self.screen = screen
        self.key = key
        self.inbox: queue.Queue[LinkMessage] = queue.Queue()
        self._held = dict(held_revisions or {})
        self._estimator = OffsetEstimator()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None
        self.sio = socketio.AsyncClient(
            reconnection=True, reconnection_delay=0.5, reconnection_delay_max=5,
            randomization_factor=0.5,
        )
        self.sio.on("connect", self._on_connect, namespace=NAMESPACE)
        self.sio.on("disconnect", self._on_disconnect, namespace=NAMESPACE)
        self.sio.on("connect_error", self._on_connect_error, namespace=NAMESPACE)
        self.sio.on("views", self._on_views, namespace=NAMESPACE)
        self.sio.on("screenshot_request", self._on_screenshot_request, namespace=NAMESPACE)
        self.sio.on("refused", self._on_connect_error, namespace=NAMESPACE)

    # -- thread ----------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="link", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._loop and self._stopping:
            self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread:
            self._thread.join(5)

    def emit(self, event: str, data: dict[str, Any]) -> None:
        """Send telemetry from the render thread without waiting; dropped while offline."""
        if self._loop is not None and self.sio.connected:
            asyncio.run_coroutine_threadsafe(self._emit(event, data), self._loop)

    async def _emit(self, event: str, data: dict[str, Any]) -> None:
        with contextlib.suppress(socketio.exceptions.SocketIOError):
            await self.sio.emit(event, data, namespace=NAMESPACE)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        connector = asyncio.create_task(self._connect())
        clock = asyncio.create_task(self._clock_loop())
        await self._stopping.wait()
        connector.cancel()
        clock.cancel()
        with contextlib.suppress(Exception):
            await self.sio.disconnect()

    async def _connect(self) -> None:
        try:
            await self.sio.connect(
                self.url, namespaces=[NAMESPACE], transports=["websocket"],
                auth={"key": self.key, "screen": self.screen}, retry=True, wait_timeout=5,
            )
        except socketio.exceptions.ConnectionError as exc:
            self._status(False, str(exc))

    # -- events ----------------------------------------------------------------------------
    async def _on_connect(self) -> None:
        self._status(True)
        reply = await self.sio.call("sync", {"revisions": self._held}, namespace=NAMESPACE)
        await self._on_views(reply)
        for _ in range(CLOCK_SAMPLES_AT_CONNECT):
            await self._sample_clock()

    async def _on_disconnect(self, reason: Any = None) -> None:
        self._status(False, str(reason or "disconnected"))

    async def _on_connect_error(self, data: Any = None) -> None:
        message = data.get("message") if isinstance(data, dict) else data
        self._status(False, str(message or "cannot reach the controller"))
        if isinstance(data, dict) and message:  # the controller answered: a refusal
            self.inbox.put(LinkRefused(str(message)))

    async def _on_screenshot_request(self, data: Any = None) -> None:
        self.inbox.put(ScreenshotRequested())

    async def _on_views(self, message: dict[str, Any]) -> None:
        for view in message.get("views", []):
            name, revision = view["name"], int(view["revision"])
            if revision >= self._held.get(name, -1):
                self._held[name] = revision
                self.inbox.put(ViewChanged(name, revision, view["doc"]))

    # -- clock -----------------------------------------------------------------------------
    async def _clock_loop(self) -> None:
        while True:
            await asyncio.sleep(CLOCK_INTERVAL_S)
            if self.sio.connected:
                await self._sample_clock()

    async def _sample_clock(self) -> None:
        sent = local_ms()
        try:
            reply = await self.sio.call("clock", {"client_ms": sent}, namespace=NAMESPACE,
                                        timeout=2)
        except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError):
            return
        offset = self._estimator.add(sent, float(reply["server_ms"]), local_ms())
        self.inbox.put(ClockOffset(offset))

    def _status(self, online: bool, reason: str = "") -> None:
        self.inbox.put(LinkStatus(online, int(local_ms()), reason))

"""The screen's line to the controller: a Socket.IO client on its own thread.

The render loop never waits on the network: everything the link learns is put on `inbox`
(a thread-safe queue) as small messages, which the loop drains once per frame.

The link owns its reconnect loop rather than using python-socketio's: that one's task dies
with a `TimeoutError` when an attempt gets no HTTP answer (a frozen controller, a path that
drops packets), and the screen would then stay offline for good. Here every attempt is a fresh
client on its own HTTP session, every await has a timeout, any failure is logged and followed
by a capped, jittered exponential backoff, for ever. A ping (the `clock` call, which also
keeps the clock offset fresh) every `ping_every_s` must be answered within `call_s`, so a
silent loss is noticed within `ping_every_s + call_s` (7 s by default).

A screen may be given several addresses (a controller and its standbys on other PCs): an attempt
that fails moves on to the next at once, and the backoff grows only after a whole round failed;
a session that was online and lost tries the same address first.

A large view may arrive as a delta against the revision held (docs/protocol.md, "Deltas"):
it is passed on as `ViewPatched` when its base is the revision held; otherwise (a gap) the
link asks for that view whole with `sync`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
import socketio

from showrunner.engine.clock import ClockEstimator, ClockFix, local_ms

log = logging.getLogger(__name__)

NAMESPACE = "/display"
CLOCK_SAMPLES_AT_CONNECT = 5
NEXT_ADDRESS_S = 0.1  # after a failed attempt, before the next address of the round


@dataclass(frozen=True)
class LinkTimings:
    """How long the link waits for anything; tests shorten them."""

    connect_s: float = 5.0  # one attempt: TCP, the WebSocket upgrade and the namespace
    call_s: float = 4.0  # an answer to sync or to a ping
    ping_every_s: float = 3.0
    backoff_first_s: float = 0.5
    backoff_max_s: float = 5.0

    def backoff(self, failures: int) -> float:
        """Exponential from `backoff_first_s`, capped, with jitter (50-100 % of the step) so a
        floor of screens does not knock on a returning controller all at once."""
        step = min(self.backoff_max_s, self.backoff_first_s * 2 ** min(failures, 16))
        return step * random.uniform(0.5, 1.0)


@dataclass(frozen=True)
class ViewChanged:
    name: str
    revision: int
    doc: dict[str, Any]


@dataclass(frozen=True)
class ViewPatched:
    """A change to view `name` from revision `base` (the one held) to `revision`."""

    name: str
    revision: int
    base: int
    delta: dict[str, Any]


@dataclass(frozen=True)
class LinkStatus:
    online: bool
    since_ms: int
    reason: str = ""


@dataclass(frozen=True)
class ClockOffset:
    """The controller's clock is `offset_ms` ahead of the local one at local time `local_ms`
    and runs `rate` times as fast (a rehearsal's `--speed`)."""

    offset_ms: float
    rate: float = 1.0
    local_ms: float = 0.0

    @property
    def fix(self) -> ClockFix:
        return ClockFix(self.local_ms, self.local_ms + self.offset_ms, self.rate)


@dataclass(frozen=True)
class LinkRefused:
    """The controller refused this screen's key; `reason` is its sentence, shown on screen."""

    reason: str


@dataclass(frozen=True)
class ScreenshotRequested:
    pass


@dataclass(frozen=True)
class LogJoined:
    """The controller's log, told at every (re)connection, before its views. `reset` says why
    every view held must be dropped (another log, or one that ends before what was held);
    empty when the views held are still good."""

    log_id: str
    url: str  # the controller that told it (where media are fetched from too)
    reset: str = ""


@dataclass(frozen=True)
class Wake:
    """Not from the link: another worker of the display (the media cache, a file arrived)
    put it on the same inbox, so the loop looks again at what to show."""


LinkMessage = (ViewChanged | ViewPatched | LinkStatus | ClockOffset | LinkRefused
               | ScreenshotRequested | LogJoined | Wake)


class LinkLost(Exception):
    """The connection is gone or no longer answers."""


class Link:
    """Connects, resyncs by revision (from scratch on another log), pings, and reconnects."""

    def __init__(self, url: str | Sequence[str], screen: str, key: str,
                 held_revisions: Mapping[str, int] | None = None, log_id: str | None = None,
                 timings: LinkTimings | None = None) -> None:
        self.urls = (url,) if isinstance(url, str) else tuple(url)
        self.url = self.urls[0]  # the address tried now
        self.screen = screen
        self.key = key
        self.timings = timings or LinkTimings()
        self.inbox: queue.Queue[LinkMessage] = queue.Queue()
        self._held = dict(held_revisions or {})
        self._log_id = log_id
        self._estimator = ClockEstimator()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None
        self._sio: socketio.AsyncClient | None = None
        self._filling: set[asyncio.Task[None]] = set()

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
        if self._loop is not None and self._sio is not None and self._sio.connected:
            asyncio.run_coroutine_threadsafe(self._emit(self._sio, event, data), self._loop)

    def request_whole(self, name: str) -> None:
        """From the render thread: a delta did not fit the view held; fetch it whole."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._fill, [name])

    async def _emit(self, sio: socketio.AsyncClient, event: str, data: dict[str, Any]) -> None:
        with contextlib.suppress(socketio.exceptions.SocketIOError):
            await sio.emit(event, data, namespace=NAMESPACE)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        runner = asyncio.create_task(self._stay_connected())
        await self._stopping.wait()
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner

    # -- the reconnect loop ----------------------------------------------------------------
    async def _stay_connected(self) -> None:
        """One session after another, for ever; a session that got online resets the backoff."""
        failures, last_reason = 0, ""
        while True:
            online = False
            try:
                online = await self._session()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # whatever breaks a session, the screen tries again
                reason = _describe(exc)
                # one line per new reason, not one per attempt through a long outage
                (log.debug if reason == last_reason else log.warning)(
                    "link to %s: %s", self.url, reason)
                last_reason = reason
                self._status(False, reason)
            if online:
                last_reason, failures = "", 0
            else:
                failures += 1
                self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
            if failures % len(self.urls):  # the next address of this round
                await asyncio.sleep(NEXT_ADDRESS_S)
            else:
                await asyncio.sleep(self.timings.backoff(failures // len(self.urls)))

    async def _session(self) -> bool:
        """Connect, sync, then ping until the link dies (raises). True once it got online."""
        t = self.timings
        lost = asyncio.Event()
        held = dict(self._held)  # what this controller pushes once connected is of its own log
        http = aiohttp.ClientSession()
        sio = self._client(http, lost)
        online = False
        try:
            try:
                await asyncio.wait_for(sio.connect(
                    self.url, namespaces=[NAMESPACE], transports=["websocket"],
                    auth={"key": self.key, "screen": self.screen}, wait_timeout=t.connect_s,
                ), t.connect_s + 1)
            except TimeoutError as exc:
                raise LinkLost(f"no answer from the controller within {t.connect_s:g} s") from exc
            self._sio = sio
            self._estimator.reset()  # the controller may have started again on another clock
            await self._hello(sio, held)
            self._status(True)
            online = True
            for _ in range(CLOCK_SAMPLES_AT_CONNECT - 1):
                await self._ping(sio)
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), t.ping_every_s)
                if lost.is_set():
                    raise LinkLost("the connection closed")
                await self._ping(sio)
        except LinkLost as exc:
            if online:
                log.warning("link to %s lost: %s", self.url, exc)
            self._status(False, str(exc))
            return online
        finally:
            self._sio = None
            await discard(sio, http)

    def _client(self, http: aiohttp.ClientSession, lost: asyncio.Event) -> socketio.AsyncClient:
        sio = socketio.AsyncClient(reconnection=False, http_session=http)

        async def on_disconnect(reason: Any = None) -> None:
            lost.set()

        sio.on("disconnect", on_disconnect, namespace=NAMESPACE)
        sio.on("connect_error", self._on_connect_error, namespace=NAMESPACE)
        sio.on("views", self._on_views, namespace=NAMESPACE)
        sio.on("screenshot_request", self._on_screenshot_request, namespace=NAMESPACE)
        sio.on("refused", self._on_connect_error, namespace=NAMESPACE)
        return sio

    async def _call(self, sio: socketio.AsyncClient, event: str, data: Any) -> Any:
        try:
            return await sio.call(event, data, namespace=NAMESPACE, timeout=self.timings.call_s)
        except socketio.exceptions.TimeoutError as exc:
            raise LinkLost(f"no answer to {event} within {self.timings.call_s:g} s") from exc
        except socketio.exceptions.SocketIOError as exc:
            raise LinkLost(f"{event} failed: {_describe(exc)}") from exc

    # -- sync ------------------------------------------------------------------------------
    async def _hello(self, sio: socketio.AsyncClient, held: dict[str, int]) -> None:
        """Sync by revision; if the controller is on another log, or its log ends before the
        revisions `held` before this connection, drop every view and sync from scratch."""
        reply = await self._call(sio, "sync", {"revisions": self._held})
        told = reply.get("log") if isinstance(reply.get("log"), dict) else {}
        log_id, last_seq = str(told.get("id", "")), told.get("last_seq")
        reset = self._reset_reason(held, log_id, last_seq if isinstance(last_seq, int) else 0)
        if reset:
            log.warning("dropping every view held and resyncing: %s", reset)
            self._held.clear()
            self.inbox.put(LogJoined(log_id, self.url, reset))
            reply = await self._call(sio, "sync", {"revisions": {}})
        else:
            self.inbox.put(LogJoined(log_id, self.url))
        self._log_id = log_id
        await self._on_views(reply)

    def _reset_reason(self, held: dict[str, int], log_id: str, last_seq: int) -> str:
        if not held:
            return ""
        if log_id != self._log_id:
            origin = f"log {self._log_id[:8]}" if self._log_id else "an unknown log"
            return (f"the controller is on another log ({log_id[:8] or 'unnamed'}; the views "
                    f"held came from {origin})")
        top = max(held.values())
        if last_seq < top:
            return (f"the controller's log ends at {last_seq}, before revision {top} held "
                    f"here (a restored backup?)")
        return ""

    # -- events ----------------------------------------------------------------------------
    async def _on_connect_error(self, data: Any = None) -> None:
        message = data.get("message") if isinstance(data, dict) else data
        self._status(False, str(message or "cannot reach the controller"))
        if isinstance(data, dict) and message:  # the controller answered: a refusal
            self.inbox.put(LinkRefused(str(message)))

    async def _on_screenshot_request(self, data: Any = None) -> None:
        self.inbox.put(ScreenshotRequested())

    async def _on_views(self, message: dict[str, Any]) -> None:
        gaps = []
        for view in message.get("views", []):
            name, revision = view["name"], int(view["revision"])
            held = self._held.get(name, -1)
            if "delta" in view:
                if revision <= held:
                    continue  # a sync brought this revision or a later one already
                if view.get("base") != held:
                    gaps.append(name)
                    continue
                self._held[name] = revision
                self.inbox.put(ViewPatched(name, revision, held, view["delta"]))
            elif revision >= held:
                self._held[name] = revision
                self.inbox.put(ViewChanged(name, revision, view["doc"]))
        if gaps:
            self._fill(gaps)

    def _fill(self, names: list[str]) -> None:
        """Ask for these views whole (a gap in their revisions); a lost link resyncs anyway."""
        task = asyncio.ensure_future(self._sync_whole(names))
        self._filling.add(task)
        task.add_done_callback(self._filling.discard)

    async def _sync_whole(self, names: list[str]) -> None:
        sio = self._sio
        if sio is None:
            return
        for name in names:
            self._held.pop(name, None)
        with contextlib.suppress(LinkLost):
            await self._on_views(await self._call(sio, "sync", {"revisions": self._held}))

    # -- ping and clock --------------------------------------------------------------------
    async def _ping(self, sio: socketio.AsyncClient) -> None:
        """A clock sample that is also the heartbeat: no answer in time means a dead link."""
        sent = local_ms()
        reply = await self._call(sio, "clock", {"client_ms": sent})
        rate = reply.get("rate", 1)
        rate = float(rate) if isinstance(rate, int | float) and rate > 0 else 1.0
        fix = self._estimator.add(sent, float(reply["server_ms"]), local_ms(), rate)
        self.inbox.put(ClockOffset(fix.offset_ms, fix.rate, fix.local_ms))

    def _status(self, online: bool, reason: str = "") -> None:
        self.inbox.put(LinkStatus(online, int(local_ms()), reason))


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


async def discard(sio: socketio.AsyncClient, http: aiohttp.ClientSession) -> None:
    """Close a client that may be talking to a frozen peer: never wait long for it."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(sio.disconnect(), 1)
    for task in (sio.eio.read_loop_task, sio.eio.write_loop_task):
        if task is not None and not task.done():
            task.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(http.close(), 1)

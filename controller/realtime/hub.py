"""Joins the service to Socket.IO: run a command, answer at once, then push what it changed.

The ack goes out as soon as the command is durable; the views it changed, and the sessions it
revokes, are sent behind it by the ordered fan-out queue (controller/realtime/outbox.py). Who
receives which view is controller/realtime/subscriptions.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import socketio

from controller.access.attempts import KeyAttempts
from controller.access.keys import Principal
from controller.access.logins import Logins
from controller.access.people import user_principal
from controller.access.sessions import Sessions, screen_principal
from controller.application.background import forever
from controller.application.heap import Bursts
from controller.application.service import Service
from controller.application.show import View
from controller.domain.events import DomainEvent
from controller.domain.keys import KeyIssued, KeyRevoked
from controller.domain.users import UserDisabled
from controller.realtime.devices import ROLES as DEVICE_ROLES
from controller.realtime.devices import Devices
from controller.realtime.outbox import Deltas, FanOut, Slices
from controller.realtime.subscriptions import VIEWS_ROOM, on_display
from controller.realtime.telemetry import MemoryTelemetry, Telemetry
from controller.screens.audience import screen_views, visible
from controller.screens.events import ScreenRevoked
from controller.screens.feature import Screens, revoked_sentence
from controller.screens.views import VIEW_PREFIX, screen_view
from controller.store.principal_ids import key_principal

OPERATOR_AUDIENCE = "/control"
DISPLAY_AUDIENCE = "/display"
CUE_AUDIENCE = "/cue"
DEVICE_AUDIENCE = "/device"
KIOSK_AUDIENCE = "/kiosk"
AUDIENCES = (OPERATOR_AUDIENCE, DISPLAY_AUDIENCE, CUE_AUDIENCE, DEVICE_AUDIENCE, KIOSK_AUDIENCE)
KEY_REVOKED = "This key was revoked."
USER_DISABLED = "This user was disabled; ask a technician."

# event class -> the event -> (the principal it revokes, the sentence its sessions are cut with)
REVOCATIONS: dict[type[DomainEvent], Callable[[Any], tuple[str, str]]] = {
    ScreenRevoked: lambda event: (screen_principal(event.screen),
                                  revoked_sentence(event.screen)),
    KeyRevoked: lambda event: (key_principal(event.key_hash), KEY_REVOKED),
    UserDisabled: lambda event: (user_principal(event.name), USER_DISABLED),
}


TICK_S = 0.05
CLOCK_RETRY_MAX_S = 1.0  # a tick failing for a while (a full disk) is tried once a second
OPERATOR_VIEWS = 100  # views in one message to operators: 1000 screens' took 30 ms to encode
log = logging.getLogger(__name__)


class Hub:
    def __init__(self, service: Service, sio: socketio.AsyncServer,
                 attempts: KeyAttempts | None = None, logins: Logins | None = None,
                 telemetry: Telemetry | None = None) -> None:
        """`telemetry`: where screens' reports are kept (in memory, or in Redis when several
        processes serve screens: controller/cluster/redis_telemetry.py)."""
        self.service = service
        self.sio = sio
        self.telemetry: Telemetry = telemetry or MemoryTelemetry()
        self.screen_sids: dict[str, set[str]] = {}
        self.subscribed: dict[str, set[str]] = {}  # a screen's sid -> the views it receives
        self.fanout = FanOut()
        self.deltas = Deltas()
        self.sessions = Sessions()
        self.attempts = attempts or KeyAttempts()
        self.logins = logins or Logins()
        self.bursts = Bursts()  # a floor of screens connecting at once is frozen as it settles
        #: the floor's devices (ops:devices): kept by the controller that owns the show only
        #: (controller/http/app.py); a fan-out process has none, so never sends that view
        self.devices: Devices | None = None

    @property
    def screens(self) -> Screens:
        return self.service.show.feature(Screens)  # type: ignore[return-value]

    async def execute(self, envelope: Any, principal: Principal) -> dict[str, Any]:
        """Run a command and answer: the ack never waits for the clients (`fanout`)."""
        ack, views, events = self.service.execute(envelope, principal)
        self.publish(views)
        for event in events:
            self.revoked(event)
        return ack

    def publish(self, views: list[View]) -> None:
        """Queue changed views for every client, behind what was queued before."""
        if views:
            self.fanout.push(partial(self.broadcast, views))

    async def run_clock(self) -> None:
        """Emit time-driven events (reveals, expiries) as they fall due. A tick that fails is
        logged and tried again, within a second however long it keeps failing: a reveal or
        an expiry must not wait for a restart."""
        await forever("The clock (reveals, expiries)", self._tick, log, every_s=TICK_S,
                      retry_s=TICK_S, retry_max_s=CLOCK_RETRY_MAX_S)

    async def _tick(self) -> None:
        self.publish(self.service.tick())

    async def broadcast(self, views: list[View]) -> None:
        """Operators get every changed view, cue pages and viewers on /display the public
        ones; on /display each view also goes to its room (the screens that need it), and
        large ones go as deltas there. Screens whose program changed move rooms first and get
        the views they now need, so those arrive before the program that shows them. A change
        of many views (a playlist assigned to 1000 screens) reaches operators in messages of
        `OPERATOR_VIEWS`, with the loop given back between them."""
        slices = Slices()
        everything = [v.message() for v in views]
        for first in range(0, len(everything), OPERATOR_VIEWS):
            await self.sio.emit("views", {"views": everything[first:first + OPERATOR_VIEWS]},
                                room=VIEWS_ROOM, namespace=OPERATOR_AUDIENCE)
            await slices.pause()
        public = [m for m in everything if visible(m["name"])]
        if public:
            await self.sio.emit("views", {"views": public}, room=VIEWS_ROOM,
                                namespace=CUE_AUDIENCE)
        await self.follow_screens((v.name.removeprefix(VIEW_PREFIX) for v in views
                                   if v.name.startswith(VIEW_PREFIX)), slices)
        shown = []
        for v in views:
            if on_display(v.name):
                shown.append(self.deltas.message(v))
                await slices.pause()
        viewers = [m for m in shown if visible(m["name"])]
        if viewers:  # viewer keys: one message for the whole change, like cue pages
            await self.sio.emit("views", {"views": viewers}, room=VIEWS_ROOM,
                                namespace=DISPLAY_AUDIENCE)
        for message in shown:  # screens: each view to the room of those that need it
            await self.sio.emit("views", {"views": [message]}, room=message["name"],
                                namespace=DISPLAY_AUDIENCE)
            await slices.pause()

    def catch_up(self) -> list[View]:
        """Fold what another process appended (a standby's leader, a fan-out's owner, `key`
        at the shell), cut the sessions of what it revoked; the views it changed."""
        events, views = self.service.catch_up()
        for event in events:
            self.revoked(event)
        return views

    def revoked(self, event: DomainEvent) -> None:
        """If this event revokes a principal, cut its live sessions (behind the views queued
        before): called with a command's events, and for those another process appended
        (`key revoke` at the shell)."""
        if isinstance(event, UserDisabled):
            self.logins.close_user(event.name)
        if (self.devices is not None and isinstance(event, KeyIssued | KeyRevoked)
                and event.role in DEVICE_ROLES):
            self.devices.publish()  # every live device and kiosk key is listed
        revocation = REVOCATIONS.get(type(event))
        if revocation is not None:
            self.fanout.push(partial(self.cut, *revocation(event)))

    async def cut(self, principal: str, sentence: str) -> None:
        """`principal` was revoked: every live session authenticated as it is told why and
        disconnected now (its key is refused at the next connect)."""
        for namespace, sid in self.sessions.of(principal):
            await self.sio.emit("refused", {"message": sentence}, to=sid, namespace=namespace)
            await self.sio.disconnect(sid, namespace=namespace)

    # -- connected screens -------------------------------------------------------------------
    def screen_doc(self, screen: str) -> dict[str, Any] | None:
        view = self.service.show.views.get(screen_view(screen))
        return view.doc if view else None

    async def screen_connected(self, sid: str, screen: str) -> None:
        self.screen_sids.setdefault(screen, set()).add(sid)
        await self.telemetry.connected(screen, self.service.clock())
        await self.subscribe(sid, screen_views(screen, self.screen_doc(screen)))

    async def screen_disconnected(self, sid: str, screen: str) -> None:
        self.screen_sids.get(screen, set()).discard(sid)
        self.subscribed.pop(sid, None)
        await self.telemetry.disconnected(screen, self.service.clock())

    async def subscribe(self, sid: str, wanted: set[str]) -> set[str]:
        """Move a screen's connection into the rooms of `wanted` (and out of the others);
        the view names it newly receives."""
        held = self.subscribed.get(sid, set())
        for name in wanted - held:
            await self.sio.enter_room(sid, name, namespace=DISPLAY_AUDIENCE)
        for name in held - wanted:
            await self.sio.leave_room(sid, name, namespace=DISPLAY_AUDIENCE)
        self.subscribed[sid] = wanted
        return wanted - held

    async def follow_screens(self, screens: Iterable[str], slices: Slices | None = None) -> None:
        """After a screen's program or status changed: its connections move rooms and are sent
        the views they now need, whole (a revoked one was cut already, see `cut`)."""
        views = self.service.show.views
        slices = slices or Slices()
        for screen in set(screens):
            await slices.pause()
            wanted = screen_views(screen, self.screen_doc(screen))
            for sid in list(self.screen_sids.get(screen, ())):
                new = await self.subscribe(sid, wanted)
                missing = [views[n].message() for n in sorted(new)
                           if n in views and n != screen_view(screen)]
                if missing:
                    await self.sio.emit("views", {"views": missing}, to=sid,
                                        namespace=DISPLAY_AUDIENCE)

    async def request_screenshot(self, screen: str) -> bool:
        if not (await self.telemetry.reports([screen]))[screen]["online"]:  # on any process
            return False
        await self.sio.emit("screenshot_request", {}, room=screen_view(screen),
                            namespace=DISPLAY_AUDIENCE)
        return True

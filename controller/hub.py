"""Joins the service to Socket.IO: run a command, then push the views it changed.

Who receives a view: /control gets every view; /display and /cue get public views, except that
a screen's own view `screen:<id>` goes only to that screen (Socket.IO room `screen:<id>`), and
a screen that is not yet authorised gets nothing but its own view.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

import socketio

from controller.attempts import KeyAttempts
from controller.auth import Principal
from controller.fault_log import FaultLog
from controller.logins import Logins
from controller.people import user_principal
from controller.screens import AUTHORISED, VIEW_PREFIX, Screens, revoked_sentence
from controller.service import Service
from controller.sessions import Sessions, screen_principal
from controller.show import View, is_public
from controller.store.principal_ids import key_principal
from controller.telemetry import Telemetry

OPERATOR_AUDIENCE = "/control"
DISPLAY_AUDIENCE = "/display"
PUBLIC_AUDIENCES = (DISPLAY_AUDIENCE, "/cue")
VIEWS_ROOM = "views"
SCREEN_EVENTS = ("ScreenEnrolled", "ScreenAuthorised", "ScreenRevoked")
AUDIENCES = (OPERATOR_AUDIENCE, *PUBLIC_AUDIENCES)
KEY_REVOKED = "This key was revoked."
USER_DISABLED = "This user was disabled; ask a technician."

# event type -> its data -> (the principal it revokes, the sentence its sessions are cut with)
REVOCATIONS: dict[str, Callable[[dict[str, Any]], tuple[str, str]]] = {
    "ScreenRevoked": lambda data: (screen_principal(data["screen"]),
                                   revoked_sentence(data["screen"])),
    "KeyRevoked": lambda data: (key_principal(data["key_hash"]), KEY_REVOKED),
    "UserDisabled": lambda data: (user_principal(data["name"]), USER_DISABLED),
}


TICK_S = 0.05
log = logging.getLogger(__name__)


def screen_room(screen: str) -> str:
    return f"{VIEW_PREFIX}{screen}"


def visible(name: str, screen: str | None = None, authorised: bool = True) -> bool:
    """May a public client (a screen, a cue page) see view `name`?"""
    if name.startswith(VIEW_PREFIX):
        return screen is not None and name == screen_room(screen)
    return authorised and is_public(name)


class Hub:
    def __init__(self, service: Service, sio: socketio.AsyncServer,
                 attempts: KeyAttempts | None = None, logins: Logins | None = None) -> None:
        self.service = service
        self.sio = sio
        self.telemetry = Telemetry()
        self.screen_sids: dict[str, set[str]] = {}
        self.sessions = Sessions()
        self.attempts = attempts or KeyAttempts()
        self.logins = logins or Logins()

    @property
    def screens(self) -> Screens:
        return self.service.show.feature(Screens)  # type: ignore[return-value]

    async def execute(self, envelope: Any, principal: Principal) -> dict[str, Any]:
        ack, views = self.service.execute(envelope, principal)
        if views:
            await self.broadcast(views)
        for event in ack.get("events", []):
            await self.revoked(event["type"], event["data"])
        await self.follow_screens(e["data"]["screen"] for e in ack.get("events", [])
                                  if e["type"] in SCREEN_EVENTS)
        return ack

    async def run_clock(self) -> None:
        """Emit time-driven events (reveals, expiries) as they fall due. A tick that fails is
        logged and tried again: a reveal or an expiry must not wait for a restart."""
        faults = FaultLog(log, "The clock (reveals, expiries)")
        while True:
            try:
                views = self.service.tick()
                if views:
                    await self.broadcast(views)
            except Exception as exc:
                faults.failed(exc)
            else:
                faults.succeeded()
            await asyncio.sleep(TICK_S)

    async def broadcast(self, views: list[View]) -> None:
        """Operators get every changed view; screens and cues only what they may see."""
        everything = [v.message() for v in views]
        await self.sio.emit("views", {"views": everything}, room=VIEWS_ROOM,
                            namespace=OPERATOR_AUDIENCE)
        public = [m for m in everything if visible(m["name"])]
        if public:
            for namespace in PUBLIC_AUDIENCES:
                await self.sio.emit("views", {"views": public}, room=VIEWS_ROOM,
                                    namespace=namespace)
        for message in everything:
            if message["name"].startswith(VIEW_PREFIX):
                await self.sio.emit("views", {"views": [message]}, room=message["name"],
                                    namespace=DISPLAY_AUDIENCE)

    async def revoked(self, event_type: str, data: dict[str, Any]) -> None:
        """If this event revokes a principal, cut its live sessions: called with a command's
        events, and meant for those another process appended (`key revoke` at the shell)."""
        if event_type == "UserDisabled":
            self.logins.close_user(data["name"])
        if event_type in REVOCATIONS:
            await self.cut(*REVOCATIONS[event_type](data))

    async def cut(self, principal: str, sentence: str) -> None:
        """`principal` was revoked: every live session authenticated as it is told why and
        disconnected now (its key is refused at the next connect)."""
        for namespace, sid in self.sessions.of(principal):
            await self.sio.emit("refused", {"message": sentence}, to=sid, namespace=namespace)
            await self.sio.disconnect(sid, namespace=namespace)

    # -- connected screens -------------------------------------------------------------------
    async def screen_connected(self, sid: str, screen: str) -> None:
        self.screen_sids.setdefault(screen, set()).add(sid)
        self.telemetry.connected(screen, self.service.clock())
        await self.sio.enter_room(sid, screen_room(screen), namespace=DISPLAY_AUDIENCE)
        if self.screens.screens[screen].status == AUTHORISED:
            await self.sio.enter_room(sid, VIEWS_ROOM, namespace=DISPLAY_AUDIENCE)

    def screen_disconnected(self, sid: str, screen: str) -> None:
        self.screen_sids.get(screen, set()).discard(sid)
        self.telemetry.disconnected(screen, self.service.clock())

    async def follow_screens(self, screens: Iterable[str]) -> None:
        """After an enrolment change: an authorised screen starts receiving public views
        (and gets those it lacks); a revoked one was cut already (`cut`)."""
        for screen in set(screens):
            if self.screens.screens[screen].status != AUTHORISED:
                continue
            for sid in list(self.screen_sids.get(screen, ())):
                await self.sio.enter_room(sid, VIEWS_ROOM, namespace=DISPLAY_AUDIENCE)
                missing = [v.message() for v in self.service.show.views_since({})
                           if visible(v.name, screen)]
                await self.sio.emit("views", {"views": missing}, to=sid,
                                    namespace=DISPLAY_AUDIENCE)

    async def request_screenshot(self, screen: str) -> bool:
        if not self.telemetry.report(screen)["online"]:  # on any process
            return False
        await self.sio.emit("screenshot_request", {}, room=screen_room(screen),
                            namespace=DISPLAY_AUDIENCE)
        return True

"""What every audience shares: authenticate, sync views by revision, estimate the clock.

A connect is checked in this order: is the key plain text, is it a known unrevoked key, may its
role use this namespace. A right key is admitted whatever the failures of its address; a wrong
one is counted and, past the allowance, refused after a pause of this connection alone
(controller/access/attempts.py). Each live session is registered under its
principal so that revoking the principal cuts it (`Hub.cut`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import socketio

from controller.access.attempts import NOT_PLAIN, plain_key, remote_address
from controller.access.keys import authenticate
from controller.access.logins import LOGGED_OUT, person
from controller.domain.errors import refusal
from controller.domain.queries import Query
from controller.realtime.hub import Hub
from controller.realtime.subscriptions import VIEWS_ROOM
from controller.rehearsal.log import clock_rate
from controller.screens.audience import visible

Refused = socketio.exceptions.ConnectionRefusedError


class WrongKey(Exception):
    """An unknown, revoked or malformed key: refused with this sentence, and counted against
    the address."""


class AudienceNamespace(socketio.AsyncNamespace):
    """A namespace whose clients receive every changed view and may resync by revision."""

    path = "/"
    roles: frozenset[str] = frozenset()
    sees_operator_views = False
    queries: Mapping[str, Query[Any, Hub]] = {}  # event name -> the query it asks

    def __init__(self, hub: Hub) -> None:
        super().__init__(self.path)
        self.hub = hub

    async def trigger_event(self, event: str, *args: Any) -> Any:
        """A query's event is answered by its catalogue entry (`queries`), after its role
        and payload are checked; every other event by its `on_<event>` method."""
        query = self.queries.get(event)
        if query is None:
            return await super().trigger_event(event, *args)
        sid, *data = args
        principal = (await self.get_session(sid))["principal"]
        return await query.ask(principal.role, data[0] if data else None, self.hub)

    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        try:
            if not isinstance(auth, dict) or "key" not in auth:
                session = self.admit_person(environ)
            elif not plain_key(auth.get("key")):
                raise WrongKey(NOT_PLAIN)
            else:
                session = self.admit(auth)
        except WrongKey as exc:
            key = auth.get("key") if isinstance(auth, dict) and plain_key(auth.get("key")) \
                else None
            sentence = await self.hub.attempts.refuse(remote_address(environ), self.path,
                                                      str(exc), key)
            raise Refused(sentence) from None
        await self.save_session(sid, session)
        self.hub.sessions.add(session["id"], self.path, sid)
        self.hub.bursts.connected()
        await self.joined(sid, session)

    def admit(self, auth: Any) -> dict[str, Any]:
        """The new session ({"principal", "id"}) for `auth`, or WrongKey / Refused."""
        principal = authenticate(self.hub.service.log, auth)
        if principal is None:
            raise WrongKey("Unknown or revoked key.")
        if principal.role not in self.roles:
            raise Refused(f"A {principal.role} key cannot connect to {self.path}.")
        return {"principal": principal, "id": principal.id}

    def admit_person(self, environ: dict[str, Any]) -> dict[str, Any]:
        """A page opened by a logged-in person connects with its session cookie, no key."""
        principal = person(self.hub.logins, self.hub.service.log, environ)
        if principal is None:
            raise Refused(LOGGED_OUT)
        if principal.role not in self.roles:
            raise Refused(f"{principal.name} ({principal.role}) cannot connect to {self.path}.")
        return {"principal": principal, "id": principal.id}

    async def joined(self, sid: str, session: dict[str, Any]) -> None:
        await self.enter_room(sid, VIEWS_ROOM)

    async def on_disconnect(self, sid: str, reason: Any = None) -> None:
        session = await self.get_session(sid)
        if "id" in session:
            self.hub.sessions.remove(session["id"], self.path, sid)

    async def on_sync(self, sid: str, data: Any = None) -> dict[str, Any]:
        """Send what the client lacks, given the revisions it holds."""
        held = data.get("revisions") if isinstance(data, dict) else None
        if not isinstance(held, dict):
            held = {}
        held = {k: v for k, v in held.items() if isinstance(v, int)}
        session = await self.get_session(sid)
        views = self.hub.service.show.views_since(held, self.sees_operator_views)
        may_see = self.may_see(session)
        return {"views": [v.message() for v in views if may_see(v.name)],
                "server_ms": self.hub.service.clock()}

    def may_see(self, session: dict[str, Any]) -> Callable[[str], bool]:
        """Which view names this session is sent."""
        return (lambda name: True) if self.sees_operator_views else visible

    async def on_clock(self, sid: str, data: Any = None) -> dict[str, Any]:
        """One NTP-style sample: the client keeps the round trips with the least delay; `rate`
        is how fast the show clock runs (a rehearsal's speed)."""
        return {"client_ms": data.get("client_ms") if isinstance(data, dict) else None,
                "server_ms": self.hub.service.clock(),
                "rate": clock_rate(self.hub.service.clock)}

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        return refusal("forbidden", f"Commands are not accepted on {self.path}.")

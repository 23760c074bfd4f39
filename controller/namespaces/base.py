"""What every audience shares: authenticate, sync views by revision, estimate the clock."""

from __future__ import annotations

from typing import Any

import socketio

from controller.auth import authenticate
from controller.hub import VIEWS_ROOM, Hub, visible


class AudienceNamespace(socketio.AsyncNamespace):
    """A namespace whose clients receive every changed view and may resync by revision."""

    path = "/"
    roles: frozenset[str] = frozenset()
    sees_operator_views = False

    def __init__(self, hub: Hub) -> None:
        super().__init__(self.path)
        self.hub = hub

    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        principal = authenticate(self.hub.service.log, auth)
        if principal is None:
            raise socketio.exceptions.ConnectionRefusedError("Unknown or revoked key.")
        if principal.role not in self.roles:
            raise socketio.exceptions.ConnectionRefusedError(
                f"A {principal.role} key cannot connect to {self.path}."
            )
        await self.save_session(sid, {"principal": principal})
        await self.enter_room(sid, VIEWS_ROOM)

    async def on_sync(self, sid: str, data: Any = None) -> dict[str, Any]:
        """Send what the client lacks, given the revisions it holds."""
        held = data.get("revisions") if isinstance(data, dict) else None
        if not isinstance(held, dict):
            held = {}
        held = {k: v for k, v in held.items() if isinstance(v, int)}
        session = await self.get_session(sid)
        views = self.hub.service.show.views_since(held, self.sees_operator_views)
        return {"views": [v.message() for v in views if self.may_see(session, v.name)],
                "server_ms": self.hub.service.clock()}

    def may_see(self, session: dict[str, Any], name: str) -> bool:
        return self.sees_operator_views or visible(name)

    async def on_clock(self, sid: str, data: Any = None) -> dict[str, Any]:
        """One NTP-style sample: the client keeps the round trips with the least delay."""
        return {"client_ms": data.get("client_ms") if isinstance(data, dict) else None,
                "server_ms": self.hub.service.clock()}

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        return {"ok": False, "error": {
            "code": "forbidden", "message": f"Commands are not accepted on {self.path}."}}

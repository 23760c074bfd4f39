"""/display: floor screens only read views; a display key cannot send commands.

A screen connects with `auth: {"key", "screen"}`: its own key, issued at enrolment. A pending
screen is let in but receives only its own view (it shows "waiting for authorisation"); a
revoked or unknown key is refused with a sentence the screen shows on itself. An authorised
screen receives only the views its program can show (controller/screens/audience.py). A
`display` role key (from `showrunner-controller key`) connects as a plain viewer of public
views. Large views arrive here as deltas (docs/protocol.md, "Deltas"); `sync` always answers
whole views.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.access.keys import authenticate
from controller.access.sessions import screen_principal
from controller.realtime.namespaces.base import AudienceNamespace, WrongKey
from controller.screens.audience import screen_views, visible


class DisplayNamespace(AudienceNamespace):
    path = "/display"
    roles = frozenset({"display"})

    def admit(self, auth: Any) -> dict[str, Any]:
        if authenticate(self.hub.service.log, auth) is not None:  # a viewer key: public views
            return super().admit(auth)
        screen = auth.get("screen") if isinstance(auth, dict) else None
        record, why = self.hub.screens.authenticate(
            screen, auth.get("key") if isinstance(auth, dict) else None)
        if record is None:
            raise WrongKey(why)
        return {"principal": None, "screen": record.screen,
                "id": screen_principal(record.screen)}

    async def joined(self, sid: str, session: dict[str, Any]) -> None:
        if session.get("screen") is None:
            await super().joined(sid, session)
        else:
            await self.hub.screen_connected(sid, session["screen"])

    async def on_disconnect(self, sid: str, reason: Any = None) -> None:
        await super().on_disconnect(sid, reason)
        screen = (await self.get_session(sid)).get("screen")
        if screen:
            await self.hub.screen_disconnected(sid, screen)

    async def on_sync(self, sid: str, data: Any = None) -> dict[str, Any]:
        """The views lacking, and the log they come from: a screen holding views of another
        log, or of revisions past this log's end (a restored backup), drops them and syncs
        again from nothing."""
        reply = await super().on_sync(sid, data)
        log = self.hub.service.log
        return {**reply, "log": {"id": log.log_id, "last_seq": log.last_seq}}

    def may_see(self, session: dict[str, Any]) -> Callable[[str], bool]:
        screen = session.get("screen")
        if screen is None:
            return visible
        return screen_views(screen, self.hub.screen_doc(screen)).__contains__

    async def on_heartbeat(self, sid: str, data: Any = None) -> dict[str, Any]:
        """{version, fps, dropped_frames, scene, uptime_s, log_id, resyncs, resync_reason}:
        kept in memory for technicians."""
        screen = (await self.get_session(sid)).get("screen")
        ok = bool(screen) and await self.hub.telemetry.heartbeat(screen, data,
                                                                 self.hub.service.clock())
        return {"ok": ok}

    async def on_screenshot(self, sid: str, data: Any = None) -> dict[str, Any]:
        """{"jpeg": base64}: a small picture of what the screen shows."""
        screen = (await self.get_session(sid)).get("screen")
        ok = bool(screen) and await self.hub.telemetry.screenshot(screen, data,
                                                                  self.hub.service.clock())
        return {"ok": ok}


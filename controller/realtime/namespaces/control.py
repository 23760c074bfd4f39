"""/control: the MC's tablet and the technicians' tools send commands here."""

from __future__ import annotations

from typing import Any

from controller.promotions.tournament.feature import Tournament
from controller.realtime.floor import check_playlist, screens_report
from controller.realtime.namespaces.base import AudienceNamespace
from showrunner.contract.scenes import CATALOGUE

TECHNICIANS_ONLY = "Only technicians may look after the screens."
FOUND = 8  # entries a search answers with: the console shows that many
MAX_QUERY = 100  # characters of a search looked at


class ControlNamespace(AudienceNamespace):
    path = "/control"
    roles = frozenset({"operator", "technician", "auditor"})
    sees_operator_views = True

    async def on_catalogue(self, sid: str, data: Any = None) -> dict[str, Any]:
        """The commands this controller answers, to build forms from, the caller's role, and
        each scene's parameters (JSON Schema) for a takeover's fields."""
        principal = (await self.get_session(sid))["principal"]
        return {"commands": self.hub.service.show.catalogue(), "role": principal.role,
                "scenes": {name: model.model_json_schema() for name, model in CATALOGUE.items()}}

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        principal = (await self.get_session(sid))["principal"]
        return await self.hub.execute(envelope, principal)

    async def on_find_entries(self, sid: str, data: Any = None) -> dict[str, Any]:
        """{promotion, query}: the entries whose player the MC is looking for, by name or card
        (the operator's view holds only the entries in play)."""
        data = data if isinstance(data, dict) else {}
        promotion, query = data.get("promotion"), data.get("query")
        tournament = next((f for f in self.hub.service.show.features
                           if isinstance(f, Tournament) and f.name == promotion), None)
        if tournament is None or not isinstance(query, str):
            return {"ok": False, "error": {"code": "bad_query", "message":
                    "Say which tournament and what to look for."}}
        return {"ok": True, "entries": tournament.find(query[:MAX_QUERY], FOUND)}

    async def technician(self, sid: str) -> bool:
        return (await self.get_session(sid))["principal"].role == "technician"

    async def on_screens(self, sid: str, data: Any = None) -> dict[str, Any]:
        """The /screens page's report: every screen with its telemetry; technicians only."""
        if not await self.technician(sid):
            return {"ok": False, "error": {"code": "forbidden", "message": TECHNICIANS_ONLY}}
        return {"ok": True, **await screens_report(self.hub)}

    async def on_check_playlist(self, sid: str, data: Any = None) -> dict[str, Any]:
        """Validate a playlist ({"file", "yaml"}) without assigning it; technicians only."""
        if not await self.technician(sid):
            return {"ok": False, "error": {"code": "forbidden", "message": TECHNICIANS_ONLY}}
        return check_playlist(data)

    async def on_screenshot_request(self, sid: str, data: Any = None) -> dict[str, Any]:
        """Ask a connected screen for a fresh screenshot ({"screen"}); technicians only."""
        screen = data.get("screen") if isinstance(data, dict) else None
        if not await self.technician(sid):
            return {"ok": False, "error": {"code": "forbidden",
                                           "message": "Only technicians may ask for screenshots."}}
        if not isinstance(screen, str) or not await self.hub.request_screenshot(screen):
            return {"ok": False, "error": {"code": "offline",
                                           "message": f"Screen {screen!r} is not connected."}}
        return {"ok": True}

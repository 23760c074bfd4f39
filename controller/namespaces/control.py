"""/control: the MC's tablet and the technicians' tools send commands here."""

from __future__ import annotations

from typing import Any

from controller.namespaces.base import AudienceNamespace


class ControlNamespace(AudienceNamespace):
    path = "/control"
    roles = frozenset({"operator", "technician", "auditor"})
    sees_operator_views = True

    async def on_catalogue(self, sid: str, data: Any = None) -> dict[str, Any]:
        """The commands this controller answers, to build forms from."""
        return {"commands": self.hub.service.show.catalogue()}

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        principal = (await self.get_session(sid))["principal"]
        return await self.hub.execute(envelope, principal)

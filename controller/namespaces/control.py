"""/control: the MC's tablet and the technicians' tools send commands here."""

from __future__ import annotations

from typing import Any

from controller.namespaces.base import AudienceNamespace


class ControlNamespace(AudienceNamespace):
    path = "/control"
    roles = frozenset({"operator", "technician", "auditor"})

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        principal = (await self.get_session(sid))["principal"]
        return await self.hub.execute(envelope, principal)

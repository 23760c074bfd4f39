"""/control: the MC's tablet and the technicians' tools send commands and queries here."""

from __future__ import annotations

from typing import Any

from controller.realtime.namespaces.base import AudienceNamespace
from controller.realtime.queries import CONTROL_QUERIES
from showrunner.contract.scenes import CATALOGUE


class ControlNamespace(AudienceNamespace):
    path = "/control"
    roles = frozenset({"operator", "technician", "auditor"})
    sees_operator_views = True
    queries = CONTROL_QUERIES

    async def on_catalogue(self, sid: str, data: Any = None) -> dict[str, Any]:
        """The commands and queries this controller answers, to build forms from, the caller's
        role, and each scene's parameters (JSON Schema) for a takeover's fields."""
        principal = (await self.get_session(sid))["principal"]
        return {"commands": self.hub.service.show.catalogue(), "role": principal.role,
                "queries": [q.describe() for _, q in sorted(self.queries.items())],
                "scenes": {name: model.model_json_schema() for name, model in CATALOGUE.items()}}

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        principal = (await self.get_session(sid))["principal"]
        return await self.hub.execute(envelope, principal)

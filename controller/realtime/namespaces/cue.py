"""/cue: announcers follow the cues view here and acknowledge the cues they have read."""

from __future__ import annotations

from typing import Any

from controller.realtime.namespaces.base import AudienceNamespace


class CueNamespace(AudienceNamespace):
    path = "/cue"
    roles = frozenset({"announcer", "operator"})

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        """Commands of the key's role (for an announcer: `cue.acknowledge`)."""
        principal = (await self.get_session(sid))["principal"]
        return await self.hub.execute(envelope, principal)

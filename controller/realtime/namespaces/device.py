"""/device: the floor's machines that report what they read (a wheel's number reader).

A device key's holder name is the table it reports for (docs/wheel.md). A device sends
commands (`wheel.reading`) and its `status` (its port open or closed); it is sent no views and
asks no queries. Wrong keys are counted and revoked keys cut like on every namespace.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.realtime.devices import Devices
from controller.realtime.hub import Hub
from controller.realtime.namespaces.base import AudienceNamespace


class DeviceNamespace(AudienceNamespace):
    path = "/device"
    roles = frozenset({"device"})

    def __init__(self, hub: Hub, devices: Devices) -> None:
        super().__init__(hub)
        self.devices = devices

    async def joined(self, sid: str, session: dict[str, Any]) -> None:
        """No views room: a device only reports."""
        self.devices.connected(session["principal"].name, sid)

    async def on_disconnect(self, sid: str, reason: Any = None) -> None:
        await super().on_disconnect(sid, reason)
        principal = (await self.get_session(sid)).get("principal")
        if principal is not None:
            self.devices.disconnected(principal.name, sid)

    def may_see(self, session: dict[str, Any]) -> Callable[[str], bool]:
        return lambda name: False

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        principal = (await self.get_session(sid))["principal"]
        self.devices.read(principal.name)
        return await self.hub.execute(envelope, principal)

    async def on_status(self, sid: str, data: Any = None) -> dict[str, Any]:
        """`{"port": "open"|"closed", "detail": str}`: whether the reader can read its wheel."""
        principal = (await self.get_session(sid))["principal"]
        return self.devices.status(principal.name, data)

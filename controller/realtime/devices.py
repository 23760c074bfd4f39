"""The floor's devices as the operators see them (`ops:devices`): kept in memory, not events.

Every live key of role `device` is listed by its holder name (the table or bank it reports for),
"offline" from the controller's start until it connects. A wheel's reader connected on /device
is "reading" while it says its port is open and "port_closed" when it cannot read the wheel
(the MC types the numbers: super9 rule 29). Every live key of role `kiosk` (an ehost kiosk,
docs/ehost.md) is listed too, "online" while its page is connected, with the time of its last
swipe (never whose card) and how many of its calls were refused since the controller started.
Whether a device is connected decides nothing in the rules, so none of this is logged: it is a
live view (`Show.put_live`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.application.service import Service
from controller.application.show import View
from showrunner.contract.words import printable

VIEW = "ops:devices"
WHEELS = "ops:wheels"  # the wheels' tables (controller/wheels/)
MAX_DETAIL = 200
PORT_STATES = ("open", "closed")
ROLES = frozenset({"device", "kiosk"})  # the keys listed here


@dataclass
class Device:
    kind: str
    since_ms: int
    sids: set[str] = field(default_factory=set)
    port: str = "closed"
    detail: str = "not connected since the controller started"
    last_reading_ms: int | None = None  # a kiosk's last swipe (a look-up or an activation)
    refused: int = 0  # a kiosk's refused calls since the controller started

    @property
    def state(self) -> str:
        if not self.sids:
            return "offline"
        if self.kind == "kiosk":
            return "online"
        return "reading" if self.port == "open" else "port_closed"


class Devices:
    def __init__(self, service: Service, publish: Callable[[list[View]], None]) -> None:
        self.service = service
        self.publish_views = publish
        self.started_ms = service.clock()
        self.devices: dict[str, Device] = {}
        self.kiosks: dict[str, Device] = {}  # apart: a kiosk may share a device's name

    def _device(self, name: str, kind: str = "wheel") -> Device:
        held = self.kiosks if kind == "kiosk" else self.devices
        device = held.get(name)
        if device is None:
            device = held[name] = Device(kind, self.started_ms)
        return device

    def _moved(self, device: Device, state: str) -> None:
        """A new state starts its `since`; the same state keeps it."""
        if device.state != state:
            device.since_ms = self.service.clock()

    def connected(self, name: str, sid: str, kind: str = "wheel") -> None:
        device = self._device(name, kind)
        before = device.state
        if not device.sids:
            device.port, device.detail = "closed", "connected; its port not yet reported"
        device.sids.add(sid)
        if device.state != before:
            device.since_ms = self.service.clock()
        self.publish()

    def disconnected(self, name: str, sid: str, kind: str = "wheel") -> None:
        device = self._device(name, kind)
        before = device.state
        device.sids.discard(sid)
        if not device.sids:
            device.detail = "disconnected"
        if device.state != before:
            device.since_ms = self.service.clock()
        self.publish()

    def status(self, name: str, data: Any) -> dict[str, Any]:
        """A reader's `{"port": "open"|"closed", "detail": str}`, sent on every change and
        every 5 s."""
        port = data.get("port") if isinstance(data, dict) else None
        detail = data.get("detail", "") if isinstance(data, dict) else None
        if port not in PORT_STATES or not isinstance(detail, str):
            return {"ok": False, "error": {
                "code": "bad_payload",
                "message": 'A status is {"port": "open" or "closed", "detail": text}.'}}
        device = self._device(name)
        before = device.state
        device.port = port
        device.detail = printable(detail)[:MAX_DETAIL]
        if device.state != before:
            device.since_ms = self.service.clock()
        self.publish()
        return {"ok": True}

    def read(self, name: str) -> None:
        """The device sent a reading (whatever the show answered)."""
        self._device(name).last_reading_ms = self.service.clock()
        self.publish()

    def swiped(self, name: str, ok: bool) -> None:
        """A kiosk looked a card up or activated it; `ok`: it was not refused."""
        device = self._device(name, "kiosk")
        device.last_reading_ms = self.service.clock()
        device.refused += 0 if ok else 1
        self.publish()

    def doc(self) -> dict[str, Any]:
        live = sorted({(p.name, p.role) for p in self.service.log.principals()
                       if p.role in ROLES and not p.revoked})
        wheels = self.service.show.views.get(WHEELS)
        tables = {t["table"] for t in wheels.doc["tables"]} if wheels else set()
        rows, kiosks = [], []
        for name, role in live:
            if role == "kiosk":
                kiosk = self.kiosks.get(name) or Device("kiosk", self.started_ms)
                kiosks.append({"name": name, "state": kiosk.state, "since_ms": kiosk.since_ms,
                               "last_swipe_ms": kiosk.last_reading_ms,
                               "refused": kiosk.refused})
                continue
            # a name that is no wheel's table nor came on /device: a slot bank
            device = self.devices.get(name) or Device(
                "wheel" if name in tables else "feed", self.started_ms)
            rows.append({"name": name, "kind": device.kind, "state": device.state,
                         "since_ms": device.since_ms, "last_reading_ms": device.last_reading_ms,
                         "detail": device.detail})
        return {"devices": rows, "kiosks": kiosks}

    def publish(self) -> None:
        """Publish the view if its document changed (at start, on a key issued or revoked,
        and on every connect, disconnect, status and reading)."""
        view = self.service.show.put_live(VIEW, self.doc(), self.service.log.last_seq)
        if view is not None:
            self.publish_views([view])

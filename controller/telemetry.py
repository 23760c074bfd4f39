"""What screens report about themselves: heartbeats and screenshots, kept in memory only.

Telemetry is not show state: it is not logged as events and is lost on restart (screens
report again within seconds).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any

HEARTBEAT_FIELDS = {"version": str, "fps": (int, float), "dropped_frames": int, "scene": str,
                    "uptime_s": (int, float), "switched_ms": int,
                    "log_id": str, "resyncs": int, "resync_reason": str,
                    "clock_offset_ms": int}
MAX_SCREENSHOT_BYTES = 48 * 1024


@dataclass
class ScreenTelemetry:
    connections: int = 0
    last_seen_ms: int | None = None
    since_ms: int | None = None  # when it last came online or went offline
    heartbeat: dict[str, Any] = field(default_factory=dict)
    screenshot: bytes | None = None
    screenshot_ms: int | None = None


class Telemetry:
    def __init__(self) -> None:
        self.screens: dict[str, ScreenTelemetry] = {}

    def _of(self, screen: str) -> ScreenTelemetry:
        return self.screens.setdefault(screen, ScreenTelemetry())

    def connected(self, screen: str, now_ms: int) -> None:
        entry = self._of(screen)
        if entry.connections == 0:
            entry.since_ms = now_ms
        entry.connections += 1
        entry.last_seen_ms = now_ms

    def disconnected(self, screen: str, now_ms: int) -> None:
        entry = self._of(screen)
        entry.connections = max(0, entry.connections - 1)
        entry.last_seen_ms = now_ms
        if entry.connections == 0:
            entry.since_ms = now_ms

    def heartbeat(self, screen: str, data: Any, now_ms: int) -> bool:
        """Keep the known fields of a heartbeat; False if it is not an object."""
        if not isinstance(data, dict):
            return False
        entry = self._of(screen)
        entry.heartbeat = {k: v for k, v in data.items()
                           if k in HEARTBEAT_FIELDS and isinstance(v, HEARTBEAT_FIELDS[k])
                           and not isinstance(v, bool)}
        entry.last_seen_ms = now_ms
        return True

    def screenshot(self, screen: str, data: Any, now_ms: int) -> bool:
        """Keep a JPEG sent as {"jpeg": base64}; False if it is not one or too large."""
        raw = data.get("jpeg") if isinstance(data, dict) else None
        if not isinstance(raw, str):
            return False
        try:
            image = base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError):
            return False
        if len(image) > MAX_SCREENSHOT_BYTES or not image.startswith(b"\xff\xd8"):
            return False
        entry = self._of(screen)
        entry.screenshot, entry.screenshot_ms = image, now_ms
        return True

    def report(self, screen: str) -> dict[str, Any]:
        entry = self.screens.get(screen, ScreenTelemetry())
        return {"online": entry.connections > 0, "last_seen_ms": entry.last_seen_ms,
                "since_ms": entry.since_ms,
                **entry.heartbeat, "screenshot_ms": entry.screenshot_ms}

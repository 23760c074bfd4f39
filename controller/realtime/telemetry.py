"""What screens report about themselves: heartbeats and screenshots, kept in memory only
(in Redis when several processes serve screens: controller/cluster/redis_telemetry.py).

Telemetry is not show state: it is not logged as events and is lost on restart (screens
report again within seconds).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any, Protocol

from showrunner.contract.fields import printable_char

HEARTBEAT_FIELDS: dict[str, type | tuple[type, ...]] = {
    "version": str, "fps": (int, float), "dropped_frames": int, "scene": str,
    "uptime_s": (int, float), "switched_ms": int, "log_id": str, "resyncs": int,
    "resync_reason": str, "clock_offset_ms": int, "video_decode": str, "frame_paths": str}
MAX_SCREENSHOT_BYTES = 48 * 1024
MAX_MISSING = 50  # media names a heartbeat lists as missing
MAX_BYTES = 2**53  # a byte count a page can show exactly


def heartbeat_fields(data: Any) -> dict[str, Any] | None:
    """The known fields of a heartbeat, or None if it is not an object."""
    if not isinstance(data, dict):
        return None
    fields = {k: v for k, v in data.items()
              if k in HEARTBEAT_FIELDS and isinstance(v, HEARTBEAT_FIELDS[k])
              and not isinstance(v, bool)}
    media = media_progress(data.get("media"))
    if media is not None:
        fields["media"] = media
    return fields


def media_progress(value: Any) -> dict[str, Any] | None:
    """A heartbeat's `media` while the screen waits for some: {missing: [name, ...],
    done_bytes, total_bytes}, or None if it is absent or not that shape (a name a page cannot
    show is left out)."""
    if not isinstance(value, dict):
        return None
    missing, done, total = value.get("missing"), value.get("done_bytes"), value.get("total_bytes")
    if not isinstance(missing, list) or not missing or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_BYTES
            for n in (done, total)):
        return None
    names = [n for n in missing[:MAX_MISSING] if isinstance(n, str) and 0 < len(n) <= 100
             and all(printable_char(c) for c in n)]
    return {"missing": names, "done_bytes": done, "total_bytes": total} if names else None


def screenshot_jpeg(data: Any) -> bytes | None:
    """The JPEG of {"jpeg": base64}, or None if it is not one or too large."""
    raw = data.get("jpeg") if isinstance(data, dict) else None
    if not isinstance(raw, str):
        return None
    try:
        image = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(image) > MAX_SCREENSHOT_BYTES or not image.startswith(b"\xff\xd8"):
        return None
    return image


@dataclass
class ScreenTelemetry:
    connections: int = 0
    last_seen_ms: int | None = None
    since_ms: int | None = None  # when it last came online or went offline
    heartbeat: dict[str, Any] = field(default_factory=dict)
    screenshot: bytes | None = None
    screenshot_ms: int | None = None


class Telemetry(Protocol):
    """The questions the hub, the display namespace and `/screens` ask about screens."""

    async def connected(self, screen: str, now_ms: int) -> None: ...

    async def disconnected(self, screen: str, now_ms: int) -> None: ...

    async def heartbeat(self, screen: str, data: Any, now_ms: int) -> bool:
        """Keep the known fields of a heartbeat; False if it is not an object."""
        ...

    async def screenshot(self, screen: str, data: Any, now_ms: int) -> bool:
        """Keep a JPEG sent as {"jpeg": base64}; False if it is not one or too large."""
        ...

    async def screenshot_of(self, screen: str) -> bytes | None: ...

    async def reports(self, screens: list[str]) -> dict[str, dict[str, Any]]:
        """Each screen's online state, last seen, since and latest heartbeat."""
        ...


class MemoryTelemetry:
    """Telemetry of the screens this one process serves."""

    def __init__(self) -> None:
        self.screens: dict[str, ScreenTelemetry] = {}

    def _of(self, screen: str) -> ScreenTelemetry:
        return self.screens.setdefault(screen, ScreenTelemetry())

    async def connected(self, screen: str, now_ms: int) -> None:
        entry = self._of(screen)
        if entry.connections == 0:
            entry.since_ms = now_ms
        entry.connections += 1
        entry.last_seen_ms = now_ms

    async def disconnected(self, screen: str, now_ms: int) -> None:
        entry = self._of(screen)
        entry.connections = max(0, entry.connections - 1)
        entry.last_seen_ms = now_ms
        if entry.connections == 0:
            entry.since_ms = now_ms

    async def heartbeat(self, screen: str, data: Any, now_ms: int) -> bool:
        fields = heartbeat_fields(data)
        if fields is None:
            return False
        entry = self._of(screen)
        entry.heartbeat, entry.last_seen_ms = fields, now_ms
        return True

    async def screenshot(self, screen: str, data: Any, now_ms: int) -> bool:
        image = screenshot_jpeg(data)
        if image is None:
            return False
        entry = self._of(screen)
        entry.screenshot, entry.screenshot_ms = image, now_ms
        return True

    async def screenshot_of(self, screen: str) -> bytes | None:
        entry = self.screens.get(screen)
        return None if entry is None else entry.screenshot

    async def reports(self, screens: list[str]) -> dict[str, dict[str, Any]]:
        return {screen: self._report(screen) for screen in screens}

    def _report(self, screen: str) -> dict[str, Any]:
        entry = self.screens.get(screen, ScreenTelemetry())
        return {"online": entry.connections > 0, "last_seen_ms": entry.last_seen_ms,
                "since_ms": entry.since_ms,
                **entry.heartbeat, "screenshot_ms": entry.screenshot_ms}

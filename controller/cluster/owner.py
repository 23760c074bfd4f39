"""The owner's side: its views go out through Redis, its telemetry is read from there."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from controller.cluster.queue import MessageQueue
from controller.cluster.telemetry import RedisTelemetry
from controller.hub import Hub


def share(hub: Hub, queue: MessageQueue) -> list[Coroutine[Any, Any, None]]:
    """Make `hub` keep telemetry in Redis; the tasks that must run beside it."""
    telemetry = RedisTelemetry(queue)
    telemetry.alive()
    hub.telemetry = telemetry  # type: ignore[assignment]
    return [telemetry.keep_alive()]

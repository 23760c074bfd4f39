"""The owner's side: its views go out through Redis, its telemetry is read from there, and it
runs the commands fan-out processes relay."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from controller.cluster.commands import serve_commands
from controller.cluster.queue import MessageQueue
from controller.cluster.telemetry import keep_in_redis
from controller.hub import Hub


def share(hub: Hub, queue: MessageQueue) -> list[Coroutine[Any, Any, None]]:
    """Make `hub` keep telemetry in Redis; the tasks that must run beside it."""
    return [keep_in_redis(hub, queue).keep_alive(), serve_commands(hub, queue)]

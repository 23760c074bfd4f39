"""The owner's side: its views go out through Redis, its telemetry is kept there, and it runs
the commands fan-out processes relay."""

from __future__ import annotations

from controller.cluster.commands import serve_commands
from controller.cluster.queue import MessageQueue
from controller.cluster.redis_telemetry import RedisTelemetry
from controller.realtime.sharing import Sharing


def share(queue: MessageQueue) -> Sharing:
    """How the owner of a show joins `queue` (`serve --message-queue`)."""
    telemetry = RedisTelemetry(queue)
    return Sharing(manager=queue.manager(), telemetry=telemetry,
                   beside=lambda hub: {
                       "Telling Redis this process is alive": telemetry.keep_alive(),
                       "Commands relayed by fan-out processes": serve_commands(hub, queue)})

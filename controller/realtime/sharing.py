"""What the owner of a show adds when fan-out processes serve its screens too: a client manager
that sends through the message queue, telemetry every process shares, and the tasks that run
beside the hub. Built by controller/cluster/owner.py and handed to the app factory, so the
transports never import the cluster."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import socketio

from controller.realtime.hub import Hub
from controller.realtime.telemetry import Telemetry


@dataclass(frozen=True)
class Sharing:
    manager: socketio.AsyncManager
    telemetry: Telemetry
    #: the tasks run beside the hub, each by the name its failure is said under
    beside: Callable[[Hub], dict[str, Coroutine[Any, Any, None]]]

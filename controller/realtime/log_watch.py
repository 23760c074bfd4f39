"""The log's watch, while the controller leads: keys issued or revoked at the shell folded
(a revoked key's sessions cut now: authentication reads the keys table), a signed checkpoint
every N events, a snapshot at its cadence (controller/application/snapshots.py).

Three jobs, each run by `controller/application/background.py`, so that one failing (a
checkpoint on a disk gone read-only or full, a snapshot's fork refused) is logged and tried
again without holding back either of the others.
"""

from __future__ import annotations

import asyncio
import logging

from controller.application.background import Turn, start_loop
from controller.application.snapshots import Snapshots
from controller.audit.checkpoints import Checkpointer
from controller.realtime.hub import Hub

logger = logging.getLogger(__name__)

WATCH_S = 0.5
WATCH_RETRY_MAX_S = 10.0  # a job of the log's watch failing for a while is tried this often


def watch_log(hub: Hub, checkpointer: Checkpointer | None,
              snapshots: Snapshots) -> list[asyncio.Task[None]]:
    """The watch's three jobs, started, each every `WATCH_S`."""

    async def fold_foreign() -> None:
        hub.publish(hub.catch_up())

    async def snapshot() -> None:
        snapshots.maybe()

    jobs: list[tuple[str, Turn]] = [("Following keys issued or revoked at the shell",
                                     fold_foreign), ("Snapshots of the state", snapshot)]
    if checkpointer is not None:
        async def checkpoint() -> None:
            checkpointer.maybe(hub.service.clock())

        jobs.append(("Signed checkpoints of the log", checkpoint))
    return [start_loop(what, job, logger, every_s=WATCH_S, retry_s=WATCH_S,
                       retry_max_s=WATCH_RETRY_MAX_S) for what, job in jobs]

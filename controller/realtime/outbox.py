"""Fan-out behind the ack: sends to clients run from one ordered queue, never in a command.

A command's ack goes out once its events are durable; what it changed is pushed here and sent
by a single consumer task, so the MC never waits for the floor and broadcasts keep their
order (clock ticks and the log watcher use the same queue). `Deltas` turns a change to a large
view into a small delta against the revision sent before it (showrunner.contract.delta).

Each `emit` to a room is serialised and framed once and the frame written to every recipient's
WebSocket in turn (controller/realtime/direct.py), not once per client. A long job (a score to a
thousand screens, a playlist assigned to all of them) gives the loop back every `SLICE_S`
(`Slices`), so an ack or another client's request never waits behind all of it; the jobs
after it still wait, so broadcasts keep their order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from controller.application.background import start_loop
from controller.application.show import View
from showrunner.contract.delta import diff

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
DELTA_MIN_BYTES = 1024  # a smaller view goes whole: a delta would save next to nothing
SLICE_S = 0.005  # the longest a fan-out job holds the loop between its pauses


class Slices:
    """A long job's pauses: `pause` yields to the loop once `SLICE_S` has passed since the
    job began or last paused."""

    def __init__(self) -> None:
        self.since = time.perf_counter()

    async def pause(self) -> None:
        if time.perf_counter() - self.since >= SLICE_S:
            await asyncio.sleep(0)
            self.since = time.perf_counter()


class FanOut:
    """An ordered queue of sends with one consumer; `start` in the running loop."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[Job] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = start_loop("The fan-out to clients", self._send_next, log, retry_s=0)

    def push(self, job: Job) -> None:
        self._queue.put_nowait(job)

    async def idle(self) -> None:
        """Wait until every job pushed so far has been sent."""
        await self._queue.join()

    async def stop(self) -> None:
        """Cancel what is left: on shutdown every connection is closed already."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _send_next(self) -> None:
        """One job, once the queue has one; a failed one is logged (`forever`) and the next
        sent at once: one failed send must not stop or delay the ones after it."""
        job = await self._queue.get()
        try:
            await job()
        finally:
            self._queue.task_done()


class Deltas:
    """The message for a changed view on /display: whole, or a delta against the revision
    broadcast before it when the view is large (docs/protocol.md, "Deltas")."""

    def __init__(self) -> None:
        self._sent: dict[str, View] = {}

    def message(self, view: View) -> dict[str, Any]:
        before = self._sent.get(view.name)
        self._sent[view.name] = view
        whole = view.message()
        if before is None or before.revision >= view.revision:
            return whole
        size = len(json.dumps(view.doc, separators=(",", ":")))
        if size < DELTA_MIN_BYTES:
            return whole
        delta = diff(before.doc, view.doc)
        if len(json.dumps(delta, separators=(",", ":"))) >= size:
            return whole
        return {"name": view.name, "revision": view.revision, "base": before.revision,
                "delta": delta}

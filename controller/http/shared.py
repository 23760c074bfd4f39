"""What both app factories share (the owner's, controller/http/app.py, and a fan-out
process's, controller/cluster/fanout.py): the app keys the hub and the key attempts live
under, the message size cap, /healthz and /clock, and stopping background tasks."""

from __future__ import annotations

import asyncio
import contextlib

from aiohttp import web

from controller.access.attempts import KeyAttempts
from controller.realtime.hub import Hub
from controller.rehearsal.log import clock_rate

MAX_MESSAGE_BYTES = 64 * 1024

hub_key = web.AppKey("hub", Hub)
attempts_key = web.AppKey("attempts", KeyAttempts)


async def healthz(request: web.Request) -> web.Response:
    service = request.app[hub_key].service
    return web.json_response({"ok": True, "seq": service.log.last_seq,
                              "views": len(service.show.views)})


async def clock(request: web.Request) -> web.Response:
    service = request.app[hub_key].service
    return web.json_response({"server_ms": service.clock(), "rate": clock_rate(service.clock)})


async def cancel(tasks: list[asyncio.Task[None]]) -> None:
    """Stop background tasks at shutdown and wait until each has."""
    for task in tasks:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

"""`GET /leader`: whether this controller leads the show's log, who does, and every controller
on it: a page opened on a standby goes to the leader, and a page whose controller died goes to
another one (controller/web/link.js).

An SQLite log has one controller: it leads, and names no others."""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from controller.store.lease import Lease, NotLeader

lease_key: web.AppKey[Lease | None] = web.AppKey("lease")


def leadership(lease: Lease | None) -> dict[str, Any]:
    if lease is None:
        return {"leading": True, "leader": "", "controllers": []}
    return {"leading": lease.holds(), "leader": lease.leader_address(),
            "controllers": lease.controllers()}


async def leader_handler(request: web.Request) -> web.Response:
    answer = await asyncio.to_thread(leadership, request.app[lease_key])
    return web.json_response(answer, headers={"Cache-Control": "no-store"})


def add_leader_route(app: web.Application, lease: Lease | None) -> None:
    app[lease_key] = lease
    app.router.add_get("/leader", leader_handler)


def not_leading(app: web.Application) -> NotLeader | None:
    """Why this controller may not take what only the leader keeps (a feed's live credits:
    the leader alone shows them), or None when it leads."""
    lease = app[lease_key]
    try:
        if lease is not None:
            lease.must_lead()
    except NotLeader as exc:
        return exc
    return None

"""A fan-out process: serves screens (/display) and cue pages (/cue) of a show another process
owns, so that more screens can be served than one process can.

It never writes the log. It follows the owner's log read-only (keys, screen status, the views
a `sync` sends) and catches up before each connect and sync, so a screen that fails over to it
gets every view the owner has made durable. On a PostgreSQL log it may run on another PC: each
append's NOTIFY wakes its follower, which then pulls by seq (controller/store/wakeup.py).
Changed views reach its screens from the owner through Redis (`AsyncRedisManager`); it does not
emit views itself. The console (/control) connects to the owner only; a cue page's commands
are relayed to the owner over Redis (controller/cluster/commands.py): commands run where the
rules are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import socketio
from aiohttp import web

from controller.access.addresses import TrustedProxies
from controller.access.attempts import KeyAttempts
from controller.application.background import forever, start
from controller.application.features import build_features
from controller.application.heap import keep_replayed_state
from controller.application.service import Service, wall_clock_ms
from controller.application.show import Show
from controller.cluster.commands import CommandRelay
from controller.cluster.queue import MessageQueue
from controller.cluster.redis_telemetry import RedisTelemetry
from controller.http.forwarded import client_addresses
from controller.http.media import add_fetch_route
from controller.http.middleware import plain_keys, security_headers
from controller.http.shared import MAX_MESSAGE_BYTES, attempts_key, cancel, clock, healthz, hub_key
from controller.realtime.hub import (
    AUDIENCES,
    DEVICE_AUDIENCE,
    KIOSK_AUDIENCE,
    OPERATOR_AUDIENCE,
    Hub,
)
from controller.realtime.namespaces.base import AudienceNamespace
from controller.realtime.namespaces.cue import CueNamespace
from controller.realtime.namespaces.display import DisplayNamespace
from controller.realtime.server import WireServer
from controller.screens.views import VIEW_PREFIX
from controller.store.target import LogAt, is_database, open_log
from controller.store.wakeup import Appended

#: how long the follower waits for a wake-up before it pulls the log anyway. On SQLite nothing
#: wakes it, so this is its poll; on PostgreSQL each append's NOTIFY wakes it at once, and the
#: longer wait only bounds a wake-up that never came (a connection that died silently), while
#: a floor's fan-out processes, on PCs of their own, do not each query the database 5 times a
#: second for nothing
FOLLOW_S = 0.2
FOLLOW_NOTIFIED_S = 1.0
log = logging.getLogger(__name__)
OWNER_ONLY = ("This is a fan-out process for screens and cue pages; connect the console and the "
              "floor's devices to the controller that owns the show.")


async def follow(hub: Hub) -> None:
    """Fold what the owner appended; on this process, cut sessions it revoked and move the
    screens whose program or status changed into the rooms of the views they now show (and
    send them those views whole). Changed views went out from the owner already."""
    await hub.follow_screens(v.name.removeprefix(VIEW_PREFIX) for v in hub.catch_up()
                             if v.name.startswith(VIEW_PREFIX))


class Following(AudienceNamespace):
    """Catch up with the log first: a key, a screen or a view the owner made durable a moment
    ago is known at the connect and in the sync that follow it."""

    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        await follow(self.hub)
        await super().on_connect(sid, environ, auth)

    async def on_sync(self, sid: str, data: Any = None) -> dict[str, Any]:
        await follow(self.hub)
        return await super().on_sync(sid, data)


class FollowingDisplay(Following, DisplayNamespace):
    pass


class FollowingCue(Following, CueNamespace):
    """/cue here: its commands are relayed to the owner, which runs them and answers."""

    def __init__(self, hub: Hub, relay: CommandRelay) -> None:
        super().__init__(hub)
        self.relay = relay

    async def on_command(self, sid: str, envelope: Any = None) -> dict[str, Any]:
        principal = (await self.get_session(sid))["principal"]
        return await self.relay.execute(envelope, principal)


class OwnerOnly(socketio.AsyncNamespace):
    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        raise socketio.exceptions.ConnectionRefusedError(OWNER_ONLY)


def create_fanout_app(db_path: LogAt, queue: MessageQueue,
                      proxies: TrustedProxies | None = None) -> web.Application:
    """`proxies`: whose X-Forwarded-For names the client (controller/access/addresses.py)."""
    app = web.Application(client_max_size=MAX_MESSAGE_BYTES,
                          middlewares=[client_addresses(proxies or TrustedProxies()),
                                       plain_keys])
    app.on_response_prepare.append(security_headers)
    app[attempts_key] = KeyAttempts()
    sio = WireServer(list(AUDIENCES), max_http_buffer_size=MAX_MESSAGE_BYTES,
                     client_manager=queue.manager())
    sio.attach(app)
    app.cleanup_ctx.append(_follow_log(db_path, sio, queue))
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/clock", clock)
    add_fetch_route(app, follow)
    return app


def _follow_log(db_path: LogAt, sio: WireServer, queue: MessageQueue):
    async def context(app: web.Application) -> AsyncIterator[None]:
        events = open_log(db_path, create=False)
        service = Service(events, Show(build_features()), wall_clock_ms)
        service.replay()
        keep_replayed_state()
        telemetry = RedisTelemetry(queue)
        hub = Hub(service, sio, app[attempts_key], telemetry=telemetry)
        app[hub_key] = hub
        for namespace in (FollowingDisplay(hub), FollowingCue(hub, CommandRelay(queue))):
            sio.register_namespace(namespace)
        for owners in (OPERATOR_AUDIENCE, DEVICE_AUDIENCE, KIOSK_AUDIENCE):
            sio.register_namespace(OwnerOnly(owners))
        hub.fanout.start()  # this process's own sends: session cuts, views a screen now needs
        appended = Appended.for_log(db_path)
        every_s = FOLLOW_NOTIFIED_S if is_database(db_path) else FOLLOW_S
        tasks = [start("Following the owner's log",
                       _keep_following(hub, appended, every_s), log),
                 start("Telling Redis this process is alive", telemetry.keep_alive(), log)]
        yield
        await cancel(tasks)
        await appended.close()
        await hub.fanout.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sio.eio.disconnect(), 1.0)
        events.close()

    return context


async def _keep_following(hub: Hub, appended: Appended, every_s: float) -> None:
    """Follow the log for ever, pulling when woken and at least every `every_s`: a read that
    fails (the disk, the database) is logged and tried again."""

    async def turn() -> None:
        await follow(hub)
        await appended.wait(every_s)

    await forever("Following the owner's log", turn, log, retry_s=every_s,
                  retry_max_s=max(every_s, 1.0))

"""create_app(): the controller's aiohttp application. Nothing runs at import.

The store is opened and replayed in a cleanup context, so a log that cannot be used stops the
app at start-up with the store's own message, before any client connects; so does a promotion
config that is wrong or contradicts the log (`ConfigError`, see controller/application/configs.py).

Every HTTP answer carries the security headers, and a key that is not plain text is a 400
before any handler sees it (controller/http/middleware.py, shared with the fan-out processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from aiohttp import web

from controller.access.addresses import TrustedProxies
from controller.access.attempts import KeyAttempts, KeyLimit
from controller.access.logins import REHEARSAL_COOKIE, LoginPolicy, Logins
from controller.application.background import start
from controller.application.configs import record_configs
from controller.application.features import build_features
from controller.application.heap import keep_replayed_state
from controller.application.leadership import keep_leading
from controller.application.service import Service, wall_clock_ms
from controller.application.show import Show
from controller.application.snapshots import Snapshots
from controller.audit.checkpoints import Anchoring, Checkpointer, load_private
from controller.audit.whole_check import WholeCheck
from controller.domain.commands import prepare_payload
from controller.domain.errors import Rejected
from controller.feeds.live import LiveCredits, publish_live
from controller.http.api import add_api_routes
from controller.http.api.slots_feed import live_credits_key
from controller.http.callers import caller
from controller.http.forwarded import client_addresses
from controller.http.kiosk import add_kiosk_routes
from controller.http.leader import add_leader_route
from controller.http.logins import add_routes, logins_key, people_page
from controller.http.media import add_media_routes
from controller.http.middleware import KEY_HEADER, Handler, plain_keys, security_headers
from controller.http.playlist_watch import watch_playlists
from controller.http.rehearsals import add_rehearsal_routes, runner_key
from controller.http.reports import add_report_routes
from controller.http.shared import (
    MAX_MESSAGE_BYTES,
    attempts_key,
    cancel,
    clock,
    healthz,
    hub_key,
)
from controller.http.signatures import add_signature_routes
from controller.realtime.devices import Devices
from controller.realtime.floor import screens_report
from controller.realtime.hub import AUDIENCES, Hub
from controller.realtime.log_health import report_whole_check
from controller.realtime.log_watch import watch_log
from controller.realtime.namespaces.control import ControlNamespace
from controller.realtime.namespaces.cue import CueNamespace
from controller.realtime.namespaces.device import DeviceNamespace
from controller.realtime.namespaces.display import DisplayNamespace
from controller.realtime.namespaces.kiosk import KioskNamespace
from controller.realtime.server import WireServer
from controller.realtime.sharing import Sharing
from controller.realtime.standing_by import stand_by
from controller.rehearsal.log import Rehearsing, require_kind
from controller.rehearsal.runner import RehearsalRunner
from controller.store.lease import Lease, NotLeader
from controller.store.log import StoredLog
from controller.store.postgres import PostgresEventLog
from controller.store.target import LogAt, files_of, open_log, shown
from controller.store.wakeup import Appended

WEB_DIR = Path(__file__).resolve().parents[1] / "web"
logger = logging.getLogger(__name__)
db_path_key: web.AppKey[LogAt] = web.AppKey("db_path")


def create_app(db_path: LogAt, playlists: Path | None = None, anchor: Anchoring | None = None,
               key_limit: KeyLimit | None = None,
               rehearsal: Rehearsing | None = None,
               login_policy: LoginPolicy | None = None,
               host: str = "127.0.0.1",
               sharing: Sharing | None = None,
               proxies: TrustedProxies | None = None,
               warm: Service | None = None,
               lease: Lease | None = None,
               whole_check: Callable[[], Awaitable[WholeCheck]] | None = None
               ) -> web.Application:
    """`playlists`: a directory whose changed files are reloaded onto screens (development);
    `anchor`: where to sign checkpoints of the log (at start, every N events, at shutdown);
    `key_limit`: wrong keys allowed per address and key before their refusals are slowed
    (controller/access/attempts.py);
    `rehearsal`: run a rehearsal log on a show clock set to its moment
    (controller/rehearsal/log.py);
    without it a rehearsal log is refused, with it a live one is;
    `login_policy`: people's sessions and lock-out (controller/access/logins.py);
    `host`: where the console's rehearsals listen (controller/rehearsal/runner.py);
    `sharing`: when fan-out processes serve screens too (controller/cluster/owner.py);
    `proxies`: whose X-Forwarded-For names the client (controller/access/addresses.py);
    `warm`: the service replayed already: `serve`'s, replayed while its log was checked
    (controller/application/startup.py), or a standby's taking over, up to date with the log
    (controller/application/standby.py);
    `lease`: a PostgreSQL log's lease, held (this controller leads: its appends are fenced by
    it, and it stops serving when the lease is lost: controller/application/leadership.py) or
    not yet (a standby: it serves screens and pages, answers commands `not_leader`, and takes
    the lead when it can: controller/realtime/standing_by.py);
    `whole_check`: the rest of the log checked once this controller serves, beyond the tail
    its start checked (`serve`'s: controller/cli/start_check.py), what it finds put on the
    console and /screens (controller/realtime/log_health.py)."""
    app = web.Application(client_max_size=MAX_MESSAGE_BYTES,
                          middlewares=[client_addresses(proxies or TrustedProxies()),
                                       plain_keys])
    app.on_response_prepare.append(security_headers)
    app[db_path_key] = db_path
    attempts = KeyAttempts(key_limit or KeyLimit())
    app[attempts_key] = attempts
    policy = login_policy or LoginPolicy()
    if rehearsal is not None:  # its own login cookie, beside the live show's on the same host
        policy = dataclasses.replace(policy, cookie=REHEARSAL_COOKIE)
    app[logins_key] = Logins(policy)
    sio = WireServer(list(AUDIENCES), max_http_buffer_size=MAX_MESSAGE_BYTES,
                     client_manager=sharing.manager if sharing else None)
    sio.attach(app)
    app.cleanup_ctx.append(_open_store(sio, playlists, anchor, attempts, rehearsal, sharing,
                                       warm, lease, whole_check))
    app.on_shutdown.append(_close_connections(sio))
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/clock", clock)
    add_leader_route(app, lease)
    app.router.add_get("/screens", screens(people_page(WEB_DIR, "screens.html",
                                                       TECHNICIAN_PAGE, _log_of)))
    app.router.add_get("/screens/{screen}/screenshot.jpg", screenshot)
    app.router.add_get("/", index)
    app[live_credits_key] = LiveCredits()
    add_api_routes(app)
    if rehearsal is None:
        app[runner_key] = RehearsalRunner(files_of(db_path), host, lambda: _log_of(app).users())
        app.on_shutdown.append(_stop_rehearsal)
    add_rehearsal_routes(app, _log_of, lambda a: a[hub_key].service.clock())
    add_routes(app, WEB_DIR, _log_of)
    add_signature_routes(app, _log_of, lambda a: a[hub_key].service.clock())
    add_media_routes(app)
    add_report_routes(app, _log_of, lambda a: a[hub_key].service.clock(), anchor)
    app.router.add_get("/tablet", people_page(WEB_DIR, "tablet.html", ControlNamespace.roles,
                                              _log_of))
    app.router.add_get("/cue", people_page(WEB_DIR, "cue.html", CueNamespace.roles, _log_of))
    add_kiosk_routes(app, WEB_DIR)
    app.router.add_static("/static", WEB_DIR, follow_symlinks=False)
    app.router.add_get("/vendor/socket.io.min.js", socketio_client_js)
    app.router.add_get("/vendor/signature_pad.js", signature_pad_js)
    return app


def _open_store(sio: WireServer, playlists: Path | None, anchor: Anchoring | None,
                attempts: KeyAttempts, rehearsal: Rehearsing | None,
                sharing: Sharing | None, warm: Service | None,
                lease: Lease | None, whole_check: Callable[[], Awaitable[WholeCheck]] | None):
    async def context(app: web.Application) -> AsyncIterator[None]:
        log = warm.log if warm else open_log(app[db_path_key])
        try:
            require_kind(log, rehearsal is not None)
            app[logins_key].keep_in(log)
            if lease is not None and isinstance(log, PostgresEventLog):
                log.fenced_by(lease.fence, Lease.prepare)  # a standby's appends: NotLeader
            if warm is not None:
                service = warm
                service.catch_up()
            else:
                clock = rehearsal.clock() if rehearsal else wall_clock_ms
                service = Service(log, Show(build_features()), clock)
                service.replay()
                keep_replayed_state()  # before anything runs the collector over the state
            if lease is not None:
                service.must_lead = lease.must_lead
            hub = Hub(service, sio, attempts, app[logins_key],
                      sharing.telemetry if sharing else None)
            leader = Leader(hub, anchor, rehearsal, playlists, sharing, lease,
                            app[live_credits_key])
            if lease is None or lease.epoch is not None:
                leader.prepare()  # a wrong config stops the start here, before any client
        except BaseException:
            log.close()
            raise
        app[hub_key] = hub
        devices = hub.devices = Devices(service, hub.publish)
        for namespace in (ControlNamespace(hub), DisplayNamespace(hub), CueNamespace(hub),
                          DeviceNamespace(hub, devices), KioskNamespace(hub, devices)):
            sio.register_namespace(namespace)
        devices.publish()  # every device key, offline until it connects
        hub.fanout.start()
        tasks = [start("Preparing the commands' payload checkers",
                       _prepare_payloads(service.show), logger, ends=True)]
        if whole_check is not None:
            tasks.append(start("The whole log's check", report_whole_check(
                hub, whole_check, shown(app[db_path_key])), logger, ends=True))
        appended: Appended | None = None
        if leader.prepared:
            leader.start()
        else:
            assert lease is not None
            appended = Appended.for_log(app[db_path_key])
            tasks.append(start("Standing by", stand_by(hub, lease, appended, leader.take_over),
                               logger, ends=True))
        yield
        await cancel(tasks)
        if appended is not None:
            await appended.close()
        await leader.stop()
        await hub.fanout.stop()
        log.close()

    return context


class Leader:
    """What the controller leading the log runs beside serving its clients: the configs
    recorded, the clock loop, snapshots, checkpoints, the lease kept. A standby of a PostgreSQL
    log serves screens and pages without them until it takes the lead (`take_over`)."""

    def __init__(self, hub: Hub, anchor: Anchoring | None, rehearsal: Rehearsing | None,
                 playlists: Path | None, sharing: Sharing | None, lease: Lease | None,
                 live_credits: LiveCredits) -> None:
        self.hub, self.anchor, self.rehearsal, self.playlists = hub, anchor, rehearsal, playlists
        self.sharing, self.lease, self.live_credits = sharing, lease, live_credits
        self.prepared = False
        self.snapshots: Snapshots | None = None
        self.checkpointer: Checkpointer | None = None
        self.tasks: list[asyncio.Task[None]] = []

    def prepare(self) -> None:
        """Record the marks and configs the log must hold before the show runs on (its
        appends are fenced: they need the lease's epoch to be the log's)."""
        service = self.hub.service
        log = service.log
        if self.rehearsal is not None:  # before the configs: the mark is the first show event
            service.record(f"rehearsal:{log.last_seq}", [self.rehearsal.event()])
        self.hub.publish(record_configs(service))
        self.snapshots = Snapshots(log, lambda: service.show)
        if self.anchor is not None:
            self.checkpointer = Checkpointer(log, load_private(self.anchor.key),
                                             self.anchor.path, self.anchor.every)
            self.checkpointer.now(service.clock())
        self.prepared = True

    def start(self) -> None:
        """Lead: the lease renewed first (a start's checks, loading and configs may have
        outlasted it, and its renewal begins only here: until then commands would be refused
        `not_leader`; one whose epoch moved on meanwhile must not lead)."""
        if self.lease is not None and not self.lease.renew():
            raise NotLeader("")
        hub = self.hub
        assert self.snapshots is not None
        self.tasks += [start("The clock (reveals, expiries)", hub.run_clock(), logger),
                       *watch_log(hub, self.checkpointer, self.snapshots),
                       start("The live heat's views", publish_live(hub, self.live_credits), logger)]
        if self.playlists is not None:
            self.tasks.append(start("The playlists' watch",
                                    watch_playlists(hub, self.playlists), logger))
        if self.lease is not None:
            self.tasks.append(start("The leader lease", keep_leading(self.lease), logger,
                                    ends=True))  # once lost: it stops this process
        if self.sharing is not None:
            self.tasks += [start(what, task, logger)
                           for what, task in self.sharing.beside(self.hub).items()]

    def take_over(self) -> None:
        """The lease is this controller's now: lead from the state it kept, without a restart
        (its screens and pages stay connected)."""
        self.prepare()
        self.start()

    async def stop(self) -> None:
        """A clean stop: the end anchored, the state kept, the lease given up, each tried
        whatever became of the others (a full disk must not keep the standby waiting)."""
        await cancel(self.tasks)
        if not self.prepared:
            return
        snapshots, checkpointer = self.snapshots, self.checkpointer
        assert snapshots is not None
        if checkpointer is not None:
            _at_stop("the last signed checkpoint", checkpointer.now, self.hub.service.clock())
        _at_stop("the snapshot of the state", snapshots.close)  # the next start replays nothing
        if self.lease is not None:  # a standby leads at once, not in 3 s
            await asyncio.to_thread(_at_stop, "giving the lease up", self.lease.step_down)


async def _prepare_payloads(show: Show) -> None:
    """Every command's payload checker, one per loop turn after start-up: built at a command's
    first use it added up to tens of ms to that command's callback (a playlist assigned to the
    floor), and all at once before serving they would lengthen a restart."""
    for command in list(show.commands.values()):
        prepare_payload(command.payload)
        await asyncio.sleep(0)


async def _stop_rehearsal(app: web.Application) -> None:
    await app[runner_key].stop()


def _log_of(app: web.Application) -> StoredLog:
    return app[hub_key].service.log


CLOSE_S = 1.0


def _close_connections(sio: WireServer):
    """On shutdown, close every page's and screen's connection at once (they reconnect when
    the controller is back), so the server does not wait for them to go."""

    async def close(app: web.Application) -> None:
        if sio.eio.sockets:
            # ValueError: the last socket closed between the check and engine.io's
            # asyncio.wait over the sockets it then holds (an empty set)
            with contextlib.suppress(TimeoutError, ValueError):
                await asyncio.wait_for(sio.eio.disconnect(), CLOSE_S)
        await sio.shutdown()

    return close


def _at_stop(what: str, action: Callable[..., object], *args: object) -> None:
    try:
        action(*args)
    except Exception:
        logger.exception("at the stop, %s failed", what)


SCREEN_READERS = frozenset({"technician", "operator", "auditor"})
TECHNICIAN_PAGE = frozenset({"technician"})


async def _require_reader(request: web.Request) -> Hub:
    """The hub, for a technician's, operator's or auditor's key in the key header, or for
    such a person logged in (a page's thumbnails)."""
    hub = request.app[hub_key]
    sentence = f"Send a technician, operator or auditor key in {KEY_HEADER}."
    try:
        await caller(request, hub.service.log, SCREEN_READERS, sentence, sentence)
    except Rejected as exc:
        raise web.HTTPForbidden(text=exc.message) from None
    return hub


def screens(page: Handler) -> Handler:
    """`GET /screens`: with a key header, the report as JSON (the `screens` command); else the
    technicians' page, for a logged-in technician."""

    async def handler(request: web.Request) -> web.StreamResponse:
        if KEY_HEADER not in request.headers:
            return await page(request)
        return web.json_response(await screens_report(await _require_reader(request)))

    return handler


async def screenshot(request: web.Request) -> web.Response:
    hub = await _require_reader(request)
    image = await hub.telemetry.screenshot_of(request.match_info["screen"])
    if image is None:
        raise web.HTTPNotFound(text="No screenshot from that screen yet.")
    return web.Response(body=image, content_type="image/jpeg",
                        headers={"Cache-Control": "no-store"})


async def index(request: web.Request) -> web.Response:
    raise web.HTTPFound("/tablet")


async def socketio_client_js(request: web.Request) -> web.FileResponse:
    """The official socket.io client, installed from npm into controller/web/node_modules."""
    dist = WEB_DIR / "node_modules" / "socket.io-client" / "dist" / "socket.io.min.js"
    if not dist.exists():
        raise web.HTTPServiceUnavailable(text="socket.io client not installed: run scripts/setup")
    return web.FileResponse(dist)


async def signature_pad_js(request: web.Request) -> web.FileResponse:
    """signature_pad (an ES module), installed from npm into controller/web/node_modules: the
    console's pad for the signatures the rules require."""
    dist = WEB_DIR / "node_modules" / "signature_pad" / "dist" / "signature_pad.js"
    if not dist.exists():
        raise web.HTTPServiceUnavailable(text="signature_pad not installed: run scripts/setup")
    return web.FileResponse(dist, headers={"Content-Type": "text/javascript"})

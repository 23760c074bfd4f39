"""`serve`, `fanout` and `rehearse`: the commands that run a controller process, until SIGINT
or SIGTERM. Each refuses a broken log, or one of the wrong kind, before the port is bound."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from aiohttp import web

from controller.access.addresses import TrustedProxies
from controller.access.attempts import KeyLimit
from controller.access.logins import LoginPolicy
from controller.application.background import start
from controller.application.heap import keep_replayed_state
from controller.application.loopwatch import watch_from_env
from controller.application.service import wall_clock_ms
from controller.application.standby import Standby
from controller.application.startup import replayed
from controller.audit.checkpoints import DEFAULT_EVERY, Anchoring, CheckpointError, ensure_key
from controller.cli.audit import beside, signing_key
from controller.cli.http_limits import add_limit_options, limits_of_args
from controller.cli.start_check import Checking, check_log
from controller.cluster.fanout import create_fanout_app
from controller.cluster.owner import share
from controller.cluster.queue import MessageQueue, message_queue
from controller.http.app import create_app
from controller.http.connections import listen
from controller.http.limits import limits_key
from controller.rehearsal.log import rehearsing
from controller.store.lease import LEASE_S, RENEW_S, Lease
from controller.store.lock import writer_lock
from controller.store.sqlite import StoreError
from controller.store.target import LogAt, db_arg, files_of, is_database, open_log, shown

logger = logging.getLogger(__name__)
SHUTDOWN_S = 0.3  # what a request still running at shutdown gets (pages were closed first)
PARENT_CHECK_S = 0.5


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the controller service")
    serve.add_argument("--db", type=db_arg, required=True, help="event log: an SQLite file, or "
                       "a PostgreSQL database's postgresql:// URL (several controllers on one "
                       "log, one leading, the others --standby: docs/operations.md)")
    serve.add_argument("--advertise", metavar="URL", help="with a PostgreSQL log: the address "
                       "clients reach this controller at (default http://HOST:PORT)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    serve.add_argument("--playlists", type=Path, help="development: reload changed playlist "
                       "files in this directory onto the screens that play them")
    serve.add_argument("--checkpoint-key", type=Path, help="Ed25519 signing key, kept apart "
                       "from the db (default: DB.checkpoint-key, created with its .pub at first "
                       "serve)")
    serve.add_argument("--checkpoints", type=Path, help="append-only file of signed "
                       "checkpoints for the auditor (default: DB.checkpoints)")
    serve.add_argument("--checkpoint-every", type=int, default=DEFAULT_EVERY, metavar="N",
                       help=f"sign a checkpoint every N events (default {DEFAULT_EVERY})")
    serve.add_argument("--key-failures", type=int, default=KeyLimit.failures, metavar="N",
                       help="wrong keys allowed per address, and per key, in the window, after "
                       "which their refusals are slowed (a right key never is)")
    serve.add_argument("--key-window", type=float, default=KeyLimit.window_s,
                       metavar="SECONDS", help="the window for --key-failures")
    _trusted_proxy_option(serve)
    serve.add_argument("--session-hours", type=_hours, default=12.0, metavar="HOURS",
                       help="a person's login lasts this long (default 12)")
    serve.add_argument("--secure-cookies", action="store_true", help="mark the login cookie "
                       "Secure: set it when the pages are served over https")
    serve.add_argument("--standby", action="store_true", help="keep the show's state hot from "
                       "the log while another controller serves it, and take over the moment "
                       "that one ends (an SQLite log: on this PC, the same --port) or loses the "
                       "lead (a PostgreSQL log: within 5 s; docs/operations.md)")
    serve.add_argument("--message-queue", metavar="redis://HOST:PORT/N", help="share the show "
                       "with fan-out processes (`fanout`) through this Redis (docs/operations.md)")
    add_limit_options(serve)
    serve.set_defaults(run=_serve)

    fanout = sub.add_parser("fanout", help="serve more screens and cue pages of a show that a "
                            "`serve --message-queue` process owns (docs/operations.md)")
    fanout.add_argument("--db", type=db_arg, required=True, help="the owner's event log (read "
                        "only)")
    fanout.add_argument("--message-queue", required=True, metavar="redis://HOST:PORT/N",
                        help="the owner's --message-queue")
    fanout.add_argument("--host", default="127.0.0.1")
    fanout.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    _trusted_proxy_option(fanout)
    add_limit_options(fanout)
    fanout.set_defaults(run=_fanout)

    rehearse = sub.add_parser("rehearse", help="run a rehearsal log whose show clock starts at "
                              "a chosen moment (docs/rehearsal.md); never the live log")
    rehearse.add_argument("--promotion", required=True, help="whose venue time zone --at is "
                          "in: slots, roulette, poker, super9 or wildcard")
    rehearse.add_argument("--at", required=True, metavar='"YYYY-MM-DD HH:MM"',
                          help="where the show clock starts, on the venue's wall clock")
    rehearse.add_argument("--speed", type=int, default=1, help="show seconds per real second "
                          "(default 1: real time)")
    rehearse.add_argument("--db", type=db_arg, default=Path("rehearsal.db"),
                          help="the rehearsal log, a file (default rehearsal.db); a live log is "
                          "refused")
    rehearse.add_argument("--host", default="127.0.0.1")
    rehearse.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    rehearse.add_argument("--playlists", type=Path, help="as for serve")
    rehearse.add_argument("--stop-with-parent", action="store_true",
                          help="stop when the process that started this one ends, even if it "
                          "was killed (the console's rehearsals)")
    add_limit_options(rehearse)
    rehearse.set_defaults(run=_rehearse)


def _trusted_proxy_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trusted-proxy", dest="trusted_proxies", type=_proxies,
                        action="append", default=[], metavar="ADDR_OR_CIDR",
                        help="a TLS proxy in front of this process (repeatable, or a comma "
                        "list): only from it is X-Forwarded-For believed (docs/operations.md)")


def _proxies(text: str) -> TrustedProxies:
    try:
        return TrustedProxies.parse([text])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _trusted(args: argparse.Namespace) -> TrustedProxies:
    return TrustedProxies(tuple(n for p in args.trusted_proxies for n in p.networks))


class Warm(NamedTuple):
    """A standby's state, and the check that vouched for its start: asked for the rest of the
    log once this controller serves (`Checking.whole`)."""

    standby: Standby
    checking: Checking


def _serve(args: argparse.Namespace) -> int:
    if is_database(args.db):
        # one leader per log: the lease, tried once the state is loaded (a season's load
        # outlasts a lease); a standby serves meanwhile (controller/realtime/standing_by.py)
        warm = _stand_by(args.db, say=args.standby)
        _serve_on(args, warm, _lease(args, warm.standby))
        return 0
    standby = _stand_by(args.db, say=True) if args.standby else None
    waiting = standby_waiting(standby.standby) if standby else None
    with writer_lock(args.db, waiting):  # one writer per log, taken before the log is written
        _serve_on(args, standby, None)
    return 0


def _serve_on(args: argparse.Namespace, warm: Warm | None, lease: Lease | None) -> None:
    if args.checkpoint_every < 1:
        raise CheckpointError("--checkpoint-every must be 1 or more.")
    if warm is None:
        checking = Checking(args.db)
        service = replayed(args.db, wall_clock_ms, checking)
        keep_replayed_state()  # before anything runs the collector over the state
    else:  # replayed and checked when it started: the tail it followed is checked here
        standby, checking = warm
        check_log(args.db, rehearsing=False, checked_to=standby.checked_to)
        standby.follow()
        if args.standby and lease is None:
            print(f"standby: taking over the show at event {standby.seq}", flush=True)
        service = standby.service
    files = files_of(args.db)
    anchor = Anchoring(signing_key(files, args.checkpoint_key),
                       args.checkpoints or beside(files, ".checkpoints"), args.checkpoint_every)
    ensure_key(anchor.key)
    limit = KeyLimit(args.key_failures, args.key_window)
    policy = LoginPolicy(session_s=args.session_hours * 3600, secure_cookie=args.secure_cookies)
    queue = _queue(args.db, args.message_queue) if args.message_queue else None
    app = create_app(args.db, args.playlists, anchor, limit, login_policy=policy,
                     host=args.host, sharing=share(queue) if queue else None,
                     proxies=_trusted(args), warm=service, lease=lease,
                     whole_check=checking.whole)
    # a port the system chooses (--port 0) is known once bound: the lease tells it then
    reached = lease.reached_at if lease is not None and not args.advertise else None
    asyncio.run(_run_server(app, args, listening=reached))


def _lease(args: argparse.Namespace, warm: Standby) -> Lease:
    """The lease of a PostgreSQL log, held if it was free. A standby is served without it (it
    takes the lead later); any other start takes at once a lease held by this PC's controller
    that has ended (killed, and started again: a live claim must not wait out its lease),
    waits out one that may be held by a controller that has just ended elsewhere, and is
    refused if another controller leads."""
    lease = Lease(args.db, f"{socket.gethostname()}:{os.getpid()}",
                  args.advertise or f"http://{args.host}:{args.port}")
    patience = time.monotonic() + LEASE_S + RENEW_S
    while lease.try_acquire() is None:
        leader = lease.leader()
        if (not args.standby and leader is not None and _ended_on_this_pc(leader.holder)
                and lease.take_over_from(leader.holder) is not None):
            print(f"leading the show's log (lease epoch {lease.epoch}), taken at once from "
                  "this PC's controller that ended", flush=True)
            return lease
        if args.standby:
            print("standby: serving the show's screens and pages; taking over when the "
                  f"controller at {leader.address if leader else 'another address'} ends",
                  flush=True)
            return lease
        if time.monotonic() > patience:
            raise StoreError(f"The show's log is led by the controller at "
                             f"{leader.address if leader else 'another address'}: start this one "
                             "with --standby to take over when that one ends.")
        warm.follow()
        time.sleep(RENEW_S)
    print(f"leading the show's log (lease epoch {lease.epoch})", flush=True)
    return lease


def _ended_on_this_pc(holder: str) -> bool:
    """Whether a lease's holder ("host:pid", as `_lease` names it) is a process of this PC that
    has ended (gone, or a zombie not yet reaped). A live one, or another PC's, is not known to
    have ended: its lease is waited out."""
    host, _, pid = holder.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # another user's process, alive
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state == "Z"


def _stand_by(db: LogAt, say: bool) -> Warm:
    """The show's state loaded from the (checked) log; `say` so (a standby)."""
    checking = Checking(db)
    standby = Standby(db, checking)
    if say:
        print(f"standby: the show's state is ready at event {standby.seq}", flush=True)
    return Warm(standby, checking)


def standby_waiting(standby: Standby) -> Callable[[str], None]:
    """What a standby does while the serving controller holds the log: follow it (and say
    once who it waits for)."""
    said: list[str] = []

    def waiting(holder: str) -> None:
        if holder not in said:
            said.append(holder)
            print(f"standby: {holder} serves the show; taking over when it ends", flush=True)
        standby.follow()

    return waiting


def _fanout(args: argparse.Namespace) -> int:
    check_log(args.db, rehearsing=False)
    app = create_fanout_app(args.db, _queue(args.db, args.message_queue), _trusted(args))
    asyncio.run(_run_server(app, args))
    return 0


def _queue(db: LogAt, url: str) -> MessageQueue:
    with open_log(db, create=False) as log:
        return message_queue(url, log.log_id)


def _rehearse(args: argparse.Namespace) -> int:
    start = rehearsing(args.promotion, args.at, args.speed)
    if is_database(args.db):
        check_log(args.db, rehearsing=True)  # the live show's log: refused in its words
        raise StoreError(f"{shown(args.db)}: a rehearsal runs on a log file of its own "
                         "(--db rehearsal.db), never in the show's database.")
    with writer_lock(args.db):
        check_log(args.db, rehearsing=True)
        print(f"REHEARSAL on {args.db}: the show clock starts at {start.at_local} "
              f"({start.timezone}, {start.promotion}'s venue) and runs {start.speed}x real time",
              flush=True)
        parent = os.getppid() if args.stop_with_parent else None
        asyncio.run(_run_server(create_app(args.db, args.playlists, rehearsal=start), args,
                                parent))
    return 0


def _hours(text: str) -> float:
    hours = float(text)
    if not 0 < hours < 1000:  # NaN and infinity too
        raise argparse.ArgumentTypeError("give a number of hours above 0, e.g. 12")
    return hours


async def _run_server(app: web.Application, args: argparse.Namespace, parent: int | None = None,
                      listening: Callable[[str], None] | None = None) -> None:
    """Serve on `args.host`:`args.port` within the limits of `args` (its connections counted,
    controller/http/connections.py) until SIGINT or SIGTERM, or until process `parent` is gone
    (this process is handed to init when its parent dies: a rehearsal must not outlive a
    killed controller). `listening` is given the address served at, once bound."""
    watch_from_env()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    watch = (start("Watching for the end of the process that started this one",
                   _stop_when_orphaned(parent, stop), logger, ends=True)
             if parent is not None else None)
    limits = limits_of_args(args)
    app[limits_key] = limits
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=SHUTDOWN_S,
                           keepalive_timeout=limits.header_s, lingering_time=limits.body_s)
    await runner.setup()
    server: asyncio.Server | None = None
    try:
        server = await listen(runner, args.host, args.port, limits,
                              _trusted(args) if "trusted_proxies" in args else TrustedProxies())
        bound_host, bound_port = server.sockets[0].getsockname()[:2]
        if listening is not None:
            await asyncio.to_thread(listening, f"http://{args.host}:{bound_port}")
        print(f"listening on http://{bound_host}:{bound_port}", flush=True)
        await stop.wait()
    finally:
        if watch is not None:
            watch.cancel()
        if server is not None:
            server.close()  # no new connection while the open ones are closed
        await runner.cleanup()


async def _stop_when_orphaned(parent: int, stop: asyncio.Event) -> None:
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_CHECK_S)
    stop.set()

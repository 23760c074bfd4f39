"""showrunner-controller: the service and its admin commands."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from pathlib import Path

from aiohttp import web

from controller.access.attempts import KeyLimit
from controller.access.keys import issue_key, revoke_key
from controller.access.logins import LoginPolicy
from controller.application.service import wall_clock_ms
from controller.audit.checkpoints import (
    DEFAULT_EVERY,
    Anchoring,
    CheckpointError,
    ensure_key,
    keygen,
    load_private,
    load_public,
    public_path,
    write_checkpoint,
)
from controller.audit.checkpoints import verify as verify_checkpoints
from controller.audit.verify import Finding, check_draws, utc
from controller.cli.users import user_commands
from controller.cluster.fanout import create_fanout_app
from controller.cluster.owner import share
from controller.cluster.queue import MessageQueue, message_queue
from controller.domain.commands import ROLES
from controller.domain.config import ConfigError
from controller.http.app import create_app
from controller.http.client import assign_payload, enrol, format_screens, screens, send
from controller.rehearsal.log import REHEARSAL, log_kind, rehearsing, require_kind
from controller.store.chain import COVERAGE
from controller.store.lock import writer_lock
from controller.store.sqlite import EventLog, StoreError
from showrunner.contract.keyfile import KeyFileError, read_key

TECHNICIAN_KEY_ENV = "SHOWRUNNER_KEY"
SHUTDOWN_S = 0.3  # what a request still running at shutdown gets (pages were closed first)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="showrunner-controller",
        description="The Showrunner controller: holds the show's state and rules, durably.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the controller service")
    serve.add_argument("--db", type=Path, required=True, help="event log (SQLite file)")
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
                       help="wrong keys allowed per address and namespace in the window, "
                       "after which that address is refused without its key being checked")
    serve.add_argument("--key-window", type=float, default=KeyLimit.window_s,
                       metavar="SECONDS", help="the window for --key-failures")
    serve.add_argument("--session-hours", type=_hours, default=12.0, metavar="HOURS",
                       help="a person's login lasts this long (default 12)")
    serve.add_argument("--secure-cookies", action="store_true", help="mark the login cookie "
                       "Secure: set it when the pages are served over https")
    serve.add_argument("--message-queue", metavar="redis://HOST:PORT/N", help="share the show "
                       "with fan-out processes (`fanout`) through this Redis (docs/operations.md)")
    serve.set_defaults(run=_serve)

    fanout = sub.add_parser("fanout", help="serve more screens and cue pages of a show that a "
                            "`serve --message-queue` process owns (docs/operations.md)")
    fanout.add_argument("--db", type=Path, required=True, help="the owner's event log (read "
                        "only)")
    fanout.add_argument("--message-queue", required=True, metavar="redis://HOST:PORT/N",
                        help="the owner's --message-queue")
    fanout.add_argument("--host", default="127.0.0.1")
    fanout.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    fanout.set_defaults(run=_fanout)

    rehearse = sub.add_parser("rehearse", help="run a rehearsal log whose show clock starts at "
                              "a chosen moment (docs/rehearsal.md); never the live log")
    rehearse.add_argument("--promotion", required=True, help="whose venue time zone --at is "
                          "in: slots, roulette, poker, super9 or wildcard")
    rehearse.add_argument("--at", required=True, metavar='"YYYY-MM-DD HH:MM"',
                          help="where the show clock starts, on the venue's wall clock")
    rehearse.add_argument("--speed", type=int, default=1, help="show seconds per real second "
                          "(default 1: real time)")
    rehearse.add_argument("--db", type=Path, default=Path("rehearsal.db"),
                          help="the rehearsal log (default rehearsal.db); a live log is refused")
    rehearse.add_argument("--host", default="127.0.0.1")
    rehearse.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    rehearse.add_argument("--playlists", type=Path, help="as for serve")
    rehearse.add_argument("--stop-with-parent", action="store_true",
                          help="stop when the process that started this one ends, even if it "
                          "was killed (the console's rehearsals)")
    rehearse.set_defaults(run=_rehearse)

    _key_commands(sub)
    user_commands(sub)

    audit = sub.add_parser("audit", help="check or export the log for an auditor")
    audit_sub = audit.add_subparsers(dest="audit_command", required=True)
    verify = audit_sub.add_parser("verify", help="check the hash chain (events, acks, keys), "
                                  "every draw's pool and, given, the signed checkpoints")
    verify.add_argument("--db", type=Path, required=True)
    verify.add_argument("--checkpoint", type=Path, help="a checkpoint file (kept by the auditor)")
    verify.add_argument("--public-key", type=Path, help="the checkpoints' public key "
                        "(default: the checkpoint file's name + .pub, else the signing key's)")
    verify.set_defaults(run=_audit_verify)
    keygen = audit_sub.add_parser("keygen", help="create a checkpoint signing key (mode 0600) "
                                  "and its public key FILE.pub for the auditor")
    keygen.add_argument("--out", type=Path, required=True)
    keygen.set_defaults(run=_audit_keygen)
    checkpoint = audit_sub.add_parser("checkpoint", help="sign a checkpoint of the log's end now")
    checkpoint.add_argument("--db", type=Path, required=True)
    checkpoint.add_argument("--key", type=Path, help="signing key (default: DB.checkpoint-key)")
    checkpoint.add_argument("--out", type=Path, help="checkpoint file to append to (default: "
                            "DB.checkpoints)")
    checkpoint.set_defaults(run=_audit_checkpoint)
    export = audit_sub.add_parser("export", help="write draws, claims, redraws and scores")
    export.add_argument("--db", type=Path, required=True)
    export.add_argument("--out", type=Path, required=True, help="directory for CSV and JSON")
    export.set_defaults(run=_audit_export)

    _technician_commands(sub)

    demo = sub.add_parser("demo", help="run a controller, a display and a demo tournament")
    demo.add_argument("--dir", type=Path, default=Path("var/demo"), help="where files go: a new or "
                      "empty directory, or one an earlier demo made")
    demo.add_argument("--port", type=int, default=8080)
    demo.add_argument("--fast", action="store_true", help="compress the night's waits (the "
                      "claim is 10 s, not 90) for a quick look")
    demo.add_argument("--cycles", type=int, default=0, metavar="N",
                      help="stop the script after N cycles; the screen keeps playing")
    demo.set_defaults(run=_demo)

    args = parser.parse_args(argv)
    try:
        if "key_file" in args:
            args.key = read_key(args.key_file, TECHNICIAN_KEY_ENV, "a technician key")
        return args.run(args)
    except (StoreError, ConfigError, CheckpointError, KeyFileError) as exc:
        print(f"showrunner-controller: {exc}", file=sys.stderr)
        return 2


def _check_log(db: Path, rehearsing: bool) -> None:
    """Refuse a bad log, or one of the wrong kind, before the port is bound."""
    with EventLog.open(db) as log:
        broken = log.first_broken_link()
        if broken:
            raise StoreError(f"{db}: {_finding(log, broken).sentence()}. The controller "
                             "does not start on a log that may have been tampered with; run "
                             f"`showrunner-controller audit verify --db {db}`.")
        require_kind(log, rehearsing)


def _serve(args: argparse.Namespace) -> int:
    with writer_lock(args.db):  # one writer per log, taken before the log is opened
        _check_log(args.db, rehearsing=False)
        if args.checkpoint_every < 1:
            raise CheckpointError("--checkpoint-every must be 1 or more.")
        anchor = Anchoring(_signing_key(args.db, args.checkpoint_key),
                           args.checkpoints or _beside(args.db, ".checkpoints"),
                           args.checkpoint_every)
        ensure_key(anchor.key)
        limit = KeyLimit(args.key_failures, args.key_window)
        policy = LoginPolicy(session_s=args.session_hours * 3600,
                             secure_cookie=args.secure_cookies)
        queue = _queue(args.db, args.message_queue) if args.message_queue else None
        app = create_app(args.db, args.playlists, anchor, limit, login_policy=policy,
                         host=args.host, sharing=share(queue) if queue else None)
        asyncio.run(_run_server(app, args.host, args.port))
    return 0


def _fanout(args: argparse.Namespace) -> int:
    _check_log(args.db, rehearsing=False)
    app = create_fanout_app(args.db, _queue(args.db, args.message_queue))
    asyncio.run(_run_server(app, args.host, args.port))
    return 0


def _queue(db: Path, url: str) -> MessageQueue:
    with EventLog.open(db, create=False) as log:
        return message_queue(url, log.log_id)


def _rehearse(args: argparse.Namespace) -> int:
    start = rehearsing(args.promotion, args.at, args.speed)
    with writer_lock(args.db):
        _check_log(args.db, rehearsing=True)
        print(f"REHEARSAL on {args.db}: the show clock starts at {start.at_local} "
              f"({start.timezone}, {start.promotion}'s venue) and runs {start.speed}x real time",
              flush=True)
        parent = os.getppid() if args.stop_with_parent else None
        asyncio.run(_run_server(create_app(args.db, args.playlists, rehearsal=start),
                                args.host, args.port, parent))
    return 0


def _hours(text: str) -> float:
    hours = float(text)
    if not 0 < hours < 1000:  # NaN and infinity too
        raise argparse.ArgumentTypeError("give a number of hours above 0, e.g. 12")
    return hours


def _signing_key(db: Path, given: Path | None) -> Path:
    key = given or _beside(db, ".checkpoint-key")
    if key.resolve() == db.resolve():
        raise CheckpointError("the checkpoint signing key must be a file of its own, not the db.")
    return key


def _beside(db: Path, suffix: str) -> Path:
    return db.with_name(db.name + suffix)


PARENT_CHECK_S = 0.5


async def _run_server(app: web.Application, host: str, port: int,
                      parent: int | None = None) -> None:
    """Serve until SIGINT or SIGTERM, or until process `parent` is gone (this process is
    handed to init when its parent dies: a rehearsal must not outlive a killed controller)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    watch = (asyncio.create_task(_stop_when_orphaned(parent, stop)) if parent is not None
             else None)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=SHUTDOWN_S)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        bound_host, bound_port = runner.addresses[0][:2]
        print(f"listening on http://{bound_host}:{bound_port}", flush=True)
        await stop.wait()
    finally:
        if watch is not None:
            watch.cancel()
        await runner.cleanup()


async def _stop_when_orphaned(parent: int, stop: asyncio.Event) -> None:
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_CHECK_S)
    stop.set()


def _technician_commands(sub: argparse._SubParsersAction) -> None:
    """Screens and playlists, against a running controller (--url, --key-file)."""

    def remote(name: str, help_: str, run, *arguments: tuple[tuple[str, ...], dict]) -> None:
        parser = sub.add_parser(name, help=help_, allow_abbrev=False)  # no --key for --key-file
        parser.add_argument("--url", default=os.environ.get("SHOWRUNNER_URL",
                                                            "http://127.0.0.1:8080"))
        parser.add_argument("--key-file", type=Path, metavar="PATH",
                            help="file holding a technician key, readable by its owner only "
                            f"(chmod 600); default: the {TECHNICIAN_KEY_ENV} environment "
                            "variable")
        for flags, options in arguments:
            parser.add_argument(*flags, **options)
        parser.set_defaults(run=run)

    screen = (("--screen",), {"required": True})
    targets = ((("--screens",), {"nargs": "*", "default": []}),
               (("--groups",), {"nargs": "*", "default": []}))
    remote("screens", "list screens with status and latest heartbeat", _screens,
           (("--json",), {"action": "store_true", "help": "the report as JSON (for scripts)"}))
    remote("enrol", "enrol a screen; prints its key once", _enrol, screen,
           (("--group",), {"required": True}), (("--name",), {"default": ""}))
    remote("authorise", "let an enrolled screen show the show", _command("screens.authorise",
           lambda a: {"screen": a.screen}), screen)
    remote("move", "move a screen to another group", _command(
        "screens.move", lambda a: {"screen": a.screen, "group": a.group}), screen,
        (("--group",), {"required": True}))
    remote("revoke", "revoke a screen's key", _command(
        "screens.revoke", lambda a: {"screen": a.screen, "reason": a.reason}), screen,
        (("--reason",), {"default": ""}))
    remote("assign", "validate a playlist file and play it on screens or groups", _command(
        "playlists.assign", lambda a: assign_payload(a.playlist, a.screens, a.groups)),
        (("playlist",), {"type": Path}), *targets)
    remote("unassign", "stop a playlist on screens or groups", _command(
        "playlists.unassign", lambda a: {"name": a.name, "screens": a.screens,
                                         "groups": a.groups}),
        (("name",), {}), *targets)


def _command(type_: str, payload):
    def run(args: argparse.Namespace) -> int:
        ack = send(args.url, args.key, type_, payload(args))
        if not ack["ok"]:
            print(f"refused: {ack['error']['message']}", file=sys.stderr)
            return 1
        print(f"done (event {ack['seq']})")
        return 0

    return run


def _screens(args: argparse.Namespace) -> int:
    report = screens(args.url, args.key)
    print(json.dumps(report, indent=2) if args.json else format_screens(report))
    return 0


def _enrol(args: argparse.Namespace) -> int:
    key, ack = enrol(args.url, args.key, args.screen, args.group, args.name)
    if not ack["ok"]:
        print(f"refused: {ack['error']['message']}", file=sys.stderr)
        return 1
    print(f"screen {args.screen} enrolled in {args.group}, waiting for authorisation.")
    print(f"its key (shown once; give it to the screen in a mode-600 --key-file or "
          f"SHOWRUNNER_DISPLAY_KEY): {key}")
    return 0


def _key_commands(sub: argparse._SubParsersAction) -> None:
    """`key` issues a key (printed once); `key revoke` and `key list` need no secret."""
    keys = sub.add_parser("key", help="issue a key for a role (printed once); `key revoke`, "
                          "`key list`")
    keys.add_argument("--db", type=Path)
    keys.add_argument("--role", choices=ROLES)
    keys.add_argument("--name", help="who holds it, e.g. 'MC tablet'")
    keys.set_defaults(run=_issue_key, key_parser=keys)
    key_sub = keys.add_subparsers(dest="key_command")
    revoke = key_sub.add_parser("revoke", help="revoke a key (an event in the log); it is "
                                "refused from its next connect")
    revoke.add_argument("--db", type=Path, required=True)
    which = revoke.add_mutually_exclusive_group(required=True)
    which.add_argument("--name", help="the holder's name, as issued")
    which.add_argument("--hash", dest="hash_prefix", help="the start of the key's hash, as "
                       "`key list` shows it (when several keys share a name)")
    revoke.add_argument("--reason", default="")
    revoke.set_defaults(run=_revoke_key)
    listing = key_sub.add_parser("list", help="every key: hash start, role, name, state")
    listing.add_argument("--db", type=Path, required=True)
    listing.set_defaults(run=_list_keys)


def _issue_key(args: argparse.Namespace) -> int:
    if not (args.db and args.role and args.name):
        args.key_parser.error("issuing a key needs --db, --role and --name")
    with EventLog.open(args.db) as log:
        print(issue_key(log, args.role, args.name, wall_clock_ms()))
    return 0


def _revoke_key(args: argparse.Namespace) -> int:
    with EventLog.open(args.db, create=False) as log:
        try:
            event = revoke_key(log, wall_clock_ms(), name=args.name, hash_prefix=args.hash_prefix,
                               reason=args.reason)
        except ValueError as exc:
            print(f"showrunner-controller: {exc}", file=sys.stderr)
            return 1
    print(f"revoked the {event.role} key of {event.name!r} (hash {event.key_hash[:12]}); "
          "it is refused from its next connect.")
    return 0


def _list_keys(args: argparse.Namespace) -> int:
    with EventLog.open(args.db, create=False) as log:
        for p in log.principals():
            state = "revoked" if p.revoked else "live"
            print(f"{p.key_hash[:12]}  {p.role:<10}  {state:<7}  {p.name}")
    return 0


def _audit_verify(args: argparse.Namespace) -> int:
    with EventLog.open(args.db, create=False) as log:
        broken = log.first_broken_link()
        findings = [_finding(log, broken)] if broken else []
        draw = check_draws(log.read())
        findings += [draw] if draw else []
        anchor, problem = None, None
        if args.checkpoint is not None:
            anchor, problem = verify_checkpoints(log, args.checkpoint,
                                                 load_public(_public_key(args)))
        count = log.last_seq
        coverage = log.coverage()
        kind = log_kind(log)
    if findings or problem:
        first = min(findings, key=lambda f: f.seq) if findings else None
        lines = [f.sentence() for f in findings if f is not first] + ([problem] if problem else [])
        head = first.sentence() if first else lines.pop()
        print(f"FAILED: {head}", file=sys.stderr)
        for other in lines:
            print(f"also: {other}", file=sys.stderr)
        return 1
    print(f"OK: {count} events; the hash chain is intact and every draw's pool recomputes.")
    if kind == REHEARSAL:
        print("  this is a REHEARSAL log (its show clock was set, docs/rehearsal.md): nothing "
              "in it happened on the floor")
    for scheme, first_seq, last_seq in coverage:
        print(f"  events {first_seq}-{last_seq}: hash scheme {scheme}, the chain covers "
              f"{COVERAGE[scheme]}")
    if anchor is not None:
        print(f"  {anchor.count} signed checkpoints match; the latest vouches for events "
              f"1-{anchor.seq} (signed {utc(anchor.at_ms)})")
        if anchor.seq < count:
            print(f"  events {anchor.seq + 1}-{count} come after the last checkpoint: not yet "
                  "anchored outside the db")
    else:
        print("  no checkpoint file given: a rewrite that recomputes every hash, or a removed "
              "tail, needs --checkpoint to be found")
    return 0


def _public_key(args: argparse.Namespace) -> Path:
    if args.public_key is not None:
        return args.public_key
    beside = public_path(args.checkpoint)
    return beside if beside.exists() else public_path(_beside(args.db, ".checkpoint-key"))


def _finding(log: EventLog, broken: tuple[int, str]) -> Finding:
    seq, reason = broken
    table = "users" if reason.startswith("the users table") else "keys"  # seq 0: a table
    return Finding(seq, _type_at(log, seq) if seq else table, reason)


def _type_at(log: EventLog, seq: int) -> str:
    return next((e.type for e in log.read(seq - 1) if e.seq == seq), "missing")


def _audit_keygen(args: argparse.Namespace) -> int:
    public = keygen(args.out)
    print(f"signing key written to {args.out} (mode 0600; keep it off the db's disk if you "
          f"can); public key for the auditor: {public}")
    return 0


def _audit_checkpoint(args: argparse.Namespace) -> int:
    key = load_private(_signing_key(args.db, args.key))
    out = args.out or _beside(args.db, ".checkpoints")
    with EventLog.open(args.db, create=False) as log:
        record = write_checkpoint(log, key, out, wall_clock_ms())
    print(f"checkpoint of event {record['seq']} appended to {out}")
    return 0


def _audit_export(args: argparse.Namespace) -> int:
    from controller.audit.verify import export

    with EventLog.open(args.db, create=False) as log:
        if log_kind(log) == REHEARSAL:
            print(f"showrunner-controller: {args.db} is a rehearsal log: its show clock was set "
                  "and nothing in it happened on the floor, so it is not exported for the "
                  "auditor. Export the live show's log.", file=sys.stderr)
            return 1
        counts = export(log.read(), args.out)
    print(f"wrote {counts['events']} events and {counts['draws']} draws to {args.out}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from controller.demo.run import run_demo

    return run_demo(args.dir, args.port, args.fast, args.cycles)


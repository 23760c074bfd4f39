"""showrunner-controller: the service and its admin commands."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path

from aiohttp import web

from controller.app import create_app
from controller.attempts import KeyLimit
from controller.auth import issue_key
from controller.domain.commands import ROLES
from controller.domain.config import ConfigError
from controller.remote import assign_payload, enrol, format_screens, screens, send
from controller.service import wall_clock_ms
from controller.store.sqlite import EventLog, StoreError
from showrunner.contract.keyfile import KeyFileError, read_key

TECHNICIAN_KEY_ENV = "SHOWRUNNER_KEY"


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
    serve.add_argument("--key-failures", type=int, default=KeyLimit.failures, metavar="N",
                       help="wrong keys allowed per address and namespace in the window, "
                       "after which that address is refused without its key being checked")
    serve.add_argument("--key-window", type=float, default=KeyLimit.window_s,
                       metavar="SECONDS", help="the window for --key-failures")
    serve.set_defaults(run=_serve)

    keys = sub.add_parser("key", help="issue a key for a role (printed once)")
    keys.add_argument("--db", type=Path, required=True)
    keys.add_argument("--role", choices=ROLES, required=True)
    keys.add_argument("--name", required=True, help="who holds it, e.g. 'MC tablet'")
    keys.set_defaults(run=_issue_key)

    audit = sub.add_parser("audit", help="check or export the log for an auditor")
    audit_sub = audit.add_subparsers(dest="audit_command", required=True)
    verify = audit_sub.add_parser("verify", help="check the hash chain and every draw's pool")
    verify.add_argument("--db", type=Path, required=True)
    verify.set_defaults(run=_audit_verify)
    export = audit_sub.add_parser("export", help="write draws, claims, redraws and scores")
    export.add_argument("--db", type=Path, required=True)
    export.add_argument("--out", type=Path, required=True, help="directory for CSV and JSON")
    export.set_defaults(run=_audit_export)

    _technician_commands(sub)

    demo = sub.add_parser("demo", help="run a controller, a display and a demo tournament")
    demo.add_argument("--dir", type=Path, default=Path("var/demo"), help="where files go")
    demo.add_argument("--port", type=int, default=8080)
    demo.set_defaults(run=_demo)

    args = parser.parse_args(argv)
    try:
        if "key_file" in args:
            args.key = read_key(args.key_file, TECHNICIAN_KEY_ENV, "a technician key")
        return args.run(args)
    except (StoreError, ConfigError, KeyFileError) as exc:
        print(f"showrunner-controller: {exc}", file=sys.stderr)
        return 2


def _serve(args: argparse.Namespace) -> int:
    EventLog.open(args.db).close()  # refuse a bad log before binding the port
    limit = KeyLimit(args.key_failures, args.key_window)
    asyncio.run(_run_server(args.db, args.host, args.port, args.playlists, limit))
    return 0


async def _run_server(db: Path, host: str, port: int, playlists: Path | None,
                      key_limit: KeyLimit) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner = web.AppRunner(create_app(db, playlists, key_limit), handle_signals=False)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        bound_host, bound_port = runner.addresses[0][:2]
        print(f"listening on http://{bound_host}:{bound_port}", flush=True)
        await stop.wait()
    finally:
        await runner.cleanup()


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
    remote("screens", "list screens with status and latest heartbeat", _screens)
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
    print(format_screens(screens(args.url, args.key)))
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


def _issue_key(args: argparse.Namespace) -> int:
    log = EventLog.open(args.db)
    try:
        print(issue_key(log, args.role, args.name, wall_clock_ms()))
    finally:
        log.close()
    return 0


def _audit_verify(args: argparse.Namespace) -> int:
    from controller.audit import Finding, check_draws

    log = EventLog.open(args.db, create=False)
    try:
        broken = log.first_broken_link()
        findings = [Finding(broken[0], _type_at(log, broken[0]), broken[1])] if broken else []
        draw = check_draws(log.read())
        findings += [draw] if draw else []
        count = log.last_seq
    finally:
        log.close()
    if findings:
        first = min(findings, key=lambda f: f.seq)
        print(f"FAILED: {first.sentence()}", file=sys.stderr)
        for other in findings:
            if other is not first:
                print(f"also: {other.sentence()}", file=sys.stderr)
        return 1
    print(f"OK: {count} events; the hash chain is intact and every draw's pool recomputes.")
    return 0


def _type_at(log: EventLog, seq: int) -> str:
    return next((e.type for e in log.read(seq - 1) if e.seq == seq), "missing")


def _audit_export(args: argparse.Namespace) -> int:
    from controller.audit import export

    log = EventLog.open(args.db, create=False)
    try:
        counts = export(log.read(), args.out)
    finally:
        log.close()
    print(f"wrote {counts['events']} events and {counts['draws']} draws to {args.out}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from controller.demo import run_demo

    return run_demo(args.dir, args.port)


if __name__ == "__main__":
    sys.exit(main())

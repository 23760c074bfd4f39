"""`screens`, `enrol`, `authorise`, `move`, `revoke`, `assign`, `unassign`: a technician's
commands against a running controller (--url), with a technician key from --key-file or the
SHOWRUNNER_KEY environment variable, never from the command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.http.client import assign_payload, enrol, format_screens, screens, send
from showrunner.contract.keyfile import read_key

TECHNICIAN_KEY_ENV = "SHOWRUNNER_KEY"
Run = Callable[[argparse.Namespace], int]
Argument = tuple[tuple[str, ...], dict[str, Any]]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    def remote(name: str, help_: str, run: Run, *arguments: Argument) -> None:
        parser = sub.add_parser(name, help=help_, allow_abbrev=False)  # no --key for --key-file
        parser.add_argument("--url", default=os.environ.get("SHOWRUNNER_URL",
                                                            "http://127.0.0.1:8080"))
        parser.add_argument("--key-file", type=Path, metavar="PATH",
                            help="file holding a technician key, readable by its owner only "
                            f"(chmod 600); default: the {TECHNICIAN_KEY_ENV} environment "
                            "variable")
        for flags, options in arguments:
            parser.add_argument(*flags, **options)
        parser.set_defaults(run=_with_key(run))

    screen: Argument = (("--screen",), {"required": True})
    targets: tuple[Argument, ...] = ((("--screens",), {"nargs": "*", "default": []}),
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


def _with_key(run: Run) -> Run:
    """Read the technician key (a KeyFileError says why it cannot be) before `run` is."""

    def keyed(args: argparse.Namespace) -> int:
        args.key = read_key(args.key_file, TECHNICIAN_KEY_ENV, "a technician key")
        return run(args)

    return keyed


def _command(type_: str, payload: Callable[[argparse.Namespace], dict[str, Any]]) -> Run:
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

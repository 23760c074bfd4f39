"""`showrunner-controller user add | list | disable`: people who log in to the pages.

A password is read from the terminal (asked twice) or the first line of stdin, never from the
command line, where any user of the machine could read it in /proc/PID/cmdline.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from controller.access.people import add_user, disable_user
from controller.application.service import wall_clock_ms
from controller.domain.users import PEOPLE_ROLES
from controller.store.target import db_arg, open_log


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """People who log in to the pages: `user add` (password from a prompt or stdin, never the
    command line), `user list`, `user disable`; each change is an event in the log."""
    users = sub.add_parser("user", help="people who log in to the pages: add, list, disable")
    user_sub = users.add_subparsers(dest="user_command", required=True)
    add = user_sub.add_parser("add", help="add a person; the password is asked for (or read "
                              "from stdin), never given on the command line")
    add.add_argument("name")
    add.add_argument("--role", choices=PEOPLE_ROLES, required=True)
    add.add_argument("--db", type=db_arg, required=True)
    add.set_defaults(run=_add_user)
    listing = user_sub.add_parser("list", help="every person: name, role, state")
    listing.add_argument("--db", type=db_arg, required=True)
    listing.set_defaults(run=_list_users)
    disable = user_sub.add_parser("disable", help="stop a person logging in; their open "
                                  "pages are cut")
    disable.add_argument("name")
    disable.add_argument("--db", type=db_arg, required=True)
    disable.add_argument("--reason", default="")
    disable.set_defaults(run=_disable_user)


def _read_password() -> str:
    """From the terminal, asked twice; otherwise the first line of stdin."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass("Password: ")
    if getpass.getpass("Again: ") != first:
        raise ValueError("the two passwords differ; nothing was changed")
    return first


def _add_user(args: argparse.Namespace) -> int:
    with open_log(args.db) as log:
        try:
            event = add_user(log, args.name, args.role, _read_password(), wall_clock_ms())
        except ValueError as exc:
            print(f"showrunner-controller: {exc}", file=sys.stderr)
            return 1
    print(f"added {event.name!r} as {event.role}; they log in at /login")
    return 0


def _list_users(args: argparse.Namespace) -> int:
    with open_log(args.db, create=False) as log:
        for user in log.users():
            state = "disabled" if user.disabled else "active"
            print(f"{user.name:<24}  {user.role:<10}  {state}")
    return 0


def _disable_user(args: argparse.Namespace) -> int:
    with open_log(args.db, create=False) as log:
        try:
            event = disable_user(log, args.name, wall_clock_ms(), args.reason)
        except ValueError as exc:
            print(f"showrunner-controller: {exc}", file=sys.stderr)
            return 1
    print(f"disabled {event.name!r} ({event.role}); their open pages are cut.")
    return 0

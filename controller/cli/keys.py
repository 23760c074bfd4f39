"""`key issue` issues a key for a role (printed once); `key revoke` and `key list` need no
secret. Each change is an event in the log; a running controller folds it in (a revoked key is
refused from its next connect)."""

from __future__ import annotations

import argparse
import sys

from controller.access.keys import issue_key, revoke_key
from controller.application.service import wall_clock_ms
from controller.domain.commands import ROLES
from controller.store.target import db_arg, open_log


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    keys = sub.add_parser("key", help="keys for screens, devices and scripts: issue, revoke, "
                          "list")
    key_sub = keys.add_subparsers(dest="key_command", required=True)
    issue = key_sub.add_parser("issue", help="issue a key for a role; it is printed once "
                               "(keep it in a file: `> NAME.key`)")
    issue.add_argument("--db", type=db_arg, required=True)
    issue.add_argument("--role", choices=ROLES, required=True)
    issue.add_argument("--name", required=True, help="who holds it, e.g. 'MC tablet'; a "
                       "device's is its table or bank, a kiosk's its place")
    issue.set_defaults(run=_issue_key)
    revoke = key_sub.add_parser("revoke", help="revoke a key (an event in the log); it is "
                                "refused from its next connect")
    revoke.add_argument("--db", type=db_arg, required=True)
    which = revoke.add_mutually_exclusive_group(required=True)
    which.add_argument("--name", help="the holder's name, as issued")
    which.add_argument("--hash", dest="hash_prefix", help="the start of the key's hash, as "
                       "`key list` shows it (when several keys share a name)")
    revoke.add_argument("--reason", default="")
    revoke.set_defaults(run=_revoke_key)
    listing = key_sub.add_parser("list", help="every key: hash start, role, name, state")
    listing.add_argument("--db", type=db_arg, required=True)
    listing.set_defaults(run=_list_keys)


def _issue_key(args: argparse.Namespace) -> int:
    with open_log(args.db) as log:
        print(issue_key(log, args.role, args.name, wall_clock_ms()))
    return 0


def _revoke_key(args: argparse.Namespace) -> int:
    with open_log(args.db, create=False) as log:
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
    with open_log(args.db, create=False) as log:
        for p in log.principals():
            state = "revoked" if p.revoked else "live"
            print(f"{p.key_hash[:12]}  {p.role:<10}  {state:<7}  {p.name}")
    return 0

"""The options of `serve`, `fanout` and `rehearse` that bound slow and broken clients
(controller/http/limits.py, docs/operations.md "Slow and broken clients")."""

from __future__ import annotations

import argparse

from controller.http.limits import RESERVED_FILES, HttpLimits

DEFAULT = HttpLimits()


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--header-timeout", type=_seconds, default=DEFAULT.header_s,
                        metavar="SECONDS", help="a request's headers must have arrived this "
                        "long after its connection opened or its previous answer; an idle "
                        f"connection is closed then too (default {DEFAULT.header_s:g})")
    parser.add_argument("--body-timeout", type=_seconds, default=DEFAULT.body_s,
                        metavar="SECONDS", help="a request's body must have arrived this long "
                        "after its headers (an upload: may pause no longer than this); then it "
                        f"is refused and its connection closed (default {DEFAULT.body_s:g})")
    parser.add_argument("--connections-per-address", type=_count,
                        default=DEFAULT.per_address, metavar="N", help="connections one client "
                        "address may hold open; a trusted proxy's are not counted (default "
                        f"{DEFAULT.per_address})")
    parser.add_argument("--max-connections", type=_count, default=DEFAULT.connections,
                        metavar="N", help="connections open in all (default: the open-file "
                        f"limit, ulimit -n, less {RESERVED_FILES} kept for the controller's own "
                        "files)")


def limits_of_args(args: argparse.Namespace) -> HttpLimits:
    return HttpLimits(args.header_timeout, args.body_timeout, args.connections_per_address,
                      args.max_connections)


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= 3600:  # NaN and infinity too
        raise argparse.ArgumentTypeError("give a number of seconds above 0, e.g. 15")
    return seconds


def _count(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) <= 10_000_000:
        raise argparse.ArgumentTypeError("give a whole number above 0, e.g. 128")
    return int(text)

"""showrunner-controller: the service and its admin commands.

Each command group is a module here that registers its subcommands, each with the function
that runs it (`run`); this builds the top parser, runs the chosen command and turns the
errors an operator can fix (a bad log, config, checkpoint or key file) into one sentence and
exit code 2.
"""

from __future__ import annotations

import argparse
import sys

from controller.audit.checkpoints import CheckpointError
from controller.cli import audit, demo, keys, media, screens, serve, slotbank, users, wheel
from controller.domain.config import ConfigError
from controller.store.sqlite import StoreError
from showrunner.contract.keyfile import KeyFileError

GROUPS = (serve, keys, users, audit, screens, media, wheel, slotbank, demo)  # in --help's order


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="showrunner-controller",
        description="The Showrunner controller: holds the show's state and rules, durably.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        group.register(sub)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (StoreError, ConfigError, CheckpointError, KeyFileError) as exc:
        print(f"showrunner-controller: {exc}", file=sys.stderr)
        return 2

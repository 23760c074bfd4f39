"""`slots-feed-sim` and `slots-feed-csv`: a slot bank's feed into a running controller (--url),
with the bank's device key (`key issue --role device --name BANK`) from --key-file or the
SHOWRUNNER_KEY environment variable, never from the command line
(docs/slots-feed-tools.md)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from controller.cli.urls import controller_urls
from controller.slotbank.api import BankClient, FeedError
from controller.slotbank.csv_watch import Watcher
from controller.slotbank.sim import BankPlan, Simulator
from showrunner.contract.keyfile import read_key

KEY_ENV = "SHOWRUNNER_KEY"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = _feed_parser(sub, "slots-feed-sim", "play a simulated bank of slot machines: heat "
                       "start, live credits, heat end")
    sim.add_argument("--machines", type=int, required=True, help="machines in the heat")
    sim.add_argument("--first-machine", type=int, default=101,
                     help="the first machine's number; the others follow in order (rule 11)")
    sim.add_argument("--rate", type=float, default=2.0, help="readings a second, each machine")
    sim.add_argument("--duration", type=int, default=60, help="seconds a heat plays")
    sim.add_argument("--start-credits", type=int, default=1000)
    sim.add_argument("--silent", action="append", default=[], metavar="MACHINE",
                     help="a machine that stops reporting halfway (repeatable)")
    sim.add_argument("--heats", type=int, default=1, help="heats to play, one after another")
    sim.set_defaults(run=_sim)
    watch = _feed_parser(sub, "slots-feed-csv", "watch a folder for the feed's CSV files and "
                         "post them")
    watch.add_argument("--dir", type=Path, required=True,
                       help="the folder the slot system drops its files in")
    watch.set_defaults(run=_csv)


def _feed_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str,
                 help_: str) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, help=help_, allow_abbrev=False)
    parser.add_argument("--url", type=controller_urls,
                        default=os.environ.get("SHOWRUNNER_URL", "http://127.0.0.1:8080"),
                        help="the controller, or each controller of the log with commas")
    parser.add_argument("--key-file", type=Path, metavar="PATH",
                        help="file holding the bank's device key, readable by its owner only "
                        f"(chmod 600); default: the {KEY_ENV} environment variable")
    parser.add_argument("--bank", required=True,
                        help="the bank's name: the name its device key was issued to")
    return parser


def _sim(args: argparse.Namespace) -> int:
    if args.machines < 1 or args.rate <= 0 or args.duration < 1 or args.heats < 1:
        print("slots-feed-sim: --machines, --rate, --duration and --heats must be above 0.",
              file=sys.stderr)
        return 2
    plan = BankPlan(args.machines, args.first_machine, args.rate, args.duration,
                    args.start_credits, frozenset(args.silent), args.heats)
    unknown = plan.silent - set(plan.labels)
    if unknown:
        print(f"slots-feed-sim: --silent {min(unknown)} is not one of the machines "
              f"{plan.labels[0]}-{plan.labels[-1]}.", file=sys.stderr)
        return 2
    key = read_key(args.key_file, KEY_ENV, "the bank's device key")

    async def play() -> None:
        async with BankClient(args.url, key, args.bank) as client:
            await Simulator(client, plan, say=_say).run()

    return _report(play)


def _csv(args: argparse.Namespace) -> int:
    if not args.dir.is_dir():
        print(f"slots-feed-csv: {args.dir} is not a folder.", file=sys.stderr)
        return 2
    key = read_key(args.key_file, KEY_ENV, "the bank's device key")

    async def watch() -> None:
        async with BankClient(args.url, key, args.bank) as client:
            _say(f"Watching {args.dir} for bank {args.bank}.")
            await Watcher(args.dir, client, say=_say).run()

    return _report(watch)


def _say(sentence: str) -> None:
    print(sentence, flush=True)


def _report(main: Callable[[], Coroutine[Any, Any, None]]) -> int:
    """Run `main`; a feed error as its sentence and exit code 1, Ctrl-C quietly."""
    try:
        asyncio.run(main())
    except FeedError as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0

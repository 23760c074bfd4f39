"""`demo`: a controller, a display and a demo tournament, for a first look."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.demo.venue import FAST, REAL


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    demo = sub.add_parser("demo", help="run a controller, a display and a demo tournament")
    demo.add_argument("--dir", type=Path, default=Path("var/demo"), help="where files go: a new or "
                      "empty directory, or one an earlier demo made")
    demo.add_argument("--port", type=int, default=8080, help="the controller's port, for the "
                      "pages and the screen (default 8080; 0 takes a free one, printed)")
    demo.add_argument("--fast", action="store_true", help="compress the night's waits for a "
                      "quick look: a night of about 2 minutes, not 8½ (the claim is "
                      f"{FAST.claim_seconds} s, not {REAL.claim_seconds})")
    demo.add_argument("--cycles", type=int, default=0, metavar="N",
                      help="stop the script after N cycles; the screen keeps playing")
    demo.set_defaults(run=_demo)


def _demo(args: argparse.Namespace) -> int:
    from controller.demo.run import run_demo  # its clients and processes: not for `serve`

    return run_demo(args.dir, args.port, args.fast, args.cycles)

#!/usr/bin/env python3
"""Whether this checkout is set up, told in a blink, so `scripts/demo` runs scripts/setup only
when it must (a setup that only checks took 15 s: pip's check of every locked package and two
`npm ci`, which reinstall from scratch).

    python3 scripts/setup_state.py stamp   # scripts/setup's last step
    python3 scripts/setup_state.py check   # exit 0 if set up; else 1, each reason on a line

`stamp` keeps the SHA-256 of every file setup installs from (INPUTS) in .venv, whose deletion
takes it along. `check` finds the checkout set up when that stamp is there, no input has changed
since, and what setup makes (MADE) is there. Standard library only: it runs before the venv.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: what setup installs from: a change to one means setup must run again
INPUTS = ("requirements/lock.txt", "pyproject.toml", "controller/web/package-lock.json",
          "bench/fanout/package-lock.json", "scripts/setup")
#: what setup makes: the venv's Python, npm's record of each install, the demo screen's video
MADE = (".venv/bin/python", "controller/web/node_modules/.package-lock.json",
        "bench/fanout/node_modules/.package-lock.json", "playlists/demo-reel.mp4")
STAMP = ".venv/setup-stamp.json"


def digests(root: Path) -> dict[str, str | None]:
    """Each input's SHA-256 (None for one that is not there)."""
    return {name: hashlib.sha256((root / name).read_bytes()).hexdigest()
            if (root / name).is_file() else None for name in INPUTS}


def stamp(root: Path) -> None:
    (root / STAMP).write_text(json.dumps(digests(root), indent=1) + "\n", encoding="utf-8")


def stale(root: Path) -> list[str]:
    """Why `root` is not set up, in words; none when it is."""
    missing = [f"{name} is missing" for name in MADE if not (root / name).is_file()]
    try:
        stamped = json.loads((root / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [*missing, "setup has not finished here"]
    return missing + [f"{name} changed since the last setup"
                      for name, digest in digests(root).items() if stamped.get(name) != digest]


def main(argv: list[str]) -> int:
    if argv == ["stamp"]:
        stamp(ROOT)
        return 0
    if argv == ["check"]:
        reasons = stale(ROOT)
        for reason in reasons:
            print(reason)
        return 1 if reasons else 0
    print("usage: setup_state.py stamp | check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

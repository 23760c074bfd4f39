"""Failover on PostgreSQL: two controllers on one log, the leader SIGKILLed again and again.

    python bench/failover.py --kills 10 --json

A private PostgreSQL cluster (tests/support/postgres.py: Debian's server, a temporary folder,
a free port); two controllers on one database, each as its own PC (its own folder and port),
one leading and the other `--standby`. `--displays` real screen links
(showrunner.engine.link.Link) are given both addresses; an MC client sends `--rate` commands a
second (members registered, each with its own command id) and, when its controller dies or
answers `not_leader`, sends the same command again to the other address until it is
acknowledged, as the console does. A Wild Card draw is made first and the first kill falls
in its claim. Then the leader is SIGKILLed `--kills` times at random moments, the killed one
started again as the standby each time.

Figures: `takeover_s` (SIGKILL to the standby saying it leads; p50, p99, max; it serves
screens and pages all along, so a screen moves to it at once and stays across the takeover),
`screens_offline_max_s` (the longest time any screen's link was offline, each kill),
`acked`, `lost` (acknowledged commands with no event in the log) and `duplicated` (more than
one command's events for one command id) — both must be 0 —, `claim_deadline_kept`
(the claim on the screens after the kill is the drawn one), `audit_verify` ("ok" or what it
found). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from controller.application.child_process import ROOT
from controller.application.settings import CONFIG_DIR_ENV
from controller.store.target import open_log
from showrunner.engine.link import Link, LinkStatus, LinkTimings
from tests.support.live import Client, LiveController
from tests.support.persistent_mc import PersistentMC, keep_registering
from tests.support.ports import free_port
from tests.support.postgres import start_cluster
from tests.support.wildcard import freeze_when_bins_close, write_wildcard_config

TIMINGS = LinkTimings(connect_s=1.5, call_s=1.5, ping_every_s=1.0, backoff_first_s=0.2,
                      backoff_max_s=1.0)
CLAIMANTS = ("9000001", "9000002", "9000003")


class PC:
    """One controller PC: a folder, a fixed address, and its process (leader or standby)."""

    def __init__(self, url: str, folder: Path) -> None:
        folder.mkdir(parents=True)
        self.url, self.folder, self.port = url, folder, free_port()
        self.address = f"http://127.0.0.1:{self.port}"
        self.process: LiveController | None = None

    def launch(self, keys: dict[str, str], standby: bool) -> LiveController:
        process = LiveController(self.url, extra_args=(
            "--advertise", self.address, *(("--standby",) if standby else ())), cwd=self.folder)
        process.port, process.keys = self.port, keys
        process.spawn()
        self.process = process
        return process


async def said(process: LiveController, text: str, timeout: float) -> None:
    """Wait for `text` in the process's output; fail at once if it ended without saying it
    (a killed leader started again as the standby that refused the log)."""
    deadline = time.monotonic() + timeout
    while not any(text in line for line in process.output):
        ended = process.process is None or process.process.poll() is not None
        if ended or time.monotonic() > deadline:
            why = "ended" if ended else f"did not say {text!r} in {timeout} s"
            raise RuntimeError(f"the controller {why}:\n{''.join(process.output)}")
        await asyncio.sleep(0.05)


def in_claim(doc: dict[str, Any]) -> bool:
    return doc.get("phase") == "claim"


def offline_spells(links: list[Link]) -> list[float]:
    """Each link's offline spells (s), from the status messages it queued."""
    spells = []
    for link in links:
        since: int | None = None
        while not link.inbox.empty():
            message = link.inbox.get_nowait()
            if isinstance(message, LinkStatus):
                if not message.online and since is None:
                    since = message.since_ms
                elif message.online and since is not None:
                    spells.append((message.since_ms - since) / 1000)
                    since = None
    return spells


async def run(kills: int, displays: int, rate: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="showrunner-failover-") as tmp:
        root = Path(tmp)
        os.chmod(root, 0o755)
        cluster = start_cluster(root / "cluster")
        url = cluster.new_database()
        write_wildcard_config(root / "config", close_in_ms=12_000)
        os.environ[CONFIG_DIR_ENV] = str(root / "config")
        pcs = [PC(url, root / "pc-a"), PC(url, root / "pc-b")]
        first = LiveController(url, cwd=pcs[0].folder)
        first.issue_keys()
        keys = first.keys
        leader = pcs[0].launch(keys, standby=False)
        try:
            await asyncio.to_thread(leader.listening, 30)
            pcs[1].launch(keys, standby=True)
            await said(pcs[1].process, "taking over when it ends", 30)  # type: ignore[arg-type]
            addresses = [pc.address for pc in pcs]
            links = [Link(addresses, f"bench-{n}", keys["display"], timings=TIMINGS)
                     for n in range(displays)]
            for link in links:
                link.start()
            mc = PersistentMC(addresses, keys["operator"])
            for card in CLAIMANTS:
                assert (await mc.send("register_member", {"card": card, "display_name":
                                      f"Claimant {card[-1]}"}, f"member-{card}"))["ok"]
                assert (await mc.send("wildcard.activate", {"card": card},
                                      f"activate-{card}"))["ok"]
            assert mc.client is not None
            frozen = await freeze_when_bins_close(mc.client)
            assert frozen["ok"], frozen
            drawn = await mc.send("wildcard.draw", {}, "draw")
            assert drawn["ok"], drawn
            deadline_ms = drawn["events"][0]["data"]["claim_deadline_ms"]
            await mc.client.wait_view("draw:wildcard", in_claim, timeout=30)
            stop = asyncio.Event()
            sender = asyncio.create_task(keep_registering(mc, rate, stop, prefix="bench"))
            takeovers, offline, kept = [], [], []
            leading = 0
            for kill in range(kills):
                await asyncio.sleep(0.5 if kill == 0 else rng.uniform(1.0, 4.0))
                offline_spells(links)  # what came before this kill
                victim, heir = pcs[leading], pcs[1 - leading]
                assert victim.process is not None and heir.process is not None
                victim.process.kill()
                killed = time.monotonic()
                await said(heir.process, "leading the show's log", 30)
                takeovers.append(time.monotonic() - killed)
                screen = Client(heir.address, "display", keys["display"])
                await screen.connect()
                doc = await screen.wait_view("draw:wildcard", in_claim, timeout=10)
                kept.append(doc.get("claim_deadline") == deadline_ms)
                await screen.close()
                leading = 1 - leading
                victim.launch(keys, standby=True)
                await said(victim.process, "taking over when it ends", 60)
                await asyncio.sleep(TIMINGS.backoff_max_s + TIMINGS.connect_s)
                offline.append(max(offline_spells(links), default=0.0))
            stop.set()
            await sender
            await mc.drop()
            for link in links:
                link.stop()
            with open_log(url, create=False) as log:
                per_command = Counter(e.command_id for e in log.read())
            verified = subprocess.run([sys.executable, "-m", "controller.cli", "audit", "verify",
                                       "--db", url], cwd=ROOT, capture_output=True, text=True,
                                      timeout=120)
        finally:
            for pc in pcs:
                if pc.process is not None:
                    pc.process.stop()
            cluster.stop()
    lost = [c for c in mc.acked if per_command[c] == 0]
    duplicated = [c for c in mc.acked if c.startswith("bench-") and per_command[c] > 1]
    cuts = (statistics.quantiles(takeovers, n=100, method="inclusive") if len(takeovers) > 1
            else takeovers * 99)
    return {"benchmark": "failover", "kills": kills, "displays": displays, "rate": rate,
            "takeover_p50_s": round(statistics.median(takeovers), 2),
            "takeover_p99_s": round(cuts[98], 2), "takeover_max_s": round(max(takeovers), 2),
            "screens_offline_max_s": round(max(offline), 2),
            "acked": len(mc.acked), "lost": len(lost), "duplicated": len(duplicated),
            "claim_deadline_kept": all(kept),
            "audit_verify": "ok" if verified.returncode == 0 else verified.stdout[-400:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--displays", type=int, default=20)
    parser.add_argument("--rate", type=float, default=10.0, help="MC commands a second")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    args = parser.parse_args()
    result = asyncio.run(run(args.kills, args.displays, args.rate, args.seed))
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

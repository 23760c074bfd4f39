"""Soak: a controller, 3 screens and a command every 100 ms for N minutes, with faults.

    python bench/soak.py --minutes 30 --json

Runs a real controller process on a temporary SQLite file, three screens' own links
(`showrunner.engine.link.Link`, with the product's reconnect loop and timings) and an operator
sending `slots.record_score` every 100 ms, each with a unique command_id, retried with the same
id until it is acked. On a seeded schedule it injects faults: the controller SIGKILLed and
started again, frozen with SIGSTOP for a few seconds then SIGCONT, and a screen's TCP link
aborted. At the end it reads the log (the SQLite file) and prints one JSON object:

- `commands_sent`, `acked`, `refused` (acked with ok false), `unacked` (never acked);
- `lost`: acked but not in the log; `duplicated`: a command_id applied more than once;
- `faults` by kind; `max_screen_recovery_s`: from the controller answering again (`/healthz`)
  to every screen holding the leaderboard revision the controller had then;
  `max_link_recovery_s`: from a screen's link being cut to it holding the latest revision;
- `rss_growth_kib`: the controller's resident memory 15 s after its last start minus 15 s after
  its first (each incarnation replays a longer log, so some growth is the log itself);
  `bench_rss_growth_kib`: the same for this process, which holds the three links;
- `chain`: `showrunner-controller audit verify` on the log at the end.

Loopback only; every wait is bounded and it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp
import socketio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.access.keys import issue_key
from controller.application.child_process import ROOT, ControllerProcess
from controller.store.sqlite import EventLog
from showrunner.engine.link import Link, LinkStatus, LogJoined, ViewChanged, discard

VIEW = "leaderboard:slots"
SCREENS = 3
EVERY_S = 0.1  # one command per 100 ms
CALL_S = 2.0  # the operator's wait for an ack before it retries with the same id
GIVE_UP_S = 60.0  # after the run: how long the last command may still be retried
RECOVERY_LIMIT_S = 60.0  # a screen not back within this is reported as unrecovered
SETTLE_S = 15.0  # RSS is sampled this long after each start
FAULT_GAP_S = (15.0, 35.0)
KINDS = ("controller_kill", "controller_freeze", "link_drop")


def rss_kib(pid: int) -> int | None:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


class Operator:
    """The MC's tablet: one command at a time, the same command_id until an ack comes."""

    def __init__(self, url: str, key: str) -> None:
        self.url, self.key = url, key
        self.sio: socketio.AsyncClient | None = None
        self.http: aiohttp.ClientSession | None = None
        self.retries = 0

    async def _client(self) -> socketio.AsyncClient:
        if self.sio is not None and self.sio.connected:
            return self.sio
        await self.close()
        self.http = aiohttp.ClientSession()
        self.sio = socketio.AsyncClient(reconnection=False, http_session=self.http)
        await asyncio.wait_for(self.sio.connect(
            self.url, namespaces=["/control"], auth={"key": self.key},
            transports=["websocket"], wait_timeout=3), 4)
        return self.sio

    async def send(self, type_: str, payload: dict[str, Any], command_id: str,
                   give_up_at: float) -> dict[str, Any] | None:
        """The ack, or None if none came before `give_up_at` (monotonic)."""
        envelope = {"type": type_, "payload": payload, "command_id": command_id}
        first = True
        while time.monotonic() < give_up_at:
            if not first:
                self.retries += 1
                await asyncio.sleep(EVERY_S)
            first = False
            try:
                sio = await self._client()
                return await sio.call("command", envelope, namespace="/control", timeout=CALL_S)
            except Exception:  # no ack, whatever the reason: drop the line and retry the same id
                await self.close()
        return None

    async def close(self) -> None:
        if self.sio is not None and self.http is not None:
            await discard(self.sio, self.http)
        self.sio = self.http = None


class Screen:
    """A screen's link and what the render loop would learn from it."""

    def __init__(self, url: str, key: str, name: str) -> None:
        self.link = Link(url, name, key)
        self.revision = -1
        self.online = False
        self.resets = 0
        self.losses = 0  # times the link went from online to offline

    def pump(self) -> None:
        while True:
            try:
                message = self.link.inbox.get_nowait()
            except queue.Empty:
                return
            if isinstance(message, ViewChanged) and message.name == VIEW:
                self.revision = message.revision
            elif isinstance(message, LogJoined) and message.reset:
                self.revision, self.resets = -1, self.resets + 1
            elif isinstance(message, LinkStatus):
                self.losses += self.online and not message.online
                self.online = message.online

    def cut(self) -> bool:
        """Abort the link's TCP connection, as a pulled cable or a reset path would; False
        if the link had no connection to cut."""
        loop, sio = self.link._loop, self.link._sio
        ws = sio.eio.ws if sio is not None else None
        transport = getattr(getattr(ws, "_conn", None), "transport", None)
        if loop is None or transport is None:
            return False
        loop.call_soon_threadsafe(transport.abort)
        return True


class Soak:
    def __init__(self, db: Path, minutes: float, seed: int) -> None:
        self.minutes, self.seed = minutes, seed
        self.controller = ControllerProcess(db)
        self.db = db
        self.keys: dict[str, str] = {}
        self.screens: list[Screen] = []
        self.faults = dict.fromkeys(KINDS, 0)
        self.recoveries: dict[str, list[float]] = {"controller": [], "link": [], "final": []}
        self.unrecovered = 0
        self.rss: list[int] = []  # the controller's, SETTLE_S after each start
        self.bench_rss: list[int] = []
        self.started_at = 0.0  # monotonic time of the controller's latest start

    async def start_controller(self) -> None:
        await asyncio.to_thread(self.controller.start)
        self.started_at = time.monotonic()

    async def answering(self) -> float:
        """When the controller answers /healthz again (monotonic)."""
        deadline = time.monotonic() + RECOVERY_LIMIT_S
        async with aiohttp.ClientSession() as http:
            while time.monotonic() < deadline:
                with contextlib.suppress(Exception):
                    async with http.get(self.controller.url + "/healthz",
                                        timeout=aiohttp.ClientTimeout(total=1)) as reply:
                        if reply.status == 200:
                            return time.monotonic()
                await asyncio.sleep(0.05)
        raise RuntimeError("the controller did not answer again within "
                           f"{RECOVERY_LIMIT_S:g} s:\n" + "".join(self.controller.output[-20:]))

    async def latest_revision(self) -> int:
        """The leaderboard's revision on the controller now, asked as an operator would."""
        deadline = time.monotonic() + RECOVERY_LIMIT_S
        while time.monotonic() < deadline:
            http = aiohttp.ClientSession()
            sio = socketio.AsyncClient(reconnection=False, http_session=http)
            try:
                await asyncio.wait_for(sio.connect(
                    self.controller.url, namespaces=["/control"],
                    auth={"key": self.keys["operator"]}, transports=["websocket"],
                    wait_timeout=3), 4)
                reply = await sio.call("sync", {"revisions": {}}, namespace="/control",
                                       timeout=CALL_S)
                return next(v["revision"] for v in reply["views"] if v["name"] == VIEW)
            except Exception:
                await asyncio.sleep(0.1)
            finally:
                await discard(sio, http)
        raise RuntimeError("could not read the latest revision")

    async def screens_hold(self, screens: list[Screen], revision: int, since: float,
                           kind: str) -> None:
        """Note under `kind` how long until every one of `screens` holds `revision` online."""
        deadline = since + RECOVERY_LIMIT_S
        while time.monotonic() < deadline:
            if all(s.online and s.revision >= revision for s in screens):
                self.recoveries[kind].append(time.monotonic() - since)
                return
            await asyncio.sleep(0.02)
        self.unrecovered += 1

    async def fault(self, kind: str, rng: random.Random) -> None:
        self.faults[kind] += 1
        process = self.controller.process
        assert process is not None
        if kind == "controller_kill":
            self.controller.kill()
            await asyncio.sleep(rng.uniform(0.5, 3.0))
            await self.start_controller()
        elif kind == "controller_freeze":
            os.kill(process.pid, signal.SIGSTOP)
            await asyncio.sleep(rng.uniform(2.0, 10.0))
            os.kill(process.pid, signal.SIGCONT)
        else:
            screen = rng.choice(self.screens)
            cut_at = time.monotonic()
            if not screen.cut():
                self.faults["link_drop_missed"] = self.faults.get("link_drop_missed", 0) + 1
            await asyncio.sleep(0.2)  # the cut reaches the controller before the revision is read
            await self.screens_hold([screen], await self.latest_revision(), cut_at, "link")
            return
        back = await self.answering()
        await self.screens_hold(self.screens, await self.latest_revision(), back, "controller")

    async def inject(self, end: float) -> None:
        rng = random.Random(self.seed)
        kinds: list[str] = []
        while True:
            await asyncio.sleep(rng.uniform(*FAULT_GAP_S))
            if time.monotonic() > end - 20:  # leave the last fault time to recover in the run
                return
            if not kinds:
                kinds = rng.sample(KINDS, len(KINDS))
            await self.fault(kinds.pop(), rng)

    async def watch(self, end: float) -> None:
        """Pump the screens like frames would, and sample RSS once per incarnation."""
        sampled = -1.0
        while time.monotonic() < end + GIVE_UP_S:
            for screen in self.screens:
                screen.pump()
            now = time.monotonic()
            process = self.controller.process
            if sampled != self.started_at and now - self.started_at >= SETTLE_S and process:
                if (kib := rss_kib(process.pid)) is not None:
                    self.rss.append(kib)
                    sampled = self.started_at
                if not self.bench_rss:
                    self.bench_rss.append(rss_kib(os.getpid()) or 0)
            await asyncio.sleep(0.02)

    async def operate(self, end: float) -> dict[str, Any]:
        operator = Operator(self.controller.url, self.keys["operator"])
        give_up = end + GIVE_UP_S
        for type_, payload in (("register_member", {"card": "1000001", "display_name": "Soak"}),
                               ("slots.enter", {"card": "1000001"})):
            ack = await operator.send(type_, payload, uuid.uuid4().hex, give_up)
            assert ack and ack["ok"], ack
        sent, acked, refused, unacked = 0, [], 0, 0
        next_at = time.monotonic()
        while time.monotonic() < end:
            sent += 1
            command_id = f"soak-{sent:06d}-{uuid.uuid4().hex[:8]}"
            ack = await operator.send("slots.record_score", {"entry": "S1", "score": sent},
                                      command_id, give_up)
            if ack is None:
                unacked += 1
            elif ack.get("ok"):
                acked.append(command_id)
            else:
                refused += 1
            next_at = max(next_at + EVERY_S, time.monotonic() - EVERY_S)
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        await operator.close()
        return {"sent": sent, "acked": acked, "refused": refused, "unacked": unacked,
                "retries": operator.retries}

    async def run(self) -> dict[str, Any]:
        log = EventLog.open(self.db)
        try:
            self.keys = {role: issue_key(log, role, f"soak {role}", 0)
                         for role in ("operator", "display")}
        finally:
            log.close()
        await self.start_controller()
        self.screens = [Screen(self.controller.url, self.keys["display"], f"soak-{i}")
                        for i in range(1, SCREENS + 1)]
        for screen in self.screens:
            screen.link.start()
        end = time.monotonic() + self.minutes * 60
        watcher = asyncio.create_task(self.watch(end))
        try:
            injector = asyncio.create_task(self.inject(end))
            commands = await self.operate(end)
            await injector
            await self.screens_hold(self.screens, await self.latest_revision(), time.monotonic(),
                                    "final")
            final_rss = rss_kib(self.controller.process.pid) if self.controller.process else None
        finally:
            watcher.cancel()
            for screen in self.screens:
                await asyncio.to_thread(screen.link.stop)
            self.controller.stop()
        self.bench_rss.append(rss_kib(os.getpid()) or 0)
        return self.report(commands, final_rss)

    def report(self, commands: dict[str, Any], final_rss: int | None) -> dict[str, Any]:
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            applied: dict[str, int] = dict(db.execute(
                "SELECT command_id, COUNT(*) FROM events WHERE command_id LIKE 'soak-%' "
                "GROUP BY command_id"))
        finally:
            db.close()
        verify = subprocess.run(
            [sys.executable, "-m", "controller.cli", "audit", "verify", "--db", str(self.db)],
            capture_output=True, text=True, cwd=ROOT, timeout=600)
        lost = [c for c in commands["acked"] if c not in applied]
        both = self.recoveries["controller"] + self.recoveries["link"]

        def worst(values: list[float]) -> float | None:
            return round(max(values), 2) if values else None

        return {
            "benchmark": "soak", "minutes": self.minutes, "seed": self.seed,
            "screens": SCREENS, "commands_sent": commands["sent"],
            "acked": len(commands["acked"]), "refused": commands["refused"],
            "unacked": commands["unacked"], "retries": commands["retries"],
            "lost": len(lost), "duplicated": sum(1 for n in applied.values() if n > 1),
            "applied_not_acked": len(applied) - len(commands["acked"]) + len(lost),
            "faults": self.faults,
            "max_screen_recovery_s": worst(self.recoveries["controller"]),
            "max_link_recovery_s": worst(self.recoveries["link"]),
            "final_catch_up_s": worst(self.recoveries["final"]),
            "recoveries": len(both), "unrecovered": self.unrecovered,
            "screen_resyncs": sum(s.resets for s in self.screens),
            "screen_link_losses": [s.losses for s in self.screens],
            "rss_controller_kib": {"first": self.rss[0] if self.rss else None,
                                   "last": self.rss[-1] if self.rss else None,
                                   "at_end": final_rss, "incarnations": len(self.rss)},
            "rss_growth_kib": self.rss[-1] - self.rss[0] if self.rss else None,
            "bench_rss_growth_kib": self.bench_rss[-1] - self.bench_rss[0],
            "events": self.last_seq(),
            "chain_ok": verify.returncode == 0,
            "chain": (verify.stdout or verify.stderr).splitlines()[0] if (
                verify.stdout or verify.stderr) else "",
        }

    def last_seq(self) -> int:
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            return int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])
        finally:
            db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the links' warnings would spoil the JSON
    with tempfile.TemporaryDirectory() as tmp:
        soak = Soak(Path(tmp) / "soak.db", args.minutes, args.seed)
        print(json.dumps(asyncio.run(soak.run())))


if __name__ == "__main__":
    main()

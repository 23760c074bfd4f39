"""Fan-out to a floor of screens: from an MC's command to its arrival at every /display client,
beside a minimal Node socket.io server broadcasting the same message to the same clients in
the same run.

    python bench/fanout.py --clients 1000 --json
    python bench/fanout.py --clients 1000 --display-minutes 10 --json   # display_rss_mib as asked

Setup: scripts/setup installs bench/fanout/'s packages (socket.io and socket.io-client from the
npm registry, pinned by package-lock.json; needs node and npm). Each step is said on stderr as
it starts, so that a run stopped from outside shows where it was. On a temporary SQLite file:

1. A real controller (tests/support/live.py) with the demo show's Slots leaderboard: the demo's
   twelve players entered and scored. An operator client (the demo's MC) sends `--commands`
   score changes one at a time, each lifting the lowest player to the top, so every command
   changes `leaderboard:slots`; first with no screen connected (`ack_p99_no_screens_ms`).
2. `--clients` official socket.io JavaScript clients spread over `--processes` Node processes
   (bench/fanout/client.js), WebSocket transport, `--batch` connecting at a time in each, each
   calling `sync`. With `--screens enrolled` (the default) each is its own screen, enrolled
   and authorised before the commands of step 1 (`enrol_s`) in one group playing the demo's
   playlist (playlists/demo.yaml: the leaderboard among other scenes), as a floor is; with
   `--screens viewer` all share one display-role key (plain viewers of public views).
   `controller_kib_per_client`: the controller's resident memory once they are in
   (`connect_s`), minus before, per client.
3. The same commands again (each phase after `WARMUP` untimed ones): the send time and the
   time the operator's client read the ack off its socket (bench/show.py, `Board.change`), and
   each client's arrival time of the first message naming `leaderboard:slots` after the send (a
   "views" push, or any other event naming it, e.g. a delta). Clocks: Python's time.time()
   and Node's performance.timeOrigin + performance.now(), the same machine clock.
4. The clients leave and connect to bench/fanout/reference.js; an operator client there
   triggers a broadcast of the very "views" message the controller's clients received last
   (`message_bytes` long; its JSON, not padding of that length, so that the clients parse the
   same thing on both servers), `--commands` times, timed the same way.
5. One real display process (`showrunner display`, 3840x2160, SDL dummy driver), enrolled as
   a screen of the same group, plays the demo's playlist on the controller for
   `--display-minutes` while a score changes every second; `display_rss_mib` is its resident
   memory over the last playlist cycle (median), `display_peak_mib` its peak
   (bench/display_memory.py). It runs after the timed phases, not during them: its rendering would
   take CPU from the controller's phase only (the reference's broadcasts do not reach it).

With `--pin` (the default on two cores or more) the server under test, the controller and then
the reference, runs on core 0, and this process (the MC, the operator client) and every client
on the others: on a floor they are other machines. Unpinned, the MC shares both cores with a
thousand clients that are all being woken at once, and its ack is read a few ms late behind
them (measured: ack p99 2.5 ms pinned against 7-8 ms unpinned, at 1000 clients).

Prints one JSON object: `p50_ms`, `p99_ms` over all arrivals; `last_p99_ms` the p99 over
commands of the time until the last client had it; `ack_p99_ms`; the reference's figures;
`ratio` = p99_ms / reference_p99_ms; `missing` arrivals that never came within 10 s; `wall_s`
for the whole run (1000 clients: about a minute on a busy 2-core machine, `enrol_s` of it
enrols the screens). A client that cannot connect fails the run.

`loop_stall_max_ms`: the longest callback of the controller's event loop during the `enrol`,
`connect` (until the clients have settled, a second after the last is in) and `timed` phases
(step 3), each phase's under `phases`; `gc_max_ms` the longest garbage collection, and per phase
`full_gcs` and `full_gc_max_ms` those of the oldest generation (a burst of screens must not make
one over 10 ms: controller/application/heap.py). The controller measures them itself
(controller/application/loopwatch.py, on with its environment's SHOWRUNNER_LOOP_WATCH); the
`_cpu_` figures are the same callbacks' CPU time, which another process taking the core (a
busy shared machine) does not lengthen, and `slowest` names the three longest of a phase.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import socketio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.display_memory import watch
from bench.show import DISPLAY, Board, enrol, has_views, start_display
from bench.soak import rss_kib
from controller.application.child_process import ROOT
from controller.application.loopwatch import ENV as LOOP_WATCH
from controller.demo.night import MC
from tests.support.live import LiveController

NODE = ROOT / "bench" / "fanout"
VIEW = "leaderboard:slots"
ARRIVAL_TIMEOUT_S = 10.0
REPLY_TIMEOUT_S = 300.0  # for a Node process's answer: a batch connecting may take 20 s each
GAP_S = 0.02  # between commands: the clients' reports (flushed every 20 ms) come in
SERVER_CORES = {0}  # with --pin: the server under test (controller, then reference) runs here
WARMUP = 10  # untimed commands before each phase: the first few on either server took up to
# three times as long (the clients' JIT, each server's first runs of its paths)


def now_ms() -> float:
    return time.time() * 1000


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return round(values[0], 2) if values else 0.0
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 2)


def pinnable() -> bool:
    """Whether the servers can have a core of their own, the clients the others."""
    return os.sched_getaffinity(0) > SERVER_CORES  # core 0 and at least one other


def installed() -> None:
    """The clients' and reference server's packages are there (scripts/setup installs them)."""
    if not (NODE / "node_modules" / "socket.io-client").is_dir():
        sys.exit(f"fanout: {NODE.relative_to(ROOT)}/node_modules is missing: run scripts/setup")


def step(what: str) -> None:
    """Say on stderr which step the run is at."""
    print(f"fanout: {what}", file=sys.stderr, flush=True)


class Clients:
    """N /display clients in a few Node processes; arrivals land in `self.current`."""

    def __init__(self) -> None:
        self.processes: list[asyncio.subprocess.Process] = []
        self.replies: list[asyncio.Queue[dict[str, Any]]] = []
        self.current: dict[tuple[int, int], float] = {}  # socket -> first arrival
        self.since = float("inf")  # arrivals before this (ms) are of an earlier message
        self.sizes: list[int] = []
        self.sample: Any = None  # the data of the last such message, as socket 0 had it
        self.readers: list[asyncio.Task[None]] = []

    async def start(self, processes: int) -> None:
        for p in range(processes):
            process = await asyncio.create_subprocess_exec(
                "node", str(NODE / "client.js"), VIEW, cwd=NODE, limit=1 << 24,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
            self.processes.append(process)
            self.replies.append(asyncio.Queue())
            self.readers.append(asyncio.create_task(self.read(p)))

    async def read(self, p: int) -> None:
        stdout = self.processes[p].stdout
        assert stdout is not None
        while line := await stdout.readline():
            message = json.loads(line)
            if "arrivals" not in message:
                await self.replies[p].put(message)
                continue
            if message["bytes"]:
                self.sizes.append(message["bytes"])
            if message["sample"] is not None:
                self.sample = message["sample"]
            for socket, t in message["arrivals"]:
                if t >= self.since:
                    self.current.setdefault((p, socket), t)

    async def ask(self, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for process, command in zip(self.processes, commands, strict=True):
            assert process.stdin is not None
            process.stdin.write(json.dumps(command).encode() + b"\n")
        return [await asyncio.wait_for(queue.get(), REPLY_TIMEOUT_S) for queue in self.replies]

    async def connect(self, url: str, auths: list[dict[str, str]], batch: int) -> int:
        """Connect one client per auth, spread evenly; returns how many are in."""
        share = len(self.processes)
        replies = await self.ask([{"op": "connect", "url": url, "auths": auths[p::share],
                                   "batch": batch} for p in range(share)])
        ready = sum(r["ready"] for r in replies)
        if ready < len(auths):
            raise RuntimeError(f"only {ready} of {len(auths)} clients could connect to {url}")
        return ready

    async def close(self) -> None:
        await self.ask([{"op": "close"}] * len(self.processes))

    async def stop(self) -> None:
        for process in self.processes:
            if process.stdin is not None:
                process.stdin.close()
        for process in self.processes:
            try:
                await asyncio.wait_for(process.wait(), 5)
            except TimeoutError:
                process.kill()
        for reader in self.readers:
            reader.cancel()


async def fan_out(trigger: Callable[[int], Awaitable[float | None]], commands: int,
                  clients: Clients | None, expected: int,
                  warmup: int = WARMUP) -> dict[str, list[float]]:
    """Send `warmup` + `commands` one at a time, timing the last `commands`; with clients,
    wait (bounded) for every arrival. `trigger` returns when its ack was read (ms), or None
    for when it returns."""
    times: dict[str, list[float]] = {"ack": [], "arrival": [], "last": [], "missing": []}
    for k in range(-warmup, commands):
        if clients is not None:
            clients.current = {}
        sent = now_ms()
        if clients is not None:
            clients.since = sent
        read = await trigger(k)
        acked = (now_ms() if read is None else read) - sent
        if clients is not None:
            deadline = time.monotonic() + ARRIVAL_TIMEOUT_S
            while len(clients.current) < expected and time.monotonic() < deadline:
                await asyncio.sleep(0.002)
            arrivals = [t - sent for t in clients.current.values()]
        await asyncio.sleep(GAP_S)
        if k < 0:
            continue
        times["ack"].append(acked)
        if clients is not None:
            times["arrival"] += arrivals
            if arrivals:
                times["last"].append(max(arrivals))
            times["missing"].append(expected - len(arrivals))
    return times


async def start_reference() -> tuple[asyncio.subprocess.Process, str]:
    process = await asyncio.create_subprocess_exec(
        "node", str(NODE / "reference.js"), cwd=NODE, stdout=asyncio.subprocess.PIPE)
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
    if not line.startswith("listening on "):
        raise RuntimeError(f"the reference server did not start: {line!r}")
    return process, line.removeprefix("listening on ").strip()


def pauses(watched: Path, phases: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """The controller's longest loop stall and collections in each phase (wall-clock ms
    spans), from what its loop watch wrote (controller/application/loopwatch.py); `_cpu` the
    longest in CPU time, which another process on the core does not lengthen."""
    records = [json.loads(line) for line in watched.read_text().splitlines()]
    out: dict[str, Any] = {}
    for phase, (begin, end) in phases.items():
        inside = [r for r in records if begin <= r["at"] <= end]
        stalls = [r for r in inside if "stall_ms" in r]
        gcs = [r for r in inside if "gc_ms" in r]
        full = [r["gc_ms"] for r in gcs if r["generation"] == 2]
        out[phase] = {
            "loop_stall_max_ms": max((r["stall_ms"] for r in stalls), default=0.0),
            "loop_stall_cpu_max_ms": max((r["cpu_ms"] for r in stalls), default=0.0),
            "gc_max_ms": max((r["gc_ms"] for r in gcs), default=0.0),
            "gc_cpu_max_ms": max((r["cpu_ms"] for r in gcs), default=0.0),
            "full_gcs": len(full), "full_gc_max_ms": max(full, default=0.0),
            "slowest": sorted(([r["stall_ms"], r["cpu_ms"], r["callback"]] for r in stalls),
                              reverse=True)[:3]}
    return {key: max(p[key] for p in out.values()) for key in (
        "loop_stall_max_ms", "loop_stall_cpu_max_ms", "gc_max_ms", "gc_cpu_max_ms")} | {
        "phases": out}


async def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    # every client connects from this machine's one address: room for them all (and the MC)
    controller = LiveController(work / "fanout.db", (
        "--connections-per-address", str(args.clients + 64)))
    controller.issue_keys()
    watched = args.loop_watch or work / "loop.jsonl"
    watched.unlink(missing_ok=True)
    os.environ[LOOP_WATCH] = str(watched)  # the controller's environment: it times its loop
    step("starting the controller")
    try:
        await controller.start()
    finally:
        del os.environ[LOOP_WATCH]
    phases: dict[str, tuple[float, float]] = {}
    step("starting the reference server")
    reference, reference_url = await start_reference()
    assert controller.process is not None
    if args.pin:
        for server in (controller.process.pid, reference.pid):
            os.sched_setaffinity(server, SERVER_CORES)
    clients = Clients()
    display: subprocess.Popen[bytes] | None = None
    mc = MC(lambda _: None)
    try:
        await mc.connect(controller.url, controller.keys["operator"])
        board = Board(mc)
        await board.seed()
        step(f"enrolling {args.clients} screens")
        began, phase = time.monotonic(), now_ms()
        screens = [DISPLAY] + [f"fanout-{i:04d}" for i in range(args.clients)
                               if args.screens == "enrolled"]
        display_auth, *auths = await enrol(controller.url, controller.keys["technician"], screens)
        if args.screens == "viewer":
            auths = [{"key": controller.keys["display"]}] * args.clients
        enrol_s = time.monotonic() - began
        phases["enrol"] = (phase, now_ms())
        step("timing commands with no screen connected")
        alone = await fan_out(board.change, args.commands, None, 0)
        step(f"connecting {args.clients} clients")
        await clients.start(min(args.processes, args.clients))
        before = rss_kib(controller.process.pid) or 0
        began, phase = time.monotonic(), now_ms()
        ready = await clients.connect(controller.url, auths, args.batch)
        connect_s = time.monotonic() - began
        await asyncio.sleep(1.0)
        after = rss_kib(controller.process.pid) or 0
        phases["connect"] = (phase, now_ms())
        step("timing the controller's fan-out")
        ours = await fan_out(board.change, args.commands, clients, ready)
        phases["timed"] = (phases["connect"][1], now_ms())
        size = int(statistics.median(clients.sizes)) if clients.sizes else 0
        await clients.close()
        step("timing the reference server's fan-out")
        theirs = await on_reference(reference_url, clients, auths, args, clients.sample)
        step("starting a 4K display")
        display = start_display(controller.url, display_auth["key"], work)
        await has_views(work / "screens" / f"{DISPLAY}.json", display)
        memory = await watch(display, board, args.display_minutes)
    finally:
        await mc.close()
        await clients.stop()
        reference.terminate()
        await reference.wait()
        if display is not None:
            display.terminate()
            display.wait(10)
        controller.stop()
    p99, ref_p99 = percentile(ours["arrival"], 99), percentile(theirs["arrival"], 99)
    return {
        "benchmark": "fanout", "clients": ready, "commands": args.commands,
        "p50_ms": percentile(ours["arrival"], 50), "p99_ms": p99,
        "last_p99_ms": percentile(ours["last"], 99),
        "ack_p99_ms": percentile(ours["ack"], 99),
        "ack_p99_no_screens_ms": percentile(alone["ack"], 99),
        "reference_p50_ms": percentile(theirs["arrival"], 50), "reference_p99_ms": ref_p99,
        "reference_last_p99_ms": percentile(theirs["last"], 99),
        "ratio": round(p99 / ref_p99, 2) if ref_p99 else 0.0,
        "message_bytes": size,
        "missing": int(sum(ours["missing"])), "reference_missing": int(sum(theirs["missing"])),
        "controller_kib_per_client": round((after - before) / max(ready, 1), 1),
        **{k: memory[k] for k in ("display_rss_mib", "display_peak_mib", "display_minutes")},
        "pinned": args.pin, "screens": args.screens,
        "enrol_s": round(enrol_s, 1), "connect_s": round(connect_s, 1),
        **pauses(watched, phases),
    }


async def on_reference(url: str, clients: Clients, auths: list[dict[str, str]],
                       args: argparse.Namespace, message: Any) -> dict[str, list[float]]:
    """The same clients, reconnected to the reference server, `--commands` broadcasts."""
    ready = await clients.connect(url, auths, args.batch)
    trigger_client = socketio.AsyncClient(reconnection=False)
    await trigger_client.connect(url, namespaces=["/control"], transports=["websocket"])

    async def trigger(_: int) -> None:
        await trigger_client.call("trigger", {"message": message},
                                  namespace="/control", timeout=10)

    try:
        return await fan_out(trigger, args.commands, clients, ready)
    finally:
        await trigger_client.disconnect()
        await clients.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--commands", type=int, default=100, help="per phase")
    parser.add_argument("--processes", type=int, default=4, help="Node processes for clients")
    parser.add_argument("--batch", type=int, default=25,
                        help="clients connecting at a time in each Node process")
    parser.add_argument("--pin", action=argparse.BooleanOptionalAction, default=pinnable(),
                        help="the server under test on core 0, this process (the MC) and the "
                        "clients on the others, as if they were other machines (default where "
                        "there are two cores or more)")
    parser.add_argument("--screens", choices=("enrolled", "viewer"), default="enrolled",
                        help="enrolled: each client its own screen playing the demo playlist; "
                        "viewer: all with one display-role key")
    parser.add_argument("--display-minutes", type=float, default=0.5,
                        help="keep the 4K display running at least this long")
    parser.add_argument("--loop-watch", type=Path, metavar="FILE", help="keep the controller's "
                        "slow callbacks and collections here (JSON lines; default: a temporary "
                        "file)")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    args = parser.parse_args()
    if args.pin:  # this process, the MC and every client it starts; the servers move in `run`
        os.sched_setaffinity(0, os.sched_getaffinity(0) - SERVER_CORES)
    began = time.monotonic()
    installed()
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run(args, Path(tmp)))
    print(json.dumps({**result, "wall_s": round(time.monotonic() - began, 1)}))


if __name__ == "__main__":
    main()

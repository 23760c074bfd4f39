"""Command-to-screens latency: from sending a command on /control to the moment every
connected display has applied the changed view, and the MC's ack time beside it.

    python bench/latency.py --displays 20 --commands 300 --json

`ack_p50_ms`/`ack_p99_ms`: from sending the command to its ack (the ack does not wait for the
screens, so it should not grow with `--displays`). The displays run in a process of their own
(so they do not delay the ack's arrival here) and apply deltas (docs/protocol.md).

Runs a real controller process on a temporary SQLite file (WAL, synchronous=FULL), or with
`--store postgres` on a database of a private PostgreSQL cluster (fsync on), and real
Socket.IO display clients on loopback. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
import uuid
from multiprocessing.connection import Connection
from pathlib import Path

import socketio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.access.keys import issue_key
from controller.application.child_process import ControllerProcess
from controller.store.target import LogAt, open_log
from showrunner.contract.delta import patch
from tests.support.postgres import start_cluster

VIEW = "leaderboard:slots"


class Screen:
    """A display client that notes when each score value first reaches it."""

    def __init__(self) -> None:
        self.sio = socketio.AsyncClient(reconnection=False)
        self.arrivals: dict[int, float] = {}
        self.doc: dict = {}
        self.revision = -1
        self.sio.on("views", self.on_views, namespace="/display")

    async def on_views(self, message: dict) -> None:
        now = time.perf_counter()
        for view in message["views"]:
            if view["name"] != VIEW or view["revision"] <= self.revision:
                continue
            if "delta" in view:
                assert view["base"] == self.revision, "a gap: the benchmark lost a message"
                self.doc = patch(self.doc, view["delta"])
            else:
                self.doc = view["doc"]
            self.revision = view["revision"]
            if self.doc["rows"]:
                self.arrivals.setdefault(self.doc["rows"][0]["score"], now)


async def run(displays: int, commands: int, store: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cluster = None
        db: LogAt = Path(tmp) / "bench.db"
        if store == "postgres":  # a private cluster (tests/support/postgres.py)
            Path(tmp).chmod(0o755)
            cluster = start_cluster(Path(tmp) / "cluster")
            db = cluster.new_database()
        try:
            log = open_log(db)
            operator = issue_key(log, "operator", "bench", 0)
            display = issue_key(log, "display", "bench", 0)
            log.close()
            controller = ControllerProcess(db, cwd=Path(tmp))
            url = await asyncio.to_thread(controller.start)
            try:
                return {**await measure(url, operator, display, displays, commands),
                        "store": store}
            finally:
                controller.stop()
        finally:
            if cluster is not None:
                cluster.stop()


def displays_process(url: str, display: str, displays: int, conn: Connection) -> None:
    """The display clients, in a process of their own so that their work does not delay the
    MC's ack in the measuring process: sends "ready", then (score, last arrival) per score."""

    async def main() -> None:
        screens = [Screen() for _ in range(displays)]
        for screen in screens:
            await screen.sio.connect(url, namespaces=["/display"], auth={"key": display},
                                     transports=["websocket"])
            reply = await screen.sio.call("sync", {"revisions": {}}, namespace="/display")
            await screen.on_views(reply)
        conn.send("ready")
        score = 1
        while not conn.poll():  # the parent says when to stop
            if all(score in s.arrivals for s in screens):
                conn.send((score, max(s.arrivals[score] for s in screens)))
                score += 1
            await asyncio.sleep(0.0005)
        for screen in screens:
            await screen.sio.disconnect()

    asyncio.run(main())


async def measure(url: str, operator: str, display: str, displays: int, commands: int) -> dict:
    mc = socketio.AsyncClient(reconnection=False)
    await mc.connect(url, namespaces=["/control"], auth={"key": operator},
                     transports=["websocket"])

    async def send(type_: str, payload: dict) -> dict:
        envelope = {"type": type_, "payload": payload, "command_id": uuid.uuid4().hex}
        return await mc.call("command", envelope, namespace="/control")

    await send("register_member", {"card": "1000001", "display_name": "Bench Player"})
    await send("slots.enter", {"card": "1000001"})
    conn, child_end = multiprocessing.Pipe()
    child = multiprocessing.get_context("spawn").Process(
        target=displays_process, args=(url, display, displays, child_end), daemon=True)
    if displays:
        child.start()
        assert await asyncio.to_thread(conn.recv) == "ready"
    latencies, acks = [], []
    for score in range(1, commands + 1):
        started = time.perf_counter()
        ack = await send("slots.record_score", {"entry": "S1", "score": score})
        acks.append((time.perf_counter() - started) * 1000)
        assert ack["ok"], ack
        if displays:  # perf_counter is the system's monotonic clock: the same in both
            arrived_score, arrived = await asyncio.to_thread(conn.recv)
            assert arrived_score == score
            latencies.append((arrived - started) * 1000)
        else:
            latencies.append(acks[-1])
    if displays:
        conn.send("stop")
        await asyncio.to_thread(child.join, 10)
    await mc.disconnect()
    cuts = statistics.quantiles(latencies, n=100)
    ack_cuts = statistics.quantiles(acks, n=100)
    return {"benchmark": "latency", "displays": displays, "commands": commands,
            "p50_ms": round(cuts[49], 2), "p99_ms": round(cuts[98], 2),
            "max_ms": round(max(latencies), 2),
            "ack_p50_ms": round(ack_cuts[49], 2), "ack_p99_ms": round(ack_cuts[98], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--displays", type=int, default=20)
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite",
                        help="the log: a temporary SQLite file, or a database in a private "
                        "PostgreSQL cluster (Debian's server)")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.displays, args.commands, args.store))))


if __name__ == "__main__":
    main()

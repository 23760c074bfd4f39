"""Super 9 spin latency through the real service path: decide, SQLite append, apply, publish.

One spin is timed from the command envelope to the changed views: the rules decide, the events
are appended durably to the real SQLite log, the game folds them in (winners and need-counts
kept incrementally) and the board and cue views are re-rendered. The tickets are written to the
log in bulk and replayed at start-up, exactly as a restarted controller does.

    python bench/super9.py --tickets 20000 --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.access.keys import Principal
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.settings import shipped
from controller.application.show import Show
from controller.promotions.super9.config import Super9Config
from controller.promotions.super9.schedule import Schedule
from controller.promotions.super9.views import BOARD
from controller.store.sqlite import EventLog

CHUNK = 2000  # tickets per bulk append
BENCH = Principal("operator", "bench", "key:bench")


class Clock:
    def __init__(self, now_ms: int) -> None:
        self.now_ms = now_ms

    def __call__(self) -> int:
        return self.now_ms


def write_tickets(log: EventLog, count: int, session: str, at_ms: int, rng: random.Random
                  ) -> None:
    price = shipped("super9", Super9Config).ticket_price_cents
    for first in range(0, count, CHUNK):
        records: list[tuple[str, int, dict[str, Any]]] = []
        for i in range(first, min(first + CHUNK, count)):
            serial = f"{i:06d}"
            records.append(("Super9TicketSold", 1, {"ticket": serial, "card": None,
                                                    "price_cents": price, "at_ms": at_ms}))
            records.append(("Super9TicketEntered", 1, {
                "ticket": serial, "numbers": sorted(rng.sample(range(37), 9)),
                "session": session, "at_ms": at_ms}))
        log.append(f"bench-{first}", "bench", at_ms, records, {"ok": True},
                   principal=BENCH.id, digest=f"bench-{first}")


def run(tickets: int, spins: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    schedule = Schedule(shipped("super9", Super9Config))
    session = schedule.next_sessions(time.time_ns() // 1_000_000, 1)[0]
    clock = Clock(session.start_ms - 3_600_000)
    with tempfile.TemporaryDirectory() as tmp:
        log = EventLog.open(Path(tmp) / "bench.db")
        try:
            t0 = time.perf_counter()
            write_tickets(log, tickets, session.id, clock.now_ms, rng)
            show = Show(build_features())
            service = Service(log, show, clock)
            service.replay()
            clock.now_ms = session.start_ms
            t1 = time.perf_counter()
            ack, _, _ = service.execute(command("super9.start_session", {"session": session.id}),
                                     BENCH)
            assert ack["ok"], ack
            start_ms = (time.perf_counter() - t1) * 1000
            setup_s = t1 - t0
            spin_ms, undo_ms = drive(service, spins, rng)
        finally:
            log.close()
    spin_ms.sort()
    undo_ms.sort()
    return {
        "tickets": tickets,
        "spins": len(spin_ms),
        "spin_p50_ms": round(statistics.median(spin_ms), 3),
        "spin_p99_ms": round(percentile(spin_ms, 99), 3),
        "spin_max_ms": round(spin_ms[-1], 3),
        "undo_p99_ms": round(percentile(undo_ms, 99), 3) if undo_ms else None,
        "start_session_ms": round(start_ms, 1),
        "setup_s": round(setup_s, 2),
    }


def drive(service: Service, spins: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """Spin random numbers; undo a win (or a long game) so the board keeps being played."""
    spin_ms: list[float] = []
    undo_ms: list[float] = []
    while len(spin_ms) < spins:
        t = time.perf_counter()
        ack, views, _ = service.execute(command("super9.spin", {"number": rng.randrange(37)}),
                                     BENCH)
        spin_ms.append((time.perf_counter() - t) * 1000)
        assert ack["ok"] and views, ack
        board = service.show.views[BOARD].doc
        if board["status"] == "super9" or board["counted_spins"] >= 20:
            while service.show.views[BOARD].doc["spins"]:
                t = time.perf_counter()
                ack, _, _ = service.execute(command("super9.undo_spin", {"reason": "bench reset"}),
                                         BENCH)
                undo_ms.append((time.perf_counter() - t) * 1000)
                assert ack["ok"], ack
    return spin_ms, undo_ms


def command(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": type_, "payload": payload, "command_id": uuid.uuid4().hex}


def percentile(sorted_values: list[float], p: int) -> float:
    index = min(len(sorted_values) - 1, round(p / 100 * (len(sorted_values) - 1)))
    return sorted_values[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tickets", type=int, default=20000)
    parser.add_argument("--spins", type=int, default=1000, help="spins timed")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--json", action="store_true", help="one JSON object (the default "
                                                            "prints one line per figure)")
    args = parser.parse_args()
    result = run(args.tickets, args.spins, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")


if __name__ == "__main__":
    main()

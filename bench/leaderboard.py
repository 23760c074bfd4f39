"""Tournament leaderboard: recording one score into a large board, and replay at start.

    python bench/leaderboard.py --entries 100000 --json

`record_p99_ms`: one `slots.record_score` through the real service path (decide, durable SQLite
append with synchronous=FULL, apply, leaderboard view re-rendered and published) into a Slots
qualifying board of `--entries` entries. Every timed score lands on the visible top 45, so the
view changes each time, after the replayed state is frozen as the controller freezes it
(controller/application/heap.py; `full_gc_ms` one full garbage collection then,
`full_gc_ms_unfrozen` before). `replay_s`: a fresh controller rebuilding its state from a log of
`--events` events (members, entries and scores), exactly as at start-up. The logs are written
in bulk first, as in bench/super9.py. Prints one JSON object.

`search_p99_ms`: the console's player search (`find_entries`) on the board of `--entries`
entries, by pieces of names in any case and by card digits, typed and swiped.
"""

from __future__ import annotations

import argparse
import gc
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
from controller.application.heap import keep_replayed_state
from controller.application.service import Service, wall_clock_ms
from controller.application.show import Show
from controller.domain.events import DomainEvent
from controller.domain.members import MemberRegistered
from controller.promotions.tournament.events import TournamentEntered, TournamentScoreRecorded
from controller.promotions.tournament.feature import Tournament
from controller.realtime.queries import FOUND
from controller.store.sqlite import EventLog

CHUNK = 5000  # events per bulk append
BENCH = Principal("operator", "bench", "key:bench")
MEMBERS = 1000
SEATS_PER_HEAT = 10  # the shipped slots.yaml
BUY_IN = 5000


def tournament_events(entries: int, rng: random.Random, at_ms: int) -> list[DomainEvent]:
    """Members, then entries seated in order (one seat per heat each), then their scores."""
    members = min(MEMBERS, max(SEATS_PER_HEAT, entries))
    out: list[DomainEvent] = [
        MemberRegistered(str(1_000_000 + m), f"Player{m} S.", True, []) for m in range(members)]
    for i in range(entries):
        out.append(TournamentEntered("slots", f"S{i + 1}", str(1_000_000 + i % members),
                                     "qualifying", f"Heat {i // SEATS_PER_HEAT + 1}",
                                     i % SEATS_PER_HEAT + 1, "cash", BUY_IN, at_ms))
    out += [TournamentScoreRecorded("slots", f"S{i + 1}", rng.randrange(100_000), at_ms, {})
            for i in range(entries)]
    return out


def write_log(path: Path, events: list[DomainEvent], at_ms: int) -> None:
    log = EventLog.open(path)
    try:
        for first in range(0, len(events), CHUNK):
            chunk = events[first:first + CHUNK]
            log.append(f"bench-{first}", "bench", at_ms, [e.record() for e in chunk],
                       {"ok": True}, principal=BENCH.id, digest=f"bench-{first}")
    finally:
        log.close()


def started(path: Path) -> tuple[Service, int, float]:
    """A controller's service on the log, replayed: (service, events, seconds)."""
    service = Service(EventLog.open(path), Show(build_features()), wall_clock_ms)
    begin = time.perf_counter()
    count = service.replay()
    return service, count, time.perf_counter() - begin


def full_gc_ms() -> float:
    """How long one full collection of the cyclic garbage collector holds the process."""
    begin = time.perf_counter()
    gc.collect()
    return round((time.perf_counter() - begin) * 1000, 1)


def record_scores(service: Service, entries: int, records: int,
                  rng: random.Random) -> list[float]:
    timings = []
    top = 100_000
    for _ in range(records):
        top += rng.randrange(1, 50)
        envelope = {"type": "slots.record_score", "command_id": uuid.uuid4().hex,
                    "payload": {"entry": f"S{rng.randrange(entries) + 1}", "score": top}}
        begin = time.perf_counter()
        ack, views, _ = service.execute(envelope, BENCH)
        timings.append((time.perf_counter() - begin) * 1000)
        assert ack["ok"], ack
        assert any(v.name == "leaderboard:slots" for v in views), "the board did not change"
    return timings


def search_queries(rng: random.Random, count: int) -> list[str]:
    """What the MC types: a name or part of one in any case, a card's last digits, a swipe."""
    out = []
    for _ in range(count):
        m = rng.randrange(MEMBERS)
        out.append(rng.choice([f"player{m}", f"Player{m} S", f"PLAYER{m}", "player", "s.",
                               "p", f"yer{m}", f"{m:04d}", f"{1_000_000 + m}", str(m % 10),
                               f"1 000 {m:03d}", "nobody"]))
    return out


def search_timings(service: Service, queries: list[str]) -> list[float]:
    """Milliseconds of each search of the slots board, as `find_entries` answers it."""
    slots = next(f for f in service.show.features
                 if isinstance(f, Tournament) and f.name == "slots")
    timings = []
    for query in queries:
        begin = time.perf_counter()
        slots.find(query, FOUND)
        timings.append((time.perf_counter() - begin) * 1000)
    return timings


def run(entries: int, events: int, records: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    at_ms = wall_clock_ms()
    with tempfile.TemporaryDirectory() as tmp:
        board_log = Path(tmp) / "board.db"
        write_log(board_log, tournament_events(entries, rng, at_ms), at_ms)
        service, board_events, board_replay_s = started(board_log)
        try:
            unfrozen_gc_ms = full_gc_ms()
            keep_replayed_state()  # as the controller does once it has replayed
            frozen_gc_ms = full_gc_ms()
            timings = record_scores(service, entries, records, rng)
            searches = search_timings(service, search_queries(random.Random(seed), records))
        finally:
            gc.unfreeze()
            service.log.close()

        replay_log = Path(tmp) / "replay.db"
        members = min(MEMBERS, events)
        per_entry = max(0, (events - members) // 2)  # one entry and its score
        replayed = tournament_events(per_entry, rng, at_ms)[:events]
        write_log(replay_log, replayed, at_ms)
        service, replay_events, replay_s = started(replay_log)
        service.log.close()
    cuts = statistics.quantiles(timings, n=100)
    return {"benchmark": "leaderboard", "entries": entries, "records": records,
            "record_p50_ms": round(cuts[49], 3), "record_p99_ms": round(cuts[98], 3),
            "record_max_ms": round(max(timings), 3),
            "search_p99_ms": round(statistics.quantiles(searches, n=100)[98], 3),
            "search_max_ms": round(max(searches), 3),
            "full_gc_ms_unfrozen": unfrozen_gc_ms, "full_gc_ms": frozen_gc_ms,
            "replay_events": replay_events, "replay_s": round(replay_s, 3),
            "board_log_events": board_events, "board_replay_s": round(board_replay_s, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=100_000, help="entries on the board")
    parser.add_argument("--events", type=int, default=100_000, help="events in the replay log")
    parser.add_argument("--records", type=int, default=1000, help="timed scores")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    args = parser.parse_args()
    print(json.dumps(run(args.entries, args.events, args.records, args.seed)))


if __name__ == "__main__":
    main()

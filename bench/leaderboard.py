"""Tournament leaderboard: recording one score into a large board, and a start on a season's log.

    python bench/leaderboard.py --entries 100000 --events 2000000 --json
    python bench/leaderboard.py --entries 100000 --events 2000000 --json --store postgres
    python bench/leaderboard.py --events 2000000 --rescores 2000000 --json

The logs are temporary SQLite files (WAL, synchronous=FULL), or with `--store postgres`
databases of a private PostgreSQL cluster (Debian's server, fsync on, as bench/latency.py
starts it); `store` in the output says which. Both are written by the store's own append
(tests/support/season.py), so each start below checks the same chain either store makes.

`record_p99_ms`: one `slots.record_score` through the real service path (decide, durable
append, apply, leaderboard view re-rendered and published) into a Slots qualifying board of
`--entries` entries. Every timed score lands on the visible top 45, so the view changes each
time, after the replayed state is frozen as the controller freezes it
(controller/application/heap.py; `full_gc_ms` one full garbage collection then,
`full_gc_ms_unfrozen` before).

A season's log of `--events` events (members, entries and their scores: tests/support/season.py,
written in bulk; with `--rescores N`, N more scores of its entries, which lengthen the log and
not the state) is then started on by fresh processes, each timed inside itself from opening
the log to a service ready as `serve` makes it (the log checked by a process of its own while
the state is replayed beside it: controller/application/startup.py; configs recorded, heap
frozen): `replay_s` with no snapshot, from the first event (what `audit verify` and a
snapshot's fallback do), `replay_check_s` what the start's check (the chain from the first
event, the keys and people tables: controller/cli/start_check.py) then costs on its own,
`replay_rss_mib` that process's resident memory after it; it then writes the snapshot a clean
shutdown writes (`snapshot_write_s`, `snapshot_mib`). After `--tail` more events (by default a
whole snapshot period, controller/application/snapshots.py: the most a crash leaves after the
last snapshot), `restart_s` is a start from that snapshot and the tail (`restart_check_s` its
check alone: the chain from the snapshot on), `restart_rss_mib` its memory, and
`whole_check_s` what the check of the rest that runs once the controller serves costs
(controller/audit/whole_check.py: SQLite's every page, every link). Prints one JSON object.

`search_p99_ms`: the console's player search (`find_entries`) on the board of `--entries`
entries, by pieces of names in any case and by card digits, typed and swiped.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.application import snapshots
from controller.application.configs import record_configs
from controller.application.features import build_features
from controller.application.heap import keep_replayed_state
from controller.application.service import Service, wall_clock_ms
from controller.application.show import Show
from controller.application.snapshots import Snapshots
from controller.application.startup import replayed
from controller.audit.whole_check import check_whole
from controller.cli.start_check import Checking, check_log
from controller.domain.events import DomainEvent
from controller.promotions.tournament.events import TournamentEntered, TournamentScoreRecorded
from controller.promotions.tournament.feature import Tournament
from controller.realtime.queries import FOUND
from controller.store.target import LogAt, db_arg, open_log
from tests.support.postgres import Cluster, start_cluster
from tests.support.season import BENCH, MEMBERS, season, tournament_events, write_log


def started(db: LogAt) -> tuple[Service, int, float]:
    """A controller's service on the log, replayed: (service, events, seconds)."""
    service = Service(open_log(db), Show(build_features()), wall_clock_ms)
    begin = time.perf_counter()
    count = service.replay()
    return service, count, time.perf_counter() - begin


def probe(db: LogAt, write_snapshot: bool) -> dict[str, Any]:
    """In a fresh process: check the log and make the service from it as `serve` does,
    timed; with `write_snapshot`, then write the clean shutdown's snapshot, timed."""
    begin = time.perf_counter()
    verdict = Checking(db)
    service = replayed(db, wall_clock_ms, verdict)
    log = service.log
    folded = log.last_seq - snapshots.start_point(log)  # the tail after the snapshot loaded
    keep_replayed_state()
    record_configs(service)
    out: dict[str, Any] = {"s": round(time.perf_counter() - begin, 3), "folded": folded,
                           "rss_mib": rss_mib()}
    checking = time.perf_counter()
    check_log(db, rehearsing=False)  # again, alone: what it costs beside the replay
    out["check_s"] = round(time.perf_counter() - checking, 3)
    whole = check_whole(db)  # what the controller checks once it serves
    assert whole.problem is None, whole.problem
    out["whole_check_s"] = whole.took_s
    if write_snapshot:
        begin = time.perf_counter()
        Snapshots(log, lambda: service.show).close()
        out["snapshot_write_s"] = round(time.perf_counter() - begin, 3)
        out["snapshot_mib"] = round(log.snapshots()[0].size / 2**20, 1)
    log.close()
    return out


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return round(kib / 1024, 1)


def in_fresh_process(db: LogAt, write_snapshot: bool, folder: Path) -> dict[str, Any]:
    """`probe` in a process of its own, run in `folder` (where the files beside a PostgreSQL
    log, a snapshot being written, are kept)."""
    args = [sys.executable, __file__, "--probe", str(db)]
    if write_snapshot:
        args.append("--write-snapshot")
    done = subprocess.run(args, check=True, capture_output=True, text=True, cwd=folder)
    return json.loads(done.stdout.strip().splitlines()[-1])


def tail_events(count: int, entries: int, rng: random.Random, at_ms: int) -> list[DomainEvent]:
    """A night after the snapshot: new scores for the season's entries."""
    return [TournamentScoreRecorded("slots", f"S{rng.randrange(entries) + 1}",
                                    rng.randrange(10 * entries), at_ms, {})
            for _ in range(count)]


def full_gc_ms() -> float:
    """How long one full collection of the cyclic garbage collector holds the process."""
    begin = time.perf_counter()
    gc.collect()
    return round((time.perf_counter() - begin) * 1000, 1)


def record_scores(service: Service, entries: int, records: int,
                  rng: random.Random) -> list[float]:
    timings = []
    top = 10 * entries  # above every score tournament_events gives
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


def run(entries: int, events: int, records: int, tail: int, seed: int, store: str,
        rescores: int = 0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        cluster = None
        if store == "postgres":  # a private cluster (tests/support/postgres.py), fsync on
            Path(tmp).chmod(0o755)
            cluster = start_cluster(Path(tmp) / "cluster")
        try:
            return {**measure(entries, events, records, tail, seed, Path(tmp), cluster,
                              rescores), "store": store}
        finally:
            if cluster is not None:
                cluster.stop()


def measure(entries: int, events: int, records: int, tail: int, seed: int, tmp: Path,
            cluster: Cluster | None, rescores: int = 0) -> dict[str, Any]:
    """The figures, on logs in `tmp` or (`cluster`) in databases of that cluster."""
    rng = random.Random(seed)
    at_ms = wall_clock_ms()

    def new_log(name: str) -> LogAt:
        return cluster.new_database() if cluster is not None else tmp / name

    board_log = new_log("board.db")
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

    season_log = new_log("season.db")
    events_written = season(events, rng, at_ms)
    season_entries = sum(isinstance(e, TournamentEntered) for e in events_written)
    write_log(season_log, events_written, at_ms)
    del events_written
    if rescores:  # a longer log of the same state: its entries scored again
        write_log(season_log, tail_events(rescores, max(1, season_entries), rng, at_ms), at_ms,
                  prefix="rescore")
    full = in_fresh_process(season_log, write_snapshot=True, folder=tmp)
    write_log(season_log, tail_events(tail, max(1, season_entries), rng, at_ms), at_ms,
              prefix="tail")
    restart = in_fresh_process(season_log, write_snapshot=False, folder=tmp)
    cuts = statistics.quantiles(timings, n=100)
    return {"benchmark": "leaderboard", "entries": entries, "records": records,
            "season_entries": season_entries, "rescores": rescores,
            "record_p50_ms": round(cuts[49], 3), "record_p99_ms": round(cuts[98], 3),
            "record_max_ms": round(max(timings), 3),
            "search_p99_ms": round(statistics.quantiles(searches, n=100)[98], 3),
            "search_max_ms": round(max(searches), 3),
            "full_gc_ms_unfrozen": unfrozen_gc_ms, "full_gc_ms": frozen_gc_ms,
            "board_log_events": board_events, "board_replay_s": round(board_replay_s, 3),
            "season_events": full["folded"], "replay_s": full["s"],
            "replay_check_s": full["check_s"], "restart_check_s": restart["check_s"],
            "whole_check_s": restart["whole_check_s"], "replay_rss_mib": full["rss_mib"],
            "snapshot_write_s": full["snapshot_write_s"],
            "snapshot_mib": full["snapshot_mib"], "tail_events": restart["folded"],
            "restart_s": restart["s"], "restart_rss_mib": restart["rss_mib"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=100_000, help="entries on the board")
    parser.add_argument("--events", type=int, default=100_000, help="events in the replay log")
    parser.add_argument("--records", type=int, default=1000, help="timed scores")
    parser.add_argument("--tail", type=int, default=snapshots.EVERY_EVENTS,
                        help="events after the snapshot, for restart_s")
    parser.add_argument("--rescores", type=int, default=0, help="the season's entries scored "
                        "again this many times before the snapshot: a longer log of the same "
                        "state (a start's cost follows the state and the tail, not the log)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite",
                        help="the logs: temporary SQLite files, or databases in a private "
                        "PostgreSQL cluster (Debian's server)")
    parser.add_argument("--probe", type=db_arg, help=argparse.SUPPRESS)
    parser.add_argument("--write-snapshot", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    args = parser.parse_args()
    if args.probe is not None:
        print(json.dumps(probe(args.probe, args.write_snapshot)))
        return
    print(json.dumps(run(args.entries, args.events, args.records, args.tail, args.seed,
                         args.store, args.rescores)))


if __name__ == "__main__":
    main()

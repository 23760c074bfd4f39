"""bench/leaderboard.py runs end to end at a tiny size on either store and reports every figure
as a number (on PostgreSQL in a cluster of its own, as it runs for real)."""

from __future__ import annotations

import pytest

from tests.support.benches import bench_figures
from tests.support.postgres import postgres_cluster  # noqa: F401  (the fixture)

FIGURES = ("record_p50_ms", "record_p99_ms", "search_p99_ms", "full_gc_ms", "board_replay_s",
           "replay_s", "replay_check_s", "replay_rss_mib", "snapshot_write_s", "snapshot_mib",
           "restart_s", "restart_check_s", "whole_check_s", "restart_rss_mib")
BENCH_TIMEOUT_S = 300


@pytest.mark.timeout(BENCH_TIMEOUT_S + 30)  # the bench's own bound fails first, with its stderr
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_leaderboard_bench_prints_every_figure(store: str, request: pytest.FixtureRequest
                                               ) -> None:
    if store == "postgres":
        request.getfixturevalue("postgres_cluster")  # skipped (or failed under CI) without one
    result = bench_figures(["bench/leaderboard.py", "--entries", "200", "--events", "3000",
                            "--records", "100", "--tail", "300", "--store", store, "--json"],
                           FIGURES, timeout=BENCH_TIMEOUT_S)
    assert result["store"] == store and result["records"] == 100
    assert result["season_events"] == 3000  # every season event folded, its chain checked
    assert result["tail_events"] >= 300 and result["snapshot_mib"] >= 0

"""bench/fanout.py runs end to end at a tiny size and reports every figure as a number."""

from __future__ import annotations

import shutil

import pytest

from tests.support.benches import bench_figures

FIGURES = ("clients", "p50_ms", "p99_ms", "last_p99_ms", "ack_p99_ms", "ack_p99_no_screens_ms",
           "reference_p99_ms", "ratio", "controller_kib_per_client", "display_rss_mib",
           "display_peak_mib", "loop_stall_max_ms", "loop_stall_cpu_max_ms", "gc_max_ms",
           "wall_s")
BENCH_TIMEOUT_S = 180  # 10 s on a quiet machine


@pytest.mark.timeout(BENCH_TIMEOUT_S + 30)  # the bench's own bound fails first, with its stderr
def test_fanout_bench_prints_every_figure() -> None:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"the fan-out bench runs its clients under Node; not installed: {missing}")
    result = bench_figures(["bench/fanout.py", "--clients", "5", "--commands", "5",
                            "--processes", "2", "--display-minutes", "0", "--json"],
                           FIGURES, timeout=BENCH_TIMEOUT_S)
    assert result["clients"] == 5
    assert result["missing"] == 0 and result["reference_missing"] == 0
    assert result["message_bytes"] > 500  # the whole leaderboard arrived, not an empty push
    assert result["p99_ms"] > 0 and result["reference_p99_ms"] > 0
    assert result["display_rss_mib"] > 0
    assert set(result["phases"]) == {"enrol", "connect", "timed"}  # the controller's loop watch
    assert result["loop_stall_max_ms"] == max(p["loop_stall_max_ms"]
                                              for p in result["phases"].values())

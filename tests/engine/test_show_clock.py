"""The screen's estimate of the controller's clock, with injected times: rate, corrections."""

from __future__ import annotations

from showrunner.engine.clock import STEP_BACK_MS, ClockEstimator, ClockFix, ShowClock


class Local:
    """A local clock the test moves by hand."""

    def __init__(self, ms: float = 1_000_000.0) -> None:
        self.ms = ms

    def __call__(self) -> float:
        return self.ms


def test_at_rate_4_the_clock_runs_four_show_seconds_a_second():
    local = Local()
    estimator = ClockEstimator()
    fix = estimator.add(local.ms - 20, 5_000_000, local.ms, rate=4)
    clock = ShowClock(fix, local)
    assert clock.now_ms() == 5_000_000 + 10 * 4  # the sample was taken 10 ms ago, mid-trip
    local.ms += 2000
    assert clock.now_ms() == 5_000_000 + 2010 * 4


def test_the_best_sample_is_carried_forward_at_the_rate():
    estimator = ClockEstimator()
    estimator.add(0, 1_000, 4, rate=4)  # a 4 ms trip: trusted
    fix = estimator.add(1000, 5_100, 1100, rate=4)  # a 100 ms trip, 40 ms off
    assert fix == ClockFix(2, 1_000, 4)
    assert fix.at(1050) == 1_000 + 1048 * 4


def test_a_new_rate_or_a_new_connection_forgets_the_old_samples():
    estimator = ClockEstimator()
    estimator.add(0, 1_000, 2, rate=1)
    assert estimator.add(100, 9_000, 200, rate=4) == ClockFix(150, 9_000, 4)
    estimator.reset()
    assert estimator.fix == ClockFix()


def test_a_small_correction_back_holds_the_clock_still_instead_of_counting_up():
    local = Local(0)
    clock = ShowClock(ClockFix(0, 10_000, 4), local)
    local.ms = 100
    assert clock.now_ms() == 10_400
    clock.fix = ClockFix(100, 10_360, 4)  # 40 ms behind the old estimate
    assert clock.now_ms() == 10_400  # held, not stepped back
    local.ms = 105
    assert clock.now_ms() == 10_400  # 10_380: still held
    local.ms = 115
    assert clock.now_ms() == 10_420  # the estimate passed it: runs on


def test_a_clock_set_back_by_seconds_is_followed_at_once():
    local = Local(0)
    clock = ShowClock(ClockFix(0, 100_000, 1), local)
    assert clock.now_ms() == 100_000
    clock.fix = ClockFix(0, 100_000 - STEP_BACK_MS - 1, 1)  # a rehearsal started again
    assert clock.now_ms() == 100_000 - STEP_BACK_MS - 1


def test_without_a_sample_the_show_clock_is_the_local_clock():
    assert ShowClock(source=Local(123.0)).now_ms() == 123

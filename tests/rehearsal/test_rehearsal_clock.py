"""`rehearse --at` on the venue's wall clock, and a show clock that runs --speed times real time."""

from __future__ import annotations

import pytest

from controller.application.service import wall_clock_ms
from controller.domain.config import ConfigError
from controller.rehearsal.log import clock_rate, rehearsing


def test_at_is_read_in_the_promotions_venue_time_zone():
    # rule 33: the Wild Card draw at 18:00 on 18 January, Johannesburg time (UTC+2)
    start = rehearsing("wildcard", "2024-01-18 17:55", speed=30)
    assert (start.at_ms, start.timezone) == (1705593300000, "Africa/Johannesburg")
    assert start.event().to_data() == {
        "at_ms": 1705593300000, "at_local": "2024-01-18 17:55",
        "timezone": "Africa/Johannesburg", "promotion": "wildcard", "speed": 30}


def test_the_show_clock_starts_at_the_moment_and_runs_at_speed():
    wall = iter([5_000_000, 5_000_000, 5_001_000, 5_002_500])
    clock = rehearsing("slots", "2024-01-18 17:55", speed=30).clock(lambda: next(wall))
    assert [clock(), clock(), clock()] == [1705593300000, 1705593330000, 1705593375000]


@pytest.mark.parametrize("promotion, at, speed, words", [
    ("darts", "2024-01-18 17:55", 1, "There is no promotion 'darts'"),
    ("wildcard", "18/01/2024 5pm", 1, "is not a date and time like"),
    ("wildcard", "2024-01-18 17:55", 0, "--speed must be a whole number from 1 to 3600"),
    ("wildcard", "2024-01-18 17:55", 3601, "--speed must be a whole number from 1 to 3600"),
])
def test_a_wrong_start_is_refused_with_a_sentence(promotion, at, speed, words):
    with pytest.raises(ConfigError, match=words):
        rehearsing(promotion, at, speed)


def test_the_clock_tells_its_rate_a_live_one_runs_at_1():
    # the `clock` answer carries it, so screens count down at the rehearsal's speed
    assert clock_rate(rehearsing("wildcard", "2024-01-18 17:55", speed=4).clock()) == 4
    assert clock_rate(wall_clock_ms) == 1

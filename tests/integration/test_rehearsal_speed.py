"""A rehearsal at speed 4: a screen's countdown runs four seconds a second, smoothly."""

from __future__ import annotations

import asyncio
import itertools
import time

from showrunner.engine.clock import ShowClock
from showrunner.engine.link import ClockOffset, Link, LinkTimings, ViewChanged
from showrunner.engine.replica import Replica
from tests.integration.test_rehearsal import Rehearsal

SPEED = 4
DRAW = "draw:wildcard"


# SQLite's file: a rehearsal's own log is always a file (`rehearse --db PATH`)
async def test_a_screens_countdown_at_speed_4_runs_four_times_as_fast_without_a_jump(tmp_path):
    # rules 36, 40: the bins' close and the claim count down on the rehearsal's show clock
    ctl = Rehearsal(tmp_path / "rehearsal.db",
                    ("--promotion", "wildcard", "--at", "2024-01-18 17:55", "--speed",
                     str(SPEED)))
    ctl.issue_keys()
    await ctl.start()
    link = Link(ctl.url, "screen-1", ctl.keys["display"],
                timings=LinkTimings(ping_every_s=0.3))  # corrections arrive while we sample
    replica, clock = Replica(), ShowClock()
    offsets = 0

    def drain() -> None:
        nonlocal offsets
        while not link.inbox.empty():
            message = link.inbox.get_nowait()
            if isinstance(message, ViewChanged):
                replica.apply(message.name, message.revision, message.doc)
            elif isinstance(message, ClockOffset):
                clock.fix = message.fix
                offsets += 1

    link.start()
    try:
        deadline = time.monotonic() + 20
        while (DRAW not in replica.views or offsets < 5) and time.monotonic() < deadline:
            drain()
            await asyncio.sleep(0.02)
        assert DRAW in replica.views and offsets >= 5, "the screen never synced"
        closes = replica.views[DRAW]["bins_close_at"]
        started, first_offsets = time.monotonic(), offsets
        samples: list[tuple[float, int]] = []
        while time.monotonic() - started < 2.0:
            drain()
            samples.append((time.monotonic(), closes - clock.now_ms()))
            await asyncio.sleep(0.02)
    finally:
        link.stop()
        ctl.stop()
    assert offsets - first_offsets >= 3  # the clock was corrected while it was read
    left = [value for _, value in samples]
    assert all(b <= a for a, b in itertools.pairwise(left))  # never counts up
    real_ms = (samples[-1][0] - samples[0][0]) * 1000
    assert 3.0 < (left[0] - left[-1]) / real_ms < 5.0  # ~8 s of countdown in ~2 s
    steps = [(a[1] - b[1]) / max(1.0, (b[0] - a[0]) * 1000)
             for a, b in itertools.pairwise(samples)]
    assert max(steps) < 2 * SPEED + 4  # no jump: each step near the rate (generous for load)

"""The show clock: the controller's time as this screen best knows it.

Countdowns arrive as absolute deadlines (UTC epoch ms); every frame draws from
`deadline - clock.now_ms()`, so all screens show the same second.

The controller's clock may run faster than real time (a rehearsal at `--speed N`, whose `clock`
answer carries `rate`), so the estimate is a line, not an offset: at local time `local_ms` the
controller read `server_ms`, and it moves `rate` ms per local ms. Between samples the screen
follows that line, so a countdown at speed 4 counts four seconds a second and does not jump
when the next sample arrives.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


def local_ms() -> float:
    return time.time_ns() / 1_000_000


@dataclass(frozen=True)
class ClockFix:
    """The controller's clock read `server_ms` at local time `local_ms` and runs `rate` times
    as fast as the local one. The default is the local clock itself."""

    local_ms: float = 0.0
    server_ms: float = 0.0
    rate: float = 1.0

    def at(self, local: float) -> float:
        """The controller's time at local time `local`."""
        return self.server_ms + (local - self.local_ms) * self.rate

    @property
    def offset_ms(self) -> float:
        """Controller minus local time at the sample (the whole story at rate 1)."""
        return self.server_ms - self.local_ms


@dataclass(frozen=True)
class ClockSample:
    fix: ClockFix
    round_trip_ms: float


class ClockEstimator:
    """NTP-style: of the last few ping/pong samples at the controller's current rate, trust the
    one with the shortest trip. Samples of another rate (a rehearsal started again at another
    speed) are dropped; `reset()` forgets all (a new connection may be another clock)."""

    def __init__(self, keep: int = 8) -> None:
        self._samples: deque[ClockSample] = deque(maxlen=keep)

    def reset(self) -> None:
        self._samples.clear()

    def add(self, sent_ms: float, server_ms: float, received_ms: float,
            rate: float = 1.0) -> ClockFix:
        if self._samples and self._samples[-1].fix.rate != rate:
            self._samples.clear()
        middle = (sent_ms + received_ms) / 2
        self._samples.append(ClockSample(ClockFix(middle, server_ms, rate),
                                         received_ms - sent_ms))
        return self.fix

    @property
    def fix(self) -> ClockFix:
        if not self._samples:
            return ClockFix()
        return min(self._samples, key=lambda s: s.round_trip_ms).fix


STEP_BACK_MS = 2000  # real ms: a correction back by more is a clock set again: follow it


class ShowClock:
    """Local time carried onto the controller's clock by the latest fix. It never steps back
    by a correction's few milliseconds (a countdown must not count up): it holds still until
    the estimate passes it; a step back of more than `STEP_BACK_MS` real ms (a rehearsal
    started again at an earlier moment) is followed at once."""

    def __init__(self, fix: ClockFix | None = None,
                 source: Callable[[], float] = local_ms) -> None:
        self.fix = fix or ClockFix()
        self.source = source
        self._last: int | None = None

    @property
    def rate(self) -> float:
        return self.fix.rate

    def now_ms(self) -> int:
        estimate = int(self.fix.at(self.source()))
        last = self._last
        if last is not None and 0 < last - estimate <= STEP_BACK_MS * self.fix.rate:
            return last
        self._last = estimate
        return estimate

    def correction_ms(self, fix: ClockFix) -> float:
        """How far `fix` would move the clock now."""
        local = self.source()
        return fix.at(local) - self.fix.at(local)

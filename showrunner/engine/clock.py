"""The show clock: the controller's time as this screen best knows it.

Countdowns arrive as absolute deadlines (UTC epoch ms); every frame draws from
`deadline - clock.now_ms()`, so all screens show the same second.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


def local_ms() -> float:
    return time.time_ns() / 1_000_000


@dataclass(frozen=True)
class ClockSample:
    offset_ms: float
    round_trip_ms: float


class OffsetEstimator:
    """NTP-style: of the last few ping/pong samples, trust the one with the shortest trip."""

    def __init__(self, keep: int = 8) -> None:
        self._samples: deque[ClockSample] = deque(maxlen=keep)

    def add(self, sent_ms: float, server_ms: float, received_ms: float) -> float:
        round_trip = received_ms - sent_ms
        self._samples.append(ClockSample(server_ms - (sent_ms + received_ms) / 2, round_trip))
        return self.offset_ms

    @property
    def offset_ms(self) -> float:
        if not self._samples:
            return 0.0
        return min(self._samples, key=lambda s: s.round_trip_ms).offset_ms


class ShowClock:
    """Local time plus the estimated offset to the controller."""

    def __init__(self, offset_ms: float = 0.0, source: Callable[[], float] = local_ms) -> None:
        self.offset_ms = offset_ms
        self.source = source

    def now_ms(self) -> int:
        return int(self.source() + self.offset_ms)

"""An asyncio loop on virtual time, for tests of code that sleeps and times out.

Its clock stands still while any callback is ready and jumps to the next timer once every task
waits, so sleeps and timeouts end in the order their deadlines fall, whatever the machine's
load, and a test reads `loop.time()` as exact virtual seconds: no test waits on the wall
clock. Real I/O is still served (polled without waiting); a loop with no timer at all waits for
I/O as any loop does.
"""

from __future__ import annotations

import asyncio
import selectors
from typing import Any


class _JumpingSelector(selectors.DefaultSelector):  # type: ignore[misc, valid-type]
    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self._clock = clock

    def select(self, timeout: float | None = None) -> list[Any]:
        if timeout is None:  # no timer: only I/O can wake the loop
            return super().select(None)
        events = super().select(0)
        if not events:  # idle until the next timer: time jumps there
            self._clock[0] += timeout
        return events


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """`asyncio.Runner(loop_factory=VirtualTimeLoop)`; its time starts at 0."""

    def __init__(self) -> None:
        self._now = [0.0]
        super().__init__(_JumpingSelector(self._now))

    def time(self) -> float:
        return self._now[0]

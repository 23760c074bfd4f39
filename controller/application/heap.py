"""The controller's heap: the show replayed at start-up kept out of the cyclic collector's walk.

Python's cyclic garbage collector walks every tracked object on each full collection, and runs
one whenever the long-lived objects have grown by a quarter. The state replayed from the log
lives all night and makes most of them: after a 100 000-entry tournament each full collection
took about 200 ms (bench/leaderboard.py, `full_gc_ms_unfrozen`), during which no ack, view or
countdown left the controller. Frozen once after the replay, it is not walked again; what the
night adds is. Objects of the frozen state freed later by reference counting still go at once;
only a reference cycle among them would stay until the process ends.

It is frozen without a collection first: a collection then would walk the whole state once more
(a second at a million entries, restored from a snapshot with the collector off), to find the
few cycles a replay leaves, which freed by reference counting it hardly makes.

A burst of screens connecting (a floor coming back after a restart or a network cut) makes the
same kind of long-lived state: a thousand engine.io and socket.io sessions, their tasks and our
records of them, enough for full collections of 25-110 ms while they come in
(bench/fanout.py, `full_gc_max_ms` in its `connect` phase). `Bursts` freezes it the same way:
at the first connection after a quiet spell (what the show made since the last freeze), every
`BURST_STEP` connections, and once connections have been quiet for `QUIET_S`, so a full
collection walks at most one step of it. A session closed later is freed by reference counting
like the rest; what a reference cycle of it holds stays until the process ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Iterator


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """The cyclic collector off meanwhile (as it was before, after): a replay or a snapshot's
    load makes millions of objects and no cyclic garbage to speak of, and each collection on
    the way would walk all that lives so far.

    What it made is then handed to the oldest generation as it is: left in the youngest, the
    first allocation after the collector is on again would walk all of it (three seconds after
    a million-entry snapshot's load, on the start's critical path). A freeze and a thaw move
    it there without a walk, so only when nothing else is frozen (a replay in a running
    controller, audit verify's, must not thaw the controller's frozen state)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def keep_replayed_state() -> None:
    """Call once the log is replayed: freeze what lives."""
    gc.freeze()


BURST_STEP = 100  # connections between freezes while a burst lasts
BURST_MIN = 20  # fewer new connections than this, once quiet, are left to the collector
QUIET_S = 1.0  # no new connection for this long: the burst is over


def freeze_young() -> None:
    """Collect the young generations (a few thousand objects at most) and freeze the rest."""
    gc.collect(1)
    gc.freeze()


class Bursts:
    """Counts new connections and freezes what a burst of them leaves (see the module)."""

    def __init__(self) -> None:
        self.unfrozen = 0  # connections since the last freeze
        self.last = 0.0  # time.monotonic() of the latest
        self.settling: asyncio.TimerHandle | None = None

    def connected(self) -> None:
        """A connection was admitted: call from the running loop."""
        now = time.monotonic()
        first = now - self.last >= QUIET_S  # of a burst, perhaps: what the show made since
        self.unfrozen += 1  # the last freeze (enrolments, say) is frozen before it grows
        self.last = now
        loop = asyncio.get_running_loop()
        if first or self.unfrozen >= BURST_STEP:
            self.unfrozen = 0
            loop.call_soon(freeze_young)  # a callback of its own, not inside the connect
        elif self.settling is None:
            self.settling = loop.call_later(QUIET_S, self.settle)

    def settle(self) -> None:
        """Freeze once the connections have been quiet for `QUIET_S`, if enough came."""
        quiet_for = time.monotonic() - self.last
        if quiet_for < QUIET_S:
            self.settling = asyncio.get_running_loop().call_later(QUIET_S - quiet_for,
                                                                  self.settle)
            return
        self.settling = None
        if self.unfrozen >= BURST_MIN:
            self.unfrozen = 0
            freeze_young()

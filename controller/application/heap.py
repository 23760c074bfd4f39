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
"""

from __future__ import annotations

import gc


def keep_replayed_state() -> None:
    """Call once the log is replayed: freeze what lives."""
    gc.freeze()

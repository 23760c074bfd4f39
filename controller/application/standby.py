"""A standby on the controller's PC: the show's state kept hot from the log while another
process serves it, so that a takeover costs a fraction of a second instead of a start's load
of a season's snapshot (seconds at millions of events, with every screen offline meanwhile).

`serve --standby` makes one before it waits for the log's writer lock (controller/store/lock.py):
while the serving controller holds the lock, the standby folds what it appends; the kernel frees
the lock the moment that process ends, however it ends, and the standby then serves the same
state on the same port. A process frozen (not ended) keeps the lock: on one PC that is safe,
never two writers; across PCs the PostgreSQL lease does this job (controller/store/lease.py).
"""

from __future__ import annotations

from controller.application.heap import keep_replayed_state
from controller.application.service import wall_clock_ms
from controller.application.startup import Verdict, replayed
from controller.store.target import LogAt


class Standby:
    """The warm service: replayed at start, then following the log until it takes over."""

    def __init__(self, db: LogAt, verdict: Verdict) -> None:
        """Replayed while `verdict`'s check runs (controller/application/startup.py)."""
        self.service = replayed(db, wall_clock_ms, verdict)
        #: the check followed the log's chain up to this event: a takeover checks the rest
        self.checked_to = verdict()
        keep_replayed_state()

    @property
    def seq(self) -> int:
        """The last event folded."""
        return self.service.log.last_seq

    def follow(self) -> None:
        """Fold what the serving controller appended since the last call."""
        self.service.catch_up()

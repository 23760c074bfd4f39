"""A standby of a PostgreSQL log: it serves screens and pages from the state it keeps hot, and
takes the lead the moment the lease is free.

While another controller leads, this one folds what the leader appends (woken by each
append's NOTIFY: controller/store/wakeup.py) and sends its own clients the views that changed:
a screen or page connected here sees the show as the leader's do, and keeps its connection
when this controller takes over. A command sent here is answered `not_leader` with the
leader's address before it is decided, and its appends are fenced by a lease it does not hold:
nothing is written (controller/application/service.py). Every `RENEW_S` it
tries the lease; once it holds it, it folds the last of the old leader's events, checks their
links and leads (`take_over`) without a restart.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Callable

from controller.application.background import DONE, forever
from controller.application.faults import FaultLog
from controller.realtime.hub import Hub
from controller.store.lease import RENEW_S, Lease
from controller.store.wakeup import Appended

log = logging.getLogger(__name__)


def follow(hub: Hub) -> None:
    """Fold what the leader appended and send this process's clients what it changed (and cut
    the sessions it revoked)."""
    hub.publish(hub.catch_up())


async def stand_by(hub: Hub, lease: Lease, appended: Appended,
                   take_over: Callable[[], None]) -> None:
    """Follow the log until the lease is this controller's, then lead: pull when an append
    is announced, and at every try of the lease (`RENEW_S`) whatever was announced. A try of
    the lease that fails (the database away) is logged and made again within `RENEW_S`."""
    standing = _Standing(hub, lease, appended, take_over)
    await forever("Standing by (the lease)", standing.turn, log, retry_s=RENEW_S / 4,
                  retry_max_s=RENEW_S)


class _Standing:
    """A standby's turns: follow the leader, and every `RENEW_S` try the lease."""

    def __init__(self, hub: Hub, lease: Lease, appended: Appended,
                 take_over: Callable[[], None]) -> None:
        self.hub, self.lease, self.appended, self.take_over = hub, lease, appended, take_over
        self.checked = hub.service.log.last_seq  # the start checked the chain to here
        self.following = FaultLog(log, "Following the leader's log")
        self.said = ""
        self.tried = 0.0

    async def turn(self) -> object:
        try:
            follow(self.hub)
        except Exception as exc:  # the database away a moment: the lease is tried all the same
            self.following.failed(exc)
        else:
            self.following.succeeded()
        if time.monotonic() - self.tried >= RENEW_S:
            self.tried = time.monotonic()
            epoch = await asyncio.to_thread(self.lease.try_acquire)
            if epoch is not None:
                await self.appended.close()  # a leader follows nobody
                _lead(self.hub, self.lease, self.checked, self.take_over)
                return DONE
            holder = await asyncio.to_thread(self.lease.leader_address)
            if holder and holder != self.said:
                self.said = holder
                print(f"standby: the controller at {holder} serves the show; taking over "
                      "when it ends", flush=True)
        await self.appended.wait(max(0.0, self.tried + RENEW_S - time.monotonic()))
        return None


def _lead(hub: Hub, lease: Lease, checked: int, take_over: Callable[[], None]) -> None:
    """Fold what the old leader committed before the epoch moved on, check the links of all
    it appended since the start checked the chain (to `checked`), lead.
    A chain that does not hold, or a config the files contradict, stops this controller as
    a start would: it must not lead a log it cannot vouch for."""
    try:
        follow(hub)
        broken = hub.service.log.first_broken_link(checked)
        if broken is not None:
            raise RuntimeError(f"the log's event {broken[0]} does not follow: {broken[1]}")
        take_over()
    except Exception as exc:
        log.error("this standby could not take the lead: %s", exc)
        print(f"standby: could not take the lead: {exc}", flush=True)
        lease.step_down()
        os.kill(os.getpid(), signal.SIGTERM)
        return
    print(f"leading the show's log (lease epoch {lease.epoch})", flush=True)

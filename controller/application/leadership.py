"""A leader of a PostgreSQL log keeps its lease, and stops serving the moment it is lost.

The lease (controller/store/lease.py) is renewed every `RENEW_S`. It is lost when another
controller took over (this one was paused, or cut off from the database, past its lease) or
when this PC's clock says it ran out without a renewal (the database cannot be reached). Then
this process stops as at a SIGTERM: its appends were refused by the fence already, and its
screens and pages reconnect to whoever leads now (they know the other addresses).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal

import psycopg

from controller.application.background import DONE, forever
from controller.application.faults import FaultLog
from controller.store.lease import RENEW_S, Lease

logger = logging.getLogger(__name__)


async def keep_leading(lease: Lease) -> None:
    """Renew the lease every `RENEW_S` until it is lost, then stop this process."""
    renewing = FaultLog(logger, "Renewing the leader lease")

    async def turn() -> object:
        try:
            renewed = await asyncio.to_thread(lease.renew)
        except psycopg.Error as exc:  # the database cannot be reached: lead on while it lasts
            renewing.failed(exc)
            renewed = lease.holds()
        else:
            renewing.succeeded()
        if not renewed or not lease.holds():
            print("stepped down: this controller no longer leads the show's log; another "
                  "controller does (or none can reach the database)", flush=True)
            os.kill(os.getpid(), signal.SIGTERM)
            return DONE
        await asyncio.sleep(RENEW_S)
        return None

    await asyncio.sleep(RENEW_S)
    await forever("The leader lease", turn, logger, retry_s=RENEW_S, retry_max_s=RENEW_S)

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

from controller.store.lease import RENEW_S, Lease

logger = logging.getLogger(__name__)


async def keep_leading(lease: Lease) -> None:
    while True:
        await asyncio.sleep(RENEW_S)
        try:
            renewed = await asyncio.to_thread(lease.renew)
        except psycopg.Error as exc:  # the database cannot be reached: lead on while it lasts
            logger.warning("the leader lease could not be renewed: %s", exc)
            renewed = lease.holds()
        if not renewed or not lease.holds():
            print("stepped down: this controller no longer leads the show's log; another "
                  "controller does (or none can reach the database)", flush=True)
            os.kill(os.getpid(), signal.SIGTERM)
            return

"""The long-lived tasks of a controller process, run one way (issue 47).

Beside serving its clients a controller runs loops for as long as it runs: the clock, the
fan-out queue, the log's watch (keys revoked at the shell, signed checkpoints, snapshots),
the live heat, a standby's following and its lease, a fan-out process's following, Redis
telemetry. Each is started by `start` and each turn of its loop is run by `forever`:

- a turn that fails is logged by a `FaultLog` (once with its traceback, then counted, and its
  recovery said once) and tried again after a pause that doubles while it keeps failing, up
  to `retry_max_s`: a full disk at 3 a.m. stops no loop for the rest of the night, and a
  failure that lasts neither spins nor floods the log;
- a task that ends when it should run on (its loop returned, or an error got past it) is said
  at once and loudly, in the log with its traceback and on the controller's output: a job
  that stopped is never found out only at shutdown.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import Any, Final

from controller.application.faults import FaultLog

#: the pause after a failed turn, doubled at each failure in a row up to `RETRY_MAX_S`
RETRY_S = 0.1
RETRY_MAX_S = 5.0


class _Done:
    def __repr__(self) -> str:
        return "DONE"


#: what a turn returns to end its loop, when the loop has an end (a standby that took the
#: lead, a leader that stepped down)
DONE: Final = _Done()

Turn = Callable[[], Awaitable[object]]


async def forever(what: str, turn: Turn, logger: logging.Logger, *, every_s: float = 0.0,
                  retry_s: float = RETRY_S, retry_max_s: float = RETRY_MAX_S) -> None:
    """Run `turn` again and again, `every_s` apart (a turn may wait itself, for a queue or a
    wake-up), until it returns `DONE`. `what` names the job in the log ("The clock (reveals,
    expiries)"). A turn that raises is logged by `FaultLog` and run again `retry_s` later,
    twice that after a second failure in a row, and so on up to `retry_max_s`; `retry_s`
    0: at once (one failed send must not hold back the next)."""
    faults = FaultLog(logger, what)
    pause = retry_s
    while True:
        try:
            result = await turn()
        except Exception as exc:
            faults.failed(exc)
            await asyncio.sleep(pause)
            pause = min(max(pause * 2, retry_s), retry_max_s)
            continue
        faults.succeeded()
        pause = retry_s
        if result is DONE:
            return
        if every_s:
            await asyncio.sleep(every_s)


def start(what: str, work: Coroutine[Any, Any, None], logger: logging.Logger, *,
          ends: bool = False) -> asyncio.Task[None]:
    """`work` as a task named `what`, watched: if it ends other than by being cancelled (at
    shutdown) it is said at once (`ended`), unless it `ends` by returning (a one-off job, a
    loop that ends with `DONE`)."""
    task = asyncio.create_task(work, name=what)
    task.add_done_callback(partial(ended, logger, ends))
    return task


def start_loop(what: str, turn: Turn, logger: logging.Logger, **pacing: float
               ) -> asyncio.Task[None]:
    """`forever(what, turn, logger, **pacing)` started as a task named `what`."""
    return start(what, forever(what, turn, logger, **pacing), logger)


def ended(logger: logging.Logger, may_end: bool, task: asyncio.Task[Any]) -> None:
    """Say that `task` stopped, if it should not have: an error with its traceback in the log,
    and a line on the controller's output (what a technician watching it sees)."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is None and may_end:
        return
    why = f"{type(exc).__name__}: {exc}" if exc is not None else "it returned"
    message = (f"{task.get_name()} stopped ({why}) and does not run again until the "
               "controller is restarted")
    logger.critical(message, exc_info=exc)
    print(f"ERROR: {message}", flush=True)

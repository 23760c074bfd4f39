"""The service a start serves: its state replayed from the log while the log is checked.

A start checks the log (the chain from the snapshot it loads on, the keys and people tables)
and replays it. They need not wait for each other: the check runs in a process of its own
(`controller/cli/start_check.py`), and the state is replayed meanwhile on a connection that
cannot write, so a log the check then refuses (a broken link, a corrupt page) is left exactly
as it was. Only once the check has passed is the log opened for writing.
"""

from __future__ import annotations

from collections.abc import Callable

from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.store.log import StoredLog, StoreError
from controller.store.target import LogAt, open_log, open_read_only

#: waits for the check of the log to end: the event it followed the chain to if it passed;
#: raises `StoreError` if not (again at each call)
Verdict = Callable[[], int]


def replayed(db: LogAt, clock: Callable[[], int], verdict: Verdict) -> Service:
    """The service on the log at `db`, its state replayed while `verdict`'s check runs, on a
    read-only connection; the log opened for writing once the check has passed. A log not
    yet in this code's format, or not readable so, waits for the check first (the check's
    open upgrades it)."""
    try:
        reading = open_read_only(db)
    except StoreError:
        verdict()
        return _replayed_on(open_log(db, checked=True), clock)
    try:
        service = Service(reading, Show(build_features()), clock)
        try:
            service.replay()
        except Exception:
            verdict()  # a refused log is reported in the check's words
            raise
        verdict()
    finally:
        reading.close()
    return Service(open_log(db, checked=True), service.show, clock)


def _replayed_on(log: StoredLog, clock: Callable[[], int]) -> Service:
    try:
        service = Service(log, Show(build_features()), clock)
        service.replay()
    except BaseException:
        log.close()
        raise
    return service

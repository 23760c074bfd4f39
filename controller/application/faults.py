"""Log a failure that keeps repeating without flooding the log.

A loop that retries every 50 ms would write the same error twenty times a second. The first
failure is logged with its traceback; the same failure again is only counted (the count is
logged at 10, 100, 1000, ... repeats and when the run ends), and recovery is logged once.
"""

from __future__ import annotations

import logging


class FaultLog:
    def __init__(self, logger: logging.Logger, what: str) -> None:
        self._logger = logger
        self._what = what
        self._failure: tuple[str, str] | None = None
        self._repeats = 0

    def failed(self, exc: Exception) -> None:
        failure = (type(exc).__name__, str(exc))
        if failure == self._failure:
            self._repeats += 1
            if _power_of_ten(self._repeats):
                self._logger.error("%s: the same error again (%d times so far)", self._what,
                                   self._repeats)
            return
        self._end_run()
        self._failure = failure
        self._logger.error("%s failed, retrying: %s: %s", self._what, *failure, exc_info=exc)

    def succeeded(self) -> None:
        if self._failure is not None:
            self._end_run()
            self._failure = None
            self._logger.warning("%s works again", self._what)

    def _end_run(self) -> None:
        if self._repeats:
            self._logger.error("%s: that error repeated %d times in all", self._what,
                               self._repeats)
        self._repeats = 0


def _power_of_ten(n: int) -> bool:
    while n % 10 == 0:
        n //= 10
    return n == 1

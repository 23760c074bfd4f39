"""Failed key attempts: counted per remote address and door, logged, and limited.

A door is a Socket.IO namespace (`/control`, `/display`, `/cue`) or the HTTP key header
(`http`). After `limit` failures from one address at one door within `window_s` seconds, that
address is refused at that door **before its key is checked**, so a guesser learns nothing, not
even from a correct key, until the oldest failure is `window_s` old. Each failure is one log
line (address, door, reason), never the key; the start of a block is one more line.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("controller.keys")

TOO_MANY = "Too many wrong keys from this address; wait a minute and try again."
NOT_PLAIN = "A key is plain letters and digits; this one is not."
MAX_TRACKED = 4096  # (address, door) pairs kept before a sweep of the expired ones


@dataclass(frozen=True)
class KeyLimit:
    """At most `failures` wrong keys per address and door in any `window_s` seconds."""

    failures: int = 5
    window_s: float = 60.0


@dataclass
class KeyAttempts:
    limit: KeyLimit = KeyLimit()
    clock: Callable[[], float] = time.monotonic
    _failures: dict[tuple[str, str], deque[float]] = field(default_factory=dict)

    def _recent(self, address: str, door: str) -> deque[float]:
        times = self._failures.get((address, door), deque())
        cutoff = self.clock() - self.limit.window_s
        while times and times[0] <= cutoff:
            times.popleft()
        if not times:
            self._failures.pop((address, door), None)
        return times

    def blocked(self, address: str, door: str) -> bool:
        """Is this address refused at this door without its key being looked at?"""
        return len(self._recent(address, door)) >= self.limit.failures

    def failed(self, address: str, door: str, reason: str) -> None:
        """Count and log one wrong key; `reason` is the refusal's sentence (never the key)."""
        if len(self._failures) >= MAX_TRACKED:  # many addresses: forget those past the window
            for old_address, old_door in list(self._failures):
                self._recent(old_address, old_door)
        times = self._recent(address, door)
        times.append(self.clock())
        self._failures[(address, door)] = times
        log.warning("wrong key from %s on %s (%d in %g s): %s", address, door, len(times),
                    self.limit.window_s, reason)
        if len(times) == self.limit.failures:
            log.warning("refusing %s on %s for up to %g s: %d wrong keys", address, door,
                        self.limit.window_s, len(times))


def plain_key(value: Any) -> bool:
    """Keys are hex; anything else (a lone surrogate, undecodable bytes, control characters)
    is refused before it is hashed."""
    return isinstance(value, str) and len(value) <= 200 and value.isascii() \
        and value.isprintable()


def remote_address(environ: dict[str, Any]) -> str:
    """The peer's address of a Socket.IO connection (engine.io's REMOTE_ADDR is a constant
    under aiohttp, so it is read from the request)."""
    request = environ.get("aiohttp.request")
    return (getattr(request, "remote", None) or "unknown") if request is not None else "unknown"

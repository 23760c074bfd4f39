"""Wrong key attempts: counted, logged and slowed, never in the way of a right key.

Every door (a Socket.IO namespace, `/control`, `/display`, `/cue`, `/device`, or the HTTP key
header, `http`) checks the key first: a right key is admitted whatever the failures of its
address, so a revoked screen retrying behind a venue's NAT or TLS proxy never keeps the good
ones out. Wrong keys are counted per client address (across all doors: a guesser gains nothing
by changing doors) and per presented key's SHA-256 (a revoked key retried from many addresses).
Past `failures` wrong keys in `window_s` seconds on either count, each further refusal is
answered after a pause: `first_wait_s`, doubling with each one, at most `max_wait_s` (0.5, 1,
2, 4, 4... s by default). The pause is an `asyncio.sleep` of that connection alone; at most
`waiting` refusals per address (and `MAX_WAITING` in all) pause at once, more are answered at
once. Each wrong key is one log line (address, door, reason; never the key); the start of a
slowdown is one more.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from controller.domain.keys import key_hash

log = logging.getLogger("controller.keys")

NOT_PLAIN = "A key is plain letters and digits; this one is not."
SLOWED = " Wrong keys are being answered slowly: many were tried in the last minute."
MAX_TRACKED = 4096  # addresses (and key hashes) counted; the least recently failed go first
MAX_WAITING = 1024  # slowed refusals pausing at once, over all addresses
MAX_STEPS = 32  # failures kept per address or key past the allowance (the wait is capped)


@dataclass(frozen=True)
class KeyLimit:
    """`failures` free wrong keys per address, and per key, in any `window_s` seconds; then
    waits from `first_wait_s`, doubling, capped at `max_wait_s`; `waiting` per address."""

    failures: int = 5
    window_s: float = 60.0
    first_wait_s: float = 0.5
    max_wait_s: float = 4.0
    waiting: int = 8

    def wait_s(self, count: int) -> float:
        """The pause before the refusal of the `count`th wrong key in the window."""
        past = count - self.failures
        if past <= 0:
            return 0.0
        return min(self.max_wait_s, self.first_wait_s * 2 ** min(past - 1, MAX_STEPS))


Counts = dict[str, deque[float]]


@dataclass
class KeyAttempts:
    limit: KeyLimit = KeyLimit()
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    _by_address: Counts = field(default_factory=dict)
    _by_key: Counts = field(default_factory=dict)
    _waiting: dict[str, int] = field(default_factory=dict)
    _paused: int = 0  # the sum of `_waiting`

    def _count(self, counts: Counts, name: str) -> int:
        """One more failure for `name`; how many it has in the window. Entries are kept in
        the order of their last failure, so the stale and (when full) the oldest go first."""
        now = self.clock()
        cutoff = now - self.limit.window_s
        times = counts.pop(name, None) or deque(maxlen=self.limit.failures + MAX_STEPS)
        while times and times[0] <= cutoff:
            times.popleft()
        while counts:
            oldest = next(iter(counts))
            if len(counts) < MAX_TRACKED and counts[oldest][-1] > cutoff:
                break
            del counts[oldest]
        times.append(now)
        counts[name] = times
        return len(times)

    def failed(self, address: str, door: str, reason: str, key: Any = None) -> float:
        """Count and log one wrong key (`key`: what was presented, if plain text; `reason`:
        the refusal's sentence); the seconds its refusal should wait."""
        by_address = self._count(self._by_address, address)
        by_key = self._count(self._by_key, key_hash(key)) if isinstance(key, str) and key \
            else 0
        window = self.limit.window_s
        log.warning("wrong key from %s on %s (%d in %g s): %s", address, door, by_address,
                    window, reason)
        if by_address == self.limit.failures + 1:
            log.warning("slowing wrong keys from %s: %d in %g s", address, by_address, window)
        if by_key == self.limit.failures + 1:
            log.warning("slowing a key tried %d times in %g s (now from %s on %s)", by_key,
                        window, address, door)
        return self.limit.wait_s(max(by_address, by_key))

    async def refuse(self, address: str, door: str, reason: str, key: Any = None) -> str:
        """Count one wrong key, pause its refusal if it is past the allowance (unless enough
        refusals from `address` already pause), and return the sentence to refuse it with."""
        wait = self.failed(address, door, reason, key)
        if wait <= 0:
            return reason
        if self._waiting.get(address, 0) >= self.limit.waiting or self._paused >= MAX_WAITING:
            return reason + SLOWED
        self._waiting[address] = self._waiting.get(address, 0) + 1
        self._paused += 1
        try:
            await self.sleep(wait)
        finally:
            self._paused -= 1
            self._waiting[address] -= 1
            if not self._waiting[address]:
                del self._waiting[address]
        return reason + SLOWED


def plain_key(value: Any) -> bool:
    """Keys are hex; anything else (a lone surrogate, undecodable bytes, control characters)
    is refused before it is hashed."""
    return isinstance(value, str) and len(value) <= 200 and value.isascii() \
        and value.isprintable()


def remote_address(environ: dict[str, Any]) -> str:
    """The client's address of a Socket.IO connection: its upgrade request's `remote`, which
    the HTTP layer set from a trusted proxy's header (controller/access/addresses.py);
    engine.io's REMOTE_ADDR is a constant under aiohttp."""
    request = environ.get("aiohttp.request")
    return (getattr(request, "remote", None) or "unknown") if request is not None else "unknown"

"""How often a kiosk or an app key may ask: a token bucket per key, refused in words.

A member swipes once and taps once; a card reader that repeats, a stuck key or a script sends
far more. Each key holds `burst` tokens, refilled at `per_s` a second; a call takes one or is
refused (`SLOW_DOWN`, logged once per storm). The clock is monotonic, so a wall-clock step
changes nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.domain.errors import Rejected

log = logging.getLogger("controller.rates")

MAX_TRACKED = 4096  # keys kept before the full buckets are forgotten


@dataclass(frozen=True)
class RateLimit:
    """At most `burst` calls at once, then `per_s` a second."""

    per_s: float
    burst: int

    def refusal(self, who: str) -> Rejected:
        return Rejected("rate_limited", f"Too many requests from {who}: at most {self.burst} "
                        f"at once and {self.per_s:g} a second. Wait a moment and try again.")


@dataclass
class _Bucket:
    tokens: float
    at: float
    refused: int = 0


@dataclass
class Rates:
    limit: RateLimit
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def take(self, key: str, who: str) -> None:
        """Spend one call of `key` (shown as `who` in the log and the refusal), or raise
        `rate_limited`."""
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= MAX_TRACKED:
                self._forget_full(now)
            bucket = self._buckets[key] = _Bucket(float(self.limit.burst), now)
        bucket.tokens = min(float(self.limit.burst),
                            bucket.tokens + (now - bucket.at) * self.limit.per_s)
        bucket.at = now
        if bucket.tokens < 1:
            if bucket.refused == 0:
                log.warning("refusing %s: more than %d calls at once or %g a second", who,
                            self.limit.burst, self.limit.per_s)
            bucket.refused += 1
            raise self.limit.refusal(who)
        if bucket.refused:
            log.warning("%s is below its rate again after %d refused calls", who,
                        bucket.refused)
            bucket.refused = 0
        bucket.tokens -= 1

    def _forget_full(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.at) * self.limit.per_s >= self.limit.burst:
                del self._buckets[key]

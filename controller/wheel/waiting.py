"""The readings waiting for the controller's ack, kept while it is away.

A winning number (and a no spin) waits until its ack is in, however long the controller is
away: it is what the night's record is made of. A game's moments (ball in track, no more bets)
matter only while their game is under way, so once a later game is read they are stale and
are dropped first. Memory stays bounded: beyond LIMIT waiting readings (hours of spins), the
oldest goes. Every drop is logged with its line.

A reading travels with how long ago it was read (`age_ms`, and `ball_age_ms`: how long ago its
game's ball was first seen in the track), measured on the reader's monotonic clock at each
send, so the controller places it on its own clock without trusting the reader PC's.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

LIMIT = 5000  # ~1 KB each; a night of Super 9 and Spin-Off spins is a few hundred
MAX_AGE_MS = 7 * 24 * 3600 * 1000  # what the controller accepts as an age


def _ms(seconds: float) -> int:
    return min(MAX_AGE_MS, max(0, round(seconds * 1000)))


@dataclass(frozen=True)
class Outgoing:
    """A `wheel.reading` command waiting for its ack. `read_at`/`ball_at`: monotonic seconds;
    `game`: "RUN:GAME" of a Cammegh reading; `moment`: a ball in track or no more bets, stale
    once another game is read; `sent`: the payloads sent so far (one per attempt)."""

    command_id: str
    payload: dict[str, Any]
    raw: str
    read_at: float = field(default_factory=time.monotonic)
    ball_at: float | None = None
    game: str | None = None
    moment: bool = False
    sent: list[dict[str, Any]] = field(default_factory=list, compare=False)

    def envelope(self, now: float) -> dict[str, Any]:
        """The command as sent now: the payload with the reading's ages at this moment."""
        payload = {**self.payload, "age_ms": _ms(now - self.read_at)}
        if self.ball_at is not None:
            payload["ball_age_ms"] = _ms(now - self.ball_at)
        self.sent.append(payload)
        return {"type": "wheel.reading", "payload": payload, "command_id": self.command_id}

    @property
    def what(self) -> str:
        kind = str(self.payload.get("kind", "reading")).replace("_", " ")
        game = self.payload.get("game")
        return f"{kind} of game {game}" if game is not None else kind


class Waiting:
    """The queue, in reading order; the first may be in flight (never dropped then)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.items: deque[Outgoing] = deque()
        self.in_flight: Outgoing | None = None

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Outgoing]:
        return iter(self.items)

    def first(self) -> Outgoing | None:
        return self.items[0] if self.items else None

    def add(self, outgoing: Outgoing) -> None:
        if outgoing.game is not None:
            self._drop_stale(outgoing.game)
        self.items.append(outgoing)
        while len(self.items) > self.limit:
            oldest = self.items[1] if self.items[0] is self.in_flight else self.items[0]
            self.items.remove(oldest)
            log.error("controller away: more than %d readings wait; dropped the oldest, the %s "
                      "(%s, line %r)", self.limit, oldest.what, oldest.command_id, oldest.raw)

    def done(self, outgoing: Outgoing) -> None:
        """Its ack is in: it leaves the queue."""
        if self.items and self.items[0] is outgoing:
            self.items.popleft()

    def _drop_stale(self, game: str) -> None:
        stale = [o for o in self.items
                 if o.moment and o.game != game and o is not self.in_flight]
        for outgoing in stale:
            self.items.remove(outgoing)
            log.warning("dropped the waiting %s (%s): a later game was read meanwhile, so it "
                        "no longer says anything (line %r)", outgoing.what, outgoing.command_id,
                        outgoing.raw)

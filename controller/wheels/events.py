"""Events of the wheels: a reading held for the MC (super9 rule 18.3), how a hold ended, and
the ball back in the track that ends the wait. A reading applied as a spin is the promotion's
own spin event, carrying the reading (`Super9SpinEntered.reading`, `RouletteSpun.reading`)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class WheelReadingHeld(DomainEvent, type_name="WheelReadingHeld"):
    """After a no spin, the wheel read the previous winning number again before the ball was
    back in the track: the ball may have returned to it (super9 rule 18.3), so it waits for
    the MC's Apply or Discard. `promotion`: "super9" | "roulette"."""

    table: str
    promotion: str
    number: int
    game: int | None
    raw: str
    reader: str
    at_ms: int


@dataclass(frozen=True)
class WheelHoldResolved(DomainEvent, type_name="WheelHoldResolved"):
    """A held reading's end: "applied" or "discarded" (by the MC, with a reason) or
    "superseded" (the wheel read another number, which was applied; `by` is the reader)."""

    table: str
    outcome: str
    by: str
    reason: str = ""


@dataclass(frozen=True)
class WheelBallInTrack(DomainEvent, type_name="WheelBallInTrack"):
    """The ball is in the track again after a no spin: the next number is a new spin's."""

    table: str
    game: int | None
    raw: str
    at_ms: int

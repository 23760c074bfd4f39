"""Events of the wheels: a reading held for the MC (super9 rule 18.3), how a hold ended, the
ball back in the track that ends the wait, a no spin the wheel's own stream showed, and a
reading that came after its spin had a number. A reading applied as a spin is the promotion's
own spin event, carrying the reading (`Super9SpinEntered.reading`, `RouletteSpun.reading`)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class WheelReadingHeld(DomainEvent, type_name="WheelReadingHeld"):
    """A number the wheel read that may not be this spin's, waiting for the MC's Apply or
    Discard. `why`: "no_spin" (after a no spin, the previous winning number read again before
    a ball was seen in the track: the ball may have returned to it, super9 rule 18.3) or
    "ball_unseen" (the reader did not see this ball spun: it came in mid-game). `promotion`:
    "super9" | "roulette"; `at_ms`: when it was read, on the controller's clock."""

    table: str
    promotion: str
    number: int
    game: int | None
    raw: str
    reader: str
    at_ms: int
    why: str = "no_spin"  # older logs held only after a no spin
    run: str | None = None


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


@dataclass(frozen=True)
class WheelNoSpinRead(DomainEvent, type_name="WheelNoSpinRead"):
    """The wheel's own stream showed a no spin: game `game`'s ball was seen in the track and a
    new game began without its number (super9 rule 18.2), during `spin` of `promotion`. It
    arms the table as the MC's No spin does (rule 18.3: the previous number read again is
    held); the MC's No spin itself (the board's count, roulette rule 25's 30 s more) stays
    the MC's to call. `at_ms`: when the new game began, on the controller's clock."""

    table: str
    promotion: str
    spin: str
    game: int | None
    run: str | None
    raw: str
    reader: str
    at_ms: int


@dataclass(frozen=True)
class WheelReadingLate(DomainEvent, type_name="WheelReadingLate"):
    """A number the wheel read for `spin` of `promotion`, which already had its number
    `recorded` (`typed` by the MC while the reader was away, or read; None: a roulette spin
    played without a number): kept beside it, never applied as another spin. `agrees`: the
    wheel read the number recorded."""

    table: str
    promotion: str
    spin: str
    recorded: int | None
    typed: bool
    number: int
    agrees: bool
    game: int | None
    run: str | None
    raw: str
    reader: str
    at_ms: int

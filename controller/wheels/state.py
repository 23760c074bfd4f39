"""Each table's wheel as the readings and the spins left it (changed only by the folds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.wheels.events import WheelReadingHeld


@dataclass
class Table:
    """`armed`: a no spin was called and the ball is not yet back in the track, so a reading
    of `last_number` is held (super9 rule 18.3); `games`: the wheel's game numbers whose
    number was read (applied or held), each read once."""

    table: str
    last_number: int | None = None
    armed: bool = False
    held: WheelReadingHeld | None = None
    last_reading: dict[str, Any] | None = None
    games: set[int] = field(default_factory=set)

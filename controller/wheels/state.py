"""Each table's wheel as the readings and the spins left it (changed only by the folds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.wheels.events import WheelReadingHeld
from controller.wheels.timeline import Timeline

LATE_KEPT = 5  # the late readings the console lists for a game


@dataclass(frozen=True)
class LastRead:
    """The latest number the wheel gave at a table (applied, held or late), read at `at_ms`:
    a reader that comes in mid-game and sends that game again is told `already_read`, and a
    later game of the same run is never placed before it."""

    run: str | None
    game: int | None  # None: a plain line (docs/wheel-reader.md)
    number: int
    at_ms: int

    def before(self, run: str | None, game: int | None) -> bool:
        """Was this read before that reading of the same reader: an earlier game of its
        run, or an earlier plain line?"""
        if run != self.run:
            return False
        return game is None if self.game is None else game is not None and game > self.game


@dataclass
class Table:
    """`armed`: a no spin was called (`armed_by` "mc") or shown by the wheel ("wheel") at
    `armed_ms`, and no ball has been seen in the track since, so a reading of `last_number` is
    held (super9 rule 18.3). `late`: the readings of the current games that came after their
    spin had a number (docs/wheel.md, "Late readings")."""

    table: str
    last_number: int | None = None
    armed: bool = False
    armed_by: str | None = None
    armed_ms: int = 0
    held: WheelReadingHeld | None = None
    last_reading: dict[str, Any] | None = None
    last_read: LastRead | None = None
    spins: Timeline = field(default_factory=Timeline)
    late: list[dict[str, Any]] = field(default_factory=list)

    def arm(self, by: str, at_ms: int) -> None:
        self.armed, self.armed_by, self.armed_ms = True, by, at_ms

    def disarm(self) -> None:
        self.armed, self.armed_by = False, None

    def add_late(self, row: dict[str, Any]) -> None:
        self.late = [*self.late, row][-LATE_KEPT:]

"""Super 9's state: tickets sold and the latest session's game (changed only by the folds)."""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.promotions.super9.cues import Line
from controller.promotions.super9.events import Super9SessionClosed, Super9Won
from controller.promotions.super9.game import Game
from controller.promotions.super9.schedule import Session


@dataclass
class Ticket:
    ticket: str
    card: str | None
    price_cents: int
    session: str | None = None
    numbers: list[int] | None = None
    void: str | None = None  # the reason, once voided


@dataclass
class Running:
    """The latest session's game; `result` is set once the win is confirmed or the game is
    closed without a winner."""

    session: Session
    game: Game
    jackpot_cents: int
    buy_ins_cents: int
    consolation_cents: int
    no_spins: int = 0
    result: Super9Won | Super9SessionClosed | None = None
    cue: list[str] = field(default_factory=list)  # read aloud
    notes: list[str] = field(default_factory=list)  # for the operator

    def say(self, lines: list[Line]) -> None:
        """The cue after an event: the lines read aloud, and the operator's notes apart."""
        self.cue = [line.said for line in lines if line.said]
        self.notes = [line.note for line in lines if line.note]

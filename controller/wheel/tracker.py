"""From parsed lines to readings: each game's moments sent once, whatever repeats.

A Cammegh wheel repeats its status line every ~500 ms, so a reader that sent every line
would record a number dozens of times. The tracker sends a game's "ball in track" (state 3),
"no more bets" (state 4) and winning number (state 5) each once per game number. A reader
that starts mid-game sends what the game shows at that moment once; should that game have been
sent before the restart, the controller refuses it (`already_read`) and nothing changes.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

from controller.wheel.protocols import Status

Kind = Literal["ball_in_track", "no_more_bets", "number"]
KIND_OF_STATE: dict[int, Kind] = {3: "ball_in_track", 4: "no_more_bets", 5: "number"}
GAMES_KEPT = 64  # enough to ignore an old game's lines; bounded so a long night stays small


@dataclass(frozen=True)
class Reading:
    """One thing to tell the controller; `game` is None for the plain line protocol."""

    kind: Kind
    number: int | None
    game: int | None
    raw: str


class CammeghTracker:
    """Remembers which moments of the recent games were sent."""

    def __init__(self) -> None:
        self._sent: OrderedDict[int, set[Kind]] = OrderedDict()

    def feed(self, status: Status) -> Reading | None:
        """The reading `status` makes, or None when it is a repeat or says nothing new."""
        kind = KIND_OF_STATE.get(status.state)
        if kind is None:
            return None
        sent = self._sent.setdefault(status.game, set())
        self._sent.move_to_end(status.game)
        while len(self._sent) > GAMES_KEPT:
            self._sent.popitem(last=False)
        if kind in sent:
            return None
        sent.add(kind)
        return Reading(kind, status.number if kind == "number" else None, status.game,
                       status.raw)


def plain_reading(number: int, raw: str) -> Reading:
    """The plain line protocol has no game number: every line is a winning number."""
    return Reading("number", number, None, raw)

"""From parsed lines to readings: each game's moments sent once, whatever repeats.

A Cammegh wheel repeats its status line every ~500 ms, so a reader that sent every line would
record a number dozens of times. The tracker sends a game's "ball in track" (state 3), "no
more bets" (state 4) and winning number (state 5) each once per game of a **run**, and a
`no_spin` when a game whose ball it saw ends without a number (a new game starts instead:
super9 rule 18.2). A run is the stretch of the wheel's game counter the reader saw counting
up: one begins when the reader starts and whenever the counter goes back (a power cycle or a
table reset counts from 1 again, or a game whose ball was launched begins again under its
number), so game numbers name a game within their run only.

A number carries when the game's ball was first seen in the track (state 3 or 4, monotonic
time) so the controller can tell which spin it belongs to, and `ball_unseen` when the reader
did not see that ball spun: it came in mid-game (started, or its port reopened), or the wheel
showed the number straight after a game start, as when the dealer returns the ball to the
previous number after a no spin (super9 rule 18.3), or the line was read blind (it waited in
the port while the reader was stalled). Whatever the tracker sets aside (a run begun, a game's
lines disagreeing about its number, a moment read blind) it logs.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from controller.wheel.protocols import Status

log = logging.getLogger(__name__)

Kind = Literal["ball_in_track", "no_more_bets", "number", "no_spin"]
KIND_OF_STATE: dict[int, Kind] = {3: "ball_in_track", 4: "no_more_bets", 5: "number"}
GAMES_KEPT = 64  # a run's recent games; its counter only goes up, so older ones never return
BALL_STATES = (3, 4)


@dataclass(frozen=True)
class Reading:
    """One thing to tell the controller; `game` and `run` are None for the plain line
    protocol. `read_at` and `ball_at` are monotonic seconds (the link turns them into ages)."""

    kind: Kind
    number: int | None
    game: int | None
    raw: str
    run: str | None = None
    read_at: float = 0.0
    ball_at: float | None = None
    ball_unseen: bool = False


@dataclass
class _Game:
    """What one game of the run showed: whether its ball was launched (a state 3 or 4 line)
    and when the reader saw it so (None when it cannot tell: read blind), what was sent."""

    launched: bool = False
    ball_at: float | None = None
    sent: set[Kind] = field(default_factory=set)
    number: int | None = None
    other_numbers: set[int] = field(default_factory=set)  # disagreeing lines, logged once each


def new_run_id() -> str:
    """Six hex digits from `secrets`: unique enough that no two runs of a table share one."""
    return secrets.token_hex(3)


class CammeghTracker:
    """Remembers the current run's recent games and which of their moments were sent."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 run_id: Callable[[], str] = new_run_id) -> None:
        self.clock = clock
        self.run_id = run_id
        self.run = run_id()
        self.games: OrderedDict[int, _Game] = OrderedDict()
        self.last: int | None = None  # the highest game of the run
        self.watching: int | None = None  # a game whose ball was seen and number not yet
        log.info("run %s begins: the reader started", self.run)

    def gap(self) -> None:
        """The stream was interrupted (the port reopened): the game the reader was watching
        may have shown its number meanwhile, so its end is not taken for a no spin."""
        self.watching = None

    def feed(self, status: Status, blind: bool = False) -> list[Reading]:
        """The readings `status` makes: none when it repeats or says nothing new. `blind`: the
        line waited in a buffer while the reader was stalled, so when it showed is unknown:
        a ball seen so is not timed (its number is sent `ball_unseen`)."""
        now = self.clock()
        out: list[Reading] = []
        if self._spun_again(status):
            assert self.last is not None
            voided = self._no_spin(self.last, status, now)
            out += [voided] if voided is not None else []
            self._new_run(f"game {status.game} began again under its number after its ball "
                          "was in the track")
        elif self._went_back(status):
            self._new_run(f"the wheel's game counter went back from game {self.last} to game "
                          f"{status.game} (a power cycle or a table reset?)")
        if self.last is not None and status.game > self.last:
            ended = self._ended_without_number(status, now)
            out += [ended] if ended is not None else []
        if self.last is None or status.game > self.last:
            self.last = status.game
        game = self._game(status.game)
        if status.state in BALL_STATES and not game.launched:
            game.launched = True
            game.ball_at = None if blind else now
            self.watching = status.game
        kind = KIND_OF_STATE.get(status.state)
        if kind is None:
            return out
        if kind == "number":
            assert status.number is not None  # the parser refuses state 5 without one
            if self.watching == status.game:
                self.watching = None
            if "number" in game.sent:
                self._check_agrees(status, game)
                return out
            game.number = status.number
        elif kind in game.sent:
            return out
        elif blind:  # when the ball went in or bets closed is unknown: it says nothing now
            game.sent.add(kind)
            log.info("game %d's %s was read blind (it waited while the reader was stalled): "
                     "not sent (line %r)", status.game, kind.replace("_", " "), status.raw)
            return out
        game.sent.add(kind)
        out.append(Reading(kind, status.number if kind == "number" else None, status.game,
                           status.raw, self.run, now, game.ball_at,
                           kind == "number" and game.ball_at is None))
        return out

    def _spun_again(self, status: Status) -> bool:
        """The game in play went back to its start after its ball was launched, without a
        number: that ball was a no spin, and the game is played again under its number."""
        game = self.games.get(status.game)
        return (status.game == self.last and game is not None and game.launched
                and game.number is None and status.state in (1, 2))

    def _went_back(self, status: Status) -> bool:
        """The counter restarted: a lower game number, or the game whose number was shown
        going back to an earlier state (a wheel restarted at the same number)."""
        if self.last is None:
            return False
        if status.game < self.last:
            return True
        shown = self.games.get(status.game)
        return (status.game == self.last and shown is not None and shown.number is not None
                and status.state < 5)

    def _new_run(self, why: str) -> None:
        old, self.run = self.run, self.run_id()
        log.warning("%s: run %s ends, run %s begins; game numbers start afresh", why, old,
                    self.run)
        self.games.clear()
        self.last = self.watching = None

    def _ended_without_number(self, status: Status, now: float) -> Reading | None:
        """The game watched (its ball seen, no number) ended as a later game began: a no
        spin in the wheel's own stream (super9 rule 18.2)."""
        game_number, self.watching = self.watching, None
        if game_number is None:
            return None
        return self._no_spin(game_number, status, now)

    def _no_spin(self, game_number: int, status: Status, now: float) -> Reading | None:
        game = self.games.get(game_number)
        if game is None or "number" in game.sent or "no_spin" in game.sent:
            return None
        game.sent.add("no_spin")
        self.watching = None
        log.warning("game %d ended without a number (a no spin; line %r)", game_number,
                    status.raw)
        return Reading("no_spin", None, game_number, status.raw, self.run, now, game.ball_at)

    def _check_agrees(self, status: Status, game: _Game) -> None:
        """One game has one number: a later line of the game showing another is logged."""
        if status.number == game.number or status.number in game.other_numbers:
            return
        assert status.number is not None
        game.other_numbers.add(status.number)
        log.warning("game %d's winning-number lines disagree: %s was sent, this line shows %d "
                    "(not sent; check the wheel) (line %r)", status.game, game.number,
                    status.number, status.raw)

    def _game(self, number: int) -> _Game:
        game = self.games.setdefault(number, _Game())
        self.games.move_to_end(number)
        while len(self.games) > GAMES_KEPT:
            self.games.popitem(last=False)
        return game


def plain_reading(number: int, raw: str, read_at: float, blind: bool = False) -> Reading:
    """The plain line protocol has no game number: every line is a winning number (`blind`:
    it waited while the reader was stalled, so it is sent as not seen spun)."""
    return Reading("number", number, None, raw, None, read_at, None, blind)

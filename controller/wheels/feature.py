"""The wheels (docs/wheel.md): a wheel's reading becomes the spin of what is live at its table.

A reader's device key is named after its table (`AR14`), and it reports for that table only.
A number read at a table is the spin of the Super 9 game being played there (super9 rule 12:
the roulette wheel is the mechanism), else of the roulette heat whose spin is taking bets
there; with nothing live it is refused. Which spin a reading is for is decided on the
controller's clock (controller/wheels/timeline.py): a reading that waited in the reader's
queue while its spin's number was typed is late, recorded beside that number (agreeing or
not) and never applied as another spin. Super9 rule 18.3: after a no spin (the MC's, or one
the wheel's stream showed), a reading equal to the previous winning number before a ball is
seen in the track may be the ball returned to it, and a number whose ball the reader did not
see spun may be an old one: both are held for the MC (Apply or Discard), never applied by
themselves. The MC's keypad (`super9.spin`, `roulette.spin`) always stays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from controller.domain.commands import Command, Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature
from controller.promotions.roulette import Roulette
from controller.promotions.roulette.events import RouletteBetsClosed, RouletteSpun
from controller.promotions.super9 import Super9
from controller.wheels.events import (
    WheelBallInTrack,
    WheelHoldResolved,
    WheelNoSpinRead,
    WheelReadingHeld,
    WheelReadingLate,
)
from controller.wheels.folding import WheelFolds
from controller.wheels.payloads import Discard, Reading, TableRef
from controller.wheels.state import Table
from controller.wheels.timeline import SPINS_KEPT, Spin
from showrunner.contract.words import printable

KIND_WORDS = {"ball_in_track": "ball in track", "no_more_bets": "no more bets",
              "no_spin": "no spin"}
FRESH_MS = 2000  # a reading this young is spoken of as now


@dataclass(frozen=True)
class Seen:
    """A reading placed on the controller's clock: `read_ms` its line, `ball_ms` its game's
    ball first seen in the track (None when the reader did not say); `at_ms` places it, never
    before `after_ms`: the number of an earlier game of its run, or an earlier plain line (a
    burst of lines read at once arrives in order, while the time each spends on the way
    varies by a few ms)."""

    p: Reading
    read_ms: int
    ball_ms: int | None
    now_ms: int
    reading: dict[str, Any]
    after_ms: int = 0

    @property
    def at_ms(self) -> int:
        return max(self.after_ms, self.read_ms if self.ball_ms is None else self.ball_ms)

    @property
    def what(self) -> str:
        if self.p.number is not None:
            return f"the reading {self.p.number}"
        return f"the reading ({KIND_WORDS[self.p.kind]})"


class Wheels(WheelFolds, Feature):
    name = "wheels"

    def __init__(self, super9: Super9, roulette: Roulette) -> None:
        self.super9 = super9
        self.roulette = roulette
        self.tables: dict[str, Table] = {}

    def commands(self) -> Iterable[Command[Any]]:
        return (
            Command("wheel.reading", "device", Reading, self.reading,
                    "A wheel's reader reports what it read at its table (docs/wheel.md)."),
            Command("wheel.apply_held", "operator", TableRef, self.apply_held,
                    "Apply the number held for you as the spin (super9 rule 18.3: only once "
                    "you have seen the ball land on it)."),
            Command("wheel.discard_held", "operator", Discard, self.discard_held,
                    "Discard the number held for you, with a reason (super9 rule 18.3: the "
                    "ball returned to the previous number)."),
        )

    # -- a reading ------------------------------------------------------------------------------
    def reading(self, p: Reading, ctx: Context) -> list[DomainEvent]:
        if p.table != ctx.actor:
            raise Rejected("wrong_table", f"This reader reports for table {ctx.actor}, not "
                                          f"{p.table}: the reading was not applied.")
        if (p.kind == "number") != (p.number is not None):
            raise Rejected("bad_payload", "A reading has a number when its kind is number, "
                                          "and only then.")
        table = self.tables.get(p.table) or Table(p.table)
        read_ms = max(0, ctx.now_ms - p.age_ms)
        ball_ms = None if p.ball_age_ms is None else max(0, ctx.now_ms - p.ball_age_ms)
        last = table.last_read
        after = last.at_ms if last is not None and last.before(p.run, p.game) else 0
        seen = Seen(p, read_ms, ball_ms, ctx.now_ms, {
            "table": p.table, "game": p.game, "run": p.run, "raw": printable(p.raw),
            "reader": ctx.actor, "at_ms": read_ms}, after)
        kinds: dict[str, Callable[[Table, Seen], list[DomainEvent]]] = {
            "number": self._decide_number, "no_spin": self._decide_no_spin,
            "ball_in_track": self._decide_ball, "no_more_bets": self._decide_no_more_bets}
        return kinds[p.kind](table, seen)

    def _decide_number(self, table: Table, seen: Seen) -> list[DomainEvent]:
        p, reading = seen.p, seen.reading
        assert p.number is not None
        self._not_read(table, p)
        spin = self._spin_for(table, seen)
        if spin.closed_ms is not None:
            return [self._late(table, spin, seen)]
        event = self._spin_event(spin, p.number, reading, seen.now_ms)
        why = self._hold_why(table, seen)
        over: list[DomainEvent] = [] if table.held is None else [
            WheelHoldResolved(table.table, "superseded", reading["reader"])]
        if why is not None:  # a later number held in its place: the MC answers that one
            return [*over, WheelReadingHeld(table.table, spin.promotion, p.number, p.game,
                                            reading["raw"], reading["reader"], seen.read_ms,
                                            why, p.run)]
        return [*over, event]

    def _decide_no_spin(self, table: Table, seen: Seen) -> list[DomainEvent]:
        """The stream's own no spin arms the table, unless its spin is decided or a no spin
        already armed it (then it says nothing new)."""
        spin = self._spin_for(table, seen)
        if spin.closed_ms is not None or table.armed:
            return []
        r = seen.reading
        return [WheelNoSpinRead(table.table, spin.promotion, spin.label, r["game"], r["run"],
                                r["raw"], r["reader"], seen.read_ms)]

    def _decide_ball(self, table: Table, seen: Seen) -> list[DomainEvent]:
        """Rule 18.3: a ball in the track after the no spin: the next number is a new spin's."""
        if table.armed and seen.at_ms >= table.armed_ms:
            r = seen.reading
            return [WheelBallInTrack(table.table, r["game"], r["raw"], seen.read_ms)]
        self._spin_for(table, seen)  # nothing live: refused in words
        return []

    def _decide_no_more_bets(self, table: Table, seen: Seen) -> list[DomainEvent]:
        """A roulette spin's betting closes where the wheel said so; Super 9 has no betting,
        and the no more bets of a spin since decided (or reopened by a no spin) is stale."""
        spin = self._spin_for(table, seen)
        if spin.promotion != "roulette" or spin.closed_ms is not None:
            return []
        stage, heat, number = spin.key
        spins = self.roulette.spins.get((stage, heat))
        if (spins is None or spins.open != int(number) or spins.bets_closed
                or seen.read_ms < spins.opened_ms):
            return []
        return [RouletteBetsClosed(stage, heat, int(number), seen.read_ms, seen.reading)]

    # -- which spin, and what becomes of the number ---------------------------------------------
    def _not_read(self, table: Table, p: Reading) -> None:
        """One wheel game gives one number: a reader that came in mid-game (restarted) and
        sends the game the table last read is not heard twice. A game of the same number seen
        from its ball on is a new one (the wheel's counter restarted)."""
        last = table.last_read
        if p.game is None or last is None or last.game != p.game:
            return
        if p.ball_unseen or p.run is None or p.run == last.run:
            also = "" if p.number == last.number else f"; this reading says {p.number}"
            raise Rejected("already_read", f"Game {p.game} of table {table.table} was already "
                                           f"read as {last.number}{also}. Its number counts "
                                           "once.")

    def _spin_for(self, table: Table, seen: Seen) -> Spin:
        spin = table.spins.at(seen.at_ms)
        if spin is not None and not (spin.promotion == "super9" and spin.closed_ms is not None
                                     and spin.number is None):
            return spin
        ago = (seen.now_ms - seen.at_ms) // 1000
        when = (f" when the wheel read it, {ago} s ago" if seen.now_ms - seen.at_ms > FRESH_MS
                else "")
        if table.spins.forgotten(seen.at_ms):
            raise Rejected("no_game_live", f"The wheel read that {ago} s ago, before the last "
                                           f"{SPINS_KEPT} spins at table {table.table}: "
                                           f"{seen.what} was not applied.")
        tense = "was" if when else "is"
        raise Rejected("no_game_live", f"No Super 9 game or roulette spin {tense} live at table "
                                       f"{table.table}{when}: {seen.what} was not applied.")

    def _spin_event(self, spin: Spin, number: int, reading: dict[str, Any] | None,
                    now_ms: int) -> DomainEvent:
        """The spin `number` makes, with the promotion's own checks (`Rejected` if refused)."""
        if spin.promotion == "super9":
            return self.super9.spun(number, now_ms, reading)
        stage, heat, which = spin.key
        return RouletteSpun(stage, heat, int(which), number, reading, now_ms)

    @staticmethod
    def _hold_why(table: Table, seen: Seen) -> str | None:
        """Rule 18.3: after a no spin, the previous number before a new ball is seen; and a
        number whose ball the reader did not see spun (it came in mid-game)."""
        returned = (table.armed and seen.p.number == table.last_number
                    and (seen.ball_ms is None or seen.ball_ms <= table.armed_ms))
        if returned:
            return "no_spin"
        return "ball_unseen" if seen.p.ball_unseen else None

    @staticmethod
    def _late(table: Table, spin: Spin, seen: Seen) -> WheelReadingLate:
        p, r = seen.p, seen.reading
        assert p.number is not None
        return WheelReadingLate(table.table, spin.promotion, spin.label, spin.number,
                                not spin.read, p.number, p.number == spin.number, p.game,
                                p.run, r["raw"], r["reader"], seen.read_ms)

    # -- the MC's answer to a held reading ------------------------------------------------------
    def apply_held(self, p: TableRef, ctx: Context) -> list[DomainEvent]:
        held = self._held_at(p.table)
        reading = {"table": held.table, "game": held.game, "run": held.run, "raw": held.raw,
                   "reader": held.reader, "at_ms": held.at_ms}
        spin = self.tables[p.table].spins.current(held.promotion)
        if spin is None:
            what = "Super 9 game" if held.promotion == "super9" else "roulette spin"
            raise Rejected("no_game_live", f"The {what} the wheel read {held.number} for is no "
                                           f"longer live at table {held.table}: discard the "
                                           "held number.")
        return [self._spin_event(spin, held.number, reading, ctx.now_ms),
                WheelHoldResolved(p.table, "applied", ctx.actor)]

    def discard_held(self, p: Discard, ctx: Context) -> list[DomainEvent]:
        self._held_at(p.table)
        reason = " ".join(p.reason.split())
        if not reason:
            raise Rejected("reason_required", "Say why the held number is discarded (e.g. the "
                                              "ball returned to the previous number).")
        return [WheelHoldResolved(p.table, "discarded", ctx.actor, reason)]

    def _held_at(self, table: str) -> WheelReadingHeld:
        held = self.tables[table].held if table in self.tables else None
        if held is None:
            raise Rejected("nothing_held", f"No reading is held at table {table}.")
        return held

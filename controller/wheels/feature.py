"""The wheels (docs/wheel.md): a wheel's reading becomes the spin of what is live at its table.

A reader's device key is named after its table (`AR14`), and it reports for that table only.
A number read at a table is the spin of the Super 9 game being played there (super9 rule 12:
the roulette wheel is the mechanism), else of the roulette heat whose spin is taking bets
there; with nothing live it is refused. Super9 rule 18.3: after a no spin, until the ball is in
the track again, a reading equal to the previous winning number may be the ball returning to
it, so it is held for the MC (Apply or Discard), never applied by itself; a different number
read meanwhile is applied and ends the hold. The MC's keypad (`super9.spin`, `roulette.spin`)
always stays: the reader only saves typing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.domain.commands import Command, Context
from controller.domain.config import PromotionConfigured
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from controller.promotions.roulette import Roulette
from controller.promotions.roulette.events import RouletteBetsClosed, RouletteNoSpin, RouletteSpun
from controller.promotions.super9 import Super9
from controller.promotions.super9.events import (
    Super9NoSpin,
    Super9SessionClosed,
    Super9SessionStarted,
    Super9SpinEntered,
    Super9SpinUndone,
    Super9Won,
)
from controller.wheels.events import WheelBallInTrack, WheelHoldResolved, WheelReadingHeld
from controller.wheels.payloads import Discard, Reading, TableRef
from controller.wheels.state import Table
from showrunner.contract.words import printable

OPS_VIEW = "ops:wheels"
KIND_WORDS = {"ball_in_track": "ball in track", "no_more_bets": "no more bets"}


class Wheels(Feature):
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
                    "Apply the number the wheel read again after a no spin, as the spin "
                    "(super9 rule 18.3: only once you have seen the ball land on it)."),
            Command("wheel.discard_held", "operator", Discard, self.discard_held,
                    "Discard the number the wheel read again after a no spin, with a reason "
                    "(super9 rule 18.3: the ball returned to the previous number)."),
        )

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {WheelReadingHeld: self._held, WheelHoldResolved: self._resolved,
                WheelBallInTrack: self._ball_in_track,
                Super9SpinEntered: self._super9_spun, Super9SpinUndone: self._super9_undone,
                Super9NoSpin: self._super9_no_spin, Super9SessionStarted: self._super9_fresh,
                Super9Won: self._super9_fresh, Super9SessionClosed: self._super9_fresh,
                RouletteSpun: self._roulette_spun, RouletteNoSpin: self._roulette_no_spin,
                RouletteBetsClosed: self._bets_closed, PromotionConfigured: self._configured}

    # -- commands -------------------------------------------------------------------------------
    def reading(self, p: Reading, ctx: Context) -> list[DomainEvent]:
        if p.table != ctx.actor:
            raise Rejected("wrong_table", f"This reader reports for table {ctx.actor}, not "
                                          f"{p.table}: the reading was not applied.")
        if (p.kind == "number") != (p.number is not None):
            raise Rejected("bad_payload", "A reading has a number when its kind is number, "
                                          "and only then.")
        table = self.tables.get(p.table) or Table(p.table)
        raw = printable(p.raw)
        reading = {"table": p.table, "game": p.game, "raw": raw, "reader": ctx.actor,
                   "at_ms": ctx.now_ms}
        if p.kind == "ball_in_track" and table.armed:  # rule 18.3: the next number is new
            return [WheelBallInTrack(p.table, p.game, raw, ctx.now_ms)]
        what = f"the reading {p.number}" if p.number is not None else \
            f"the reading ({KIND_WORDS[p.kind]})"
        if self.super9.live_at(p.table):
            if p.kind != "number":
                return []  # Super 9 has no betting to close
            self._not_read(table, p.game)
            spin = self.super9.spun(p.number, reading)  # type: ignore[arg-type]
            return self._spin_or_hold(table, "super9", spin, reading, p.number)
        heat = self.roulette.taking_bets(p.table)
        if heat is not None:
            stage, name, spins = heat
            assert spins.open is not None
            if p.kind == "no_more_bets":
                return [] if spins.bets_closed else [
                    RouletteBetsClosed(stage, name, spins.open, ctx.now_ms, reading)]
            if p.kind == "number":
                self._not_read(table, p.game)
                spun = RouletteSpun(stage, name, spins.open, p.number, reading)
                return self._spin_or_hold(table, "roulette", spun, reading, p.number)
            return []
        raise Rejected("no_game_live", f"No Super 9 game or roulette spin is live at table "
                                       f"{p.table}: {what} was not applied.")

    def _not_read(self, table: Table, game: int | None) -> None:
        """A wheel's game gives one number: a reader restarted mid-game sends it again."""
        if game is not None and game in table.games:
            raise Rejected("already_read", f"Game {game} of table {table.table} was already "
                                           "read; its number counts once.")

    def _spin_or_hold(self, table: Table, promotion: str, spin: DomainEvent,
                      reading: dict[str, Any], number: int | None) -> list[DomainEvent]:
        """Rule 18.3: armed by a no spin, the previous winning number read again is held."""
        assert number is not None
        if table.armed and number == table.last_number:
            return [WheelReadingHeld(table.table, promotion, number, reading["game"],
                                     reading["raw"], reading["reader"], reading["at_ms"])]
        if table.held is not None:
            return [WheelHoldResolved(table.table, "superseded", reading["reader"]), spin]
        return [spin]

    def apply_held(self, p: TableRef, ctx: Context) -> list[DomainEvent]:
        held = self._held_at(p.table)
        reading = {"table": held.table, "game": held.game, "raw": held.raw,
                   "reader": held.reader, "at_ms": held.at_ms}
        spin: DomainEvent
        if held.promotion == "super9":
            if not self.super9.live_at(p.table):
                raise self._gone(held)
            spin = self.super9.spun(held.number, reading)
        else:
            heat = self.roulette.taking_bets(p.table)
            if heat is None:
                raise self._gone(held)
            stage, name, spins = heat
            assert spins.open is not None
            spin = RouletteSpun(stage, name, spins.open, held.number, reading)
        return [spin, WheelHoldResolved(p.table, "applied", ctx.actor)]

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

    @staticmethod
    def _gone(held: WheelReadingHeld) -> Rejected:
        what = "Super 9 game" if held.promotion == "super9" else "roulette spin"
        return Rejected("no_game_live", f"The {what} the wheel read {held.number} for is no "
                                        f"longer live at table {held.table}: discard the "
                                        "held number.")

    # -- folds ----------------------------------------------------------------------------------
    def _table(self, name: str) -> Table:
        return self.tables.setdefault(name, Table(name))

    def _spun(self, name: str, number: int | None, reading: dict[str, Any] | None,
              kind: str = "number") -> set[str]:
        """A spin at table `name`, typed or read: the previous winning number from now on, and
        whatever was held or armed is over."""
        table = self._table(name)
        table.last_number, table.armed, table.held = number, False, None
        if reading is not None:
            self._read(table, kind, number, reading)
        return {OPS_VIEW}

    @staticmethod
    def _read(table: Table, kind: str, number: int | None, reading: dict[str, Any]) -> None:
        table.last_reading = {"kind": kind, "number": number, "raw": reading["raw"],
                              "at_ms": reading["at_ms"]}
        if kind == "number" and reading.get("game") is not None:
            table.games.add(reading["game"])

    def _super9_spun(self, e: Super9SpinEntered) -> set[str]:
        return self._spun(self.super9.config.table, e.number, e.reading)

    def _super9_undone(self, e: Super9SpinUndone) -> set[str]:
        run = self.super9.current  # folded before this feature: the call is off the board
        calls = run.game.calls if run else []
        self._table(self.super9.config.table).last_number = calls[-1].number if calls else None
        return {OPS_VIEW}

    def _super9_no_spin(self, e: Super9NoSpin) -> set[str]:
        self._table(self.super9.config.table).armed = True
        return {OPS_VIEW}

    def _super9_fresh(self, e: Super9SessionStarted | Super9Won | Super9SessionClosed
                      ) -> set[str]:
        """A game starts or ends: its numbers, its no spin and a reading held for it are over."""
        table = self._table(self.super9.config.table)
        table.last_number, table.armed, table.held = None, False, None
        return {OPS_VIEW}

    def _roulette_spun(self, e: RouletteSpun) -> set[str]:
        return self._spun(self.roulette.config.table, e.number, e.reading)

    def _roulette_no_spin(self, e: RouletteNoSpin) -> set[str]:
        self._table(self.roulette.config.table).armed = True
        return {OPS_VIEW}

    def _bets_closed(self, e: RouletteBetsClosed) -> set[str]:
        self._read(self._table(e.reading["table"]), "no_more_bets", None, e.reading)
        return {OPS_VIEW}

    def _held(self, e: WheelReadingHeld) -> set[str]:
        table = self._table(e.table)
        table.held = e
        self._read(table, "number", e.number, {"raw": e.raw, "at_ms": e.at_ms, "game": e.game})
        return {OPS_VIEW}

    def _resolved(self, e: WheelHoldResolved) -> set[str]:
        self._table(e.table).held = None
        return {OPS_VIEW}

    def _ball_in_track(self, e: WheelBallInTrack) -> set[str]:
        table = self._table(e.table)
        table.armed = False
        self._read(table, "ball_in_track", None, {"raw": e.raw, "at_ms": e.at_ms})
        return {OPS_VIEW}

    def _configured(self, e: PromotionConfigured) -> set[str]:
        return {OPS_VIEW} if e.promotion in (self.super9.name, self.roulette.name) else set()

    # -- the operators' view --------------------------------------------------------------------
    def view_names(self) -> Iterable[str]:
        return (OPS_VIEW,)

    def view(self, name: str) -> dict[str, Any]:
        serves: dict[str, list[str]] = {t: [] for t in self.tables}
        serves.setdefault(self.super9.config.table, []).append("super9")
        serves.setdefault(self.roulette.config.table, []).append("roulette")
        rows = []
        for table_name in sorted(serves):
            table = self.tables.get(table_name) or Table(table_name)
            held = table.held
            rows.append({"table": table_name, "serves": serves[table_name],
                         "held": None if held is None else {
                             "number": held.number, "promotion": held.promotion,
                             "at_ms": held.at_ms},
                         "armed": table.armed, "last_number": table.last_number,
                         "last_reading": table.last_reading})
        return {"tables": rows}

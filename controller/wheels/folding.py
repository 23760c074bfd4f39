"""The wheels' folds and the operators' view: each table's spins on the controller's clock, the
hold after a no spin, the latest readings (docs/wheel.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from controller.domain.config import PromotionConfigured
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from controller.promotions.roulette.events import (
    RouletteBetsClosed,
    RouletteBettingOpened,
    RouletteNoSpin,
    RouletteSpun,
)
from controller.promotions.super9.events import (
    Super9NoSpin,
    Super9SessionClosed,
    Super9SessionStarted,
    Super9SpinEntered,
    Super9SpinUndone,
    Super9Won,
)
from controller.wheels.events import (
    WheelBallInTrack,
    WheelHoldResolved,
    WheelNoSpinRead,
    WheelReadingHeld,
    WheelReadingLate,
)
from controller.wheels.state import LastRead, Table
from controller.wheels.timeline import Spin

if TYPE_CHECKING:
    from controller.promotions.roulette import Roulette
    from controller.promotions.super9 import Super9

OPS_VIEW = "ops:wheels"


class WheelFolds:
    """Mixed into `Wheels`: the folds of its own events and of the spins it follows."""

    super9: Super9
    roulette: Roulette
    tables: dict[str, Table]

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {WheelReadingHeld: self._held, WheelHoldResolved: self._resolved,
                WheelBallInTrack: self._ball_in_track, WheelNoSpinRead: self._no_spin_read,
                WheelReadingLate: self._late_read,
                Super9SessionStarted: self._super9_started, Super9SpinEntered: self._super9_spun,
                Super9SpinUndone: self._super9_undone, Super9NoSpin: self._super9_no_spin,
                Super9Won: self._super9_ended, Super9SessionClosed: self._super9_ended,
                RouletteBettingOpened: self._roulette_opened, RouletteSpun: self._roulette_spun,
                RouletteNoSpin: self._roulette_no_spin, RouletteBetsClosed: self._bets_closed,
                PromotionConfigured: self._configured}

    def _table(self, name: str) -> Table:
        return self.tables.setdefault(name, Table(name))

    # -- spins ----------------------------------------------------------------------------------
    def _spun(self, table: Table, number: int | None, reading: dict[str, Any] | None,
              spin: Spin | None) -> None:
        """A spin at the table, typed or read, closed in the timeline (`spin`): the previous
        winning number from now on, and whatever was held or armed is over. Its game is read
        no earlier than the spin closed (docs: a later game is never placed before it)."""
        table.last_number, table.held = number, None
        table.disarm()
        if reading is not None and number is not None:
            closed = spin.closed_ms if spin is not None and spin.closed_ms is not None else 0
            self._read(table, "number", number, reading, closed)

    @staticmethod
    def _read(table: Table, kind: str, number: int | None, reading: dict[str, Any],
              placed_ms: int = 0) -> None:
        """The table's last reading; a number's game is the last read, placed at `placed_ms`
        when its spin closed later than it was read."""
        table.last_reading = {"kind": kind, "number": number, "raw": reading["raw"],
                              "at_ms": reading["at_ms"]}
        if kind == "number" and number is not None:
            table.last_read = LastRead(reading.get("run"), reading.get("game"), number,
                                       max(placed_ms, int(reading["at_ms"])))

    @staticmethod
    def _decided_ms(reading: dict[str, Any] | None, at_ms: int | None, spin: Spin | None) -> int:
        """When a spin's number was decided: when the wheel showed it, else when it was typed
        (older logs say neither: the spin's opening stands in)."""
        if reading is not None:
            return int(reading["at_ms"])
        if at_ms is not None:
            return at_ms
        return spin.opened_ms if spin is not None else 0

    def _super9_started(self, e: Super9SessionStarted) -> set[str]:
        table = self._table(self.super9.config.table)
        self._super9_fresh(table)
        table.late = [row for row in table.late if row["promotion"] != "super9"]
        table.spins.open(Spin("super9", (e.session, "1"), "spin 1", e.at_ms))
        return {OPS_VIEW}

    def _super9_spun(self, e: Super9SpinEntered) -> set[str]:
        table = self._table(self.super9.config.table)
        spin = table.spins.current("super9")
        at = self._decided_ms(e.reading, e.at_ms, spin)
        closed = table.spins.close("super9", None, at, e.number, e.reading is not None)
        self._spun(table, e.number, e.reading, closed)
        if closed is not None and closed.closed_ms is not None:
            at = closed.closed_ms  # never before the spin opened
        following = len(self.super9.current.game.calls) + 1 if self.super9.current else 1
        table.spins.open(Spin("super9", (e.session, str(following)), f"spin {following}", at))
        return {OPS_VIEW}

    def _super9_undone(self, e: Super9SpinUndone) -> set[str]:
        run = self.super9.current  # folded before this feature: the call is off the board
        calls = run.game.calls if run else []
        table = self._table(self.super9.config.table)
        table.last_number = calls[-1].number if calls else None
        table.spins.reopen_last("super9")
        return {OPS_VIEW}

    def _super9_no_spin(self, e: Super9NoSpin) -> set[str]:
        self._table(self.super9.config.table).arm("mc", e.at_ms or 0)
        return {OPS_VIEW}

    def _super9_ended(self, e: Super9Won | Super9SessionClosed) -> set[str]:
        table = self._table(self.super9.config.table)
        self._super9_fresh(table)
        table.spins.close("super9", None, e.at_ms, None, False)
        return {OPS_VIEW}

    @staticmethod
    def _super9_fresh(table: Table) -> None:
        """A game starts or ends: its numbers, its no spin and a reading held for it are over."""
        table.last_number, table.held = None, None
        table.disarm()

    def _roulette_opened(self, e: RouletteBettingOpened) -> set[str]:
        table = self._table(self.roulette.config.table)
        if e.spin == 1:  # a heat begins: the late readings of the one before are done with
            table.late = [row for row in table.late if row["promotion"] != "roulette"]
        opened = self.roulette.spins[(e.stage, e.heat)].opened_ms  # folded before this feature
        table.spins.open(Spin("roulette", (e.stage, e.heat, str(e.spin)),
                              f"{e.heat} spin {e.spin}", opened))
        return {OPS_VIEW}

    def _roulette_spun(self, e: RouletteSpun) -> set[str]:
        table = self._table(self.roulette.config.table)
        key = (e.stage, e.heat, str(e.spin))
        at = self._decided_ms(e.reading, e.at_ms, table.spins.current("roulette", key))
        closed = table.spins.close("roulette", key, at, e.number, e.reading is not None)
        self._spun(table, e.number, e.reading, closed)
        return {OPS_VIEW}

    def _roulette_no_spin(self, e: RouletteNoSpin) -> set[str]:
        self._table(self.roulette.config.table).arm("mc", e.at_ms or 0)
        return {OPS_VIEW}

    def _bets_closed(self, e: RouletteBetsClosed) -> set[str]:
        self._read(self._table(e.reading["table"]), "no_more_bets", None, e.reading)
        return {OPS_VIEW}

    # -- the wheels' own events -----------------------------------------------------------------
    def _held(self, e: WheelReadingHeld) -> set[str]:
        table = self._table(e.table)
        table.held = e
        self._read(table, "number", e.number, {"raw": e.raw, "at_ms": e.at_ms, "game": e.game,
                                               "run": e.run})
        return {OPS_VIEW}

    def _resolved(self, e: WheelHoldResolved) -> set[str]:
        self._table(e.table).held = None
        return {OPS_VIEW}

    def _ball_in_track(self, e: WheelBallInTrack) -> set[str]:
        table = self._table(e.table)
        table.disarm()
        self._read(table, "ball_in_track", None, {"raw": e.raw, "at_ms": e.at_ms})
        return {OPS_VIEW}

    def _no_spin_read(self, e: WheelNoSpinRead) -> set[str]:
        table = self._table(e.table)
        table.arm("wheel", e.at_ms)
        self._read(table, "no_spin", None, {"raw": e.raw, "at_ms": e.at_ms})
        return {OPS_VIEW}

    def _late_read(self, e: WheelReadingLate) -> set[str]:
        table = self._table(e.table)
        self._read(table, "number", e.number, {"raw": e.raw, "at_ms": e.at_ms, "game": e.game,
                                               "run": e.run})
        table.add_late({"promotion": e.promotion, "spin": e.spin, "recorded": e.recorded,
                        "typed": e.typed, "number": e.number, "agrees": e.agrees,
                        "at_ms": e.at_ms})
        return {OPS_VIEW}

    def _configured(self, e: PromotionConfigured) -> set[str]:
        return {OPS_VIEW} if e.promotion in (self.super9.name, self.roulette.name) else set()

    # -- the operators' view --------------------------------------------------------------------
    def view_names(self) -> tuple[str, ...]:
        return (OPS_VIEW,)

    def view(self, name: str) -> dict[str, Any]:
        serves: dict[str, list[str]] = {t: [] for t in self.tables}
        serves.setdefault(self.super9.config.table, []).append("super9")
        serves.setdefault(self.roulette.config.table, []).append("roulette")
        return {"tables": [self._row(self.tables.get(name) or Table(name), serves[name])
                           for name in sorted(serves)]}

    @staticmethod
    def _row(table: Table, serves: list[str]) -> dict[str, Any]:
        held = table.held
        return {"table": table.table, "serves": serves,
                "held": None if held is None else {
                    "number": held.number, "promotion": held.promotion, "at_ms": held.at_ms,
                    "why": held.why},
                "armed": table.armed, "armed_by": table.armed_by,
                "armed_ms": table.armed_ms if table.armed else None,
                "last_number": table.last_number, "last_reading": table.last_reading,
                "late": list(table.late)}

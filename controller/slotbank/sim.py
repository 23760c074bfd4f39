"""A simulated bank of slot machines playing tournament heats through the feed API, for tests,
the demo and bench/feed.py.

Each heat: the heat start on every machine, then every machine's credit meter at `rate`
readings a second (spins cost a bet, some win a multiple of it; never below 0), the machines'
reports spread evenly over each period and sent one POST per tick for all the machines due in
it; a `silent` machine stops reporting halfway (a possible malfunction, slots rule 27); at the
end of `duration_s`, the heat end with every machine's final credits.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.slotbank.api import BankClient, Reading, Refused

TICK_S = 0.05  # readings due within a tick go in one POST
BET_FRACTION = 50  # a spin bets about start_credits / 50
#: a spin's win as a multiple of the bet, and its weight: most spins lose (RTP about 94 %)
PAYTABLE = ((0, 70), (1, 12), (2, 10), (5, 6), (20, 2))

#: called after each credits POST with (readings, sent, answered), perf_counter seconds
Observer = Callable[[list[Reading], float, float], None]


@dataclass(frozen=True)
class BankPlan:
    """What the simulator plays."""

    machines: int
    first_machine: int = 101
    rate: float = 2.0  # readings a second, each machine
    duration_s: int = 60
    start_credits: int = 1000
    silent: frozenset[str] = frozenset()
    heats: int = 1

    @property
    def labels(self) -> list[str]:
        """The machine numbers in the bank's sequential order (slots rule 11)."""
        return [str(self.first_machine + i) for i in range(self.machines)]


@dataclass
class Meter:
    """One machine's credit meter."""

    credits: int
    bet: int
    due: float  # perf_counter time of its next report
    silent_from: float | None = None

    def spin(self) -> int:
        """One spin: the bet goes, a win may come; the meter never goes below 0."""
        bet = min(self.bet, self.credits)
        self.credits += bet * _pay() - bet
        return self.credits


def _pay() -> int:
    """A win's multiple of the bet, weighted by PAYTABLE (`secrets`, as all the controller's
    randomness: an auditor's scan for `random` finds nothing to explain)."""
    pick = secrets.randbelow(sum(w for _, w in PAYTABLE))
    for multiple, weight in PAYTABLE:
        if pick < weight:
            return multiple
        pick -= weight
    raise AssertionError("unreachable: the weights sum to the range")


@dataclass
class Simulator:
    """Plays `plan` on a bank through `client`; `say` prints what happens, in words."""

    client: BankClient
    plan: BankPlan
    say: Callable[[str], None] = print
    observe: Observer | None = None
    async def run(self) -> list[dict[str, Any]]:
        """Every heat of the plan in turn; the heat-end answers."""
        run_id = secrets.token_hex(3)
        return [await self.heat(f"SIM-{run_id}-{n}") for n in range(1, self.plan.heats + 1)]

    async def heat(self, feed_heat: str) -> dict[str, Any]:
        plan = self.plan
        started = await self.client.start_heat(feed_heat, plan.labels, plan.start_credits,
                                               plan.duration_s)
        self.say(f"{started.get('heat', feed_heat)} started on {self.client.bank} "
                 f"({feed_heat}, {plan.machines} machines, {plan.duration_s} s).")
        now = time.perf_counter()
        period = 1 / plan.rate
        meters = {m: Meter(plan.start_credits, max(1, plan.start_credits // BET_FRACTION),
                           now + period * i / plan.machines,
                           now + plan.duration_s / 2 if m in plan.silent else None)
                  for i, m in enumerate(plan.labels)}
        ends = now + plan.duration_s
        refused: set[str] = set()
        while (now := time.perf_counter()) < ends:
            due = [(m, meter) for m, meter in meters.items() if meter.due <= now]
            readings = []
            for machine, meter in due:
                meter.due += period
                if meter.silent_from is None or now < meter.silent_from:
                    readings.append((machine, meter.spin()))
            if readings:
                await self.send(feed_heat, readings, refused)
            await asyncio.sleep(max(0.0, min(TICK_S, ends - time.perf_counter())))
        ended = await self.client.end_heat(feed_heat, [(m, meter.credits)
                                                        for m, meter in meters.items()])
        self.say(f"{started.get('heat', feed_heat)} ended on {self.client.bank}: the final "
                 "credits wait for the tournament director's accept.")
        return ended

    async def send(self, feed_heat: str, readings: list[Reading], refused: set[str]) -> None:
        """One credits POST; a refusal is said once per kind and the heat plays on."""
        sent = time.perf_counter()
        try:
            await self.client.credits(feed_heat, readings)
        except Refused as exc:
            if exc.code not in refused:
                refused.add(exc.code)
                self.say(f"Live credits refused: {exc}")
            return
        if self.observe is not None:
            self.observe(readings, sent, time.perf_counter())

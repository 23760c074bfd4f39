"""A pure Show driven like the tablet drives the controller, for rule tests.

`Driver.refuse` also checks the contract that a refused command changes nothing.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

from controller.application.features import build_features
from controller.application.show import Show
from controller.domain.commands import Context, Randomness
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent

NOW = 1_721_044_800_000  # 2024-07-15 12:00 UTC


class SeededRandomness(Randomness):
    """Repeatable draws for tests; the service uses the CSPRNG."""

    def __init__(self, seed: int = 1) -> None:
        self.random = random.Random(seed)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("nothing to pick from")
        return self.random.randrange(n)


class Driver:
    def __init__(self, seed: int = 1) -> None:
        self.show = Show(build_features())
        self.now = NOW
        self.rng = SeededRandomness(seed)
        self.log: list[DomainEvent] = []

    def ctx(self) -> Context:
        return Context("mc", "operator", self.now, self.rng)

    def do(self, type_: str, payload: dict[str, Any]) -> list[DomainEvent]:
        events = self.show.decide(type_, payload, self.ctx())
        for event in events:
            self.apply(event)
        return events

    def apply(self, event: DomainEvent) -> None:
        self.log.append(event)
        self.show.apply(event)

    def refuse(self, type_: str, payload: dict[str, Any]) -> Rejected:
        before = pickle.dumps(self.show.features)
        try:
            self.show.decide(type_, payload, self.ctx())
        except Rejected as exc:
            assert pickle.dumps(self.show.features) == before
            return exc
        raise AssertionError(f"{type_} {payload} was not refused")

    def member(self, card: str, name: str, **extra: Any) -> str:
        self.do("register_member", {"card": card, "display_name": name, **extra})
        return card

    def members(self, n: int, start: int = 1_000_000) -> list[str]:
        return [self.member(str(start + i), f"Player{i} Surname{i}") for i in range(n)]

    def entry(self, type_: str, payload: dict[str, Any]) -> str:
        return self.do(type_, payload)[-1].entry  # type: ignore[attr-defined]

    def view(self, name: str) -> dict[str, Any]:
        owner = next(f for f in self.show.features if name in set(f.view_names()))
        return owner.view(name)

    def feature(self, name: str) -> Any:
        return next(f for f in self.show.features if f.name == name)

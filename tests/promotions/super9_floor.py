"""A Super 9 floor for rule tests: a pure Show, a settable clock, sold-and-entered tickets."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from controller.application.settings import shipped
from controller.application.show import Show
from controller.domain.commands import Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.members import Members
from controller.promotions.super9 import Super9
from controller.promotions.super9.config import Super9Config
from controller.promotions.super9.views import BOARD, CUES, JACKPOT
from controller.register import Register

TZ = ZoneInfo("Africa/Johannesburg")
WEDNESDAY = "2025-06-04"  # a Wednesday; sessions 19:00 and 21:00
SESSION = f"{WEDNESDAY}T19:00"


def ms(local: str) -> int:
    """UTC epoch ms of a venue wall-clock time like "2025-06-04 18:00"."""
    return int(dt.datetime.fromisoformat(local).replace(tzinfo=TZ).timestamp() * 1000)


class Floor:
    def __init__(self, **config: Any) -> None:
        self.members = Members()
        self.super9 = Super9(self.members, Super9Config.model_validate(
            {**shipped("super9", Super9Config).to_data(), **config}))
        self.register = Register(self.members)  # a confirmed win awards prizes to it
        self.show = Show([self.members, self.super9, self.register])
        self.now = ms(f"{WEDNESDAY} 10:00")
        self.log: list[DomainEvent] = []

    def do(self, command: str, payload: dict[str, Any] | None = None) -> list[DomainEvent]:
        events = self.show.decide(command, payload or {}, Context("mc", "operator", self.now))
        for event in events:
            self.show.apply(event)
        self.log += events
        return events

    def refused(self, command: str, payload: dict[str, Any] | None = None) -> Rejected:
        """The command is refused with a sentence and nothing changes."""
        before = self.fingerprint()
        with pytest.raises(Rejected) as info:
            self.do(command, payload)
        assert info.value.message.endswith("."), info.value.message
        assert self.fingerprint() == before
        return info.value

    def fingerprint(self) -> tuple[Any, ...]:
        s = self.super9
        game = s.current.game if s.current else None
        return (s.jackpot_cents, repr(s.tickets), sorted(s.disqualified), sorted(s.played),
                game and (list(game.level), list(game.calls)), len(self.log),
                s.current and (s.current.no_spins, s.current.result))

    def member(self, card: str, name: str, flags: list[str] | None = None) -> None:
        self.do("register_member", {"card": card, "display_name": name, "flags": flags or []})

    def ticket(self, serial: str, numbers: list[int], card: str | None = None) -> None:
        self.do("super9.sell_ticket", {"ticket": serial, "card": card})
        self.do("super9.enter_ticket", {"ticket": serial, "original": numbers,
                                        "duplicate": list(reversed(numbers))})

    def start(self, session: str = SESSION) -> None:
        self.now = max(self.now, ms(session.replace("T", " ")))
        self.do("super9.start_session", {"session": session})

    def spins(self, *numbers: int) -> None:
        for n in numbers:
            self.do("super9.spin", {"number": n})

    def board(self) -> dict[str, Any]:
        return self.super9.view(BOARD)

    def cues(self) -> list[str]:
        return self.super9.view(CUES)["lines"]

    def notes(self) -> list[str]:
        return self.super9.view(CUES)["notes"]

    def jackpot(self) -> dict[str, Any]:
        return self.super9.view(JACKPOT)

"""Slots PAYOFF tournament (shared/rules/slots-payoff-tournament.txt).

Walking-skeleton scope: entries and qualifying scores on a leaderboard of positions 1-45
(rule 14). Heats, buy-ins, stages and prizes build on this.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from controller.domain.commands import Command, Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature
from controller.domain.leaderboard import Leaderboard
from controller.domain.members import Members

LEADERBOARD_ROWS = 45  # rule 14
VIEW = "leaderboard:slots"


@dataclass(frozen=True)
class SlotsEntered(DomainEvent):
    entry: str
    card: str


@dataclass(frozen=True)
class SlotsScoreRecorded(DomainEvent):
    entry: str
    score: int


@dataclass(frozen=True)
class Enter:
    card: str


@dataclass(frozen=True)
class RecordScore:
    entry: str
    score: int


class Slots(Feature):
    name = "slots"

    def __init__(self, members: Members) -> None:
        self.members = members
        self.entries: dict[str, str] = {}  # entry id -> card
        self.board: Leaderboard[str] = Leaderboard()
        self._scores_recorded = 0
        self._shown_positions: dict[str, int] = {}

    def commands(self) -> Iterable[Command[Any]]:
        return (
            Command("slots.enter", "operator", Enter, self.enter,
                    "Enter a member into the qualifying stage; the ack carries the entry id."),
            Command("slots.record_score", "operator", RecordScore, self.record_score,
                    "Record the credits an entry finished its heat with."),
        )

    def events(self) -> Iterable[type[DomainEvent]]:
        return (SlotsEntered, SlotsScoreRecorded)

    def enter(self, p: Enter, ctx: Context) -> list[DomainEvent]:
        self.members.eligible(p.card, "rules 2-3")
        return [SlotsEntered(f"S{len(self.entries) + 1}", p.card)]

    def record_score(self, p: RecordScore, ctx: Context) -> list[DomainEvent]:
        if p.entry not in self.entries:
            raise Rejected("unknown_entry", f"There is no entry {p.entry!r}.")
        if p.score < 0:
            raise Rejected("bad_score", "A score cannot be negative.")
        return [SlotsScoreRecorded(p.entry, p.score)]

    def participant_cards(self) -> set[str]:
        """Rewards members who took part in the event (Wild Card bonus tickets, rule 18.2)."""
        return {card for card in self.entries.values() if self.members.by_card[card].rewards_member}

    def qualified_cards(self) -> set[str]:
        """Members already through to the Final (rule 17); none until stages are built."""
        return set()

    def apply(self, event: DomainEvent) -> Iterable[str]:
        if isinstance(event, SlotsEntered):
            self.entries[event.entry] = event.card
            return ()
        if isinstance(event, SlotsScoreRecorded):
            self._scores_recorded += 1
            self.board.replace(event.entry, event.score, self._scores_recorded)
            return (VIEW,)
        return ()

    def view_names(self) -> Iterable[str]:
        return (VIEW,)

    def view(self, name: str) -> dict[str, Any]:
        rows = []
        shown: dict[str, int] = {}
        for position, (entry, score) in enumerate(self.board.top(LEADERBOARD_ROWS), start=1):
            before = self._shown_positions.get(entry)
            shown[entry] = position
            rows.append({
                "position": position,
                "name": self.members.by_card[self.entries[entry]].display_name,
                "score": score,
                "movement": 0 if before is None else before - position,
                "new": before is None and bool(self._shown_positions),
            })
        self._shown_positions = shown
        return {"title": "Slots PAYOFF", "subtitle": "Qualifying", "rows": rows,
                "entries": len(self.board)}

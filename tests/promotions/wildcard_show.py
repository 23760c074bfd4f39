"""A small pure show with the Wild Card draw, driven the way the service drives it.

`send` decides a command and applies its events (as the service does once they are durable);
`tick` appends the events time has made due. The log keeps (event, actor, at_ms) for audit tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.application.settings import shipped
from controller.application.show import Show
from controller.domain.commands import Context, Randomness
from controller.domain.cues import Cues
from controller.domain.events import DomainEvent
from controller.domain.members import Members
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.config import WildcardConfig
from controller.promotions.wildcard.cues import WildcardCues
from controller.promotions.wildcard.views import VIEW
from controller.register import Register

OPEN = 1_705_586_400_000  # 16:00 in Johannesburg on 18 January 2024
CLOSE = OPEN + 2 * 60 * 60 * 1000  # 18:00
CONFIG = shipped("wildcard", WildcardConfig)  # bins 16:00-18:00 on 18 January 2024
DECLINE_PAYLOAD = {"card": "1000003", "in_person": True, "id_checked": True,
                   "id_document": "SA ID", "contact": "082 555 0101"}


@dataclass
class FixedRoster:
    """A real, tiny Roster: who took part in the tournament, who already qualified (the
    finalists), who was disqualified (rule 47: barred), whether qualifying is over (rule 17)
    and whether the final has started."""

    participants: set[str] = field(default_factory=set)
    finalists: set[str] = field(default_factory=set)
    barred: set[str] = field(default_factory=set)
    final_playing: bool = False
    qualifying_over: bool = True

    def took_part(self, card: str) -> bool:
        return card in self.participants

    def holds_final_seat(self, card: str) -> bool:
        return card in self.finalists

    def is_disqualified(self, card: str) -> bool:
        return card in self.barred

    def final_started(self) -> bool:
        return self.final_playing

    def qualifying_closed(self) -> bool:
        return self.qualifying_over


class ScriptedRng(Randomness):
    """Returns the given picks in order, checking each is a legal `randbelow(n)` result."""

    def __init__(self, *picks: int) -> None:
        self.picks = list(picks)
        self.asked: list[int] = []

    def below(self, n: int) -> int:
        self.asked.append(n)
        pick = self.picks.pop(0)
        assert 0 <= pick < n
        return pick


@dataclass
class Logged:
    event: DomainEvent
    actor: str
    at_ms: int


class WildcardShow:
    def __init__(self, roster: FixedRoster | None = None, config: WildcardConfig = CONFIG) -> None:
        self.members = Members()
        self.roster = roster or FixedRoster()
        self.wildcard = Wildcard(self.members, self.roster, config)
        self.cues = Cues([WildcardCues(self.wildcard)])
        self.register = Register(self.members)  # the claim awards the seat to it
        self.show = Show([self.members, self.wildcard, self.register, self.cues])
        self.log: list[Logged] = []

    def send(self, command: str, payload: dict[str, Any] | None = None, *, at: int,
             role: str = "operator", actor: str = "mc-thabo",
             rng: Randomness | None = None) -> list[DomainEvent]:
        ctx = Context(actor, role, at, rng or Randomness())
        events = self.show.decide(command, payload or {}, ctx)
        self._append(events, actor, at)
        return events

    def tick(self, now_ms: int) -> list[DomainEvent]:
        events = [e for f in self.show.features for e in f.due(now_ms)]
        self._append(events, "controller", now_ms)
        return events

    def member(self, card: str, name: str, *, rewards: bool = True,
               flags: list[str] | None = None) -> None:
        self.send("register_member", {"card": card, "display_name": name,
                                      "rewards_member": rewards, "flags": flags or []},
                  at=OPEN - 60_000)

    def view(self) -> dict[str, Any]:
        return self.wildcard.view(VIEW)

    def cue_list(self) -> list[dict[str, Any]]:
        return self.cues.view("cues")["cues"]

    def _append(self, events: list[DomainEvent], actor: str, at: int) -> None:
        for event in events:
            self.log.append(Logged(event, actor, at))
            self.show.publish(self.show.apply(event), len(self.log))


def activated_show(roster: FixedRoster | None = None) -> WildcardShow:
    """Four activated members: Thandi and Sipho took part (6 tickets), Lerato and Pieter did not."""
    s = WildcardShow(roster or FixedRoster(participants={"1000001", "1000002"}))
    for card, name in (("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu"),
                       ("1000003", "Lerato Dlamini"), ("1000004", "Pieter van Wyk")):
        s.member(card, name)
        s.send("wildcard.activate", {"card": card}, at=OPEN + 60_000)
    return s

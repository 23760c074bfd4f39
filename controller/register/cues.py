"""Reminders before a prize's claim deadline: 48 hours and 1 hour before, to the floor.

A cue source for `controller.domain.cues.Cues` (listed after the register): each owed prize
gets two cues, due at those times, which the cue page shows once due; paying the prize or its
lapse withdraws them. The text names the winner as screens do (a display name) and the
prize, so it can be read aloud; the amount and the rule are in the notes, which the MC sees on
the console's Prizes panel (notes.js) and the cue page never shows.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.domain.awards import PrizeAwarded
from controller.domain.cues import Cue, CueChanges, CueHandler
from controller.domain.events import DomainEvent
from controller.register.events import PrizeLapsed, PrizePaid
from controller.register.feature import Register
from showrunner.contract.money import format_zar

HOUR_MS = 60 * 60 * 1000
#: (cue id suffix, how long before the deadline, how the time left is said)
REMINDERS = (("48h", 48 * HOUR_MS, "48 hours"), ("1h", HOUR_MS, "1 hour"))


class RegisterCues:
    def __init__(self, register: Register) -> None:
        self.register = register

    def cue_handlers(self) -> Mapping[type[DomainEvent], CueHandler]:
        return {PrizeAwarded: self._awarded, PrizePaid: self._settled,
                PrizeLapsed: self._settled}

    @staticmethod
    def cue_ids(prize: str) -> list[str]:
        return [f"prize-{prize}-{suffix}" for suffix, _, _ in REMINDERS]

    def _awarded(self, a: PrizeAwarded) -> CueChanges:
        if a.kind != "cash":
            return CueChanges()
        name = self.register.winner(a)
        cues = [Cue(f"prize-{a.prize}-{suffix}",
                    f"{name}, please collect your prize ({a.what}) within the next "
                    f"{said}.", a.deadline_ms - before, topic=f"prize-{a.prize}",
                    notes=f"{name}: {format_zar(a.cents)} owed, {said} left to collect it; "
                          f"pay it on the Prizes panel before it lapses ({a.rule}).")
                for suffix, before, said in REMINDERS if a.deadline_ms - before > a.decided_ms]
        return CueChanges(add=cues)

    def _settled(self, event: PrizePaid | PrizeLapsed) -> CueChanges:
        return CueChanges(withdraw=self.cue_ids(event.prize))

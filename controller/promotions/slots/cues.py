"""Announcer cues of the Slots PAYOFF beyond the seat draws: a semi-final seat passed on.

When a semi-finalist wins the Wild Card (ruling in docs/draws.md), the announcer calls the
qualifier who takes their semi-final seat. A cue source for `controller.domain.cues.Cues`,
listed after Slots so the seat has passed when the cue is read.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.domain.cues import Cue, CueChanges, CueHandler
from controller.domain.events import DomainEvent
from controller.domain.handoffs import WildcardFinalist
from controller.promotions.slots.feature import Slots


class SlotsCues:
    def __init__(self, slots: Slots) -> None:
        self.slots = slots
        self._passes = 0

    def cue_handlers(self) -> Mapping[type[DomainEvent], CueHandler]:
        return {WildcardFinalist: self._finalist}

    def _finalist(self, event: WildcardFinalist) -> CueChanges:
        t = self.slots
        cues = []
        for passed in t.seat_passes[self._passes:]:
            self._passes += 1
            text = (f"{t.name_of(t.entries[passed.winner].card)} is the Wild Card finalist and "
                    f"gives up a {t.title} semi-final seat.")
            if passed.successor is None:
                text += " No qualifier is left to take it; it stays empty."
            else:
                e = t.entries[passed.successor]
                where = "" if e.heat is None else f", in {e.heat}, seat {e.seat}"
                text += f" It passes to {t.name_of(e.card)}, {t.route(e).lower()}{where}."
            cues.append(Cue(f"{t.name}-semi-seat-passed-{self._passes}", text, passed.at_ms))
        return CueChanges(add=cues)

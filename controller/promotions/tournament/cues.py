"""Announcer cues for a tournament's seat draws (slots rules 16 and 41, poker rule 40).

A cue source for `controller.domain.cues.Cues`: when seats are drawn at random, the announcer
reads out who sits where, heat by heat, by display name.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.domain.cues import Cue, CueChanges, CueHandler
from controller.domain.events import DomainEvent
from controller.domain.heats import heat_number
from controller.promotions.tournament.events import TournamentSeated
from controller.promotions.tournament.feature import Tournament


class SeatDrawCues:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._draws = 0

    def cue_handlers(self) -> Mapping[type[DomainEvent], CueHandler]:
        return {TournamentSeated: self._seated}

    def _seated(self, event: TournamentSeated) -> CueChanges:
        if event.method != "draw" or event.promotion != self.tournament.name:
            return CueChanges()
        self._draws += 1
        t = self.tournament
        heats: dict[str, list[tuple[int, str]]] = {}
        for entry, heat, seat in event.seats:
            heats.setdefault(heat, []).append((seat, t.name_of(t.entries[entry].card)))
        readings = [
            f"{heat}. " + " ".join(sentence(f"Seat {seat}, {name}") for seat, name in sorted(seats))
            for heat, seats in sorted(heats.items(), key=lambda kv: heat_number(kv[0]))
        ]
        stage = t.stages[event.stage].spec.title
        text = " ".join([f"The seat draw for the {t.title} {stage}.", *readings])
        cue_id = f"{t.name}-{event.stage}-seats-{self._draws}"
        return CueChanges(add=[Cue(cue_id, text, event.at_ms)])


def sentence(text: str) -> str:
    """End with one full stop, even after a name that ends with an initial ("Thandi M.")."""
    return text if text.endswith(".") else text + "."

"""What the PA announcer reads during the Wild Card draw, in words to say aloud.

Cue ids are derived from the round (`wildcard-r2-winner`), so replay rebuilds the same cues.
Reminders are cues due at 60, 30 and 10 s before the claim deadline; a claim withdraws those not
yet due.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.domain.cues import Cue, CueChanges, CueHandler
from controller.domain.events import DomainEvent
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.events import (
    WildcardClaimed,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
    WildcardRevealed,
    WildcardStandInNamed,
)


class WildcardCues:
    """A cue source (controller.domain.cues.CueSource) for the Wild Card draw."""

    def __init__(self, wildcard: Wildcard) -> None:
        self.wildcard = wildcard

    def cue_handlers(self) -> Mapping[type[DomainEvent], CueHandler]:
        return {WildcardPoolFrozen: self._frozen, WildcardRevealed: self._revealed,
                WildcardClaimed: self._claimed, WildcardRedrawStarted: self._redraw,
                WildcardStandInNamed: self._stand_in}

    def _frozen(self, event: WildcardPoolFrozen) -> CueChanges:
        return CueChanges(add=[self._starting(event)])

    def _revealed(self, event: WildcardRevealed) -> CueChanges:
        return CueChanges(add=self._winner(event.round))

    def _redraw(self, event: WildcardRedrawStarted) -> CueChanges:
        text = (f"{self._name(event.card)} did not come to the stage within 90 seconds. "
                "We will draw again for the Wild Card.")
        return CueChanges(add=[Cue(f"wildcard-r{event.round}-redraw", text, event.at_ms)])

    def _stand_in(self, event: WildcardStandInNamed) -> CueChanges:
        text = (f"{event.stand_in} will play the Final on behalf of our Wild Card finalist, "
                f"{self._name(event.card)}.")
        return CueChanges(add=[Cue(f"wildcard-stand-in-{event.at_ms}", text, event.at_ms)])

    def _starting(self, event: WildcardPoolFrozen) -> Cue:
        lead = "The Wild Card draw is about to start" if event.round == 1 else (
            "We are drawing again for the Wild Card")
        text = (f"{lead}: {event.tickets} tickets from {event.members} rewards members are in "
                f"the draw. Watch the screens for the winner!")
        return Cue(f"wildcard-r{event.round}-start", text, event.at_ms)

    def _winner(self, round_: int) -> list[Cue]:
        draw = self.wildcard.draw
        assert draw is not None and draw.round == round_, "revealed without a draw"
        name, last4 = self._name(draw.card), draw.card[-4:]
        said = (f"The Wild Card winner is {name}, ticket number {draw.pick + 1}, "
                f"card ending in {last4}.")
        if draw.in_register:
            text = (f"{said} {name} signed the decline-to-attend register and is our Wild Card "
                    "finalist without coming to the stage.")
            return [Cue(f"wildcard-r{round_}-winner", text, draw.reveal_at_ms)]
        text = (f"{said} {name}, you have 90 seconds to come to the stage with your rewards card "
                "and your ID!")
        cues = [Cue(f"wildcard-r{round_}-winner", text, draw.reveal_at_ms)]
        for seconds in self.wildcard.config.reminder_seconds:
            cues.append(Cue(
                f"wildcard-r{round_}-remind-{seconds}",
                f"{name}, card ending in {last4}: {seconds} seconds left to come to the stage!",
                draw.claim_deadline_ms - seconds * 1000,
            ))
        return cues

    def _claimed(self, event: WildcardClaimed) -> CueChanges:
        name = self._name(event.card)
        if event.present:
            text = f"{name} has claimed the Wild Card and joins the Final of the Slots PAYOFF!"
        else:
            text = (f"{name} is confirmed as our Wild Card finalist from the decline-to-attend "
                    "register and takes the last seat in the Final.")
        deadline = self.wildcard.draw.claim_deadline_ms if self.wildcard.draw else event.at_ms
        pending = [f"wildcard-r{event.round}-remind-{s}"
                   for s in self.wildcard.config.reminder_seconds
                   if deadline - s * 1000 > event.at_ms]
        return CueChanges(add=[Cue(f"wildcard-r{event.round}-claimed", text, event.at_ms)],
                          withdraw=pending)

    def _name(self, card: str) -> str:
        return self.wildcard.members.by_card[card].display_name

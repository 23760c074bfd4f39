"""What the PA announcer reads during the Wild Card draw, in words to say aloud.

Cue ids are derived from the round (`wildcard-r2-winner`), so replay rebuilds the same cues; a
winner called again after an outage gets `wildcard-r2-call2`. Reminders are cues due at 60, 30 and
10 s before the running claim deadline; a claim, a new call or a disqualification withdraws those
not yet due. A call's cues share a topic (`wildcard-r2-claim`): the winner, the reminders, time up
when the window runs out, the claim or the redraw each replace the ones before (docs/cue.md). An
ineligible winner's cue never says why (self-exclusion is private). Rule numbers and what to
check go in the cue's notes, for the MC, never in the text read aloud.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.domain.cues import Cue, CueChanges, CueHandler
from controller.domain.events import DomainEvent
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.events import (
    WildcardClaimed,
    WildcardClaimExpired,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
    WildcardRevealed,
    WildcardStandInNamed,
)


class WildcardCues:
    """A cue source (controller.domain.cues.CueSource) for the Wild Card draw."""

    def __init__(self, wildcard: Wildcard) -> None:
        self.wildcard = wildcard
        # the current round's calls and claim deadline as last cued (the feature has moved on by
        # the time a later event's cues are made)
        self.calls: tuple[int, int, int | None] = (0, 0, None)

    def cue_handlers(self) -> Mapping[type[DomainEvent], CueHandler]:
        return {WildcardPoolFrozen: self._frozen, WildcardRevealed: self._revealed,
                WildcardClaimed: self._claimed, WildcardRedrawStarted: self._redraw,
                WildcardStandInNamed: self._stand_in, WildcardClaimExpired: self._expired}

    def _frozen(self, event: WildcardPoolFrozen) -> CueChanges:
        return CueChanges(add=[self._starting(event)])

    def _revealed(self, event: WildcardRevealed) -> CueChanges:
        withdraw = self._pending_reminders(event.round, self.wildcard.shown_at or 0)
        self.calls = (event.round, self.wildcard.reveals, self.wildcard.deadline)
        return CueChanges(add=self._winner(event), withdraw=withdraw)

    def _redraw(self, event: WildcardRedrawStarted) -> CueChanges:
        name = self._name(event.card)
        if event.reason != "ineligible":
            text = f"{name} did not come to the stage within 90 seconds."
        elif self.calls[0] != event.round:  # never revealed: not named
            text = "The ticket drawn cannot take part under the promotion's rules."
        else:
            text = f"{name} cannot take the Wild Card seat under the promotion's rules."
        withdraw = self._pending_reminders(event.round, event.at_ms)
        return CueChanges(add=[Cue(f"wildcard-r{event.round}-redraw",
                                   f"{text} We will draw again for the Wild Card.",
                                   event.at_ms, _topic(event.round),
                                   "Rule 40: a finalist who does not come forward within 90 "
                                   "seconds, and is not in the register, is replaced by a "
                                   "redraw.")], withdraw=withdraw)

    def _expired(self, event: WildcardClaimExpired) -> CueChanges:
        """The claim window ran out: "time is up" replaces the last reminder."""
        draw = self.wildcard.draw
        if draw is None or draw.round != event.round:
            return CueChanges()
        text = f"Time is up for {self._name(draw.card)}, card ending in {draw.card[-4:]}."
        return CueChanges(add=[Cue(
            f"{self._prefix(event.round, self.calls[1])}-time-up", text, event.deadline_ms,
            _topic(event.round), "Rule 40: the 90 seconds have run out; redraw, unless the "
                                 "winner is at the stage with card and ID.")])

    def _stand_in(self, event: WildcardStandInNamed) -> CueChanges:
        text = (f"{event.stand_in} will play the Final on behalf of our Wild Card finalist, "
                f"{self._name(event.card)}.")
        return CueChanges(add=[Cue(f"wildcard-stand-in-{event.at_ms}", text, event.at_ms)])

    def _starting(self, event: WildcardPoolFrozen) -> Cue:
        lead = "The Wild Card draw is about to start" if event.round == 1 else (
            "We are drawing again for the Wild Card")
        text = (f"{lead}: {event.tickets} tickets from {event.members} rewards members are in "
                f"the draw. Watch the screens for the winner!")
        return Cue(f"wildcard-r{event.round}-start", text, event.at_ms,
                   notes="Rule 35: the draw is made from the stage and called on the PA.")

    def _winner(self, event: WildcardRevealed) -> list[Cue]:
        draw, calls, at = self.wildcard.draw, self.wildcard.reveals, self.wildcard.shown_at
        assert draw is not None and draw.round == event.round and at is not None
        round_, prefix = event.round, self._prefix(event.round, calls)
        name, last4 = self._name(draw.card), draw.card[-4:]
        said = (f"The Wild Card winner is {name}, ticket number {draw.pick + 1}, "
                f"card ending in {last4}.")
        if event.cause == "after_outage":
            said = (f"After a technical interruption: {said}" if calls == 1 else
                    f"We had a technical interruption while {name}'s 90 seconds were running, "
                    f"so the time starts again. {said}")
        if draw.in_register:
            text = (f"{said} {name} signed the decline-to-attend register and is our Wild Card "
                    "finalist without coming to the stage.")
            return [Cue(f"wildcard-r{round_}-winner", text, at, _topic(round_),
                        "Rule 41: a finalist in the decline-to-attend register need not come "
                        "forward; record the claim from the register.")]
        text = (f"{said} {name}, you have 90 seconds to come to the stage with your rewards card "
                "and your ID!")
        check = "Rule 39: check the rewards card and the ID before recording the claim."
        cues = [Cue(prefix if calls > 1 else f"wildcard-r{round_}-winner", text, at,
                    _topic(round_), check)]
        assert self.wildcard.deadline is not None
        for seconds in self.wildcard.config.reminder_seconds:
            cues.append(Cue(
                f"{prefix}-remind-{seconds}",
                f"{name}, card ending in {last4}: {seconds} seconds left to come to the stage!",
                self.wildcard.deadline - seconds * 1000, _topic(round_), check,
            ))
        return cues

    def _claimed(self, event: WildcardClaimed) -> CueChanges:
        name = self._name(event.card)
        if event.present:
            text = f"{name} has claimed the Wild Card and joins the Final of the Slots PAYOFF!"
        else:
            text = (f"{name} is confirmed as our Wild Card finalist from the decline-to-attend "
                    "register and takes the last seat in the Final.")
        pending = self._pending_reminders(event.round, event.at_ms)
        return CueChanges(add=[Cue(f"wildcard-r{event.round}-claimed", text, event.at_ms,
                                   _topic(event.round))], withdraw=pending)

    def _pending_reminders(self, round_: int, now_ms: int) -> list[str]:
        """The reminder ids of the last call of `round_` not yet due at `now_ms`."""
        cued_round, calls, deadline = self.calls
        if cued_round != round_ or deadline is None:
            return []
        prefix = self._prefix(round_, calls)
        return [f"{prefix}-remind-{s}" for s in self.wildcard.config.reminder_seconds
                if deadline - s * 1000 > now_ms]

    @staticmethod
    def _prefix(round_: int, calls: int) -> str:
        return f"wildcard-r{round_}" if calls <= 1 else f"wildcard-r{round_}-call{calls}"

    def _name(self, card: str) -> str:
        return self.wildcard.members.by_card[card].display_name


def _topic(round_: int) -> str:
    """The topic of a round's calls: each cue of it replaces the ones before."""
    return f"wildcard-r{round_}-claim"

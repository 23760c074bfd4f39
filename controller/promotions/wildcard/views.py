"""The public draw screen of the Wild Card (docs/scenes.md `draw:wildcard`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.domain.members import Members
from controller.promotions.wildcard.config import WildcardConfig
from controller.promotions.wildcard.events import (
    WildcardClaimed,
    WildcardDrawn,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
)

VIEW = "draw:wildcard"
SUBTITLE = "Slots PAYOFF \u2013 one seat in the Final"
REEL_SIZE = 24  # names on the draw screen's reel


class WildcardViews:
    """A mixin of `Wildcard`: it only reads the draw's state; names are public ones."""

    config: WildcardConfig
    members: Members
    pool: WildcardPoolFrozen | None
    draw: WildcardDrawn | None
    claim: WildcardClaimed | None
    revealed: bool
    activated: set[str]
    redraws: list[WildcardRedrawStarted]
    stand_in: str | None

    def phase(self) -> str:
        if self.claim is not None:
            return "finalist"
        if self.draw is not None:
            return "claim" if self.revealed else "drawing"
        return "frozen" if self.pool is not None else "entries"

    def view_names(self) -> Iterable[str]:
        return (VIEW,)

    def view(self, name: str) -> dict[str, Any]:
        """The public draw screen; the winner appears only once `WildcardRevealed` is applied."""
        pool = self.pool
        doc: dict[str, Any] = {
            "title": "Wild Card draw",
            "subtitle": SUBTITLE,
            "phase": self.phase(),
            "round": pool.round if pool else len(self.redraws) + 1,
            "activated": len(self.activated),
            "bins_open_at": self.config.bins_open_ms,
            "bins_close_at": self.config.bins_close_ms,
            "pool": pool and {"members": pool.members, "tickets": pool.tickets,
                              "digest": pool.digest},
            "reel": self._reel(),
            "spin_started_at": self.draw and self.draw.drawn_at_ms,
            "reveal_at": self.draw and self.draw.reveal_at_ms,
            "claim_deadline": None,
            "winner": None,
            "finalist": None,
            "redraws": [{"round": r.round, **self._public(r.card), "cause": r.cause}
                        for r in self.redraws],
        }
        if self.draw is not None and self.revealed:
            doc["winner"] = {**self._public(self.draw.card), "ticket": self.draw.pick + 1,
                             "in_register": self.draw.in_register}
            if not self.draw.in_register:
                doc["claim_deadline"] = self.draw.claim_deadline_ms
        if self.claim is not None:
            doc["finalist"] = {**self._public(self.claim.card), "present": self.claim.present,
                               "stand_in": self.stand_in,
                               "prize_claim_by": self.claim.prize_claim_by_ms}
        return doc

    def _reel(self) -> list[dict[str, Any]]:
        """Names for the reel animation, published from the draw on: holders spread evenly over
        the frozen pool, each with their first ticket number, never the drawn winner (the
        screen lands on a sealed card that opens into the winner at `reveal_at`)."""
        if self.pool is None or self.draw is None:
            return []
        firsts, number = [], 1
        for card, tickets in self.pool.listing:
            if card != self.draw.card:
                firsts.append((str(card), number))
            number += int(tickets)
        step = max(1, len(firsts) // REEL_SIZE)
        return [{"name": self._name(card), "ticket": first}
                for card, first in firsts[::step][:REEL_SIZE]]

    def _name(self, card: str) -> str:
        return self.members.by_card[card].display_name

    def _public(self, card: str) -> dict[str, str]:
        member = self.members.by_card[card]
        return {"name": member.display_name, "masked_card": member.masked_card}

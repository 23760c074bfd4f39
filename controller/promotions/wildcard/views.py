"""The public draw screen of the Wild Card (docs/scenes.md `draw:wildcard`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from controller.domain.members import Members
from controller.promotions.wildcard.config import WildcardConfig
from controller.promotions.wildcard.events import (
    WildcardClaimed,
    WildcardDrawn,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
    WildcardRevealed,
)

VIEW = "draw:wildcard"
SUBTITLE = "Slots PAYOFF \u2013 one seat in the Final"
REEL_SIZE = 24  # names on the draw screen's reel
#: what the screens say of a winner who lost the seat as ineligible: never the private reason
INELIGIBLE = "not eligible to take the seat under the promotion's rules (rules 2-3, 47)"


class WildcardViews:
    """A mixin of `Wildcard`: it only reads the draw's state; names are public ones."""

    config: WildcardConfig
    members: Members
    pool: WildcardPoolFrozen | None
    draw: WildcardDrawn | None
    claim: WildcardClaimed | None
    reveal: WildcardRevealed | None
    shown_at: int | None
    deadline: int | None
    activated: set[str]
    redraws: list[WildcardRedrawStarted]
    shown_redraws: list[WildcardRedrawStarted]
    stand_in: str | None

    def phase(self) -> str:
        if self.claim is not None:
            return "finalist"
        if self.draw is not None:
            return "claim" if self.reveal is not None else "drawing"
        return "frozen" if self.pool is not None else "entries"

    def view_names(self) -> Iterable[str]:
        return (VIEW,)

    def view(self, name: str) -> dict[str, Any]:
        """The public draw screen. Until `WildcardRevealed` nothing in it depends on the pick:
        at the draw only the phase and the draw's times (not the winner's) change."""
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
            "reveal_at": self.draw and (self.shown_at or self.draw.reveal_at_ms),
            "claim_deadline": None,
            "winner": None,
            "finalist": None,
            "redraws": [{"round": r.round, **self._public(r.card),
                         "cause": INELIGIBLE if r.reason == "ineligible" else r.cause}
                        for r in self.shown_redraws],
        }
        if self.draw is not None and self.reveal is not None:
            doc["winner"] = {**self._public(self.draw.card), "ticket": self.draw.pick + 1,
                             "in_register": self.draw.in_register}
            if not self.draw.in_register:
                doc["claim_deadline"] = self.deadline
        if self.claim is not None:
            doc["finalist"] = {**self._public(self.claim.card), "present": self.claim.present,
                               "stand_in": self.stand_in,
                               "prize_claim_by": self.claim.prize_claim_by_ms}
        return doc

    def _reel(self) -> list[dict[str, Any]]:
        """Names for the reel animation, from the freeze on: up to REEL_SIZE holders of the
        frozen pool, winner included, each with their first ticket number, in an order fixed
        by the pool's digest alone. Nothing here depends on the pick, so the reel gives no one
        away before the reveal (the screen lands on a sealed card that opens at `reveal_at`)."""
        if self.pool is None:
            return []
        firsts, number = [], 1
        for card, tickets in self.pool.listing:
            firsts.append((str(card), number))
            number += int(tickets)
        digest = self.pool.digest

        def shuffled(holder: tuple[str, int]) -> str:
            return hashlib.sha256(f"{digest}:{holder[0]}".encode()).hexdigest()

        return [{"name": self._name(card), "ticket": first}
                for card, first in sorted(firsts, key=shuffled)[:REEL_SIZE]]

    def _name(self, card: str) -> str:
        return self.members.by_card[card].display_name

    def _public(self, card: str) -> dict[str, str]:
        member = self.members.by_card[card]
        return {"name": member.display_name, "masked_card": member.masked_card}

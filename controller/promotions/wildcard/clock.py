"""What time and eligibility make due in the Wild Card draw (docs/draws.md "Outages").

The clock appends these like a command's events (`Wildcard.due`, polled by `Service.tick`):

- the reveal, `reveal_lead_ms` before the draw's `reveal_at`; the 90 s of rule 39 run from the
  moment the reveal is shown. A reveal the clock finds overdue (the controller was down or
  stalled at `reveal_at`) is shown `reveal_lead_ms` from now, with a fresh window, cause
  "after_outage";
- the claim window's end (`WildcardClaimExpired`) when the clock sees the deadline pass. A
  deadline found more than `OUTAGE_GRACE_MS` past ran out while the controller was not running
  (nobody could record a claim, screens and cues were stale): the winner is revealed and called
  again with a fresh 90 s, cause "after_outage", and no redraw is allowed until that runs out;
- the disqualification of a winner (or finalist, until the final starts) who became ineligible
  after the draw (rules 2-3: self-excluded, refused entry, under 18, insider; rule 47:
  disqualified from the promotion): `WildcardRedrawStarted(reason="ineligible")` and, when
  anyone is left, the next round's frozen pool.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.members import FLAGS, Members
from controller.promotions.wildcard.config import WildcardConfig
from controller.promotions.wildcard.events import (
    WildcardClaimed,
    WildcardClaimExpired,
    WildcardDrawn,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
    WildcardRevealed,
)
from controller.promotions.wildcard.pool import pool_digest, total_tickets

#: the clock polls several times a second: a deadline noticed later than this ran out while the
#: controller was not running
OUTAGE_GRACE_MS = 5_000
CONTROLLER = "controller"  # the actor of what the clock decides


class Roster(Protocol):
    """What the tournament tells the draw of a card: whether it took part (rule 18.2), already
    qualified, or was disqualified from the promotion (rule 47); and whether qualifying is over
    (rule 17: its two direct finalists are then known) and the final has begun. Asked of one
    card at a time: a season's tournament holds a million entries, and the clock asks of the
    drawn winner every second."""

    def took_part(self, card: str) -> bool: ...

    def holds_final_seat(self, card: str) -> bool: ...

    def is_disqualified(self, card: str) -> bool: ...

    def final_started(self) -> bool: ...

    def qualifying_closed(self) -> bool: ...


class WildcardClock:
    """A mixin of `Wildcard`: the events time and eligibility make due, the pool they freeze,
    and the claim window as it stands at a given moment (what the clock has appended, or would
    append now)."""

    config: WildcardConfig
    members: Members
    roster: Roster
    pool: WildcardPoolFrozen | None
    draw: WildcardDrawn | None
    reveal: WildcardRevealed | None
    shown_at: int | None
    deadline: int | None
    expired: bool
    claim: WildcardClaimed | None
    excluded: list[str]
    activated: set[str]


    def due(self, now_ms: int) -> list[DomainEvent]:
        if self.draw is None:
            return []
        why = self.ineligible(self.draw.card)
        if why is not None and (self.claim is None or not self.roster.final_started()):
            return self.disqualified(why, now_ms)
        if self.claim is not None:
            return []
        if self.reveal is None:
            return self._reveal(now_ms)
        if self.expired or self.draw.in_register or self.deadline is None:
            return []
        if now_ms < self.deadline:
            return []
        if now_ms - self.deadline <= OUTAGE_GRACE_MS:
            return [WildcardClaimExpired(self.draw.round, self.deadline)]
        return [self._reveal_event(now_ms + self.config.reveal_lead_ms, "after_outage")]

    def reveal_due_ms(self) -> int | None:
        """When the drawn winner may reach the views, or None if nothing awaits its reveal."""
        if self.draw is None or self.reveal is not None:
            return None
        return self.draw.reveal_at_ms - self.config.reveal_lead_ms

    def ineligible(self, card: str) -> str | None:
        """Why `card` may no longer hold the Wild Card (for the log and the audit), or None."""
        member = self.members.by_card[card]
        if member.flags:
            reasons = ", ".join(FLAGS[f] for f in sorted(member.flags))
            return f"{member.display_name} may not take part: {reasons} (rules 2-3)"
        if self.roster.is_disqualified(card):
            return f"{member.display_name} was disqualified from the promotion (rule 47)"
        return None

    def disqualified(self, why: str, now_ms: int) -> list[DomainEvent]:
        """The winner loses the seat; the next round's pool is frozen if anyone is left."""
        assert self.draw is not None
        round_, card = self.draw.round, self.draw.card
        out: list[DomainEvent] = [WildcardRedrawStarted(
            round_, card, f"disqualified after the draw: {why}", CONTROLLER, now_ms,
            "ineligible")]
        pool = self.frozen_pool(round_ + 1, [*self.excluded, card], CONTROLLER, now_ms)
        return out if pool is None else [*out, pool]

    def frozen_pool(self, round_: int, excluded: list[str], actor: str,
                    now_ms: int) -> WildcardPoolFrozen | None:
        """The pool of `round_` as the rules compute it now, or None if nobody is left."""
        listing = self.pool_listing(excluded)
        if not listing:
            return None
        return WildcardPoolFrozen(round_, listing, len(listing), total_tickets(listing),
                                  pool_digest(listing), excluded, actor, now_ms)

    def pool_listing(self, excluded: Iterable[str] = ()) -> list[list[Any]]:
        """Who is in the draw and with how many tickets, in canonical (card) order."""
        out: list[list[Any]] = []
        roster, skip = self.roster, set(excluded)
        for card in sorted(self.activated - skip):
            if roster.holds_final_seat(card) or roster.is_disqualified(card):
                continue
            member = self.members.by_card[card]
            if not member.rewards_member or member.flags:
                continue  # rules 2-3: flagged after activating
            tickets = self.config.tickets_per_cardholder  # rules 18.1, 33.1
            if roster.took_part(card):
                tickets += self.config.tickets_per_participant  # rules 18.2, 33.2
            out.append([card, tickets])
        return out

    def window(self, now_ms: int) -> tuple[list[DomainEvent], int | None, int | None]:
        """(events the clock owes now, the reveal's shown time, the claim deadline) as they
        stand at `now_ms`. A refusal names the winner who is ineligible or called again."""
        pending = self.due(now_ms)
        shown, deadline = self.shown_at, self.deadline
        for event in pending:
            if isinstance(event, WildcardRedrawStarted):
                raise Rejected("ineligible", f"{event.cause}; the draw passes to another "
                               "winner, so there is nothing to confirm.")
            if isinstance(event, WildcardRevealed):
                shown, deadline = event.at_ms, event.claim_deadline_ms
                if event.cause == "after_outage" and self.reveal is not None:
                    raise Rejected("claim_restarted", "The controller was not running when the "
                                   "90 seconds ran out, so nobody could record a claim: the "
                                   "winner is called again with 90 fresh seconds from "
                                   f"{self.config.clock(shown or now_ms)} (rules 39-40).")
        return pending, shown, deadline

    def _reveal(self, now_ms: int) -> list[DomainEvent]:
        assert self.draw is not None
        at = self.draw.reveal_at_ms
        if now_ms < at - self.config.reveal_lead_ms:
            return []
        if now_ms <= at:
            return [self._reveal_event(at, "scheduled")]
        return [self._reveal_event(now_ms + self.config.reveal_lead_ms, "after_outage")]

    def _reveal_event(self, at_ms: int, cause: str) -> WildcardRevealed:
        assert self.draw is not None
        return WildcardRevealed(self.draw.round, at_ms, at_ms + self.config.claim_ms, cause)

"""A member's own Wild Card entry, as the member sees it at a kiosk or in the venue's app.

Members activate their own tickets at an ehost kiosk or in the app (slots rules 18.3, 33.3)
while the entry bins are open (rule 36). What a member is told is theirs alone: anyone who has
no tickets today (an unknown card, a guest who is no Rewards member, anyone excluded by rules
2-3 or 47, anyone already in the Final) gets the one answer `NO_ENTRIES`, worded so it gives
no private reason, by the same steps, so the answer and its time tell nothing apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from controller.domain.errors import Rejected

if TYPE_CHECKING:
    from controller.promotions.wildcard.feature import Wildcard

NO_ENTRIES = Rejected("no_entries", "There are no Wild Card tickets on this card today. The "
                      "Rewards desk can help.")

#: before the bins open, while they are open, after they closed; `frozen` once the draw's pool
#: is fixed (the member's ticket numbers are known from then on)
EntryState = Literal["bins_not_open", "open", "closed", "frozen"]


@dataclass(frozen=True)
class MemberEntry:
    """What a member holds in today's Wild Card draw (rules 18.1-18.2, 33.1-33.2)."""

    name: str  # the public name the screens show ("Thandi M.")
    cardholder_tickets: int  # rule 18.1
    participant_tickets: int  # rule 18.2: 0 unless they played the tournament
    activated_at_ms: int | None  # None: not activated (yet)
    state: EntryState
    bins_open_ms: int
    bins_close_ms: int
    ticket_numbers: tuple[int, ...]  # from the freeze on, when activated: theirs in the pool
    pool_digest: str | None  # the digest the draw screen shows, from the freeze on

    @property
    def tickets(self) -> int:
        return self.cardholder_tickets + self.participant_tickets

    @property
    def can_activate(self) -> bool:
        return self.state == "open" and self.activated_at_ms is None


def member_entry(draw: Wildcard, card: str, now_ms: int) -> MemberEntry:
    """The entry on `card` at `now_ms`, or `NO_ENTRIES` for a card that has none."""
    member = draw.members.by_card.get(card)
    # every check is made for every card (no early answer for an unknown one): same steps
    outside = [member is None, member is not None and not member.rewards_member,
               member is not None and bool(member.flags), draw.roster.holds_final_seat(card),
               draw.roster.is_disqualified(card), card in draw.excluded]
    if any(outside) or member is None:
        raise NO_ENTRIES
    config = draw.config
    participant = config.tickets_per_participant if draw.roster.took_part(card) else 0
    numbers: tuple[int, ...] = ()
    if draw.pool is not None:
        first = 1
        for held, tickets in draw.pool.listing:
            if held == card:
                numbers = tuple(range(first, first + int(tickets)))
                break
            first += int(tickets)
    state = bins_state(draw, now_ms)
    return MemberEntry(member.display_name, config.tickets_per_cardholder, participant,
                       draw.activated_at.get(card), state, config.bins_open_ms,
                       config.bins_close_ms, numbers,
                       draw.pool.digest if draw.pool is not None else None)


def bins_state(draw: Wildcard, now_ms: int) -> EntryState:
    """Where the entry bins are at `now_ms` (rule 36), `frozen` once the pool is fixed."""
    if draw.pool is not None:
        return "frozen"
    if now_ms < draw.config.bins_open_ms:
        return "bins_not_open"
    return "open" if now_ms < draw.config.bins_close_ms else "closed"


def self_activation(draw: Wildcard, card: str, now_ms: int) -> MemberEntry:
    """The entry a member may activate now themself; refused in words a member reads."""
    entry = member_entry(draw, card, now_ms)
    if entry.activated_at_ms is not None:
        raise Rejected("already_activated", f"{entry.name}, your {entry.tickets} tickets were "
                       f"activated at {draw.config.clock(entry.activated_at_ms)}.")
    if entry.state == "bins_not_open":
        raise Rejected("bins_not_open", "The entry bins open at "
                       f"{day_time(draw, entry.bins_open_ms)}; come back then to activate "
                       "your tickets (rule 36).")
    if entry.state != "open":
        raise Rejected("bins_closed", "The entry bins closed at "
                       f"{day_time(draw, entry.bins_close_ms)}; tickets can no longer be "
                       "activated (rule 36).")
    return entry


def day_time(draw: Wildcard, ms: int) -> str:
    """'16:00 on 18 January 2024': the bins' day is the draw's day, never the reader's today."""
    day = draw.config.draw_day
    return f"{draw.config.clock(ms)[:5]} on {day.day} {day:%B %Y}"


class EntryDoc(BaseModel):
    """A member's entry as JSON: the kiosk's answer and the member API's, one shape. Times are
    given twice: epoch ms for the app, and in the casino's words for a page to show."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(description="The member's public name, as the screens show it.")
    tickets: int = Field(description="Wild Card tickets on this card (rules 18.1-18.2).")
    cardholder_tickets: int = Field(description="As an active Rewards cardholder (rule 18.1).")
    participant_tickets: int = Field(description="For taking part in the tournament (18.2).")
    state: EntryState = Field(description="bins_not_open, open, closed, or frozen (the draw's "
                                          "pool is fixed).")
    activated: bool
    can_activate: bool = Field(description="True while the bins are open and the tickets are "
                                           "not activated yet.")
    activated_at_ms: int | None
    activated_at: str | None = Field(description="When, in the casino's time: '16:05:12'.")
    bins_open_ms: int
    bins_close_ms: int
    bins_open: str = Field(description="'16:00 on 18 January 2024'")
    bins_close: str = Field(description="'18:00 on 18 January 2024'")
    ticket_numbers: list[int] = Field(description="The member's ticket numbers in the pool, "
                                                  "from the freeze on (empty before).")
    pool_digest: str | None = Field(description="The SHA-256 of the frozen pool, as the draw "
                                                "screen shows it.")

    @classmethod
    def of(cls, draw: Wildcard, entry: MemberEntry) -> EntryDoc:
        at = entry.activated_at_ms
        return cls(name=entry.name, tickets=entry.tickets,
                   cardholder_tickets=entry.cardholder_tickets,
                   participant_tickets=entry.participant_tickets, state=entry.state,
                   activated=at is not None, can_activate=entry.can_activate,
                   activated_at_ms=at, activated_at=None if at is None else draw.config.clock(at),
                   bins_open_ms=entry.bins_open_ms, bins_close_ms=entry.bins_close_ms,
                   bins_open=day_time(draw, entry.bins_open_ms),
                   bins_close=day_time(draw, entry.bins_close_ms),
                   ticket_numbers=list(entry.ticket_numbers), pool_digest=entry.pool_digest)

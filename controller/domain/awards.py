"""A prize the rules award, as a record the prize register keeps until it is paid or lapses.

Every promotion decides its prizes in its own rules (a final's places, a Super 9 win, a weekly
top score, the Wild Card's seat) and returns a `PrizeAwarded` with the event that decides it,
in the same command or clock step, so no prize is ever only a line on a screen. The claim
deadline is the decision plus the promotion's `claim_days` (15 by the rules: slots rules 43
and 45, poker rule 55), read from the logged config. The register (controller/register/)
follows these events from owed to paid or lapsed (docs/prizes.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.domain.events import DomainEvent
from controller.domain.prizes import Prize
from showrunner.contract.money import format_zar

DAY_MS = 24 * 60 * 60 * 1000
#: the rules' claim period (slots rules 43, 45; poker rule 55); each config may change it
CLAIM_DAYS = 15


@dataclass(frozen=True)
class PrizeAwarded(DomainEvent, type_name="PrizeAwarded"):
    """`prize` is a readable, deterministic id ("poker-final-1"); `kind` "cash" (`cents`) or
    "seat" (`seat` says which, `cents` 0); `what` and `rule` are for people."""

    prize: str
    promotion: str
    card: str  # "" for a Super 9 ticket sold without a card: the ticket is the proof
    kind: str  # "cash" | "seat"
    cents: int
    seat: str | None
    what: str
    rule: str
    decided_ms: int
    deadline_ms: int


def claim_deadline(decided_ms: int, claim_days: int) -> int:
    """When a prize decided at `decided_ms` must have been collected by."""
    return decided_ms + claim_days * DAY_MS


def cash_prize(prize: str, promotion: str, card: str, cents: int, what: str, rule: str,
               decided_ms: int, claim_days: int) -> PrizeAwarded:
    """An amount of money owed to `card`."""
    return PrizeAwarded(prize, promotion, card, "cash", cents, None, what, rule, decided_ms,
                        claim_deadline(decided_ms, claim_days))


def seat_prize(prize: str, promotion: str, card: str, seat: str, rule: str, decided_ms: int,
               deadline_ms: int) -> PrizeAwarded:
    """A place in a later stage (the Wild Card's seat in the Final), not money; its deadline
    is the draw's own (the Wild Card counts its claim period from the draw)."""
    return PrizeAwarded(prize, promotion, card, "seat", 0, seat, seat, rule, decided_ms,
                        deadline_ms)


def place_prizes(prefix: str, promotion: str, title: str, holders: Sequence[str],
                 table: Sequence[Prize], rule: str, decided_ms: int,
                 claim_days: int) -> list[PrizeAwarded]:
    """One prize per paid place that has a holder (`holders[i]` is place i+1's card): a
    place nobody reached awards nothing. Ids are `prefix-<place>`."""
    pool = format_zar(sum(p.cents for p in table))
    return [cash_prize(f"{prefix}-{p.place}", promotion, card, p.cents,
                       f"{title}, place {p.place}: {p.percent}% of {pool}", rule, decided_ms,
                       claim_days)
            for p, card in zip(table, holders, strict=False) if p.cents > 0]

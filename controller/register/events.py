"""Events of the prize register: a prize paid (and signed for), or lapsed at its deadline.

The award itself is `controller.domain.awards.PrizeAwarded`, emitted by the promotion that
decides it. A payment keeps only the identity document's type and its last four characters,
never the number, and the winner's signature as a reference to the stored image.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class PrizePaid(DomainEvent, type_name="PrizePaid"):
    """The winner collected the prize and signed for it (slots rule 44, super9 rule 26,
    poker rule 55); `paid_by` is the operator who paid it."""

    prize: str
    card: str
    cents: int
    method: str  # cash | eft | cheque | voucher
    paid_by: str
    id_type: str
    id_last4: str
    signature: dict[str, Any]  # SignatureRef.data()
    at_ms: int


@dataclass(frozen=True)
class PrizeLapsed(DomainEvent, type_name="PrizeLapsed"):
    """Not collected by its deadline: the rules' consequence, in words, for the record."""

    prize: str
    at_ms: int
    consequence: str

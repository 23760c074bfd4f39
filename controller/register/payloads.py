"""What the MC sends to pay a prize: the prize, the winner's card, the amount, how it was
paid, the identity document seen (its type and last four characters only) and the signature;
and, before the winner signs, the prize and the card presented, to check they match."""

from __future__ import annotations

import re
from typing import Annotated, Literal, TypeAlias

from pydantic import AfterValidator, Field, StrictStr

from controller.domain.commands import payload
from controller.domain.signatures import SignatureRef
from showrunner.contract.fields import PRINTABLE, CardNumber, Cents, Ref

Method: TypeAlias = Literal["cash", "eft", "cheque", "voucher"]
_LAST4 = re.compile(r"[A-Za-z0-9]{4}")


def _last4(value: str) -> str:
    """Exactly four letters or digits: a longer value is a whole ID number, refused unseen."""
    if not _LAST4.fullmatch(value):
        raise ValueError("must be exactly the last 4 letters or digits of the document, "
                         "never the whole number")
    return value.upper()


Last4: TypeAlias = Annotated[StrictStr, Field(json_schema_extra={
    "pattern": "^[A-Za-z0-9]{4}$"}), AfterValidator(_last4)]
IdType: TypeAlias = Annotated[StrictStr, Field(min_length=2, max_length=40), PRINTABLE]
"""The identity document seen: "SA ID", "passport", "driver's licence"."""


@payload
class Pay:
    prize: Ref
    cents: Cents
    method: Method
    id_type: IdType
    id_last4: Last4
    signature: SignatureRef
    card: CardNumber | None = None  # none only for a ticket sold without one


@payload
class PrizeCard:
    """The card presented for a prize, checked before the winner signs."""

    prize: Ref
    card: CardNumber | None = None  # none only for a ticket sold without one

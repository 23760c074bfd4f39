"""Command payloads of the Wild Card draw."""

from __future__ import annotations

from controller.domain.commands import payload
from showrunner.contract.fields import CardNumber, DisplayName, Flag, ShortText


@payload
class Activate:
    card: CardNumber


@payload
class RegisterDecline:
    card: CardNumber
    in_person: Flag  # the member themself, not someone on their behalf (rule 38)
    id_checked: Flag  # positive identification seen (rule 38)
    id_document: ShortText  # what was shown, e.g. "SA ID" (not its number)
    contact: ShortText = ""  # how to reach the member if they win (rule 43)


@payload
class NoFields:
    """A command that needs nothing but the operator's intent."""


@payload
class Claim:
    card_checked: Flag  # the winner's rewards card, or evidence of the ticket (rule 39)
    id_checked: Flag  # positive and acceptable identification (rule 39)


@payload
class Redraw:
    note: ShortText = ""


@payload
class NameStandIn:
    name: DisplayName
    acknowledged_not_entitled: Flag  # rule 42

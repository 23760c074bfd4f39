"""The prize register (docs/prizes.md): what the promotions awarded, paid or lapsed.

A prize is owed from its `PrizeAwarded` until it is paid (`prizes.pay`: the winner's card, the
whole amount, the identity document's type and last four characters, the winner's signature)
or its claim deadline passes, when the clock lapses it with the rules' consequence in words
(slots rules 43-45, poker rule 55). The Wild Card's prize is a seat in the Final, handed over
in the step that awards it (the claim seats the finalist), so it is never owed or paid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.domain.awards import DAY_MS, PrizeAwarded
from controller.domain.commands import Command, Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from controller.domain.members import Members
from controller.register.events import PrizeLapsed, PrizePaid
from controller.register.payloads import Pay
from controller.register.state import Prize
from controller.register.views import rows
from showrunner.contract.money import format_zar

#: what the rules say of a prize not collected in time, per promotion
LAPSE_RULES = {
    "slots": "slots rules 43 and 45",
    "poker": "poker rule 55",
    "roulette": "the venue's claim period, as for the other tournaments",
    "super9": "super9 rule 26 and the venue's claim period",
}
METHODS = {"cash": "cash", "eft": "EFT", "cheque": "cheque", "voucher": "voucher"}


class Register(Feature):
    name = "register"

    def __init__(self, members: Members) -> None:
        self.members = members
        self.prizes: dict[str, Prize] = {}

    def commands(self) -> Iterable[Command[Any]]:
        return (Command("prizes.pay", "operator", Pay, self.pay,
                        "Pay a prize its winner signed for: the method, the ID seen (type and "
                        "last 4 characters only) and the winner's signature."),)

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {PrizeAwarded: self._awarded, PrizePaid: self._paid, PrizeLapsed: self._lapsed}

    # -- lookups --------------------------------------------------------------------------------
    def winner(self, award: PrizeAwarded) -> str:
        """The winner's public name; a Super 9 ticket sold without a card has none."""
        member = self.members.by_card.get(award.card)
        return member.display_name if member else "The ticket holder"

    @staticmethod
    def consequence(award: PrizeAwarded) -> str:
        days = (award.deadline_ms - award.decided_ms) // DAY_MS
        rule = LAPSE_RULES.get(award.promotion, "the venue's claim period")
        return (f"Not collected within {days} day{'' if days == 1 else 's'} of the draw: "
                f"forfeited ({rule})")

    # -- commands -------------------------------------------------------------------------------
    def payable(self, prize_id: str, card: str | None, now_ms: int) -> Prize:
        """The prize, if it may be paid now to the holder of `card`; else refused in words.
        `prizes.pay` checks this, and the Pay dialog asks it (the `prize_card_check` query)
        before the winner signs. No refusal names the winner's card: the person who presented
        a wrong card hears only that it is not the winner's."""
        prize = self.prizes.get(prize_id)
        if prize is None:
            raise Rejected("unknown_prize", "That prize is not in the register; refresh the "
                                            "list and choose it again.")
        a = prize.award
        whose = f"{self.winner(a)}'s prize ({a.what})"
        if prize.state == "seated":
            raise Rejected("seat_prize", f"{whose} is a seat, handed over when the Wild Card "
                                         "was claimed; there is no money to pay.")
        if prize.paid is not None:
            raise Rejected("already_paid", f"{whose} was already paid by {prize.paid.paid_by} "
                                           f"({METHODS[prize.paid.method]}); a prize is paid "
                                           "once.")
        if prize.lapsed is not None or now_ms >= a.deadline_ms:
            raise Rejected("lapsed", f"{whose} lapsed: {self.consequence(a).lower()}; it can "
                                     "no longer be paid.")
        if (card or "") != a.card:
            raise Rejected("wrong_card", _not_the_winners(whose, card, a.card))
        return prize

    def pay(self, p: Pay, ctx: Context) -> list[DomainEvent]:
        a = self.payable(p.prize, p.card, ctx.now_ms).award
        if p.cents != a.cents:
            raise Rejected("wrong_amount", f"{self.winner(a)}'s prize ({a.what}) is "
                                           f"{format_zar(a.cents)}, not {format_zar(p.cents)}: "
                                           "pay the whole prize.")
        id_type = " ".join(p.id_type.split())
        return [PrizePaid(a.prize, a.card, a.cents, p.method, ctx.actor, id_type, p.id_last4,
                          p.signature.data(), ctx.now_ms)]

    def due(self, now_ms: int) -> list[DomainEvent]:
        """Owed prizes whose deadline has come lapse, each with its consequence."""
        return [PrizeLapsed(p.award.prize, now_ms, self.consequence(p.award))
                for p in self.prizes.values()
                if p.state == "owed" and p.award.deadline_ms <= now_ms]

    # -- folds ----------------------------------------------------------------------------------
    def _awarded(self, event: PrizeAwarded) -> Iterable[str]:
        self.prizes[event.prize] = Prize(event)
        return ()

    def _paid(self, event: PrizePaid) -> Iterable[str]:
        self.prizes[event.prize].paid = event
        return ()

    def _lapsed(self, event: PrizeLapsed) -> Iterable[str]:
        self.prizes[event.prize].lapsed = event
        return ()

    # -- the register ---------------------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        """Every prize for operators and auditors: owed first, soonest deadline first."""
        return rows(self.prizes.values(), self.members, self.winner)


def _not_the_winners(whose: str, presented: str | None, winners: str) -> str:
    """Why a card is refused, naming neither card's digits (slots rule 44, super9 rule 26)."""
    why = "prizes are not transferable: slots rule 44, super9 rule 26"
    if not winners:
        return (f"{whose} was won on a Super 9 ticket sold without a card: it is paid against "
                f"the ticket, not a card ({why}).")
    if not presented:
        return f"{whose} is paid only against its winner's Rewards card: scan the card."
    return (f"This card is not the winner's: {whose} is paid only to the member it was won "
            f"by ({why}).")

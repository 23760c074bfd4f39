"""The prize register as the console and the auditor read it (the `prize_register` query).

Personal information (the ID's last four characters, the signature's reference) is in these
rows, so they are answered to operators and auditors only, never published as a view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from controller.domain.awards import PrizeAwarded
from controller.domain.members import Members
from controller.register.state import Prize
from showrunner.contract.money import format_zar

ORDER = {"owed": 0, "paid": 1, "lapsed": 2, "seated": 3}


def rows(prizes: Iterable[Prize], members: Members,
         winner: Callable[[PrizeAwarded], str]) -> list[dict[str, Any]]:
    ordered = sorted(prizes, key=lambda p: (ORDER[p.state], p.award.deadline_ms, p.award.prize))
    return [row(p, members, winner(p.award)) for p in ordered]


def row(prize: Prize, members: Members, name: str) -> dict[str, Any]:
    a = prize.award
    member = members.by_card.get(a.card)
    out: dict[str, Any] = {
        "prize": a.prize, "promotion": a.promotion, "name": name,
        "card": member.masked_card if member else "", "what": a.what, "rule": a.rule,
        "kind": a.kind, "seat": a.seat, "cents": a.cents,
        # money only: a seat is said once, in `what` (the tables' Amount column is money)
        "amount_text": format_zar(a.cents) if a.kind == "cash" else "",
        "decided_ms": a.decided_ms, "deadline_ms": a.deadline_ms, "state": prize.state,
        "paid": None, "lapsed": None,
    }
    if prize.paid is not None:
        p = prize.paid
        out["paid"] = {"method": p.method, "paid_by": p.paid_by, "id_type": p.id_type,
                       "id_last4": p.id_last4, "signature_sha256": p.signature["sha256"],
                       "at_ms": p.at_ms}
    if prize.lapsed is not None:
        out["lapsed"] = {"at_ms": prize.lapsed.at_ms, "consequence": prize.lapsed.consequence}
    return out

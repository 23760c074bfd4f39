"""Shows with prizes decided, for the register's tests: each promotion played to the step
that awards its prizes through the same commands the tablet sends (tests/promotions/)."""

from __future__ import annotations

from typing import Any

from controller.domain.awards import PrizeAwarded
from controller.domain.events import DomainEvent
from tests.promotions import test_poker, test_roulette, test_slots
from tests.promotions.helpers import Driver

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
#: a reference as POST /signatures answers it (the pure show does not check the store)
SIGNATURE: dict[str, Any] = {"sha256": "5" * 64, "media_type": "image/png", "bytes": 2048,
                             "width": 600, "height": 200, "strokes": 3}


def awards(events: list[DomainEvent]) -> list[PrizeAwarded]:
    return [e for e in events if isinstance(e, PrizeAwarded)]


def roulette_final(d: Driver) -> list[PrizeAwarded]:
    """Ten guests, R200 each (a R2 000 pool), the final played; the close's awards."""
    test_roulette.qualifying(d, [100 * (i + 1) for i in range(10)])
    d.do("roulette.close_stage", {"stage": "qualifying"})
    for group in ("Group 1", "Group 2"):
        test_roulette.play_heat(d, group, "final")
    for i, f in enumerate(test_roulette.final_entries(d)):
        d.do("roulette.record_score", {"entry": f.id, "score": 1_000 + i})
    return awards(d.do("roulette.close_stage", {"stage": "final"}))


def slots_final(d: Driver) -> list[PrizeAwarded]:
    test_slots.to_final(d)
    d.do("slots.draw_seats", {"stage": "final"})
    for i, e in enumerate(test_slots.stage_entries(d, "final")):
        d.do("slots.record_score", {"entry": e.id, "score": 20_000 - 7 * i})
    return awards(d.do("slots.close_stage", {"stage": "final"}))


def poker_final(d: Driver) -> tuple[list[PrizeAwarded], list[PrizeAwarded]]:
    """Qualifying closed (its awards) and the final played and closed (its awards)."""
    test_poker.qualifying(d, [1_000 + 100 * i for i in range(14)])
    qualifying = awards(d.do("poker.close_stage", {"stage": "qualifying"}))
    test_poker.play_semi(d)
    d.do("poker.draw_seats", {})
    for i, e in enumerate(test_poker.stage(d, "final")):
        d.do("poker.record_score", {"entry": e.id, "score": 2_000 + 100 * i, "hands": 12})
    return qualifying, awards(d.do("poker.close_stage", {"stage": "final"}))


def tick(d: Driver, now_ms: int) -> list[DomainEvent]:
    """The controller's clock loop at `now_ms`: every feature's due events, applied."""
    d.now = now_ms
    events = [e for f in d.show.features for e in f.due(now_ms)]
    for event in events:
        d.apply(event)
    return events


def pay(a: PrizeAwarded, **change: Any) -> dict[str, Any]:
    """The payload the console's Pay dialog sends for `a`, with `change` made to it."""
    return {"prize": a.prize, "card": a.card, "cents": a.cents, "method": "cash",
            "id_type": "SA ID", "id_last4": "0087", "signature": SIGNATURE, **change}

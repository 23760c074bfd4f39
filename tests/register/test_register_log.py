"""Paying a prize through the real service on a real SQLite log: every refusal is a sentence
and leaves the log, the views and the state exactly as they were; a lapse is logged by the
clock loop, never silent."""

from __future__ import annotations

from typing import Any

import pytest

from controller.domain.awards import DAY_MS, cash_prize
from controller.register.events import PrizeLapsed
from controller.store.target import LogAt
from tests.support.busy import Busy
from tests.support.prize_signature import kept_signature

PRIZE = "slots-final-1"


@pytest.fixture
def busy(log_at: LogAt) -> Busy:
    """The busy show with Thandi's R1 200 Slots prize owed, decided now, 15 days to claim."""
    b = Busy(log_at)
    b.service.record("test:award", [cash_prize(PRIZE, "slots", "1000001", 120_000,
                                               "Slots PAYOFF Final, place 1", "slots rules 43-45",
                                               b.now, 15)])
    return b


@pytest.fixture
def signature(busy: Busy) -> dict[str, Any]:
    """Thandi's signature, kept in the log's store as POST /signatures keeps it."""
    return kept_signature(busy.log, busy.now)


def payment(signature: dict[str, Any], **change: Any) -> dict[str, Any]:
    return {"prize": PRIZE, "card": "1000001", "cents": 120_000, "method": "cash",
            "id_type": "SA ID", "id_last4": "0087", "signature": signature, **change}


def refused(busy: Busy, payload: dict[str, Any]) -> dict[str, Any]:
    before = busy.fingerprint()
    ack, views = busy.send("prizes.pay", payload)
    assert not ack["ok"] and views == []
    assert busy.fingerprint() == before  # log rows, last hash, views and state unchanged
    assert ack["error"]["message"].endswith("."), ack
    return ack["error"]


@pytest.mark.parametrize(("change", "code"), [
    ({"card": "1000002"}, "wrong_card"),       # slots rule 44: not transferable
    ({"cents": 100_000}, "wrong_amount"),      # slots rule 43: the advertised allocation
    ({"id_last4": "8001015009087"}, "bad_payload"),  # a full ID number is never stored
    ({"prize": "poker-final-1"}, "unknown_prize"),
])
def test_a_wrong_payment_changes_nothing(busy, signature, change, code):
    error = refused(busy, payment(signature, **change))
    assert error["code"] == code
    assert "8001015009087" not in error["message"]


def test_paying_twice_changes_nothing_the_second_time(busy, signature):
    ack, _ = busy.send("prizes.pay", payment(signature))
    assert ack["ok"], ack
    # slots rule 44: the winner signed for receipt once; a second payment is refused
    assert refused(busy, payment(signature))["code"] == "already_paid"


def test_a_lapsed_prize_is_logged_by_the_clock_and_cannot_be_paid(busy, signature):
    # slots rules 43, 45: claimed within 15 days of the draw, or forfeited
    busy.now += 15 * DAY_MS
    busy.service.tick()
    stored = [e for e in busy.log.read() if e.type == PrizeLapsed.type_name]
    assert [e.data["prize"] for e in stored] == [PRIZE]
    assert stored[0].data["consequence"] == ("Not collected within 15 days of the draw: "
                                             "forfeited (slots rules 43 and 45)")
    error = refused(busy, payment(signature))
    assert error["code"] == "lapsed" and "can no longer be paid" in error["message"]

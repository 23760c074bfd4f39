"""The prize register's rules: a prize is paid once, in full, to its winner, with the ID seen
(type and last 4 characters only) and the winner's signature, or it lapses at its deadline by
the clock with the rules' consequence; the MC is reminded 48 hours and 1 hour before."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.domain.awards import PrizeAwarded, cash_prize
from controller.register.events import PrizeLapsed, PrizePaid
from tests.promotions.helpers import Driver
from tests.register.play import DAY_MS, HOUR_MS, SIGNATURE, pay, roulette_final, tick


@pytest.fixture(scope="module")
def decided() -> tuple[bytes, list[PrizeAwarded]]:
    """A roulette final closed: its five prizes owed (the show pickled, to start afresh)."""
    import pickle
    d = Driver()
    prizes = roulette_final(d)
    return pickle.dumps(d), prizes


@pytest.fixture
def show(decided) -> tuple[Driver, list[PrizeAwarded]]:
    import pickle
    return pickle.loads(decided[0]), decided[1]


def row(d: Driver, prize: str) -> dict:
    return next(r for r in d.feature("register").rows() if r["prize"] == prize)


def test_a_prize_paid_with_id_and_signature_is_recorded_and_shown_paid(show):
    d, prizes = show
    first = prizes[0]
    (paid,) = d.do("prizes.pay", pay(first, method="eft", id_type="  passport ",
                                     id_last4="a12b"))
    # slots rule 44, super9 rule 26, poker rule 55: the winner signs for receipt
    assert paid == PrizePaid(first.prize, first.card, first.cents, "eft", "mc", "passport",
                             "A12B", SIGNATURE, d.now)
    r = row(d, first.prize)
    assert r["state"] == "paid"
    assert r["paid"] == {"method": "eft", "paid_by": "mc", "id_type": "passport",
                         "id_last4": "A12B", "signature_sha256": SIGNATURE["sha256"],
                         "at_ms": d.now}
    # owed first, sorted by deadline: the paid one goes below
    assert [x["state"] for x in d.feature("register").rows()] == ["owed"] * 4 + ["paid"]


@pytest.mark.parametrize(("change", "code", "words"), [
    ({"cents": 99_999}, "wrong_amount", "is R1\u00a0000, not R999.99: pay the whole prize"),
    ({"card": "1000009"}, "wrong_card", "This card is not the winner's: "),
    ({"card": None}, "wrong_card", "is paid only against its winner's Rewards card: scan"),
    ({"prize": "roulette-final-9"}, "unknown_prize", "not in the register"),
    ({"id_last4": "8001015009087"}, "bad_payload",
     "The ID's last 4 characters must be exactly the last 4 letters or digits"),
    ({"id_last4": "12 4"}, "bad_payload", "The ID's last 4 characters must be exactly"),
    ({"method": "crypto"}, "bad_payload", "Method must be one of"),
    ({"signature": {**SIGNATURE, "strokes": 1}}, "bad_payload",
     "Signature strokes must be at least 2"),
])
def test_a_wrong_payment_is_refused_in_words_and_changes_nothing(show, change, code, words):
    d, prizes = show
    # slots rule 44, super9 rule 26: prizes are not transferable, paid in full to the winner;
    # a full ID number is refused and never stored
    error = d.refuse("prizes.pay", pay(prizes[0], **change))
    assert error.code == code and words in error.message, error.message
    assert row(d, prizes[0].prize)["state"] == "owed"
    # whoever presented a wrong card does not learn the winner's: no digit of it is said
    assert prizes[0].card[-4:] not in error.message and "\u2022" not in error.message


def test_paying_twice_is_refused(show):
    d, prizes = show
    d.do("prizes.pay", pay(prizes[1]))
    error = d.refuse("prizes.pay", pay(prizes[1]))
    assert error.code == "already_paid"
    assert error.message.endswith("was already paid by mc (cash); a prize is paid once.")


def test_an_owed_prize_lapses_at_its_deadline_with_the_consequence(show):
    d, prizes = show
    first = prizes[0]
    assert [e for e in tick(d, first.deadline_ms - 1) if isinstance(e, PrizeLapsed)] == []
    lapsed = [e for e in tick(d, first.deadline_ms) if isinstance(e, PrizeLapsed)]
    # slots rules 43, 45 and poker rule 55: 15 days from the draw, then not claimable
    assert [e.prize for e in lapsed] == [p.prize for p in prizes]
    assert lapsed[0].at_ms == first.deadline_ms
    assert lapsed[0].consequence == ("Not collected within 15 days of the draw: forfeited "
                                     "(the venue's claim period, as for the other "
                                     "tournaments)")
    assert row(d, first.prize)["lapsed"]["consequence"] == lapsed[0].consequence
    assert tick(d, first.deadline_ms + 1000) == []  # once
    error = d.refuse("prizes.pay", pay(first))
    assert error.code == "lapsed" and "can no longer be paid" in error.message


def test_a_paid_prize_never_lapses(show):
    d, prizes = show
    d.do("prizes.pay", pay(prizes[0]))
    lapsed = [e.prize for e in tick(d, prizes[0].deadline_ms) if isinstance(e, PrizeLapsed)]
    assert prizes[0].prize not in lapsed and len(lapsed) == 4
    assert row(d, prizes[0].prize)["state"] == "paid"


def test_paying_at_the_deadline_before_the_clock_lapses_it_is_refused(show):
    d, prizes = show
    d.now = prizes[0].deadline_ms
    assert d.refuse("prizes.pay", pay(prizes[0])).code == "lapsed"


def test_the_mc_is_cued_48_hours_and_1_hour_before_a_deadline_until_it_is_paid(show):
    d, prizes = show
    first = prizes[0]
    cues = {c["id"]: c for c in d.view("cues")["cues"]}
    remind = [cues[f"prize-{first.prize}-48h"], cues[f"prize-{first.prize}-1h"]]
    assert [c["at_ms"] for c in remind] == [first.deadline_ms - 48 * HOUR_MS,
                                            first.deadline_ms - HOUR_MS]
    name = d.feature("register").winner(first)
    assert remind[0]["text"].startswith(f"{name}, please collect your prize (")
    assert remind[0]["text"].endswith(") within the next 48 hours.")
    assert remind[0]["notes"] == (f"{name}: R1\u00a0000 owed, 48 hours left to collect it; pay "
                                  "it on the Prizes panel before it lapses (roulette rule 27).")
    assert first.card not in str(remind)  # the cue page never receives a card number
    d.do("prizes.pay", pay(first))
    left = {c["id"] for c in d.view("cues")["cues"]}
    assert not {f"prize-{first.prize}-48h", f"prize-{first.prize}-1h"} & left
    tick(d, prizes[1].deadline_ms)  # a lapse withdraws the others' reminders
    assert not [c for c in d.view("cues")["cues"] if c["id"].startswith("prize-")]


def test_the_wild_card_seat_is_handed_over_as_it_is_awarded_and_never_paid(show):
    d, _ = show
    d.member("2000001", "Wild Card Winner")
    seat = PrizeAwarded("wildcard-final-seat", "wildcard", "2000001", "seat", 0,
                        "A seat in the Slots PAYOFF Final (the Wild Card)", "x",
                        "slots rules 18-19, 41", d.now, d.now + 15 * DAY_MS)
    d.apply(seat)
    assert row(d, seat.prize)["state"] == "seated"
    # the seat is said once, in its words; the amount is money only (no repeat of the seat)
    assert row(d, seat.prize)["amount_text"] == ""
    error = d.refuse("prizes.pay", pay(seat))
    assert error.code == "seat_prize" and "no money to pay" in error.message
    assert [e for e in tick(d, seat.deadline_ms) if getattr(e, "prize", "") == seat.prize] == []


# -- a property: every prize ends in exactly one state, never paid twice ---------------------
STEPS = st.lists(st.tuples(st.sampled_from(["pay", "tick"]), st.integers(0, 4),
                           st.integers(0, 20 * 24)), max_size=25)


@settings(max_examples=60, deadline=None)
@given(steps=STEPS)
def test_pay_and_lapse_in_any_order_never_pay_twice_and_end_in_one_state(decided, steps):
    import pickle

    from controller.domain.errors import Rejected
    d: Driver = pickle.loads(decided[0])
    prizes = decided[1]
    start = d.now
    for action, i, hours in steps:
        d.now = max(d.now, start + hours * HOUR_MS)
        if action == "tick":
            tick(d, d.now)
            continue
        try:
            d.do("prizes.pay", pay(prizes[i]))
        except Rejected as exc:
            assert exc.code in {"already_paid", "lapsed"}
    paid = [e.prize for e in d.log if isinstance(e, PrizePaid)]
    lapsed = [e.prize for e in d.log if isinstance(e, PrizeLapsed)]
    assert len(paid) == len(set(paid)) and len(lapsed) == len(set(lapsed))
    assert not set(paid) & set(lapsed)  # exactly one ending each
    for r in d.feature("register").rows():
        assert r["state"] == ("paid" if r["prize"] in paid else
                              "lapsed" if r["prize"] in lapsed else "owed")


@pytest.mark.parametrize(("promotion", "rule"), [
    ("slots", "slots rules 43 and 45"),  # slots rules 43, 45: within 15 days of the draw
    ("poker", "poker rule 55"),          # poker rule 55: within 15 days from the draw
    ("super9", "super9 rule 26 and the venue's claim period"),
])
def test_each_promotion_lapses_with_its_own_rule(promotion, rule):
    d = Driver()
    d.member("1000009", "Lindiwe Zulu")
    d.apply(cash_prize(f"{promotion}-x-1", promotion, "1000009", 5_000, "a prize", "rule",
                       d.now, 15))
    (lapsed,) = tick(d, d.now + 15 * DAY_MS)
    assert lapsed.consequence == f"Not collected within 15 days of the draw: forfeited ({rule})"

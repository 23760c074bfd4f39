"""Wild Card draw rules (shared/rules/slots-payoff-tournament.txt, rules 16, 18, 33-45)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.domain.commands import Randomness
from controller.domain.errors import Rejected
from controller.domain.handoffs import WildcardFinalist
from controller.promotions.wildcard.events import (
    WildcardClaimed,
    WildcardClaimExpired,
    WildcardDrawn,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
    WildcardRevealed,
)
from controller.promotions.wildcard.pool import holder_of, pool_digest
from tests.promotions.helpers import Driver
from tests.promotions.wildcard_show import (
    CLOSE,
    CONFIG,
    DECLINE_PAYLOAD,
    OPEN,
    FixedRoster,
    ScriptedRng,
    WildcardShow,
    activated_show,
)

DECLINE = DECLINE_PAYLOAD


def rejected(show: WildcardShow, command: str, payload: dict | None = None, *, at: int,
             **kw) -> Rejected:
    """Send a command that must be refused, and check that nothing changed."""
    before = (json.dumps(show.view(), sort_keys=True), len(show.log), show.cue_list())
    with pytest.raises(Rejected) as info:
        show.send(command, payload, at=at, **kw)
    assert (json.dumps(show.view(), sort_keys=True), len(show.log), show.cue_list()) == before
    return info.value


def frozen_show() -> WildcardShow:
    s = activated_show()
    s.send("wildcard.freeze", at=CLOSE)
    return s


def drawn(s: WildcardShow, pick: int, at: int) -> WildcardDrawn:
    (event,) = s.send("wildcard.draw", at=at, rng=ScriptedRng(pick))
    assert isinstance(event, WildcardDrawn)
    return event


# -- entitlement -------------------------------------------------------------------------------
def test_tickets_one_per_cardholder_and_five_more_per_participant():
    # rules 18.1, 18.2, 33.1, 33.2: 1 ticket each, 5 more for members who took part
    s = activated_show()
    assert s.wildcard.pool_listing() == [
        ["1000001", 6], ["1000002", 6], ["1000003", 1], ["1000004", 1]]


def test_only_activated_members_are_in_the_pool():
    # rules 33.3, 36: tickets count only once activated
    s = activated_show()
    s.member("1000005", "Naledi Khumalo")
    assert "1000005" not in {card for card, _ in s.wildcard.pool_listing()}


def test_activation_only_while_the_bins_are_open():
    # rules 33.3, 36: the entry bins are open 16:00-18:00 on the draw day
    s = WildcardShow()
    s.member("1000001", "Thandi Mokoena")
    for at in (OPEN - 1, CLOSE, CLOSE + 3_600_000):
        error = rejected(s, "wildcard.activate", {"card": "1000001"}, at=at)
        assert error.code == "bins_closed"
        assert "16:00:00 to 18:00:00 on 18 January 2024" in error.message  # issue 15: the date
        assert "rule" in error.message
    s.send("wildcard.activate", {"card": "1000001"}, at=OPEN)
    assert rejected(s, "wildcard.activate", {"card": "1000001"}, at=OPEN).code == "duplicate"


def test_no_entry_for_cash_and_guests_are_not_in_the_draw():
    # rule 34: entries cannot be bought; rule 18.1: only rewards cardholders
    s = WildcardShow(FixedRoster(participants={"1000009"}))
    s.member("1000009", "Guest Player", rewards=False)
    error = rejected(s, "wildcard.activate", {"card": "1000009"}, at=OPEN)
    assert error.code == "not_rewards" and "rules 18.1, 34" in error.message
    error = rejected(s, "wildcard.activate", {"card": "1000009", "paid_cents": 5000}, at=OPEN)
    assert error.code == "bad_payload"


def test_ineligible_and_qualified_members_are_not_in_the_pool():
    # rules 2-3 (eligibility), rule 19 (already a finalist)
    s = activated_show(FixedRoster(participants={"1000001"}, finalists=set()))
    s.member("1000006", "Excluded Person", flags=["self_excluded"])
    assert rejected(s, "wildcard.activate", {"card": "1000006"}, at=OPEN).code == "ineligible"
    s.send("flag_member", {"card": "1000004", "flag": "insider", "reason": "staff"}, at=OPEN)
    s.roster.finalists.add("1000002")
    cards = [card for card, _ in s.wildcard.pool_listing()]
    assert cards == ["1000001", "1000003"]
    s.member("1000007", "Top Scorer")
    s.roster.finalists.add("1000007")
    error = rejected(s, "wildcard.activate", {"card": "1000007"}, at=OPEN)
    assert error.code == "already_qualified"


# -- decline-to-attend register ----------------------------------------------------------------
def test_decline_register_in_person_with_id_during_the_window():
    # rules 37-38
    s = activated_show()
    proxy = rejected(s, "wildcard.register_decline", {**DECLINE, "in_person": False}, at=OPEN)
    assert proxy.code == "no_proxy" and "rule 38" in proxy.message
    no_id = rejected(s, "wildcard.register_decline", {**DECLINE, "id_checked": False}, at=OPEN)
    assert no_id.code == "id_required" and "rule 38" in no_id.message
    late = rejected(s, "wildcard.register_decline", DECLINE, at=CLOSE)
    assert late.code == "bins_closed" and "rule 37" in late.message
    s.send("wildcard.register_decline", DECLINE, at=OPEN + 1000)
    assert set(s.wildcard.register) == {"1000003"}


# -- freezing and drawing ----------------------------------------------------------------------
def test_freeze_records_size_and_digest_of_the_canonical_listing():
    # rule 33: an electronic draw whose pool is fixed and provable before the pick
    s = activated_show()
    assert rejected(s, "wildcard.freeze", at=CLOSE - 1).code == "bins_open"
    (frozen,) = s.send("wildcard.freeze", at=CLOSE)
    assert isinstance(frozen, WildcardPoolFrozen)
    text = "1000001,6\n1000002,6\n1000003,1\n1000004,1\n"
    assert frozen.digest == hashlib.sha256(text.encode()).hexdigest()
    assert (frozen.members, frozen.tickets) == (4, 14)
    assert s.view()["pool"] == {"members": 4, "tickets": 14, "digest": frozen.digest}
    assert s.view()["phase"] == "frozen"
    assert rejected(s, "wildcard.freeze", at=CLOSE).code == "already_frozen"
    late = rejected(s, "wildcard.activate", {"card": "1000001"}, at=CLOSE + 1)
    assert late.code == "pool_frozen"


def test_empty_pool_cannot_be_frozen_or_drawn():
    s = WildcardShow()
    assert rejected(s, "wildcard.freeze", at=CLOSE).code == "empty_pool"
    assert rejected(s, "wildcard.draw", at=CLOSE).code == "not_frozen"


def test_draw_refused_from_an_unfrozen_pool():
    # rule 33: the pool is frozen and shown before the draw
    s = activated_show()
    error = rejected(s, "wildcard.draw", at=CLOSE, rng=ScriptedRng(0))
    assert error.code == "not_frozen"


def test_draw_records_digest_pick_winner_operator_and_time():
    s = frozen_show()
    rng = ScriptedRng(12)
    (event,) = s.send("wildcard.draw", at=CLOSE + 5000, rng=rng)
    assert rng.asked == [14]  # one randbelow over the total ticket count
    assert isinstance(event, WildcardDrawn)
    assert event.card == "1000003"  # tickets 0-5 Thandi, 6-11 Sipho, 12 Lerato, 13 Pieter
    assert (event.pick, event.tickets, event.digest) == (12, 14, s.wildcard.pool.digest)
    assert (event.operator, event.drawn_at_ms) == ("mc-thabo", CLOSE + 5000)
    assert event.reveal_at_ms == CLOSE + 5000 + CONFIG.reveal_delay_ms
    assert event.claim_deadline_ms == event.reveal_at_ms + 90_000  # rule 39


def test_second_draw_while_one_is_running_is_refused():
    s = frozen_show()
    drawn(s, 0, CLOSE)
    error = rejected(s, "wildcard.draw", at=CLOSE + 1, rng=ScriptedRng(1))
    assert error.code == "draw_running"


def test_displays_get_the_winner_only_a_short_lead_before_reveal_at():
    s = frozen_show()
    event = drawn(s, 13, CLOSE)
    lead_at = event.reveal_at_ms - CONFIG.reveal_lead_ms
    assert "•••• 0004" not in json.dumps(s.view()) and s.view()["winner"] is None
    assert s.view()["phase"] == "drawing" and s.view()["reveal_at"] == event.reveal_at_ms
    assert s.view()["claim_deadline"] is None
    assert s.wildcard.reveal_due_ms() == lead_at
    assert s.tick(lead_at - 1) == []
    assert s.tick(lead_at) == [WildcardRevealed(1, event.reveal_at_ms, event.claim_deadline_ms,
                                                 "scheduled")]
    assert s.view()["winner"] == {"name": "Pieter W.", "masked_card": "•••• 0004",
                                  "ticket": 14, "in_register": False}
    assert s.view()["claim_deadline"] == event.claim_deadline_ms
    assert s.wildcard.reveal_due_ms() is None and s.tick(event.reveal_at_ms) == []


# -- the claim -----------------------------------------------------------------------------------
def test_winner_who_presents_within_90_seconds_is_the_finalist():
    # rule 39: 90 seconds, card and ID
    s = frozen_show()
    event = drawn(s, 0, CLOSE)
    early = rejected(s, "wildcard.claim", {"card_checked": True, "id_checked": True},
                     at=event.reveal_at_ms - 1)
    assert early.code == "not_revealed"
    s.tick(event.reveal_at_ms)
    no_id = rejected(s, "wildcard.claim", {"card_checked": True, "id_checked": False},
                     at=event.reveal_at_ms + 1000)
    assert no_id.code == "evidence_required" and "rule 39" in no_id.message
    events = s.send("wildcard.claim", {"card_checked": True, "id_checked": True},
                    at=event.claim_deadline_ms - 1)
    assert events[-1] == WildcardFinalist("1000001", True)
    assert s.view()["phase"] == "finalist"
    assert s.view()["finalist"]["present"] is True
    assert rejected(s, "wildcard.draw", at=event.claim_deadline_ms).code == "finished"


def test_claim_after_the_deadline_is_refused():
    # rule 40: 90 seconds and no more
    s = frozen_show()
    event = drawn(s, 0, CLOSE)
    s.tick(event.reveal_at_ms)
    error = rejected(s, "wildcard.claim", {"card_checked": True, "id_checked": True},
                     at=event.claim_deadline_ms)
    assert error.code == "claim_expired" and "rule 40" in error.message


def test_redraw_refused_while_the_claim_is_open():
    # rules 39-40: the winner has the whole 90 seconds
    s = frozen_show()
    event = drawn(s, 0, CLOSE)
    s.tick(event.reveal_at_ms)
    error = rejected(s, "wildcard.redraw", at=event.claim_deadline_ms - 1)
    assert error.code == "claim_open" and "1 seconds" in error.message


def test_expired_claim_then_redraw_then_claim():
    # rule 40: not claimed in 90 s and not in the register -> redraw without the absent winner
    s = frozen_show()
    first = drawn(s, 3, CLOSE)  # Thandi, who took part: all 6 of her tickets must go
    s.tick(first.reveal_at_ms)
    events = s.send("wildcard.redraw", {"note": "no response on the floor"},
                    at=first.claim_deadline_ms)
    expired, started, frozen = events  # the clock had not yet noted the end of the 90 s
    assert expired == WildcardClaimExpired(1, first.claim_deadline_ms)
    assert isinstance(started, WildcardRedrawStarted) and started.card == "1000001"
    assert "rule 40" in started.cause and "no response on the floor" in started.cause
    assert isinstance(frozen, WildcardPoolFrozen)
    assert frozen.round == 2 and frozen.excluded == ["1000001"]
    assert frozen.listing == [["1000002", 6], ["1000003", 1], ["1000004", 1]]
    assert s.view()["redraws"][0]["name"] == "Thandi M."
    assert s.view()["winner"] is None and s.view()["phase"] == "frozen"
    rng = ScriptedRng(7)
    (second,) = s.send("wildcard.draw", at=first.claim_deadline_ms + 10_000, rng=rng)
    assert rng.asked == [8] and second.card == "1000004" and second.round == 2
    s.tick(second.reveal_at_ms)
    events = s.send("wildcard.claim", {"card_checked": True, "id_checked": True},
                    at=second.reveal_at_ms + 30_000)
    assert events[-1] == WildcardFinalist("1000004", True)
    assert s.view()["finalist"]["name"] == "Pieter W."


def test_redraw_refuses_when_nobody_is_left():
    s = WildcardShow()
    s.member("1000001", "Thandi Mokoena")
    s.send("wildcard.activate", {"card": "1000001"}, at=OPEN)
    s.send("wildcard.freeze", at=CLOSE)
    event = drawn(s, 0, CLOSE)
    s.tick(event.reveal_at_ms)
    assert rejected(s, "wildcard.redraw", at=event.claim_deadline_ms).code == "empty_pool"


def test_winner_from_the_decline_register_is_finalist_without_presenting():
    # rules 37, 41: in the register -> finalist in absence, seated last by Slots
    s = activated_show()
    s.send("wildcard.register_decline", DECLINE, at=OPEN + 1000)
    s.send("wildcard.freeze", at=CLOSE)
    event = drawn(s, 12, CLOSE)
    assert event.in_register
    s.tick(event.reveal_at_ms)
    assert s.view()["winner"]["in_register"] is True
    assert s.view()["claim_deadline"] is None
    redraw = rejected(s, "wildcard.redraw", at=event.claim_deadline_ms)
    assert redraw.code == "in_register" and "rule 41" in redraw.message
    events = s.send("wildcard.accept_registered", at=event.claim_deadline_ms + 5000)
    claimed, seat, handoff = events
    assert handoff == WildcardFinalist("1000003", False)
    # rules 43, 45: the prize may be claimed within 15 days of the draw
    assert isinstance(claimed, WildcardClaimed)
    assert claimed.prize_claim_by_ms == event.drawn_at_ms + 15 * 24 * 3600 * 1000
    # slots rules 19, 41: the prize is the seat in the Final, in the register, handed over
    assert (seat.kind, seat.card, seat.deadline_ms) == ("seat", "1000003",
                                                        claimed.prize_claim_by_ms)
    assert s.view()["finalist"]["prize_claim_by"] == claimed.prize_claim_by_ms


def test_accept_registered_refused_for_a_winner_not_in_the_register():
    # rule 40: without the register the winner must present
    s = frozen_show()
    event = drawn(s, 0, CLOSE)
    error = rejected(s, "wildcard.accept_registered", at=event.reveal_at_ms)
    assert error.code == "not_in_register"


def test_stand_in_for_an_absent_finalist_acknowledges_no_prize():
    # rules 41-42: a random person may act for the absent finalist and is not entitled to prizes
    s = activated_show()
    s.send("wildcard.register_decline", DECLINE, at=OPEN + 1000)
    s.send("wildcard.freeze", at=CLOSE)
    event = drawn(s, 12, CLOSE)
    stand_in = {"name": "Johan Botha", "acknowledged_not_entitled": True}
    assert rejected(s, "wildcard.stand_in", stand_in, at=CLOSE).code == "stand_in_not_allowed"
    s.send("wildcard.accept_registered", at=event.reveal_at_ms)
    error = rejected(s, "wildcard.stand_in", {**stand_in, "acknowledged_not_entitled": False},
                     at=event.reveal_at_ms)
    assert error.code == "acknowledgement_required" and "rule 42" in error.message
    s.send("wildcard.stand_in", stand_in, at=event.reveal_at_ms + 1)
    assert s.view()["finalist"]["stand_in"] == "Johan B."
    assert s.view()["finalist"]["name"] == "Lerato D."


def test_stand_in_refused_for_a_finalist_who_is_present():
    # rule 41: a stand-in is only for a finalist from the register
    s = frozen_show()
    event = drawn(s, 0, CLOSE)
    s.send("wildcard.claim", {"card_checked": True, "id_checked": True}, at=event.reveal_at_ms)
    error = rejected(s, "wildcard.stand_in",
                     {"name": "Johan Botha", "acknowledged_not_entitled": True},
                     at=event.reveal_at_ms)
    assert error.code == "stand_in_not_allowed"


def test_only_the_operator_draws():
    s = frozen_show()
    error = rejected(s, "wildcard.draw", at=CLOSE, role="announcer", rng=ScriptedRng(0))
    assert error.code == "forbidden"


def test_replay_rebuilds_the_same_countdown():
    # rules 39-40: a restart mid-countdown keeps the absolute deadline
    s = frozen_show()
    event = drawn(s, 0, CLOSE)
    s.tick(event.reveal_at_ms)
    replayed = WildcardShow(s.roster)
    for logged in s.log:
        replayed.show.apply(logged.event)
    assert replayed.view() == s.view()
    assert replayed.view()["claim_deadline"] == event.claim_deadline_ms
    assert replayed.cue_list() == s.cue_list()


def test_shipped_config_holds_the_rule_values():
    # rules 18, 33, 36, 39, 43, 45
    config = CONFIG
    assert config.bins_open_ms == OPEN and config.bins_close_ms == CLOSE
    assert (config.tickets_per_cardholder, config.tickets_per_participant) == (1, 5)
    assert config.claim_ms == 90_000 and config.prize_claim_ms == 15 * 24 * 3600 * 1000
    assert config.clock(CLOSE) == "18:00:00"


class HypothesisRng(Randomness):
    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def below(self, n: int) -> int:
        return self.rnd.randrange(n)


COMMANDS = [
    ("wildcard.activate", {"card": "1000005"}),
    ("wildcard.register_decline", {**DECLINE_PAYLOAD, "card": "1000004"}),
    ("wildcard.register_decline", {**DECLINE_PAYLOAD, "in_person": False}),
    ("wildcard.freeze", {}),
    ("wildcard.draw", {}),
    ("wildcard.claim", {"card_checked": True, "id_checked": True}),
    ("wildcard.claim", {"card_checked": True, "id_checked": False}),
    ("wildcard.accept_registered", {}),
    ("wildcard.redraw", {}),
    ("wildcard.stand_in", {"name": "Johan Botha", "acknowledged_not_entitled": True}),
]


@settings(max_examples=60, deadline=None)
@given(st.booleans(),
       st.lists(st.tuples(st.sampled_from(COMMANDS),
                          st.sampled_from([0, 1_000, 7_000, 40_000, 95_000])),
                max_size=25),
       st.randoms(use_true_random=False))
def test_any_command_sequence_keeps_the_draw_consistent(frozen_first, steps, rnd):
    # rules 33, 39-41: a refusal changes nothing; a pool and a draw always match their digest
    s = activated_show()
    s.member("1000005", "Naledi Khumalo")
    now = CLOSE - 10_000  # the bins close soon: most sequences reach the draw
    if frozen_first:
        s.send("wildcard.register_decline", DECLINE_PAYLOAD, at=now)
        now = CLOSE
        s.send("wildcard.freeze", at=now)
    for (command, payload), delta in steps:
        now += delta
        s.tick(now)
        before = (json.dumps(s.view(), sort_keys=True), len(s.log), s.cue_list())
        try:
            s.send(command, payload, at=now, rng=HypothesisRng(rnd))
        except Rejected:
            assert (json.dumps(s.view(), sort_keys=True), len(s.log), s.cue_list()) == before
        pool, draw = s.wildcard.pool, s.wildcard.draw
        if pool is not None:
            assert pool.digest == pool_digest(pool.listing)
            assert pool.tickets == sum(t for _, t in pool.listing)
            assert not set(pool.excluded) & {card for card, _ in pool.listing}
        if draw is not None:
            assert draw.digest == pool.digest and holder_of(pool.listing, draw.pick) == draw.card


# -- the pool from the real tournament (rulings in docs/draws.md) ------------------------------
def slots_show() -> Driver:
    """The whole show: Slots PAYOFF entries in January, Wild Card bins on 18 January."""
    d = Driver()
    d.now = OPEN - 2 * 86_400_000
    return d


def activate_all(d: Driver, cards: list[str]) -> None:
    d.now = OPEN + 60_000
    for card in cards:
        d.do("wildcard.activate", {"card": card})


def test_only_a_played_entry_that_was_not_refunded_earns_the_five_extra_tickets():
    d = slots_show()
    played, absent, refunded, other = d.members(4)
    entries = {c: d.entry("slots.enter", {"card": c}) for c in (played, absent, refunded)}
    d.do("slots.enter", {"card": other})  # fills Heat 1 so the refund finds no later seat
    d.do("slots.record_score", {"entry": entries[played], "score": 900})
    d.do("slots.malfunction", {"entry": entries[refunded]})  # rule 27: refunded
    d.do("slots.start_heat", {"stage": "qualifying", "heat": "Heat 1",
                              "absent": [entries[absent]]})  # rule 29: forfeited, never played
    activate_all(d, [played, absent, refunded])
    # rule 18.2 as ruled: "participated" = at least one entry played (scored) and not refunded
    assert d.feature("wildcard").pool_listing() == [[played, 6], [absent, 1], [refunded, 1]]


def test_a_member_disqualified_from_the_promotion_gets_no_tickets_at_all():
    d = slots_show()
    cheat, later, honest = d.members(3)
    entries = {c: d.entry("slots.enter", {"card": c}) for c in (cheat, later, honest)}
    for e in entries.values():
        d.do("slots.record_score", {"entry": e, "score": 500})
    d.do("slots.disqualify", {"entry": entries[cheat], "reason": "pooled credits (rule 13)"})
    d.now = OPEN + 60_000
    # rule 47: a person transgressing the rules is disqualified: not even the one ticket
    error = d.refuse("wildcard.activate", {"card": cheat})
    assert error.code == "disqualified" and "rule 47" in error.message
    activate_all(d, [later, honest])
    d.do("slots.disqualify", {"entry": entries[later], "reason": "abusive to staff"})
    assert d.feature("wildcard").pool_listing() == [[honest, 6]]


def qualified_show() -> Driver:
    """40 Slots players, entry i scoring 10 000 - 10 i (place i + 1); qualifying closed and
    the semi-final seats drawn."""
    d = slots_show()
    cards = d.members(40)
    for i, card in enumerate(cards):
        d.do("slots.record_score", {"entry": d.entry("slots.enter", {"card": card}),
                                    "score": 10_000 - 10 * i})
    d.do("slots.close_stage", {"stage": "qualifying"})
    d.do("slots.draw_seats", {"stage": "semi"})
    return d


def win_wild_card(d: Driver, card: str) -> None:
    """`card` alone in the pool: frozen, drawn, revealed and claimed in person."""
    activate_all(d, [card])
    d.now = CLOSE
    d.do("wildcard.freeze", {})
    draw = d.do("wildcard.draw", {})[0]
    d.now = draw.reveal_at_ms
    for event in d.feature("wildcard").due(d.now):
        d.apply(event)
    d.do("wildcard.claim", {"card_checked": True, "id_checked": True})


def test_the_two_direct_finalists_are_not_in_the_wild_card_pool():
    d = qualified_show()
    d.now = OPEN + 60_000
    # rule 17 (ruling): places 1 and 2 are finalists already and take no part in the draw
    for card in ("1000000", "1000001"):
        assert d.refuse("wildcard.activate", {"card": card}).code == "already_qualified"
    activate_all(d, ["1000002"])
    assert d.feature("wildcard").pool_listing() == [["1000002", 6]]


def test_a_semi_finalist_who_wins_passes_the_semi_seat_to_qualifying_place_33():
    d = qualified_show()
    slots = d.feature("slots")
    mine = next(e for e in slots.active(slots.stages["semi"]) if e.card == "1000005")
    seat = (mine.heat, mine.seat)
    win_wild_card(d, "1000005")  # qualifying place 6
    # ruling on rule 18: the semi-finalist takes the final seat ...
    final = [e for e in slots.active(slots.final) if e.payment == "wildcard"]
    assert [e.card for e in final] == ["1000005"]
    assert mine.status == "to_final" and mine.heat is None
    # ... and the semi seat passes to the next-ranked qualifier, place 33
    semi = slots.active(slots.stages["semi"])
    successor = next(e for e in semi if e.card == "1000032")
    assert len(semi) == 30 and (successor.heat, successor.seat) == seat
    heats = d.view("seating:slots")["stages"][0]["heats"]
    shown = next(s for h in heats if h["heat"] == seat[0] for s in h["seats"]
                 if s["seat"] == seat[1])
    assert shown["name"] == "Player32 S." and shown["note"] == "replaces Player5 S. (Wild Card)"
    vias = {q["name"]: q["via"] for q in d.view("qualifiers:slots")["stages"][0]["qualifiers"]}
    assert vias["Player32 S."] == "Qualifying place 33" and "Player5 S." not in vias
    assert successor.id in {row["entry"] for row in d.view("ops:slots")["entries"]}
    cue = d.view("cues")["cues"][-1]
    assert cue["at_ms"] == d.now and "Player32 S." in cue["text"] and "place 33" in cue["text"]
    assert f"{seat[0]}, seat {seat[1]}" in cue["text"]
    d.do("slots.start_heat", {"stage": "semi", "heat": "Semi 1"})  # rule 18: drawn, so it starts


def test_before_the_semi_seat_draw_the_successor_joins_the_draw_and_replay_agrees():
    d = slots_show()
    for i, card in enumerate(d.members(40)):
        d.do("slots.record_score", {"entry": d.entry("slots.enter", {"card": card}),
                                    "score": 10_000 - 10 * i})
    d.do("slots.close_stage", {"stage": "qualifying"})
    win_wild_card(d, "1000002")  # qualifying place 3, semi seats not drawn yet
    slots = d.feature("slots")
    semi = slots.active(slots.stages["semi"])
    # ruling on rule 18: place 33 takes the seat; it is drawn with the others (rule 16)
    assert len(semi) == 30 and "1000002" not in {e.card for e in semi}
    assert next(e for e in semi if e.card == "1000032").heat is None
    seated = d.do("slots.draw_seats", {"stage": "semi"})[0]
    assert len(seated.seats) == 30
    replayed = Driver()
    for event in d.log:
        replayed.apply(event)
    for view in ("seating:slots", "qualifiers:slots", "ops:slots", "cues"):
        assert replayed.view(view) == d.view(view)


def test_once_the_semi_is_under_way_the_winner_keeps_the_semi_seat():
    d = qualified_show()
    slots = d.feature("slots")
    mine = next(e for e in slots.active(slots.stages["semi"]) if e.card == "1000005")
    d.do("slots.record_score", {"entry": mine.id, "score": 100})  # a meter already reported
    win_wild_card(d, "1000005")
    # rule 21: a player may hold seats in several final stages; nothing passes mid-semi
    assert mine.status == "active" and slots.seat_passes == []
    assert "1000032" not in {e.card for e in slots.active(slots.stages["semi"])}


def test_with_nobody_at_place_33_the_passed_seat_stays_empty_and_the_cue_says_so():
    d = slots_show()
    for i, card in enumerate(d.members(32)):
        d.do("slots.record_score", {"entry": d.entry("slots.enter", {"card": card}),
                                    "score": 10_000 - 10 * i})
    d.do("slots.close_stage", {"stage": "qualifying"})
    win_wild_card(d, "1000010")
    slots = d.feature("slots")
    assert len(slots.active(slots.stages["semi"])) == 29
    assert "stays empty" in d.view("cues")["cues"][-1]["text"]

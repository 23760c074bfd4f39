"""Wild Card draw findings of the rules audit (issue 13) and the outage ruling (issue 12), on the
draw's date (18 January 2024, bins 16:00-18:00): an ineligible winner, a reel that gives no one
away, the Slots operator view of the Wild Card seat, a claim window an outage cannot eat."""

from __future__ import annotations

import json

import pytest

from controller.domain.commands import Context
from controller.domain.handoffs import WildcardFinalist
from controller.promotions.wildcard.clock import OUTAGE_GRACE_MS
from controller.promotions.wildcard.events import (
    WildcardClaimExpired,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
    WildcardRevealed,
)
from tests.promotions.helpers import Driver
from tests.promotions.test_slots import qualify, stage_entries
from tests.promotions.test_wildcard import DECLINE, drawn, frozen_show, rejected
from tests.promotions.wildcard_show import (
    CLOSE,
    CONFIG,
    OPEN,
    FixedRoster,
    WildcardShow,
    activated_show,
)

CLAIM = {"card_checked": True, "id_checked": True}
LEAD = CONFIG.reveal_lead_ms


def exclude(s: WildcardShow, card: str, at: int) -> None:
    s.send("flag_member", {"card": card, "flag": "self_excluded", "reason": "signed the form"},
           at=at)


# -- finding 1: an ineligible winner is disqualified and a redraw follows (rules 2-3, 47) -------
def test_self_excluded_winner_cannot_claim_and_the_draw_goes_again():
    # rule 2: self-excluded "prior to or during the tournament" -> disqualified, never a finalist
    s = frozen_show()
    event = drawn(s, 12, CLOSE)  # Lerato
    s.tick(event.reveal_at_ms)
    exclude(s, "1000003", event.reveal_at_ms + 5_000)
    error = rejected(s, "wildcard.claim", CLAIM, at=event.reveal_at_ms + 10_000)
    assert error.code == "ineligible" and "self-excluded (rules 2-3)" in error.message
    started, frozen = s.tick(event.reveal_at_ms + 10_000)
    assert isinstance(started, WildcardRedrawStarted)
    assert (started.reason, started.card, started.operator) == ("ineligible", "1000003",
                                                                "controller")
    assert "self-excluded" in started.cause  # recorded for the audit
    assert isinstance(frozen, WildcardPoolFrozen)
    assert frozen.round == 2 and "1000003" not in {c for c, _ in frozen.listing}
    assert not any(isinstance(x.event, WildcardFinalist) for x in s.log)
    view = s.view()
    assert view["phase"] == "frozen" and view["winner"] is None
    assert "self-excluded" not in json.dumps(view)  # the public screen keeps the reason private
    assert view["redraws"][0]["name"] == "Lerato D." and "rules 2-3" in view["redraws"][0]["cause"]
    cues = {c["id"]: c["text"] for c in s.cue_list()}
    assert "cannot take the Wild Card seat" in cues["wildcard-r1-redraw"]
    assert "self-excluded" not in cues["wildcard-r1-redraw"]
    assert "wildcard-r2-start" in cues
    assert not any(i.startswith("wildcard-r1-remind") for i in cues)  # reminders withdrawn


def test_registered_winner_disqualified_before_acceptance():
    # rules 2, 41: the register does not make an ineligible winner a finalist
    s = activated_show()
    s.send("wildcard.register_decline", DECLINE, at=OPEN + 1000)
    s.send("wildcard.freeze", at=CLOSE)
    event = drawn(s, 12, CLOSE)
    s.tick(event.reveal_at_ms)
    s.send("flag_member", {"card": "1000003", "flag": "refused_entry", "reason": "barred"},
           at=event.reveal_at_ms)
    assert rejected(s, "wildcard.accept_registered", at=event.reveal_at_ms + 1).code == "ineligible"
    assert [type(e) for e in s.tick(event.reveal_at_ms + 1)] == [WildcardRedrawStarted,
                                                                  WildcardPoolFrozen]


def test_winner_excluded_before_the_reveal_is_never_named():
    # rule 2: the clock disqualifies before the reveal; no screen or cue names the drawn member
    s = frozen_show()
    event = drawn(s, 13, CLOSE)  # Pieter
    exclude(s, "1000004", CLOSE + 1000)
    started, _ = s.tick(event.reveal_at_ms - LEAD)
    assert started.reason == "ineligible"
    assert "Pieter" not in json.dumps(s.view()) and "Pieter" not in json.dumps(s.cue_list())
    assert not any(isinstance(x.event, WildcardRevealed) for x in s.log)


def test_finalist_disqualified_before_the_final_is_replaced_by_a_redraw():
    # rules 2, 47: eligibility is re-checked at every later stage until the final starts
    s = frozen_show()
    event = drawn(s, 0, CLOSE)  # Thandi
    s.send("wildcard.claim", CLAIM, at=event.reveal_at_ms)
    s.roster.barred.add("1000001")  # rule 47: disqualified from the tournament
    started, _ = s.tick(event.reveal_at_ms + 60_000)
    assert started.reason == "ineligible" and "rule 47" in started.cause
    assert s.view()["phase"] == "frozen" and s.view()["finalist"] is None
    second = drawn(s, 0, event.reveal_at_ms + 70_000)
    s.tick(second.reveal_at_ms)
    assert s.send("wildcard.claim", CLAIM, at=second.reveal_at_ms)[-1] == WildcardFinalist(
        "1000002", True)
    s.roster.final_playing = True  # from the first final heat the seat is the tournament's
    exclude(s, "1000002", second.reveal_at_ms + 1)
    assert s.tick(second.reveal_at_ms + 2) == []


# -- finding 2: nothing on the public screen depends on the pick before the reveal -------------
@pytest.mark.parametrize("picks", [(0, 13), (6, 12), (12, 3)])
def test_draw_screen_is_the_same_whatever_the_pick(picks):
    # rule 35: the winner is revealed from the stage, not read off the reel before
    views = []
    for pick in picks:
        s = frozen_show()
        at_freeze = s.view()
        event = drawn(s, pick, CLOSE + 2000)
        s.tick(event.reveal_at_ms - LEAD - 1)
        view = s.view()
        changed = {k for k in view if view[k] != at_freeze[k]}
        assert changed == {"phase", "spin_started_at", "reveal_at"}
        assert len(view["reel"]) == 4  # every holder, the winner included
        views.append(json.dumps(view, sort_keys=True))
    assert views[0] == views[1]


def test_reel_is_fixed_at_the_freeze():
    # rule 33: the reel comes from the frozen pool, so the draw cannot change it
    s = frozen_show()
    reel = s.view()["reel"]
    assert sorted(r["name"] for r in reel) == ["Lerato D.", "Pieter W.", "Sipho N.", "Thandi M."]
    assert frozen_show().view()["reel"] == reel
    event = drawn(s, 13, CLOSE)
    s.tick(event.reveal_at_ms)
    assert s.view()["reel"] == reel


# -- finding 10: the operator's Slots view carries the Wild Card seat ---------------------------
def test_wildcard_finalist_refreshes_the_slots_operator_view():
    # rule 19: the Wild Card winner completes the final; the tablet needs that seat's entry id
    d = Driver()
    qualify(d, 40)
    d.do("slots.close_stage", {"stage": "qualifying"})
    d.do("slots.draw_seats", {"stage": "semi"})
    for i, e in enumerate(stage_entries(d, "semi")):
        d.do("slots.record_score", {"entry": e.id, "score": 5_000 - i})
    d.do("slots.close_stage", {"stage": "semi"})
    d.member("2000000", "Wild Card")
    assert "ops:slots" in d.show.apply(WildcardFinalist("2000000", True))
    (seat,) = [e for e in d.view("ops:slots")["entries"] if e["via"] == "Wild Card"]
    assert seat["entry"] and seat["stage"] == "final" and seat["card"].endswith("0000")


# -- issue 12: an outage cannot eat the claim window (rules 39-40) ------------------------------
def test_late_reveal_gives_a_fresh_window_from_when_it_is_shown():
    # rule 39: 90 seconds from being called; the controller was down at reveal_at
    s = frozen_show()
    event = drawn(s, 13, CLOSE)
    back = event.claim_deadline_ms + 60_000  # down from the draw until well past the deadline
    assert rejected(s, "wildcard.redraw", at=back).code == "not_revealed"
    (reveal,) = s.tick(back)
    assert reveal == WildcardRevealed(1, back + LEAD, back + LEAD + 90_000, "after_outage")
    assert s.view()["reveal_at"] == back + LEAD
    assert s.view()["claim_deadline"] == back + LEAD + 90_000
    error = rejected(s, "wildcard.redraw", at=back + LEAD + 89_999)
    assert error.code == "claim_open"
    winner = next(c for c in s.cue_list() if c["id"] == "wildcard-r1-winner")
    assert winner["at_ms"] == back + LEAD and "technical interruption" in winner["text"]
    assert s.send("wildcard.claim", CLAIM, at=back + LEAD + 89_999)[-1] == WildcardFinalist(
        "1000004", True)


def test_claim_window_that_ran_out_while_down_is_called_again():
    # rules 39-40: nobody could record a claim while the controller was down
    s = frozen_show()
    event = drawn(s, 13, CLOSE)
    s.tick(event.reveal_at_ms)
    back = event.claim_deadline_ms + OUTAGE_GRACE_MS + 1
    error = rejected(s, "wildcard.redraw", at=back)
    assert error.code == "claim_restarted" and "rules 39-40" in error.message
    (again,) = s.tick(back)
    assert again == WildcardRevealed(1, back + LEAD, back + LEAD + 90_000, "after_outage")
    assert s.view()["claim_deadline"] == back + LEAD + 90_000
    cues = {c["id"]: c for c in s.cue_list()}
    assert "time starts again" in cues["wildcard-r1-call2"]["text"]
    assert cues["wildcard-r1-call2-remind-10"]["at_ms"] == back + LEAD + 80_000
    assert rejected(s, "wildcard.redraw", at=back + LEAD + 89_999).code == "claim_open"
    (expired,) = s.tick(back + LEAD + 90_000)
    assert expired == WildcardClaimExpired(1, back + LEAD + 90_000)
    assert [type(e) for e in s.send("wildcard.redraw", at=back + LEAD + 95_000)] == [
        WildcardRedrawStarted, WildcardPoolFrozen]


def test_deadline_seen_by_the_running_clock_is_final():
    # rule 40: the window ran out while the controller was up: a later restart changes nothing
    s = frozen_show()
    event = drawn(s, 13, CLOSE)
    s.tick(event.reveal_at_ms)
    assert s.tick(event.claim_deadline_ms + 200) == [WildcardClaimExpired(1,
                                                                          event.claim_deadline_ms)]
    assert s.tick(event.claim_deadline_ms + 600_000) == []
    assert s.send("wildcard.redraw", at=event.claim_deadline_ms + 600_000)[0].reason == (
        "not_claimed")


def test_the_pool_is_not_frozen_while_slots_qualifying_is_open():
    # slots rule 17: the two highest qualifying scores go straight to the final; until qualifying
    # closes they are not known and could be drawn as the Wild Card (rule 19)
    s = activated_show(FixedRoster(participants={"1000001", "1000002"}, qualifying_over=False))
    exc = rejected(s, "wildcard.freeze", at=CLOSE + 1_000)
    assert exc.code == "qualifying_open" and "rule 17" in exc.message
    assert s.wildcard.pool is None
    # the refusal names the missing step, and its ack offers it with a confirmation in words
    step = exc.refusal()["error"]["next"]
    assert (step["type"], step["payload"]) == ("slots.close_stage", {"stage": "qualifying"})
    assert step["button"] == "Close qualifying…"
    assert "ends qualifying for everyone" in step["confirm"]["detail"]
    assert "rule 17" in step["confirm"]["detail"]
    assert step["done"].endswith("Freeze the pool now.")
    s.roster.qualifying_over = True
    s.send("wildcard.freeze", at=CLOSE + 1_000)
    assert s.wildcard.pool is not None


def test_the_desks_answer_names_the_member_and_only_the_cards_last_four_digits():
    # rules 18.1-18.2: a participant holds their cardholder's and their participant's tickets
    s = WildcardShow(FixedRoster(participants={"1000001"}))
    for card, name in (("1000001", "Thandi Mokoena"), ("1000003", "Lerato Dlamini")):
        s.member(card, name)
    thandi = s.send("wildcard.activate", {"card": "1000001"}, at=OPEN + 60_000)
    lerato = s.show.decide("wildcard.activate", {"card": "1000003"},
                           Context("mc-thabo", "operator", OPEN + 60_000))
    assert s.wildcard.activated_words(thandi) == (
        "Thandi M.: 6 Wild Card tickets activated (card ending 0001).")
    assert s.wildcard.activated_words(lerato) == (
        "Lerato D.: 1 Wild Card ticket activated (card ending 0003).")

"""The paper the rules require, as signed commands: a participant's acknowledgement of each
score (poker rules 20, 35, 51; roulette rule 18), a roulette dispute within its spin (rule 17)
and the Promotion Director's sign-off of a Super 9 ticket's new numbers (rule 23). Driven
through a pure Show; the signature is the reference the controller gave for a stored image
(its check is the service's: tests/integration/test_signatures.py)."""

from __future__ import annotations

from typing import Any

import pytest

from controller.domain.config import PromotionConfigured
from controller.promotions.super9.events import Super9TicketChanged
from controller.promotions.tournament.events import (
    TournamentClosedUnsigned,
    TournamentScoreAcknowledged,
    TournamentStageClosed,
)
from showrunner.contract.views import view_model
from tests.promotions.helpers import Driver
from tests.promotions.super9_floor import SESSION, WEDNESDAY, Floor, ms
from tests.promotions.test_poker import driver as poker_driver
from tests.promotions.test_poker import qualifying as poker_qualifying
from tests.promotions.test_poker import stage as poker_stage
from tests.promotions.test_roulette import play_heat

SIGNATURE = {"sha256": "5" * 64, "media_type": "image/png", "bytes": 2048, "width": 600,
             "height": 200, "strokes": 3}


def policy(d: Driver, promotion: str, value: str) -> None:
    """The venue's config with `score_signatures` set, as the log records it."""
    config = d.feature(promotion).config.to_data()
    d.apply(PromotionConfigured(promotion, {**config, "score_signatures": value}))


def signs(entry: str, **extra: Any) -> dict[str, Any]:
    return {"entry": entry, "signature": SIGNATURE, **extra}


def ops_row(d: Driver, promotion: str, entry: str) -> dict[str, Any]:
    doc = d.view(f"ops:{promotion}")
    view_model(f"ops:{promotion}").model_validate(doc)  # the contract holds the new fields
    return next(r for r in doc["entries"] if r["entry"] == entry)


# -- roulette rule 18: the heat's score sheet --------------------------------------------------
def roulette_heat(d: Driver, players: int = 2) -> list[str]:
    cards = d.members(players)
    entries = [d.entry("roulette.enter", {"card": c, "heat": "Heat 1"}) for c in cards]
    play_heat(d, "Heat 1")
    return entries


def test_roulette_players_sign_the_heats_score_sheet_for_the_score_as_it_stands():
    d = Driver()
    first, second = roulette_heat(d)
    # rule 18: at the end of a heat, a score sheet acknowledging their score
    assert d.refuse("roulette.acknowledge_score", signs(first)).code == "no_score"
    d.do("roulette.record_score", {"entry": first, "score": 900})
    d.do("roulette.record_score", {"entry": second, "score": 400})
    assert ops_row(d, "roulette", first)["signed"] is False  # shown unsigned on the console
    refused = d.refuse("roulette.acknowledge_score", signs(first, score=800))
    assert refused.code == "score_changed" and "now 900" in refused.message
    (event,) = d.do("roulette.acknowledge_score", signs(first, score=900))
    assert event == TournamentScoreAcknowledged("roulette", first, 900, SIGNATURE, d.now)
    row = ops_row(d, "roulette", first)
    assert (row["signed"], row["signer"]) == (True, "Player0 S.")
    assert "sha256" not in str(d.view("ops:roulette"))  # signed or not, never the signature
    assert d.refuse("roulette.acknowledge_score", signs(first)).code == "already_signed"
    # a correction makes the acknowledgement void: the new score is signed for again
    d.do("roulette.correct_score", {"entry": first, "score": 950, "reason": "miscounted"})
    assert ops_row(d, "roulette", first)["signed"] is False
    d.do("roulette.acknowledge_score", signs(first, score=950))
    assert ops_row(d, "roulette", first)["signed"] is True
    d.do("roulette.void_score", {"entry": first, "reason": "wrong seat"})
    assert ops_row(d, "roulette", first)["signed"] is False


def test_a_fully_scored_heat_stays_on_the_console_until_its_sheet_is_signed():
    # rule 18: the heat's score sheet, one signature per player, at the heat's end
    d = Driver()
    first, second = roulette_heat(d)
    for entry, score in ((first, 900), (second, 400)):
        d.do("roulette.record_score", {"entry": entry, "score": score})
    listed = [r["entry"] for r in d.view("ops:roulette")["entries"]]
    assert listed == [first, second] and d.view("ops:roulette")["unsigned"]["qualifying"] == 2
    for entry in (first, second):
        d.do("roulette.acknowledge_score", signs(entry))
    assert d.view("ops:roulette")["entries"] == []  # every score signed: the heat is done


def qualified_roulette(d: Driver) -> list[str]:
    """Eleven players scored in their own heats; the first two have not signed."""
    cards = d.members(11)
    entries = []
    for i, card in enumerate(cards):
        entries.append(d.entry("roulette.enter", {"card": card, "heat": f"Heat {i + 1}"}))
        play_heat(d, f"Heat {i + 1}")
        d.do("roulette.record_score", {"entry": entries[-1], "score": 100 + 10 * i})
        if i >= 2:
            d.do("roulette.acknowledge_score", signs(entries[-1]))
    return entries


def test_require_refuses_to_close_a_stage_naming_who_has_not_signed():
    d = Driver()
    policy(d, "roulette", "require")
    entries = qualified_roulette(d)
    refused = d.refuse("roulette.close_stage", {"stage": "qualifying"})
    assert refused.code == "scores_unsigned"
    assert refused.message == ("Player0 S., Player1 S.: not yet signed for their scores (rule "
                               "18). Ask them to sign, then close the Qualifying.")
    for entry in entries[:2]:
        d.do("roulette.acknowledge_score", signs(entry))
    events = d.do("roulette.close_stage", {"stage": "qualifying"})
    assert not any(isinstance(e, TournamentClosedUnsigned) for e in events)


def test_warn_closes_and_records_who_has_not_signed_and_off_says_nothing():
    d = Driver()  # the default is "warn"
    entries = qualified_roulette(d)
    events = d.do("roulette.close_stage", {"stage": "qualifying"})
    assert isinstance(events[0], TournamentStageClosed)
    warning = events[1]
    assert warning == TournamentClosedUnsigned(
        "roulette", "qualifying", entries[:2],
        "Player0 S., Player1 S.: 2 scores not signed for when the Qualifying closed (rule 18).")
    d = Driver()
    policy(d, "roulette", "off")
    qualified_roulette(d)
    events = d.do("roulette.close_stage", {"stage": "qualifying"})
    assert not any(isinstance(e, TournamentClosedUnsigned) for e in events)
    assert d.view("ops:roulette")["signatures"] == {"qualifying": False, "final": False}


def test_slots_asks_for_no_score_signature():
    d = Driver()
    assert d.refuse("slots.acknowledge_score", signs("S1")).code == "unknown_command"


# -- poker rules 20, 35 and 51 ----------------------------------------------------------------
def test_poker_scores_are_signed_for_in_every_stage():
    d = poker_driver()
    policy(d, "poker", "require")
    entries = poker_qualifying(d, [1_000 + 100 * i for i in range(14)])
    # rule 20: each qualifying score acknowledged and signed for by the participant
    refused = d.refuse("poker.close_stage", {"stage": "qualifying"})
    assert refused.code == "scores_unsigned" and "(rule 20)" in refused.message
    for entry in entries:
        d.do("poker.acknowledge_score", signs(entry))
    d.do("poker.close_stage", {"stage": "qualifying"})
    semi = poker_stage(d, "semi")
    for i, e in enumerate(semi):
        d.do("poker.choose_seat", {"entry": e.id, "heat": f"Semi {i % 2 + 1}",
                                   "seat": i // 2 + 1})
        d.do("poker.record_score", {"entry": e.id, "score": 3_000 - 10 * i, "hands": 12})
    refused = d.refuse("poker.close_stage", {"stage": "semi"})  # rule 35: the semi-final's
    assert refused.code == "scores_unsigned" and "(rule 35)" in refused.message
    for e in semi:
        d.do("poker.acknowledge_score", signs(e.id))
    d.do("poker.close_stage", {"stage": "semi"})
    d.do("poker.draw_seats", {})
    final = poker_stage(d, "final")
    for i, e in enumerate(final):
        d.do("poker.record_score", {"entry": e.id, "score": 2_000 + 100 * i, "hands": 12,
                                    "markers_unused": 0})
    refused = d.refuse("poker.close_stage", {"stage": "final"})  # rule 51: the final's
    assert refused.code == "scores_unsigned" and "(rule 51)" in refused.message
    for e in final:
        d.do("poker.acknowledge_score", signs(e.id))
    d.do("poker.close_stage", {"stage": "final"})


# -- roulette rule 17: disputes within the spin in question ----------------------------------
def dispute(card: str, spin: int, **extra: Any) -> dict[str, Any]:
    return {"heat": "Heat 1", "spin": spin, "card": card, "what": "My straight-up on 17 was "
            "not paid", "decision": "upheld", "signature": SIGNATURE, **extra}


def test_a_dispute_is_recorded_within_its_spin_and_refused_after_it():
    d = Driver()
    cards = d.members(2)
    for card in cards:
        d.do("roulette.enter", {"card": card, "heat": "Heat 1"})
    assert d.refuse("roulette.dispute", dispute(cards[0], 1)).code == "no_spin_yet"
    d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
    (event,) = d.do("roulette.dispute", dispute(cards[0], 1))  # rule 17: within spin 1
    assert (event.heat, event.spin, event.card, event.decision, event.decided_by,
            event.signature) == ("Heat 1", 1, cards[0], "upheld", "mc", SIGNATURE)
    d.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1"})
    d.do("roulette.dispute", dispute(cards[1], 1, decision="rejected"))  # spin 1 just played
    d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
    refused = d.refuse("roulette.dispute", dispute(cards[0], 1))  # spin 2 is in play now
    assert refused.code == "dispute_too_late"
    assert refused.message == ("Spin 1 of Heat 1 is over: disputes must be raised within the "
                               "spin in question, and none is considered after it (rule 17).")
    assert d.refuse("roulette.dispute", dispute(cards[0], 3)).code == "spin_not_played"
    d.member("1999999", "Not Playing")
    assert d.refuse("roulette.dispute", dispute("1999999", 2)).code == "not_seated"
    heats = d.view("ops:roulette")["heats"]
    assert heats[0]["disputes"] == [
        {"spin": 1, "name": "Player0 S.", "what": "My straight-up on 17 was not paid",
         "decision": "upheld", "decided_by": "mc"},
        {"spin": 1, "name": "Player1 S.", "what": "My straight-up on 17 was not paid",
         "decision": "rejected", "decided_by": "mc"}]


def test_the_last_spin_is_disputed_until_the_heats_scores_are_in():
    d = Driver()
    (card,) = d.members(1)
    entry = d.entry("roulette.enter", {"card": card, "heat": "Heat 1"})
    play_heat(d, "Heat 1")
    d.do("roulette.dispute", dispute(card, 3))  # rule 17: the last spin, still in question
    d.do("roulette.record_score", {"entry": entry, "score": 500})
    assert d.refuse("roulette.dispute", dispute(card, 3)).code == "dispute_too_late"


# -- Super 9 rule 23: the Promotion Director signs off a change of numbers -------------------
NEW = [10, 11, 12, 13, 14, 15, 16, 17, 18]


def change(ticket: str, numbers: list[int], director: str = "Lindiwe Dube") -> dict[str, Any]:
    return {"ticket": ticket, "numbers": numbers, "director": director, "signature": SIGNATURE}


@pytest.fixture
def floor() -> Floor:
    f = Floor()
    f.member("1234567", "Thandi Mokoena")
    f.ticket("0421", [1, 2, 3, 4, 5, 6, 7, 8, 9], card="1234567")
    f.ticket("0422", [20, 21, 22, 23, 24, 25, 26, 27, 28])
    return f


def test_a_ticket_s_numbers_change_before_the_game_with_the_director_s_sign_off(floor):
    (event,) = floor.do("super9.change_numbers", change("0421", list(reversed(NEW))))
    assert event == Super9TicketChanged("0421", [1, 2, 3, 4, 5, 6, 7, 8, 9], NEW,
                                        "Lindiwe Dube", SIGNATURE, floor.now)
    assert floor.super9.tickets["0421"].numbers == NEW
    assert floor.refused("super9.change_numbers", change("0421", NEW)).code == \
        "numbers_unchanged"
    assert floor.refused("super9.change_numbers", change("0421", NEW[:8])).code == "bad_numbers"
    assert floor.refused("super9.change_numbers", change("0421", [1, 2, 3, 4, 5, 6, 7, 8, 9],
                                                         director="  ")).code == \
        "director_required"
    assert floor.refused("super9.change_numbers", change("0999", NEW)).code == "unknown_ticket"
    floor.start()
    floor.spins(*NEW)  # the game plays the changed numbers
    assert floor.super9.current.game.complete() == ["0421"]


def test_numbers_cannot_change_once_the_game_has_started(floor):
    floor.start()
    refused = floor.refused("super9.change_numbers", change("0422", NEW))  # rule 23
    assert refused.code == "session_started"
    assert refused.message == ("The Wednesday 4 June 19:00 game has started: ticket 0422's "
                               "numbers can only change before the game starts (rule 23).")
    assert SESSION.startswith(WEDNESDAY) and floor.now >= ms(f"{WEDNESDAY} 19:00")

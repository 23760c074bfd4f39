"""Heads-Up Poker Showdown rules (shared/rules/heads-up-poker-showdown.txt)."""

from __future__ import annotations

import datetime as dt

import pytest

from controller.domain.calendar import day_ms
from controller.promotions.poker.sweet16 import classify, payout
from tests.promotions.helpers import Driver

FIRST_DAY = dt.date(2026, 7, 3)


def at(day_offset: int) -> int:
    return day_ms(FIRST_DAY + dt.timedelta(days=day_offset), "Africa/Johannesburg")


def qualifying(d: Driver, scores: list[int]) -> list[str]:
    cards = d.members(len(scores))
    entries = []
    for card, score in zip(cards, scores, strict=True):
        entries.append(d.entry("poker.enter", {"card": card}))
        d.do("poker.record_score", {"entry": entries[-1], "score": score, "hands": 10})
    return entries


def stage(d: Driver, name: str) -> list:
    poker = d.feature("poker")
    return [poker.entries[i] for i in poker.stages[name].entries]


def test_eligibility_and_entry_with_id_for_non_members():
    d = Driver()
    d.member("1000001", "Young Player", flags=["under_18"])
    exc = d.refuse("poker.enter", {"card": "1000001"})
    assert exc.code == "ineligible" and "rules 1-3" in exc.message  # rules 1-3
    d.member("1000002", "Guest Visitor", rewards_member=False)
    d.do("poker.enter", {"card": "1000002"})  # rule 5: a valid card or ID/driver's licence


def test_entry_is_r100_split_80_to_the_pool_and_20_to_the_top_score_progressive():
    d = Driver()
    d.members(3)
    for i in range(3):
        d.do("poker.enter", {"card": str(1_000_000 + i)})
    pools = {p["name"]: p["amount"] for p in d.view("pools:poker")["pools"]}
    # rule 6: R100 an entry; rule 18: 80% overall pool, 20% top-score progressive
    assert pools == {"prize_pool": 24_000, "top_score": 6_000}


def test_a_score_is_recorded_only_after_10_hands():
    d = Driver()
    d.members(1)
    e = d.entry("poker.enter", {"card": "1000000"})
    exc = d.refuse("poker.record_score", {"entry": e, "score": 2_400, "hands": 9})
    assert exc.code == "hands" and "rules 14-15" in exc.message  # rules 14-15
    d.do("poker.record_score", {"entry": e, "score": 2_400, "hands": 10})
    # rule 7: each entry is scored alone; a second score is a correction with a reason
    assert d.refuse("poker.record_score", {"entry": e, "score": 1, "hands": 10}).code == (
        "already_scored")


def test_top_3_qualifying_scores_share_the_top_score_progressive():
    d = Driver()
    qualifying(d, [3_000, 5_000, 4_000, 1_000, 2_000])
    top = d.view("prizes:poker")["top_score"]
    # rule 18: the top 3 scores at the end of qualifying are eligible (pool: 5 x R20)
    assert top["pool"] == 10_000
    assert [(p["name"], p["amount"]) for p in top["places"]] == [
        ("Player1 S.", 5_000), ("Player2 S.", 3_000), ("Player0 S.", 2_000)]


def test_weekly_top_score_prizes_only_in_the_first_4_weeks():
    d = Driver()
    d.members(3)
    for day, card, score in ((0, "1000000", 3_000), (1, "1000001", 3_500),
                             (28, "1000002", 9_000)):
        d.now = at(day)
        e = d.entry("poker.enter", {"card": card})
        d.do("poker.record_score", {"entry": e, "score": score, "hands": 10})
    weekly = d.view("prizes:poker")["weekly"]
    # rule 17: weekly prizes in the first 4 weeks only; the day-28 score is in week 5
    assert [w["week"] for w in weekly] == [1, 2, 3, 4]
    assert (weekly[0]["name"], weekly[0]["score"]) == ("Player1 S.", 3_500)
    assert all(w["name"] is None for w in weekly[1:])


def to_semi(d: Driver) -> list[str]:
    entries = qualifying(d, [1_000 + 100 * i for i in range(14)])
    d.do("poker.close_stage", {"stage": "qualifying"})
    return entries


def test_top_12_play_the_semi_in_2_heats_of_6_choosing_heat_and_seat():
    d = Driver()
    entries = to_semi(d)
    semi = stage(d, "semi")
    assert [e.origin for e in semi] == entries[::-1][:12]  # rules 21, 24: top 12
    # rule 27: on registering, the player selects a heat and seat
    d.do("poker.choose_seat", {"entry": semi[0].id, "heat": "Semi 2", "seat": 4})
    assert d.refuse("poker.choose_seat", {"entry": semi[1].id, "heat": "Semi 2",
                                          "seat": 4}).code == "seat_taken"
    # rule 26: 2 heats of 6
    assert d.refuse("poker.choose_seat", {"entry": semi[1].id, "heat": "Semi 3",
                                          "seat": 1}).code == "unknown_heat"
    assert d.refuse("poker.choose_seat", {"entry": semi[1].id, "heat": "Semi 1",
                                          "seat": 7}).code == "bad_seat"
    seating = d.view("seating:poker")["stages"][0]["heats"]
    assert seating[0]["heat"] == "Semi 2" and seating[0]["seats"][0]["seat"] == 4


def play_semi(d: Driver) -> list:
    semi = stage(d, "semi")
    for i, e in enumerate(semi):
        d.do("poker.choose_seat", {"entry": e.id, "heat": f"Semi {i % 2 + 1}",
                                   "seat": i // 2 + 1})
        # rule 34: 12 hands in the semi-final
        if i == 0:
            assert d.refuse("poker.record_score", {"entry": e.id, "score": 1,
                                                   "hands": 10}).code == "hands"
        d.do("poker.record_score", {"entry": e.id, "score": 3_000 - 10 * i, "hands": 12})
    d.do("poker.close_stage", {"stage": "semi"})
    return semi


def test_top_6_play_one_final_heat_with_seats_drawn_at_random():
    d = Driver(seed=5)
    to_semi(d)
    semi = play_semi(d)
    final = stage(d, "final")
    assert [e.origin for e in final] == [e.id for e in semi[:6]]  # rule 36: top 6
    # rule 27: choosing is for the semi; rule 40: final seats are drawn
    assert d.refuse("poker.choose_seat", {"entry": final[0].id, "heat": "Final 1",
                                          "seat": 1}).code == "bad_stage"
    seated = d.do("poker.draw_seats", {})[0]
    assert seated.method == "draw"
    assert sorted(s for _, _, s in seated.seats) == [1, 2, 3, 4, 5, 6]  # rules 39, 42
    assert {h for _, h, _ in seated.seats} == {"Final 1"}


def test_unused_bonus_markers_count_toward_the_final_score_and_the_split_is_60_10_9_8_7_6():
    d = Driver()
    to_semi(d)
    play_semi(d)
    d.do("poker.draw_seats", {})
    final = stage(d, "final")
    assert d.refuse("poker.record_score", {"entry": final[0].id, "score": 1, "hands": 12,
                                           "markers_unused": 4}).code == "markers"  # rule 46
    for i, e in enumerate(final):
        d.do("poker.record_score", {"entry": e.id, "score": 2_000 + 100 * i, "hands": 12,
                                    "markers_unused": 3 if i == 0 else 0})
    # rule 46: 3 unused R500 markers add 1 500 to the first finalist's 2 000
    assert d.view("leaderboard:poker:final")["rows"][0]["score"] == 3_500
    d.do("poker.close_stage", {"stage": "final"})
    prizes = d.view("prizes:poker")
    pool = prizes["pool"]
    assert pool == 14 * 8_000
    # rule 52: 60/10/9/8/7/6 of the final prize pool; the parts sum to the pool
    assert [p["amount"] for p in prizes["places"]] == [67_200, 11_200, 10_080, 8_960, 7_840,
                                                       6_720]
    assert sum(p["amount"] for p in prizes["places"]) == pool
    assert prizes["places"][0]["name"] == d.feature("poker").name_of(final[0].card)


def test_semi_proxy_only_for_a_player_with_more_than_one_seat():
    d = Driver()
    to_semi(d)
    semi = stage(d, "semi")
    d.member("3000000", "Nominee One")
    # rule 25: proxies when a patron has more than one seat in the semi-final
    exc = d.refuse("poker.register_proxy", {"entry": semi[0].id, "nominee": "3000000",
                                            "form": "P1"})
    assert exc.code == "single_seat" and "rules 25 and 41" in exc.message


@pytest.mark.parametrize(("cards", "hand", "odds"), [
    (("AH", "5H"), "sweet_16", 160),
    (("10S", "6S"), "suited_16", 16),
    (("KD", "6H"), "same_colour_16", 12),
    (("9C", "7D"), "mixed_colour_16", 6),
    (("9C", "8D"), None, 0),
])
def test_sweet_16_pay_table_and_calculator(cards, hand, odds):
    d = Driver()
    table = d.feature("poker").config.sweet16
    # rule 13: the Sweet 16 combinations and what they pay (to 1)
    assert classify(*cards) == hand
    assert payout(*cards, 25_000, table) == 25_000 * odds
    rows = d.view("paytable:poker")["rows"]
    assert [r["pays"] for r in rows] == ["160 to 1", "16 to 1", "12 to 1", "6 to 1"]

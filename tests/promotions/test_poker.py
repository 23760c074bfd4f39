"""Heads-Up Poker Showdown rules (shared/rules/heads-up-poker-showdown.txt)."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest

from controller.domain.calendar import day_ms
from controller.domain.config import logged
from controller.promotions.poker.config import PokerConfig
from controller.promotions.poker.sweet16 import classify, payout
from showrunner.contract.views import view_model
from tests.promotions.helpers import Driver

FIRST_DAY = dt.date(2026, 7, 3)


def at(day_offset: int, hour: int = 14) -> int:
    return day_ms(FIRST_DAY + dt.timedelta(days=day_offset), "Africa/Johannesburg", hour)


def driver(seed: int = 1) -> Driver:
    """A show on the first qualifying day, 14:00: inside the Qualifying Heats' hours."""
    d = Driver(seed)
    d.now = at(0)
    return d


def qualifying(d: Driver, scores: list[int]) -> list[str]:
    cards = d.members(len(scores))
    entries = []
    for card, score in zip(cards, scores, strict=True):
        entries.append(d.entry("poker.enter", {"card": card}))
        d.do("poker.record_score", {"entry": entries[-1], "score": score, "hands": 10})
    return entries


def stage(d: Driver, name: str) -> list:
    poker = d.feature("poker")
    return [poker.entries.at(row) for row in poker.stages[name].rows]


def test_eligibility_and_entry_with_id_for_non_members():
    d = driver()
    d.member("1000001", "Young Player", flags=["under_18"])
    exc = d.refuse("poker.enter", {"card": "1000001"})
    assert exc.code == "ineligible" and "rules 1-3" in exc.message  # rules 1-3
    d.member("1000002", "Guest Visitor", rewards_member=False)
    d.do("poker.enter", {"card": "1000002"})  # rule 5: a valid card or ID/driver's licence


def test_entry_is_r100_split_80_to_the_pool_and_20_to_the_top_score_progressive():
    d = driver()
    d.members(3)
    for i in range(3):
        d.do("poker.enter", {"card": str(1_000_000 + i)})
    pools = {p["name"]: p["amount"] for p in d.view("pools:poker")["pools"]}
    # rule 6: R100 an entry; rule 18: 80% overall pool, 20% top-score progressive
    assert pools == {"prize_pool": 24_000, "top_score": 6_000}


def test_a_score_is_recorded_only_after_10_hands():
    d = driver()
    d.members(1)
    e = d.entry("poker.enter", {"card": "1000000"})
    exc = d.refuse("poker.record_score", {"entry": e, "score": 2_400, "hands": 9})
    assert exc.code == "hands" and "rules 14-15" in exc.message  # rules 14-15
    d.do("poker.record_score", {"entry": e, "score": 2_400, "hands": 10})
    # rule 7: each entry is scored alone; a second score is a correction with a reason
    assert d.refuse("poker.record_score", {"entry": e, "score": 1, "hands": 10}).code == (
        "already_scored")


def test_top_3_qualifying_scores_share_the_top_score_progressive():
    d = driver()
    qualifying(d, [3_000, 5_000, 4_000, 1_000, 2_000])
    top = d.view("prizes:poker")["top_score"]
    # rule 18: the top 3 scores at the end of qualifying are eligible (pool: 5 x R20)
    assert top["pool"] == 10_000
    assert [(p["name"], p["amount"]) for p in top["places"]] == [
        ("Player1 S.", 5_000), ("Player2 S.", 3_000), ("Player0 S.", 2_000)]


def test_weekly_top_score_prizes_only_in_the_first_4_weeks():
    d = driver()
    d.members(3)
    for day, card, score in ((0, "1000000", 3_000), (1, "1000001", 3_500),
                             (27, "1000002", 9_000)):
        d.now = at(day)
        e = d.entry("poker.enter", {"card": card})
        d.do("poker.record_score", {"entry": e, "score": score, "hands": 10})
    weekly = d.view("prizes:poker")["weekly"]
    # rule 17: weekly prizes in the first 4 weeks only; 30 July (day 27) ends week 4
    assert [w["week"] for w in weekly] == [1, 2, 3, 4]
    assert (weekly[0]["name"], weekly[0]["score"]) == ("Player1 S.", 3_500)
    assert [w["name"] for w in weekly[1:]] == [None, None, "Player2 S."]


def to_semi(d: Driver) -> list[str]:
    entries = qualifying(d, [1_000 + 100 * i for i in range(14)])
    d.do("poker.close_stage", {"stage": "qualifying"})
    return entries


def test_top_12_play_the_semi_in_2_heats_of_6_choosing_heat_and_seat():
    d = driver()
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
    d = driver(seed=5)
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
    d = driver()
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
    d = driver()
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
    d = driver()
    table = d.feature("poker").config.sweet16
    # rule 13: the Sweet 16 combinations and what they pay (to 1)
    assert classify(*cards) == hand
    assert payout(*cards, 25_000, table) == 25_000 * odds
    rows = d.view("paytable:poker")["rows"]
    assert [r["pays"] for r in rows] == ["160 to 1", "16 to 1", "12 to 1", "6 to 1"]


def venue(local: str) -> int:
    moment = dt.datetime.fromisoformat(local).replace(tzinfo=ZoneInfo("Africa/Johannesburg"))
    return int(moment.timestamp() * 1000)


HOURS = "3 July to 30 July 2026, daily from 13:00 to 00:00 (Africa/Johannesburg time)"


@pytest.mark.parametrize("local", [
    "2026-07-02 14:00",  # before the first qualifying day
    "2026-07-03 00:00",  # the end of 2 July's heats: not a qualifying day
    "2026-07-03 12:59",  # before 13h00
    "2026-07-31 00:01",  # after the final buy-ins at 00h00
    "2026-07-31 14:00",  # after the last qualifying day
])
def test_entries_outside_the_qualifying_heats_dates_and_times_are_refused(local):
    d = driver()
    d.members(1)
    d.now = venue(local)
    # Qualifying Heats: 03 July to 30 July 2026, daily from 13h00 (final buy-ins at 00h00)
    exc = d.refuse("poker.enter", {"card": "1000000"})  # and neither pool moves
    assert exc.code == "outside_hours" and HOURS in exc.message
    assert "Qualifying Heats" in exc.message
    assert [p["amount"] for p in d.view("pools:poker")["pools"]] == [0, 0]


@pytest.mark.parametrize("local", ["2026-07-03 13:00", "2026-07-15 23:59", "2026-07-31 00:00"])
def test_entries_in_the_qualifying_heats_hours_are_sold(local):
    d = driver()
    d.members(1)
    d.now = venue(local)  # the final buy-ins at 00h00 belong to 30 July's heats
    d.do("poker.enter", {"card": "1000000"})
    assert [p["amount"] for p in d.view("pools:poker")["pools"]] == [8_000, 2_000]


def test_a_tie_for_the_top_weekly_score_shares_the_weekly_prize():
    d = driver()
    d.members(4)
    entries = []
    for i, score in enumerate((3_500, 2_000, 3_500, 3_500)):
        d.now = at(1, 14 + i)
        entries.append(d.entry("poker.enter", {"card": str(1_000_000 + i)}))
        d.do("poker.record_score", {"entry": entries[-1], "score": score, "hands": 10})
    # rule 17 (ruling): tied top scores share the week's R5 000 equally; the odd cents go to
    # the earliest scores
    week = d.view("prizes:poker")["weekly"][0]
    assert week["tied"] is True and week["score"] == 3_500
    assert [(w["name"], w["amount"]) for w in week["winners"]] == [
        ("Player0 S.", 166_667), ("Player2 S.", 166_667), ("Player3 S.", 166_666)]
    assert sum(w["amount"] for w in week["winners"]) == 500_000
    ops = d.view("ops:poker")
    for name in ("ops:poker", "prizes:poker"):  # the documents fit their contract models
        view_model(name).model_validate_json(json.dumps(d.view(name)))
    first = ops["weekly"][0]
    assert first["tied"] is True
    assert [w["entry"] for w in first["winners"]] == [entries[0], entries[2], entries[3]]
    assert ops["weekly"][1] == {"week": 2, "score": None, "tied": False, "winners": []}


def test_a_lone_top_weekly_score_takes_the_whole_prize():
    d = driver()
    qualifying(d, [3_000, 3_400])
    week = d.view("ops:poker")["weekly"][0]  # rule 17: the top weekly score wins it
    assert week["tied"] is False
    assert [(w["name"], w["amount"]) for w in week["winners"]] == [("Player1 S.", 500_000)]


def test_a_score_above_the_plausible_maximum_needs_the_operators_confirmation():
    d = driver()
    d.members(2)
    e = d.entry("poker.enter", {"card": "1000000"})
    # rules 8, 14-15: R2 000 in chips and 10 hands; above 10 x the chips (20 000) is checked
    exc = d.refuse("poker.record_score", {"entry": e, "score": 24_000, "hands": 10})
    assert exc.code == "confirm_score"
    assert "20\u00a0000" in exc.message and "confirm and a reason" in exc.message
    exc = d.refuse("poker.record_score", {"entry": e, "score": 24_000, "hands": 10,
                                          "confirm": True})
    assert exc.code == "reason_required"
    (event,) = d.do("poker.record_score", {"entry": e, "score": 24_000, "hands": 10,
                                           "confirm": True, "reason": "Sweet 16 hit, hand 4"})
    assert event.detail["confirmed"] == "Sweet 16 hit, hand 4"
    other = d.entry("poker.enter", {"card": "1000001"})
    (event,) = d.do("poker.record_score", {"entry": other, "score": 20_000, "hands": 10})
    assert "confirmed" not in event.detail  # at the maximum: no confirmation needed


def test_a_correction_above_the_plausible_maximum_needs_the_same_confirmation():
    # rules 20, 35, 51: the score a player signs for is one the operator checked; a correction
    # ("typo") must not get round the confirmation a first score above the maximum needs
    d = driver()
    d.members(1)
    e = d.entry("poker.enter", {"card": "1000000"})
    d.do("poker.record_score", {"entry": e, "score": 18_000, "hands": 10})
    exc = d.refuse("poker.correct_score", {"entry": e, "score": 900_000_000, "reason": "typo"})
    assert exc.code == "confirm_score" and "20\u00a0000" in exc.message  # state unchanged
    (event,) = d.do("poker.correct_score", {"entry": e, "score": 900_000_000, "reason": "typo",
                                            "confirm": True})
    assert event.new == 900_000_000
    d.do("poker.correct_score", {"entry": e, "score": 19_000, "reason": "miscounted"})


def test_the_finals_plausible_maximum_counts_the_unused_markers():
    d = driver()
    to_semi(d)
    play_semi(d)
    d.do("poker.draw_seats", {})
    final = stage(d, "final")
    # rule 46: three unused R500 markers on top of 20 000 in chips is still plausible
    d.do("poker.record_score", {"entry": final[0].id, "score": 20_000, "hands": 12,
                                "markers_unused": 3})
    exc = d.refuse("poker.record_score", {"entry": final[1].id, "score": 20_001, "hands": 12,
                                          "markers_unused": 3})
    assert exc.code == "confirm_score" and "21\u00a0500" in exc.message


def test_a_config_logged_before_the_heats_hours_replays_with_the_rules_hours():
    old = driver().feature("poker").config.to_data()
    for key in ("heats_open", "last_buy_in", "plausible_multiple"):
        del old[key]
    config = logged(PokerConfig, old)  # Qualifying Heats: 13h00 until the 00h00 buy-ins
    assert (config.heats_open, config.last_buy_in) == (dt.time(13), dt.time(0))
    assert config.plausible_score("qualifying") == 20_000

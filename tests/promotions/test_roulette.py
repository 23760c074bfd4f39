"""American Roulette Spin-Off rules (shared/rules/roulette-spin-off.txt)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from controller.domain.config import logged
from controller.promotions.roulette.config import RouletteConfig
from controller.promotions.tournament.events import TournamentEntered
from tests.promotions.helpers import NOW, Driver


def play_heat(d: Driver, heat: str, stage: str = "qualifying") -> None:
    for _ in range(3):
        d.do("roulette.open_betting", {"stage": stage, "heat": heat})
        d.do("roulette.spin", {"stage": stage, "heat": heat})


def qualifying(d: Driver, scores: list[int]) -> list[str]:
    """One guest per score, each in their own heat, heat played and scored."""
    cards = d.members(len(scores))
    entries = []
    for i, (card, score) in enumerate(zip(cards, scores, strict=True)):
        heat = f"Heat {i + 1}"
        entries.append(d.entry("roulette.enter", {"card": card, "heat": heat}))
        play_heat(d, heat)
        d.do("roulette.record_score", {"entry": entries[-1], "score": score})
    return entries


def final_entries(d: Driver) -> list:
    roulette = d.feature("roulette")
    return [roulette.entries.at(row) for row in roulette.stages["final"].rows]


def test_only_eligible_rewards_cardholders_may_enter():
    d = Driver()
    d.member("1000001", "Guest Visitor", rewards_member=False)
    d.member("1000002", "Young Player", flags=["under_18"])
    # rule 2: exclusive to Rewards cardholders
    assert d.refuse("roulette.enter", {"card": "1000001"}).code == "not_rewards"
    exc = d.refuse("roulette.enter", {"card": "1000002"})  # rule 1: under 18
    assert exc.code == "ineligible" and "under 18" in exc.message and "rules 1-2" in exc.message


def test_heat_costs_r200_and_the_pool_shows_progress_toward_r150_000():
    d = Driver()
    d.members(3)
    for i in range(3):
        d.do("roulette.enter", {"card": str(1_000_000 + i)})
    pool = d.view("pools:roulette")["pools"][0]
    # rule 7: R200 a heat; rules 6, 11: toward the advertised R150 000
    assert (pool["amount"], pool["target"]) == (60_000, 15_000_000)
    assert pool["target_text"] == "R150\u00a0000" and pool["progress_percent"] == 0
    assert d.view("spins:roulette")["chips"] == "5 stacks of R10 chips"


def test_three_spins_with_a_120_second_betting_window_and_30_more_after_a_no_spin():
    d = Driver()
    d.members(1)
    e = d.entry("roulette.enter", {"card": "1000000"})
    opened = d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})[-1]
    assert opened.deadline_ms == NOW + 120_000  # rule 7: at most 120 s to place bets
    d.now = NOW + 150_000
    extra = d.do("roulette.no_spin", {"stage": "qualifying", "heat": "Heat 1"})[0]
    assert extra.deadline_ms == NOW + 180_000  # rule 25: 30 more seconds
    heat = d.view("spins:roulette")["heats"][0]
    assert (heat["spin"], heat["betting"], heat["betting_closes_at"]) == (1, True, NOW + 180_000)
    assert heat["no_spin"] is True and heat["betting_opened_at"] == NOW + 150_000
    d.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1"})
    # rule 7: the score is taken after the third spin
    exc = d.refuse("roulette.record_score", {"entry": e, "score": 900})
    assert exc.code == "heat_not_over" and "1 of its 3 spins" in exc.message
    for _ in range(2):
        d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
        d.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1"})
    assert d.refuse("roulette.open_betting", {"stage": "qualifying",
                                              "heat": "Heat 1"}).code == "heat_over"
    d.do("roulette.record_score", {"entry": e, "score": 900})
    assert d.view("spins:roulette")["heats"] == []


def test_one_r100_rebuy_per_heat():
    d = Driver()
    d.members(1)
    e = d.entry("roulette.enter", {"card": "1000000"})
    d.do("roulette.rebuy", {"entry": e})
    exc = d.refuse("roulette.rebuy", {"entry": e})
    assert exc.code == "rebuy_used" and "rule 7" in exc.message  # rule 7
    assert d.view("pools:roulette")["pools"][0]["amount"] == 30_000


def test_a_missed_spin_disqualifies_the_player_for_that_heat():
    d = Driver()
    d.members(2)
    a = d.entry("roulette.enter", {"card": "1000000"})
    b = d.entry("roulette.enter", {"card": "1000001"})
    d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
    removed = d.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1", "missed": [b]})
    assert removed[1].status == "disqualified" and "rule 9" in removed[1].reason  # rule 9
    for _ in range(2):
        d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
        d.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1"})
    assert d.refuse("roulette.record_score", {"entry": b, "score": 5}).code == "not_playing"
    d.do("roulette.record_score", {"entry": a, "score": 5})


def test_re_entry_allowed_but_each_guest_shows_once_with_the_best_score_top_21():
    d = Driver()
    qualifying(d, [100 * (i + 1) for i in range(25)])
    d.member("2000000", "Repeat Guest")
    for heat, score in (("Heat 30", 700), ("Heat 31", 5_000), ("Heat 32", 300)):
        e = d.entry("roulette.enter", {"card": "2000000", "heat": heat})  # rule 12: re-entry
        play_heat(d, heat)
        d.do("roulette.record_score", {"entry": e, "score": score})
    doc = d.view("leaderboard:roulette")
    assert len(doc["rows"]) == 21 and doc["entries"] == 26  # rule 19: top 21, one line a guest
    assert doc["rows"][0] == {"position": 1, "name": "Repeat G.", "score": 5_000,
                              "movement": 0, "new": False}
    assert [r["name"] for r in doc["rows"]].count("Repeat G.") == 1


def test_top_10_go_to_a_final_in_two_groups_and_start_afresh():
    d = Driver()
    entries = qualifying(d, [100 * (i + 1) for i in range(12)])
    d.do("roulette.close_stage", {"stage": "qualifying"})
    finalists = final_entries(d)
    assert len(finalists) == 10  # rule 22: top 10
    assert [f.origin for f in finalists] == entries[::-1][:10]
    groups = {f.heat for f in finalists}
    assert groups == {"Group 1", "Group 2"}  # rule 13: two heats, group one and two
    # rule 23: qualifying values are not carried into the final
    assert d.view("leaderboard:roulette:final")["rows"] == []
    # rule 21: no buy-ins once the finalists are known
    assert d.refuse("roulette.enter", {"card": "1000000"}).code == "stage_closed"


def test_tie_is_settled_by_a_spin_off_and_an_absent_player_takes_the_lower_place():
    d = Driver()
    entries = qualifying(d, [2_000 - i for i in range(9)] + [500, 500, 500])
    exc = d.refuse("roulette.close_stage", {"stage": "qualifying"})  # places 10-12 tied
    assert exc.code == "tie_unresolved" and "rule 26" in exc.message
    tied = entries[9:]
    exc = d.refuse("roulette.tie_break", {"stage": "qualifying", "entries": tied,
                                          "scores": [1]})
    assert exc.code == "bad_payload"
    # rule 26: one stack and one spin each; the absent player is placed lowest of the tie
    d.do("roulette.tie_break", {"stage": "qualifying", "entries": tied,
                                "scores": [None, 40, 60]})
    names = [r["name"] for r in d.view("leaderboard:roulette")["rows"]][9:]
    assert names == ["Player11 S.", "Player10 S.", "Player9 S."]
    d.do("roulette.close_stage", {"stage": "qualifying"})
    assert final_entries(d)[-1].origin == entries[11]


def test_a_proxy_in_the_final_may_not_be_a_co_finalist():
    d = Driver()
    qualifying(d, [100 * (i + 1) for i in range(11)])
    d.do("roulette.close_stage", {"stage": "qualifying"})
    a, b = final_entries(d)[:2]
    # rule 14: representatives may not be co-participants in the finals
    exc = d.refuse("roulette.register_proxy", {"entry": a.id, "nominee": b.card, "form": "F1"})
    assert exc.code == "proxy_is_participant" and "rule 14" in exc.message
    d.do("roulette.register_proxy", {"entry": a.id, "nominee": "1000000", "form": "F1"})
    seat = next(s for h in d.view("seating:roulette")["stages"][0]["heats"]
                for s in h["seats"] if s["name"] == d.feature("roulette").name_of(a.card))
    assert seat["proxy"] == "Player0 S."


def test_final_no_show_is_out_and_top_5_share_the_pool_50_20_15_10_5():
    d = Driver()
    qualifying(d, [100 * (i + 1) for i in range(10)])  # pool: 10 x R200 = R2 000
    d.do("roulette.close_stage", {"stage": "qualifying"})
    finalists = final_entries(d)
    late = finalists[-1]
    # rule 13: a finalist absent when the group's heat is dealt is excluded
    d.do("roulette.start_heat", {"stage": "final", "heat": late.heat, "absent": [late.id]})
    for group in ("Group 1", "Group 2"):
        play_heat(d, group, "final")
    for i, f in enumerate(finalists[:-1]):
        d.do("roulette.record_score", {"entry": f.id, "score": 1_000 + i})
    d.do("roulette.close_stage", {"stage": "final"})
    places = d.view("prizes:roulette")["places"]
    # rule 27: only the top 5, 50/20/15/10/5
    assert [p["amount"] for p in places] == [100_000, 40_000, 30_000, 20_000, 10_000]
    assert places[0]["name"] == d.feature("roulette").name_of(finalists[8].card)
    assert sum(p["amount"] for p in places) == d.view("pools:roulette")["pools"][0]["amount"]


def test_entering_emits_one_event_carrying_the_entry_id():
    d = Driver()
    d.members(1)
    (event,) = d.do("roulette.enter", {"card": "1000000"})
    assert isinstance(event, TournamentEntered) and event.entry == "R1"


def venue(local: str) -> int:
    """Show-clock ms of a wall-clock time at the venue (Africa/Johannesburg)."""
    moment = dt.datetime.fromisoformat(local).replace(tzinfo=ZoneInfo("Africa/Johannesburg"))
    return int(moment.timestamp() * 1000)


WINDOW = "15 July to 19 September 2024, daily from 14:00 to 21:00 (Africa/Johannesburg time)"


@pytest.mark.parametrize(("local", "rule"), [
    ("2024-07-14 15:00", "rule 3: the promotion runs from 15 July"),
    ("2024-07-15 13:50", "rule 4: the tables open at 14h00"),
    ("2024-07-15 21:01", "rule 4: the tables close at 21h00"),
    ("2024-07-15 21:00:30", "rule 4: half a minute after 21h00 the tables are closed"),
    ("2024-09-20 15:00", "rules 4 and 11: qualifying ends, and the pool is fixed, 19 September"),
])
def test_buy_ins_outside_the_promotions_days_and_table_hours_are_refused(local, rule):
    d = Driver()
    d.members(1)
    d.now = venue(local)
    exc = d.refuse("roulette.enter", {"card": "1000000"})  # refuse: nothing changes, no pool
    assert exc.code == "outside_hours", rule
    assert WINDOW in exc.message and "rules 3-4" in exc.message
    assert d.view("pools:roulette")["pools"][0]["amount"] == 0


@pytest.mark.parametrize("local", ["2024-07-15 14:00", "2024-08-01 18:30", "2024-09-19 21:00"])
def test_buy_ins_inside_the_window_are_taken(local):
    d = Driver()
    d.members(1)
    d.now = venue(local)  # rules 3-4: from 14h00 on 15 July to 21h00 on 19 September
    d.do("roulette.enter", {"card": "1000000"})
    assert d.view("pools:roulette")["pools"][0]["amount"] == 20_000


def test_a_rebuy_after_the_tables_close_is_refused():
    d = Driver()
    d.members(2)
    d.now = venue("2024-09-19 20:55")
    a = d.entry("roulette.enter", {"card": "1000000"})
    b = d.entry("roulette.enter", {"card": "1000001"})
    d.do("roulette.rebuy", {"entry": a})
    d.now = venue("2024-09-19 21:01")
    # rules 4 and 11: the tables close at 21h00 and the pool reached by 19 September is final
    exc = d.refuse("roulette.rebuy", {"entry": b})
    assert exc.code == "outside_hours" and WINDOW in exc.message
    assert "rules 4 and 11" in exc.message
    assert d.view("pools:roulette")["pools"][0]["amount"] == 50_000


def test_a_no_spin_adds_30_seconds_to_the_betting_time_left():
    d = Driver()
    d.members(1)
    d.do("roulette.enter", {"card": "1000000"})
    d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
    d.now = NOW + 60_000  # 60 s of the 120 s left
    extra = d.do("roulette.no_spin", {"stage": "qualifying", "heat": "Heat 1"})[0]
    # rule 25 (ruling): 30 seconds in addition to the time that remains, not a fresh window
    assert extra.deadline_ms == NOW + 150_000
    heat = d.view("spins:roulette")["heats"][0]
    assert (heat["betting_opened_at"], heat["betting_closes_at"]) == (NOW + 60_000,
                                                                       NOW + 150_000)
    d.now = NOW + 200_000  # a second no spin once the time has run out: 30 s from now
    again = d.do("roulette.no_spin", {"stage": "qualifying", "heat": "Heat 1"})[0]
    assert again.deadline_ms == NOW + 230_000


def test_a_guest_holds_one_open_seat_at_a_time():
    d = Driver()
    d.members(2)
    first = d.entry("roulette.enter", {"card": "1000000", "heat": "Heat 1"})
    # rule 12 (ruling): one open (unplayed) seat per guest, in any heat
    exc = d.refuse("roulette.enter", {"card": "1000000", "heat": "Heat 2"})
    assert exc.code == "second_seat" and "rule 12" in exc.message and first in exc.message
    exc = d.refuse("roulette.enter", {"card": "1000000"})
    assert exc.code == "second_seat"
    d.do("roulette.enter", {"card": "1000001", "heat": "Heat 1"})
    play_heat(d, "Heat 1")
    assert d.refuse("roulette.enter", {"card": "1000000"}).code == "second_seat"
    d.do("roulette.record_score", {"entry": first, "score": 800})
    d.do("roulette.enter", {"card": "1000000", "heat": "Heat 2"})  # played: re-entry is open


def test_a_seat_lost_to_a_missed_spin_is_not_open():
    d = Driver()
    d.members(1)
    e = d.entry("roulette.enter", {"card": "1000000"})
    d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
    d.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1", "missed": [e]})  # rule 9
    d.do("roulette.enter", {"card": "1000000"})  # rule 12: they may re-enter


def test_a_config_logged_before_the_table_hours_replays_with_the_rules_hours():
    old = Driver().feature("roulette").config.to_data()
    del old["table_opens"], old["table_closes"]
    config = logged(RouletteConfig, old)  # rule 4: 14h00 to 21h00
    assert (config.table_opens, config.table_closes) == (dt.time(14), dt.time(21))

"""Slots PAYOFF tournament rules (shared/rules/slots-payoff-tournament.txt)."""

from __future__ import annotations

import pytest

from controller.domain.handoffs import WildcardFinalist
from controller.promotions.tournament.events import TournamentTieBroken
from tests.promotions.helpers import NOW, Driver

DAY = 86_400_000


def qualify(d: Driver, n: int = 40) -> list[str]:
    """n players, one entry each, distinct scores: entry i scores 10 000 - 10 i."""
    cards = d.members(n)
    entries = [d.entry("slots.enter", {"card": c}) for c in cards]
    for i, e in enumerate(entries):
        d.do("slots.record_score", {"entry": e, "score": 10_000 - 10 * i})
    return entries


def stage_entries(d: Driver, stage: str) -> list:
    slots = d.feature("slots")
    return [slots.entries.at(row) for row in slots.stages[stage].rows]


def test_ineligible_member_is_refused_at_entry_with_the_reason():
    d = Driver()
    # rules 2-3: under 18, refused entry, self-excluded and insiders may not take part
    d.member("1000001", "Thandi Mokoena", flags=["insider"])
    exc = d.refuse("slots.enter", {"card": "1000001"})
    assert exc.code == "ineligible"
    assert "employee, agent or family member" in exc.message and "rules 2-3" in exc.message


def test_member_excluded_during_the_tournament_is_disqualified():
    d = Driver()
    entries = qualify(d, 3)
    # rule 2: self-excluded "prior to or during the tournament" ... will be disqualified
    d.do("flag_member", {"card": "1000000", "flag": "self_excluded", "reason": "letter"})
    names = [r["name"] for r in d.view("leaderboard:slots")["rows"]]
    assert "Player0 S." not in names and len(names) == 2
    assert d.feature("slots").entries[entries[0]].status == "disqualified"


def test_buy_in_is_fifty_rand_a_seat_and_all_of_it_goes_to_the_pool():
    d = Driver()
    d.members(3)
    for card in ("1000000", "1000001"):
        d.do("slots.enter", {"card": card})
    d.do("slots.enter", {"card": "1000002", "payment": "comp"})
    pool = d.view("pools:slots")["pools"][0]
    # rules 5, 7: R50 a seat, 100% to the pool; rule 6: a comp entry is paid by the casino
    assert pool["amount"] == 3 * 5000 and pool["amount_text"] == "R150"


def test_one_free_entry_per_rewards_member_per_monday_to_sunday_week():
    d = Driver()
    d.member("1000001", "Thandi Mokoena")
    d.now = NOW  # Monday 15 July 2024
    d.do("slots.enter", {"card": "1000001", "payment": "free"})
    d.now = NOW + 6 * DAY  # Sunday, same week
    exc = d.refuse("slots.enter", {"card": "1000001", "payment": "free"})
    assert exc.code == "free_entry_used" and "rule 8" in exc.message  # rule 8
    d.now = NOW + 7 * DAY  # next Monday
    d.do("slots.enter", {"card": "1000001", "payment": "free"})
    assert d.view("pools:slots")["pools"][0]["amount"] == 0  # free entries add nothing


def test_non_member_may_buy_in_but_must_join_rewards_to_claim_a_prize():
    d = Driver()
    d.member("1000001", "Guest Visitor", rewards_member=False)
    # rule 8: the free entry is for Rewards members only
    assert d.refuse("slots.enter", {"card": "1000001", "payment": "free"}).code == "not_rewards"
    d.do("slots.enter", {"card": "1000001"})  # rule 4: non-members can buy in
    d.do("slots.record_score", {"entry": "S1", "score": 500})
    assert not d.feature("slots").took_part("1000001")  # rule 18.2: Rewards members only
    d.feature("slots").claim_note(d.feature("members").by_card["1000001"])
    note = d.feature("slots").claim_note(d.feature("members").by_card["1000001"])
    assert "rule 4" in note
    d.do("join_rewards", {"card": "1000001"})
    assert d.feature("slots").claim_note(d.feature("members").by_card["1000001"]) is None


def test_machines_are_allocated_in_order_and_one_seat_per_heat():
    d = Driver()
    d.members(12)
    seats = [d.do("slots.enter", {"card": str(1_000_000 + i)})[0] for i in range(12)]
    # rule 11: first come first served, machines in sequential order (10 a heat)
    assert [(e.heat, e.seat) for e in seats[:2]] == [("Heat 1", 1), ("Heat 1", 2)]
    assert (seats[10].heat, seats[10].seat) == ("Heat 2", 1)
    # rule 21: one seat per heat in qualifying
    exc = d.refuse("slots.enter", {"card": "1000000", "heat": "Heat 1"})
    assert exc.code == "second_seat" and "rule 21" in exc.message
    again = d.do("slots.enter", {"card": "1000000"})[0]  # a second buy-in goes to a later heat
    assert again.heat == "Heat 2"


def test_walk_ins_fill_the_earliest_free_machine_whatever_later_bookings_exist():
    d = Driver()
    d.members(4)
    booked = d.do("slots.enter", {"card": "1000000", "heat": "Heat 3"})[0]
    assert (booked.heat, booked.seat) == ("Heat 3", 1)
    # rule 11: machines are allocated in sequential order, so Heats 1 and 2 fill first
    walk_ins = [d.do("slots.enter", {"card": c})[0] for c in ("1000001", "1000002")]
    assert [(e.heat, e.seat) for e in walk_ins] == [("Heat 1", 1), ("Heat 1", 2)]
    d.do("slots.start_heat", {"stage": "qualifying", "heat": "Heat 1"})
    # a started heat takes nobody (rule 11): the next machine is Heat 2's first
    late = d.do("slots.enter", {"card": "1000003"})[0]
    assert (late.heat, late.seat) == ("Heat 2", 1)


def test_late_entry_to_a_started_heat_is_refused():
    d = Driver()
    d.members(2)
    d.do("slots.enter", {"card": "1000000"})
    d.do("slots.start_heat", {"stage": "qualifying", "heat": "Heat 1"})
    exc = d.refuse("slots.enter", {"card": "1000001", "heat": "Heat 1"})
    assert exc.code == "heat_started" and "rule 11" in exc.message  # rule 11
    assert d.do("slots.enter", {"card": "1000001"})[0].heat == "Heat 2"


def test_leaderboard_shows_positions_1_to_45_with_movement():
    d = Driver()
    entries = qualify(d, 50)
    doc = d.view("leaderboard:slots")
    assert len(doc["rows"]) == 45 and doc["entries"] == 50  # rule 14
    assert [r["position"] for r in doc["rows"]] == list(range(1, 46))
    d.do("slots.record_score", {"entry": entries[49], "score": 9_995})  # 50th -> 2nd
    rows = d.view("leaderboard:slots")["rows"]
    assert rows[1] == {"position": 2, "name": "Player49 S.", "score": 9_995, "movement": 0,
                       "new": True}
    assert rows[2]["movement"] == -1


def test_closing_qualifying_sends_two_to_the_final_and_places_3_to_32_to_the_semi():
    d = Driver()
    entries = qualify(d, 40)
    d.do("slots.close_stage", {"stage": "qualifying"})
    final = stage_entries(d, "final")
    semi = stage_entries(d, "semi")
    # rules 17, 24: the two highest single-entry scores go straight to the final
    assert [e.origin for e in final] == entries[:2]
    # rule 15: positions 3 to 32 (30 players) play the semi-final
    assert [e.origin for e in semi] == entries[2:32]
    slots = d.feature("slots")
    cards = [str(1_000_000 + i) for i in range(40)]
    assert [c for c in cards if slots.holds_final_seat(c)] == ["1000000", "1000001"]
    vias = [q["via"] for q in d.view("qualifiers:slots")["stages"][0]["qualifiers"]]
    assert vias[0] == "Qualifying place 3"


def test_closing_a_stage_twice_is_refused():
    d = Driver()
    qualify(d, 3)
    d.do("slots.close_stage", {"stage": "qualifying"})
    exc = d.refuse("slots.close_stage", {"stage": "qualifying"})
    assert exc.message == "The Qualifying is already closed."
    assert d.refuse("slots.enter", {"card": "1000000"}).code == "stage_closed"


def test_the_semi_cannot_close_before_qualifying():
    d = Driver()
    qualify(d, 3)
    assert d.refuse("slots.close_stage", {"stage": "semi"}).code == "stage_not_open"


def to_final(d: Driver, present: bool = True) -> None:
    """Qualifying and semi played; the Wild Card finalist known."""
    qualify(d, 40)
    d.do("slots.close_stage", {"stage": "qualifying"})
    d.do("slots.draw_seats", {"stage": "semi"})
    for i, e in enumerate(stage_entries(d, "semi")):
        d.do("slots.record_score", {"entry": e.id, "score": 5_000 - i})
    d.do("slots.close_stage", {"stage": "semi"})
    d.member("2000000", "Wild Card", rewards_member=True)
    d.apply(WildcardFinalist("2000000", present))


def test_semi_seats_are_drawn_at_random_and_recorded():
    d = Driver(seed=7)
    qualify(d, 40)
    d.do("slots.close_stage", {"stage": "qualifying"})
    exc = d.refuse("slots.record_score", {"entry": stage_entries(d, "semi")[0].id, "score": 1})
    assert exc.code == "no_seat"
    seated = d.do("slots.draw_seats", {"stage": "semi"})[0]
    # rule 16: semi seats by random draw, recorded as an event
    seats = [(heat, seat) for _, heat, seat in seated.seats]
    assert sorted(seats) == sorted((f"Semi {h}", s) for h in range(1, 6) for s in range(1, 7))
    other = Driver(seed=8)
    qualify(other, 40)
    other.do("slots.close_stage", {"stage": "qualifying"})
    assert other.do("slots.draw_seats", {"stage": "semi"})[0].seats != seated.seats
    heats = d.view("seating:slots")["stages"][0]["heats"]
    assert len(heats) == 5 and all(len(h["seats"]) == 6 for h in heats)
    assert d.refuse("slots.draw_seats", {"stage": "semi"}).code == "already_drawn"


def test_final_is_top_9_of_the_semi_plus_the_two_plus_the_wild_card_in_two_heats_of_six():
    d = Driver()
    qualify(d, 40)
    d.do("slots.close_stage", {"stage": "qualifying"})
    d.do("slots.draw_seats", {"stage": "semi"})
    for i, e in enumerate(stage_entries(d, "semi")):
        d.do("slots.record_score", {"entry": e.id, "score": 5_000 - i})
    d.do("slots.close_stage", {"stage": "semi"})
    # rule 19: the final waits for the Wild Card winner
    exc = d.refuse("slots.draw_seats", {"stage": "final"})
    assert exc.code == "wildcard_pending" and "rule 19" in exc.message
    d.member("2000000", "Wild Card")
    d.apply(WildcardFinalist("2000000", True))
    final = stage_entries(d, "final")
    assert len(final) == 12
    assert [e.payment for e in final].count("wildcard") == 1
    seated = d.do("slots.draw_seats", {"stage": "final"})[0]
    heats = {}
    for _, heat, _ in seated.seats:
        heats[heat] = heats.get(heat, 0) + 1
    assert heats == {"Final 1": 6, "Final 2": 6}  # rule 19.1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_absent_wild_card_finalist_takes_the_seat_left_after_the_others_draw(seed):
    d = Driver(seed=seed)
    to_final(d, present=False)
    seated = d.do("slots.draw_seats", {"stage": "final"})[0]
    wildcard = next(e for e in stage_entries(d, "final") if e.payment == "wildcard")
    # rule 41: the absent Wild Card finalist is issued the last draw
    assert seated.seats[-1][0] == wildcard.id


def test_tie_at_the_cut_must_be_settled_by_a_card_draw_before_closing():
    d = Driver()
    entries = qualify(d, 3)
    d.do("slots.record_score", {"entry": entries[2], "score": 9_990})  # ties 2nd place
    exc = d.refuse("slots.close_stage", {"stage": "qualifying"})
    assert exc.code == "tie_unresolved" and "rule 26" in exc.message
    assert "Player1 S., Player2 S." in exc.message
    # rule 26: Ace is low, the higher card takes the higher place
    d.do("slots.tie_break", {"stage": "qualifying", "entries": [entries[1], entries[2]],
                             "cards": ["A\u2660", "2\u2663"]})
    rows = d.view("leaderboard:slots")["rows"]
    assert [r["name"] for r in rows] == ["Player0 S.", "Player2 S.", "Player1 S."]
    d.do("slots.close_stage", {"stage": "qualifying"})
    assert [e.origin for e in stage_entries(d, "final")] == [entries[0], entries[2]]


def test_equal_cards_draw_again():
    d = Driver()
    entries = qualify(d, 3)
    for e in entries[1:]:
        d.do("slots.record_score", {"entry": e, "score": 9_990})
    tied = [entries[1], entries[2]]
    d.do("slots.tie_break", {"stage": "qualifying", "entries": tied, "cards": ["7H", "7S"]})
    # rule 26: equal cards settle nothing; the players draw again
    assert d.refuse("slots.close_stage", {"stage": "qualifying"}).code == "tie_unresolved"
    d.do("slots.tie_break", {"stage": "qualifying", "entries": tied, "cards": ["K", "Q"],
                             "public": [entries[2]]})
    d.do("slots.close_stage", {"stage": "qualifying"})
    draws = [e for e in d.log if isinstance(e, TournamentTieBroken)]
    assert len(draws) == 2 and draws[1].rounds[0]["public"] == [entries[2]]  # recorded


def test_electronic_card_draw_settles_the_tie_in_recorded_rounds():
    d = Driver(seed=3)
    entries = qualify(d, 4)
    for e in entries[1:]:
        d.do("slots.record_score", {"entry": e, "score": 9_990})
    event = d.do("slots.tie_break", {"stage": "qualifying", "entries": entries[1:],
                                     "electronic": True})[0]
    # rule 26 drawn through the CSPRNG: each round's cards are in the event
    first = event.rounds[0]
    assert sorted(first["keys"]) == sorted(entries[1:]) and len(first["shown"]) == 3
    d.do("slots.close_stage", {"stage": "qualifying"})


def test_tie_break_must_cover_exactly_the_tied_players():
    d = Driver()
    entries = qualify(d, 3)
    exc = d.refuse("slots.tie_break", {"stage": "qualifying", "entries": entries[:2],
                                       "cards": ["A", "K"]})
    assert exc.code == "not_tied"
    assert d.refuse("slots.tie_break", {"stage": "qualifying", "entries": entries[:1],
                                        "cards": ["Z"]}).code == "not_tied"


def test_malfunction_moves_the_player_to_the_first_free_seat_of_a_later_heat():
    d = Driver()
    d.members(12)
    entries = [d.entry("slots.enter", {"card": str(1_000_000 + i)}) for i in range(12)]
    moved = d.do("slots.malfunction", {"entry": entries[0]})[0]
    # rule 27: the first available seat in a future similar heat
    assert moved.seats == [[entries[0], "Heat 2", 3]]


def test_malfunction_with_no_later_seat_is_refunded():
    d = Driver()
    d.members(2)
    entries = [d.entry("slots.enter", {"card": str(1_000_000 + i)}) for i in range(2)]
    removed = d.do("slots.malfunction", {"entry": entries[1]})[0]
    # rule 27: a refund when no future heat can take the player
    assert removed.status == "refunded" and removed.refund == 5000
    assert d.view("pools:slots")["pools"][0]["amount"] == 5000


def test_system_fault_restarts_the_whole_heat():
    d = Driver()
    d.members(3)
    entries = [d.entry("slots.enter", {"card": str(1_000_000 + i)}) for i in range(3)]
    for e in entries[:2]:
        d.do("slots.record_score", {"entry": e, "score": 100})
    d.do("slots.restart_heat", {"stage": "qualifying", "heat": "Heat 1", "reason": "server"})
    # rule 27: the entire heat is restarted; its scores are void
    assert d.view("leaderboard:slots")["rows"] == []


def test_malfunction_in_a_final_stage_with_full_heats_opens_an_additional_heat():
    d = Driver()
    to_final(d)
    d.do("slots.draw_seats", {"stage": "final"})
    player = next(e for e in stage_entries(d, "final") if e.heat == "Final 2")
    moved = d.do("slots.malfunction", {"entry": player.id})[0]
    # rule 28: future heats full, so an additional heat; the seat number is drawn
    assert moved.seats[0][1] == "Final 3" and 1 <= moved.seats[0][2] <= 6


def test_no_show_forfeits_the_seat():
    d = Driver()
    to_final(d)
    d.do("slots.draw_seats", {"stage": "final"})
    absent = next(e for e in stage_entries(d, "final") if e.heat == "Final 1")
    d.do("slots.start_heat", {"stage": "final", "heat": "Final 1", "absent": [absent.id]})
    # rule 29: not present when the heat starts: the seat is forfeited
    assert absent.status == "forfeited"
    assert d.refuse("slots.record_score", {"entry": absent.id, "score": 5}).code == "not_playing"


def two_seats_in_semi(d: Driver) -> tuple[list[str], str]:
    """Player0 wins two semi seats (places 3 and 4)."""
    cards = d.members(5)
    entries = [d.entry("slots.enter", {"card": c}) for c in cards]
    extra = d.entry("slots.enter", {"card": cards[0]})
    for i, e in enumerate([*entries, extra]):
        d.do("slots.record_score", {"entry": e, "score": [3, 10, 9, 4, 2, 7][i] * 100})
    d.do("slots.close_stage", {"stage": "qualifying"})
    return cards, extra


def test_proxies_need_a_form_each_and_may_not_be_co_participants():
    d = Driver()
    cards, _ = two_seats_in_semi(d)
    semi = stage_entries(d, "semi")
    mine = [e for e in semi if e.card == cards[0]]
    assert len(mine) == 2
    other = next(e for e in semi if e.card != cards[0])
    # rule 21: a proxy is for a player with more than one seat
    assert d.refuse("slots.register_proxy", {"entry": other.id, "nominee": cards[4],
                                             "form": "PF-1"}).code == "single_seat"
    # rule 23: the proxy may not be a co-participant in the stage
    exc = d.refuse("slots.register_proxy", {"entry": mine[1].id, "nominee": other.card,
                                            "form": "PF-1"})
    assert exc.code == "proxy_is_participant" and "rules 21-23" in exc.message
    d.member("3000000", "Nominee One")
    d.do("slots.register_proxy", {"entry": mine[1].id, "nominee": "3000000", "form": "PF-1"})
    seats = d.view("seating:slots")  # not yet drawn: nothing seated
    assert seats["stages"][0]["heats"] == []
    # rule 22: a separate form for every nominee
    d.member("3000001", "Nominee Two")
    d.member("3000002", "Other Player")
    assert d.refuse("slots.register_proxy", {"entry": mine[1].id, "nominee": "3000001",
                                             "form": "PF-2"}).code == "has_proxy"
    # rule 22: the credits of the player and the nominee are never pooled
    d.do("slots.draw_seats", {"stage": "semi"})
    for e, score in ((mine[0], 700), (mine[1], 300)):
        d.do("slots.record_score", {"entry": e.id, "score": score})
    rows = d.view("leaderboard:slots:semi")["rows"]
    assert [r["score"] for r in rows if r["name"] == "Player0 S."] == [700, 300]


def test_proxy_form_cannot_be_reused_and_no_proxies_in_qualifying():
    d = Driver()
    d.members(1)
    e = d.entry("slots.enter", {"card": "1000000"})
    d.member("3000000", "Nominee One")
    exc = d.refuse("slots.register_proxy", {"entry": e, "nominee": "3000000", "form": "PF-1"})
    assert exc.code == "no_proxy_in_qualifying" and "rule 12" in exc.message  # rule 12


def test_additional_seat_without_a_proxy_form_is_forfeited_when_the_stage_starts():
    d = Driver()
    cards, _ = two_seats_in_semi(d)
    d.do("slots.draw_seats", {"stage": "semi"})
    mine = [e for e in stage_entries(d, "semi") if e.card == cards[0]]
    d.member("2000000", "Wild Card")
    d.apply(WildcardFinalist("2000000", True))  # rule 18: the semi starts after the Wild Card
    d.do("slots.start_heat", {"stage": "semi", "heat": "Semi 1"})
    # rule 23: no proxy form by the start of the stage -> the additional seat is forfeited
    assert [e.status for e in mine] == ["active", "forfeited"]
    d.member("3000000", "Nominee One")
    assert d.refuse("slots.register_proxy", {"entry": mine[0].id, "nominee": "3000000",
                                             "form": "PF-9"}).code == "too_late"


def test_scores_are_corrected_or_voided_with_a_reason_and_the_old_value_kept():
    d = Driver()
    entries = qualify(d, 2)
    assert d.refuse("slots.correct_score", {"entry": entries[0], "score": 5,
                                            "reason": "  "}).code == "reason_required"
    event = d.do("slots.correct_score", {"entry": entries[0], "score": 5,
                                         "reason": "meter misread"})[0]
    assert (event.old, event.new, event.reason) == (10_000, 5, "meter misread")
    assert d.view("leaderboard:slots")["rows"][0]["name"] == "Player1 S."
    voided = d.do("slots.void_score", {"entry": entries[1], "reason": "wrong machine"})[0]
    assert voided.old == 9_990
    assert d.view("leaderboard:slots")["entries"] == 1


@pytest.mark.parametrize(("payload", "code", "message"), [
    ({"entry": "S99", "score": 5}, "unknown_entry", "There is no entry 'S99'."),
    ({"entry": "S1", "score": -1}, "bad_payload", "Score must be at least 0."),
    ({"entry": "S1", "score": 1.5}, "bad_payload", "Score must be a whole number."),
    ({"entry": "S1", "score": 10**9}, "bad_payload", "Score must be at most 999 999 999."),
])
def test_bad_scores_are_refused_with_a_sentence(payload, code, message):
    d = Driver()
    qualify(d, 1)
    exc = d.refuse("slots.record_score", payload)
    assert (exc.code, exc.message) == (code, message)


def test_a_split_that_does_not_match_its_pool_is_refused():
    d = Driver()
    exc = d.refuse("slots.set_split", {"percents": [60, 30], "reason": "advert"})
    assert exc.message == "The prize split 60/30 adds up to 90%, not 100% of the pool."
    d.do("slots.set_split", {"percents": [70, 30], "reason": "advert"})  # rule 43
    assert [p["percent"] for p in d.view("prizes:slots")["places"]] == [70, 30]


def test_wild_card_queries_tell_participants_finalists_and_the_disqualified():
    d = Driver()
    to_final(d)
    d.member("3000000", "Only Watched", rewards_member=True)
    slots = d.feature("slots")
    cards = [*(f"{1_000_000 + i}" for i in range(40)), "2000000", "3000000"]
    assert [c for c in cards if slots.took_part(c)] == cards[:40]  # rule 18.2
    finalists = [c for c in cards if slots.holds_final_seat(c)]
    assert len(finalists) == 12 and "2000000" in finalists  # rules 17, 24, 18
    assert not any(slots.is_disqualified(c) for c in cards)
    finalist = stage_entries(d, "final")[3]
    d.do("slots.disqualify", {"entry": finalist.id, "reason": "collusion"})  # rule 47
    assert [c for c in cards if slots.is_disqualified(c)] == [finalist.card]


def test_no_semi_final_heat_starts_before_the_wild_card_draw_has_concluded():
    d = Driver()
    qualify(d, 40)
    d.do("slots.close_stage", {"stage": "qualifying"})
    d.do("slots.draw_seats", {"stage": "semi"})
    # rule 18: the Wild Card draw is done at 18h00, before the start of the Semi-Finals
    exc = d.refuse("slots.start_heat", {"stage": "semi", "heat": "Semi 1"})
    assert exc.code == "wildcard_pending" and "rule 18" in exc.message
    d.member("2000000", "Wild Card")
    d.apply(WildcardFinalist("2000000", False))  # named from the decline register (rule 41)
    started = d.do("slots.start_heat", {"stage": "semi", "heat": "Semi 1"})[0]
    assert started.heat == "Semi 1"


def test_one_player_at_places_1_and_2_holds_both_final_seats():
    d = Driver()
    cards = d.members(3)
    first = d.entry("slots.enter", {"card": cards[0]})
    others = [d.entry("slots.enter", {"card": c}) for c in cards[1:]]
    second = d.entry("slots.enter", {"card": cards[0]})  # a second buy-in, in Heat 2
    for e, score in ((first, 900), (second, 800), (others[0], 700), (others[1], 600)):
        d.do("slots.record_score", {"entry": e, "score": score})
    d.do("slots.close_stage", {"stage": "qualifying"})
    final = stage_entries(d, "final")
    # rule 17: the two highest single-entry scores; both are Player0's, so both seats are theirs
    assert [(e.card, e.origin) for e in final] == [(cards[0], first), (cards[0], second)]
    # rule 21: a player eligible for several final seats nominates a proxy for the extra one
    d.member("3000000", "Nominee One")
    d.do("slots.register_proxy", {"entry": final[1].id, "nominee": "3000000", "form": "PF-7"})
    assert final[1].proxy == "3000000"

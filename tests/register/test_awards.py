"""Every prize the rules award becomes a register record in the step that decides it, with
its amount, its rule and the claim deadline the rules give (15 days)."""

from __future__ import annotations

from controller.domain.awards import DAY_MS, PrizeAwarded
from controller.domain.prizes import prize_table
from tests.promotions import test_poker
from tests.promotions.helpers import Driver
from tests.promotions.super9_floor import Floor
from tests.promotions.test_super9 import OTHERS, A, B, C
from tests.register.play import awards, poker_final, roulette_final, slots_final, tick


def register_rows(d: Driver) -> list[dict]:
    return d.feature("register").rows()


def test_roulette_top_5_prizes_are_records_when_the_final_closes():
    d = Driver()
    prizes = roulette_final(d)
    # roulette rule 27: only the top 5 share the pool, 50/20/15/10/5
    assert [(p.prize, p.cents) for p in prizes] == [
        ("roulette-final-1", 100_000), ("roulette-final-2", 40_000),
        ("roulette-final-3", 30_000), ("roulette-final-4", 20_000),
        ("roulette-final-5", 10_000)]
    roulette = d.feature("roulette")
    ranking = roulette.final.standings.ranking()
    assert [p.card for p in prizes] == [roulette.card_of_key(roulette.final, k)
                                        for k in ranking[:5]]
    assert {p.rule for p in prizes} == {"roulette rule 27"}
    # the claim period (15 days, the logged config's claim_days) runs from the decision
    assert all(p.deadline_ms == p.decided_ms + 15 * DAY_MS == d.now + 15 * DAY_MS
               for p in prizes)
    rows = register_rows(d)
    assert [r["state"] for r in rows] == ["owed"] * 5
    assert rows[0]["amount_text"] == "R1\u00a0000" and rows[0]["cents"] == 100_000
    assert rows[0]["name"] == roulette.name_of(prizes[0].card)
    assert rows[0]["card"] == "\u2022\u2022\u2022\u2022 " + prizes[0].card[-4:]


def test_slots_final_places_are_records_with_rules_43_to_45_and_15_days():
    d = Driver()
    prizes = slots_final(d)
    slots = d.feature("slots")
    pool = slots.pools["prize_pool"]
    # slots rule 43: the prize follows the final's leaderboard and the advertised split;
    # rules 43, 45: claimed within 15 days of the draw
    assert [p.cents for p in prizes] == [p.cents for p in prize_table(pool, slots.split)]
    assert sum(p.cents for p in prizes) == pool
    assert prizes[0].card == slots.card_of_key(slots.final, slots.final.standings.ranking()[0])
    assert {p.rule for p in prizes} == {"slots rules 43-45"}
    assert all(p.deadline_ms - p.decided_ms == 15 * DAY_MS for p in prizes)
    assert prizes[0].prize == "slots-final-1" and "Final, place 1" in prizes[0].what


def test_poker_final_top_score_and_their_rules():
    d = test_poker.driver()
    qualifying, final = poker_final(d)
    poker = d.feature("poker")
    # poker rule 52: the final's 60/10/9/8/7/6 of the pool; rule 55: 15 days to collect
    pool = poker.pools["prize_pool"]
    assert [p.cents for p in final] == [p.cents for p in prize_table(pool, [60, 10, 9, 8, 7, 6])]
    assert {p.rule for p in final} == {"poker rules 52, 55"}
    # poker rules 4, 18: the top 3 qualifying scores share the top-score progressive, decided
    # when qualifying closes
    top = [p for p in qualifying if p.prize.startswith("poker-topscore")]
    assert [p.cents for p in top] == [p.cents for p in prize_table(poker.pools["top_score"],
                                                                   [50, 30, 20])]
    best = poker.stages["qualifying"].standings.ranking(1)[0]
    assert top[0].card == poker.entries[best].card and top[0].rule == "poker rules 4, 18, 55"
    assert all(p.deadline_ms - p.decided_ms == 15 * DAY_MS for p in [*final, *qualifying])


def test_poker_weekly_top_score_is_decided_by_the_clock_as_its_week_ends():
    d = test_poker.driver()
    d.members(2)
    for day, card, score in ((0, "1000000", 3_000), (1, "1000001", 3_500)):
        d.now = test_poker.at(day)
        entry = d.entry("poker.enter", {"card": card})
        d.do("poker.record_score", {"entry": entry, "score": score, "hands": 10})
    week_ends = test_poker.at(7, 0)  # Friday 10 July 00:00: week 1 is over
    assert awards(tick(d, week_ends - 1)) == []
    (prize,) = awards(tick(d, week_ends))
    # poker rule 17: the top weekly score, payable in cash; rule 55: 15 days to collect
    assert (prize.prize, prize.card, prize.cents) == ("poker-week1-1", "1000001", 500_000)
    assert prize.rule == "poker rules 17, 55"
    assert prize.deadline_ms == week_ends + 15 * DAY_MS
    assert awards(tick(d, week_ends + 1000)) == []  # decided once
    # rule 17: weeks without a score award nothing; closing qualifying decides no week twice
    closed = awards(d.do("poker.close_stage", {"stage": "qualifying"}))
    assert not [p for p in closed if p.prize.startswith("poker-week")]


def test_poker_weeks_not_yet_decided_are_decided_when_qualifying_closes():
    d = test_poker.driver()
    d.members(1)
    entry = d.entry("poker.enter", {"card": "1000000"})
    d.do("poker.record_score", {"entry": entry, "score": 2_500, "hands": 10})
    closed = awards(d.do("poker.close_stage", {"stage": "qualifying"}))
    # rule 17: week 1's top score, decided with qualifying's close
    assert [p.prize for p in closed if p.prize.startswith("poker-week")] == ["poker-week1-1"]
    assert awards(tick(d, test_poker.at(30))) == []  # the clock does not award it again


def test_super9_winners_share_equally_and_each_share_is_a_prize():
    f = Floor(ticket_price_cents=3333)
    f.member("1234567", "Thandi Mokoena")
    f.ticket("0422", B, card="1234567")
    f.ticket("0421", A)
    f.ticket("0423", C)
    f.start()
    f.spins(*OTHERS, 2, 3, 4, 5, 6, 7, 8, 1, 0, 9)  # the consolation, shared by two
    won, *prizes = f.do("super9.confirm_win")
    consolation = 3 * 3333 * 25 // 100
    assert all(isinstance(p, PrizeAwarded) for p in prizes)
    # super9 rule 20: shared equally (the odd cent to the lower ticket), each share a prize
    # to sign for (rule 26)
    assert [(p.prize, p.card, p.cents) for p in prizes] == [
        ("super9-2025-06-04T19:00-0421", "", consolation // 2 + 1),
        ("super9-2025-06-04T19:00-0422", "1234567", consolation // 2)]
    assert sum(p.cents for p in prizes) == won.prize_cents
    assert prizes[0].rule == "super9 rules 14-16, 20, 26"
    assert all(p.deadline_ms == won.at_ms + 15 * DAY_MS for p in prizes)
    rows = {r["prize"]: r for r in f.register.rows()}
    assert rows["super9-2025-06-04T19:00-0421"]["name"] == "The ticket holder"
    assert rows["super9-2025-06-04T19:00-0422"]["name"] == "Thandi M."


def test_a_super9_jackpot_prize_includes_the_consolation_share():
    f = Floor()
    f.member("1234567", "Thandi Mokoena")
    f.ticket("0421", A, card="1234567")
    f.start()
    f.spins(*A)
    won, prize = f.do("super9.confirm_win")
    # super9 rules 14, 16 (ruling): the jackpot winner takes the consolation too
    assert prize.cents == won.prize_cents + won.consolation_cents
    assert "jackpot" in prize.what and "consolation" in prize.what


def test_a_claim_period_from_the_logged_config_sets_the_deadline():
    d = Driver()
    roulette = d.feature("roulette")
    roulette.configure(roulette.config.model_copy(update={"claim_days": 30}))
    prizes = roulette_final(d)
    assert all(p.deadline_ms - p.decided_ms == 30 * DAY_MS for p in prizes)

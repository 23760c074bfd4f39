"""Which spin a reading is for (controller/wheels/timeline.py, docs/wheel.md): a counter that
restarts, a restarted reader, the wheel's own no spin, readings that waited in the reader's
queue, and numbers typed meanwhile; for Super 9 and the Roulette Spin-Off."""

from __future__ import annotations

from typing import Any

from controller.domain.events import event_from
from controller.promotions.roulette.events import RouletteSpun
from controller.promotions.super9.events import Super9SpinEntered
from controller.wheels.events import (
    WheelHoldResolved,
    WheelNoSpinRead,
    WheelReadingHeld,
    WheelReadingLate,
)
from tests.promotions.super9_floor import ms
from tests.wheels.test_readings import PLAIN, WEDNESDAY, Wheel

S = 1000  # ms


def spin(w: Wheel, number: int, game: int, *, run: str = "a1", ball_s: float = 20,
         age_s: float = 0, **extra: Any) -> list[Any]:
    """The wheel's number of `game`, its ball seen `ball_s` before its line, read `age_s` ago."""
    return w.read("number", number, game=game, run=run, age_ms=round(age_s * S),
                  ball_age_ms=round((age_s + ball_s) * S), **extra)


def played(w: Wheel, games: range, *, run: str = "a1") -> None:
    """Games played a minute apart, each read as it happens, on numbers no ticket holds all
    of (19-36)."""
    for i, game in enumerate(games):
        w.now += 60 * S
        [event] = spin(w, 19 + i % 18, game, run=run)
        assert isinstance(event, Super9SpinEntered | RouletteSpun), event


# -- the wheel's counter restarts -----------------------------------------------------------------
def test_a_counter_restart_mid_night_gives_every_game_its_spin():
    w = Wheel()
    w.super9()
    played(w, range(1, 25))  # super9 rule 12: each game's number is a spin
    # a power cycle: the reader begins run b2 and the wheel counts from 1 again
    w.now += 60 * S
    [first] = spin(w, 3, 1, run="b2")
    w.now += 60 * S
    [second] = spin(w, 4, 2, run="b2")
    assert isinstance(first, Super9SpinEntered) and first.reading["run"] == "b2"
    assert w.board()["spins"] == 26 and isinstance(second, Super9SpinEntered)


def test_the_game_just_read_seen_again_from_its_ball_on_is_a_new_game():
    # the counter restarted right after game 1: game 1 again, its ball seen, is a new spin
    w = Wheel()
    w.super9()
    w.now += 60 * S
    spin(w, 17, 1)
    w.now += 60 * S
    [again] = spin(w, 17, 1, run="b2")
    assert isinstance(again, Super9SpinEntered)
    assert w.board()["spins"] == 2 and w.board()["last"]["repeat"] is True  # rule 19


def test_a_restarted_reader_resending_the_last_game_is_already_read():
    w = Wheel()
    w.super9()
    w.now += 60 * S
    spin(w, 21, 107)
    # a new reader (run c3) came in while the wheel still shows game 107's number
    w.now += 3 * S
    refused = w.refused_reading("number", 21, game=107, run="c3", ball_unseen=True)
    assert refused.code == "already_read"
    assert refused.message == "Game 107 of table AR14 was already read as 21. Its number " \
                              "counts once."
    assert w.board()["spins"] == 1


# -- the wheel's own no spin (super9 rules 18.2-18.3; roulette rule 25) ------------------------
def test_the_streams_no_spin_arms_the_table_and_the_returned_ball_is_held():
    w = Wheel()
    w.super9()
    w.now += 60 * S
    spin(w, 17, 101)
    w.now += 40 * S
    [armed] = w.read("no_spin", game=102, run="a1", ball_age_ms=15 * S,
                     raw="*X;1;103;17;0;0;1")
    assert isinstance(armed, WheelNoSpinRead) and armed.spin == "spin 2"
    row = w.wheels()
    assert row["armed"] and row["armed_by"] == "wheel" and row["armed_ms"] == w.now
    assert w.board()["no_spins"] == 0  # the MC's No spin is the MC's to call (rule 18)
    # rule 18.3: the ball back on the previous number, shown with no ball spun
    w.now += 10 * S
    [held] = w.read("number", 17, game=103, run="a1", ball_unseen=True)
    assert isinstance(held, WheelReadingHeld) and held.why == "no_spin"
    assert w.board()["spins"] == 1
    w.do("wheel.discard_held", {"table": "AR14", "reason": "ball returned (rule 18.3)"})
    # the next ball seen in the track after the no spin is a new spin, 17 again or not
    w.now += 60 * S
    [next_spin] = spin(w, 17, 104)
    assert isinstance(next_spin, Super9SpinEntered) and w.board()["spins"] == 2
    assert not w.wheels()["armed"]


def test_a_no_spin_already_called_by_the_mc_changes_nothing_more():
    w = Wheel()
    w.super9()
    w.now += 60 * S
    spin(w, 17, 101)
    w.do("super9.no_spin", {"reason": "ball left the wheel"})
    assert w.refused_reading("no_spin", game=102, run="a1").code == "no_change"
    assert w.wheels()["armed_by"] == "mc"


def test_a_roulette_no_spin_in_the_stream_holds_the_returned_ball_but_adds_no_time():
    w = Wheel()
    w.roulette()
    w.now += 50 * S
    [armed] = w.read("no_spin", game=301, run="a1", ball_age_ms=10 * S)
    assert isinstance(armed, WheelNoSpinRead) and armed.promotion == "roulette"
    heat = w.view("spins:roulette")["heats"][0]
    # roulette rule 25: the 30 s more come with the MC's No spin, not the wheel's
    assert heat["betting_closes_at"] == ms(f"{WEDNESDAY} 15:00") + 120 * S
    [held] = w.read("number", 32, game=302, run="a1", ball_unseen=True)
    assert isinstance(held, WheelReadingHeld) and held.why == "ball_unseen"
    spun, _ = w.do("wheel.apply_held", {"table": "AR14"})
    assert isinstance(spun, RouletteSpun) and (spun.spin, spun.number) == (1, 32)


def test_a_number_whose_ball_the_reader_did_not_see_is_held():
    # the reader came in mid-game: the number on the wheel may be an old game's
    w = Wheel()
    w.super9()
    w.now += 30 * S
    [held] = w.read("number", 28, game=55, run="a1", ball_unseen=True)
    assert isinstance(held, WheelReadingHeld) and held.why == "ball_unseen"
    assert w.wheels()["held"]["why"] == "ball_unseen" and w.board()["spins"] == 0
    resolved, applied = spin(w, 5, 56)  # a ball seen spun: applied, the hold superseded
    assert isinstance(resolved, WheelHoldResolved) and resolved.outcome == "superseded"
    assert isinstance(applied, Super9SpinEntered) and w.board()["called"] == [5]


# -- readings that waited: controller downtime, numbers typed meanwhile ---------------------------
def test_twelve_games_read_while_the_controller_was_away_are_twelve_spins_in_order():
    w = Wheel()
    w.super9()
    w.now += 13 * 60 * S  # back after 13 minutes: the readings arrive at once, with their ages
    for game in range(1, 13):
        [event] = spin(w, 10 + game, game, age_s=(13 - game) * 60)
        assert isinstance(event, Super9SpinEntered)
    assert w.board()["called"] == list(range(11, 23))


def test_numbers_typed_while_the_reader_was_away_take_its_late_readings_as_checks():
    w = Wheel()
    w.super9()
    # super9 rule 29: the reader is away, the MC types spins 1 and 2 as the balls land
    w.now += 60 * S
    w.do("super9.spin", {"number": 17})
    w.now += 60 * S
    w.do("super9.spin", {"number": 20})
    # the reader is back: its queued readings of those two games are late, never spins
    w.now += 30 * S
    [agrees] = spin(w, 17, 101, age_s=90 + 2, ball_s=20)
    [disagrees] = spin(w, 21, 102, age_s=30 + 2, ball_s=20)
    assert isinstance(agrees, WheelReadingLate) and isinstance(disagrees, WheelReadingLate)
    assert (agrees.spin, agrees.recorded, agrees.agrees, agrees.typed) == ("spin 1", 17, True,
                                                                           True)
    assert (disagrees.spin, disagrees.recorded, disagrees.number, disagrees.agrees) == (
        "spin 2", 20, 21, False)
    assert w.board()["called"] == [17, 20] and w.board()["spins"] == 2  # one number a spin
    assert [(r["spin"], r["recorded"], r["number"], r["agrees"]) for r in w.wheels()["late"]] \
        == [("spin 1", 17, 17, True), ("spin 2", 20, 21, False)]
    # a game read since is the next spin's
    w.now += 60 * S
    [third] = spin(w, 5, 103)
    assert isinstance(third, Super9SpinEntered) and w.board()["called"] == [17, 20, 5]
    # a reader restarted now sends the game on the wheel once more: already read
    assert w.refused_reading("number", 5, game=103, run="z9", ball_unseen=True).code == \
        "already_read"


def test_a_roulette_reading_of_a_typed_spin_never_becomes_the_next_spins():
    w = Wheel()
    w.roulette()
    heat = {"stage": "qualifying", "heat": "Heat 1"}
    w.now += 100 * S
    w.do("roulette.spin", {**heat, "number": 23})  # typed while the reader is away
    w.now += 5 * S
    w.do("roulette.open_betting", heat)  # spin 2 takes bets
    w.now += 10 * S
    [late] = spin(w, 22, 301, age_s=13, ball_s=30)  # game 301 was spin 1's ball
    assert isinstance(late, WheelReadingLate) and late.spin == "Heat 1 spin 1"
    assert (late.recorded, late.number, late.agrees) == (23, 22, False)
    spins = w.view("spins:roulette")["heats"][0]
    assert spins["betting"] and spins["number"] == 23  # spin 2 still waits for its ball
    w.now += 60 * S
    [second] = spin(w, 4, 302)
    assert isinstance(second, RouletteSpun) and (second.spin, second.number) == (2, 4)


def test_a_ball_spun_between_roulette_spins_is_no_spins():
    w = Wheel()
    w.roulette()
    heat = {"stage": "qualifying", "heat": "Heat 1"}
    w.now += 60 * S
    w.do("roulette.spin", {**heat, "number": 23})
    w.now += 120 * S
    w.do("roulette.open_betting", heat)
    w.now += 5 * S
    refused = w.refused_reading("number", 9, game=302, run="a1", ball_age_ms=60 * S,
                                age_ms=50 * S)
    assert refused.code == "no_game_live" and "when the wheel read it, 60 s ago" in \
        refused.message
    # nor a no more bets read before this spin's betting opened
    assert w.refused_reading("no_more_bets", game=302, run="a1", age_ms=40 * S).code == \
        "no_game_live"


def test_a_no_more_bets_read_before_a_roulette_no_spin_reopened_betting_closes_nothing():
    w = Wheel()
    w.roulette()
    heat = {"stage": "qualifying", "heat": "Heat 1"}
    w.now += 60 * S
    w.do("roulette.no_spin", heat)  # rule 25: 30 s more to change bets
    w.now += 5 * S
    stale = w.refused_reading("no_more_bets", game=301, run="a1", age_ms=20 * S)
    assert stale.code == "no_change"
    assert not w.view("spins:roulette")["heats"][0]["bets_closed"]
    [closed] = w.read("no_more_bets", game=302, run="a1")
    assert closed.at_ms == w.now  # type: ignore[attr-defined]


def test_events_of_older_logs_replay():
    # events written before runs, ages, late readings and the wheel's own no spin
    w = Wheel()
    w.super9()
    run = w.feature("super9").current.session.id
    old = [event_from("Super9SpinEntered", 1, {"session": run, "number": 17, "reading": {
               "table": "AR14", "game": 101, "raw": "*X;5;101;17;0;743;1", "reader": "AR14",
               "at_ms": w.now}}),
           event_from("Super9NoSpin", 1, {"session": run, "reason": "ball left the wheel"}),
           event_from("WheelReadingHeld", 1, {"table": "AR14", "promotion": "super9",
                                              "number": 17, "game": 102, "raw": "*X;5;102;17",
                                              "reader": "AR14", "at_ms": w.now})]
    for event in old:
        w.apply(event)
    row = w.wheels()
    assert row["held"] == {"number": 17, "promotion": "super9", "at_ms": w.now,
                           "why": "no_spin"}
    assert row["armed"] and row["armed_by"] == "mc" and row["late"] == []
    assert w.refused_reading("number", 17, game=102).code == "already_read"
    w.do("wheel.apply_held", {"table": "AR14"})
    assert w.board()["called"] == [17] and w.board()["spins"] == 2


def test_a_burst_of_games_read_at_once_is_placed_in_order_whatever_their_way_took():
    # lines that waited in a port's buffer are read within a millisecond; each reading's
    # journey to the controller varies by a few ms, so game 2's ball may seem to precede
    # game 1's number: a later game of the run is never placed before the one read
    w = Wheel()
    w.super9()
    w.now += 60 * S
    [first] = w.read("number", 20, game=1, run="a1", age_ms=0, ball_age_ms=1)
    [second] = w.read("number", 21, game=2, run="a1", age_ms=4, ball_age_ms=4)
    [third] = w.read("number", 22, game=3, run="a1", age_ms=2, ball_age_ms=3)
    assert all(isinstance(e, Super9SpinEntered) for e in (first, second, third))
    assert w.board()["called"] == [20, 21, 22]


def test_plain_lines_read_at_once_are_spins_in_order():
    # the plain line protocol has no game number: every line is a spin (rule 19: the same
    # number twice is two spins, the second a repeat), in the order read
    w = Wheel()
    w.super9()
    w.now += 60 * S
    for number, age_ms in ((17, 2), (17, 5), (4, 3)):
        [event] = w.read("number", number, game=PLAIN, raw=str(number), age_ms=age_ms)
        assert event.reading["game"] is None  # type: ignore[attr-defined]
        assert isinstance(event, Super9SpinEntered)
    assert w.board()["spins"] == 3 and w.board()["called"] == [17, 4]


def test_a_number_held_in_the_place_of_another_says_the_first_is_over():
    w = Wheel()
    w.super9()
    w.now += 30 * S
    w.read("number", 28, game=55, run="a1", ball_unseen=True)
    resolved, held = w.read("number", 29, game=56, run="a1", ball_unseen=True)
    assert isinstance(resolved, WheelHoldResolved) and resolved.outcome == "superseded"
    assert isinstance(held, WheelReadingHeld) and w.wheels()["held"]["number"] == 29

"""The tracker: each game's moments once per run, however often the wheel repeats its line; a
run begun when the wheel's counter goes back; the stream's own no spin; and nothing set aside
without a log line.

Readers that count every repeated line record a number dozens of times (issue 24); super9
rule 19 disregards a repeated number for the jackpot, so a number read twice for one spin
would be wrong on the board either way.
"""

from __future__ import annotations

import itertools
import logging

import pytest

from controller.wheel.protocols import parse_cammegh
from controller.wheel.sim import Wheel
from controller.wheel.tracker import GAMES_KEPT, CammeghTracker, Reading, plain_reading

Seen = tuple[str, int | None, int | None]


class Clock:
    """The tracker's monotonic clock, moved by the test: a second a line."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def tracker() -> CammeghTracker:
    runs = (f"run{n}" for n in itertools.count(1))
    return CammeghTracker(Clock(), lambda: next(runs))


def feed(t: CammeghTracker, lines: list[str]) -> list[Reading]:
    return [r for line in lines for r in t.feed(parse_cammegh(line))]


def seen(t: CammeghTracker, lines: list[str]) -> list[Seen]:
    return [(r.kind, r.number, r.game) for r in feed(t, lines)]


def game(n: int, number: int | None, last: int | None = None, repeats: int = 5,
         states: tuple[int, ...] = (1, 2, 3, 4, 5)) -> list[str]:
    lines = []
    for state in states:
        shown = number if state == 5 else last
        lines += [f"*X;{state};{n};{'' if shown is None else shown};0;700;1"] * repeats
    return lines


def test_repeats_give_each_moment_once() -> None:
    # super9 rule 19 / issue 24: a number is recorded once per spin, not once per line
    lines = game(10, 17) + game(11, 5, last=17) + game(12, 17, last=5)
    assert seen(tracker(), lines) == [
        ("ball_in_track", None, 10), ("no_more_bets", None, 10), ("number", 17, 10),
        ("ball_in_track", None, 11), ("no_more_bets", None, 11), ("number", 5, 11),
        ("ball_in_track", None, 12), ("no_more_bets", None, 12), ("number", 17, 12)]


def test_the_previous_number_shown_before_state_5_is_not_a_reading() -> None:
    assert seen(tracker(), ["*X;1;11;17;0;0;0", "*X;2;11;17;0;700;1"]) == []


def test_a_number_carries_when_its_ball_was_first_seen_in_the_track() -> None:
    t = tracker()
    readings = feed(t, game(10, 17, repeats=2))
    ball, _, number = readings
    assert number.ball_at == ball.read_at and number.read_at > ball.read_at
    assert not number.ball_unseen and number.run == "run1"


def test_a_reader_started_mid_game_did_not_see_the_ball() -> None:
    # A reader started while the wheel shows game 10's number sends it once, saying it did not
    # see that ball spun (the controller refuses it as already_read if the reader before the
    # restart sent it, else holds it for the MC)
    lines = game(10, 17)
    before = seen(tracker(), lines[:22])
    after = feed(tracker(), lines[22:] + game(11, 4, last=17))
    assert before[-1] == ("number", 17, 10)
    assert [(r.kind, r.number, r.game, r.ball_unseen) for r in after if r.game == 10] == [
        ("number", 17, 10, True)]
    assert after[-1].ball_unseen is False and after[-1].ball_at is not None


def test_the_counter_going_back_begins_a_new_run_and_drops_nothing(caplog) -> None:
    # super9 rule 12: every game the wheel plays gives its number, before and after a power
    # cycle restarts its counter (games 1..24, then 1 again)
    caplog.set_level(logging.INFO, logger="controller.wheel")
    t = tracker()
    first = feed(t, [line for n in range(1, 25) for line in game(n, n % 37, repeats=2)])
    again = feed(t, [line for n in range(1, 4) for line in game(n, 30 + n, repeats=2)])
    assert [r.number for r in first if r.kind == "number"] == [n % 37 for n in range(1, 25)]
    assert {r.run for r in first} == {"run1"} and {r.run for r in again} == {"run2"}
    assert [(r.kind, r.number, r.game) for r in again if r.kind == "number"] == [
        ("number", 31, 1), ("number", 32, 2), ("number", 33, 3)]
    assert any("went back from game 24 to game 1" in m and "run run2 begins" in m
               for m in caplog.messages)


def test_a_counter_restarted_at_the_game_just_played_is_a_new_run() -> None:
    # game 1's number shown, then game 1 starts again: not a repeat of the old game
    t = tracker()
    assert seen(t, game(1, 17)) == [("ball_in_track", None, 1), ("no_more_bets", None, 1),
                                    ("number", 17, 1)]
    assert seen(t, game(1, 5)) == [("ball_in_track", None, 1), ("no_more_bets", None, 1),
                                   ("number", 5, 1)]
    assert t.run == "run2"


def test_the_streams_no_spin_then_the_returned_ball(caplog) -> None:
    # super9 rules 18.2-18.3: game 2's ball in the track, then game 3 begins with no number
    # for game 2 (a no spin), then the ball is back on the previous number under game 3
    caplog.set_level(logging.INFO, logger="controller.wheel")
    wheel = Wheel([17, 5])
    t = tracker()
    first = seen(t, list(wheel.games(1)))
    wheel.ask_no_spin()
    no_spin = feed(t, list(wheel.games(1)))
    after = seen(t, list(wheel.games(1)))
    assert first[-1] == ("number", 17, 1)
    assert [(r.kind, r.number, r.game, r.ball_unseen) for r in no_spin] == [
        ("ball_in_track", None, 2, False), ("no_spin", None, 2, False),
        ("number", 17, 3, True)]
    assert no_spin[1].raw.startswith("*X;1;3;")  # the line that showed the new game
    assert after == [("ball_in_track", None, 4), ("no_more_bets", None, 4), ("number", 5, 4)]
    assert any("game 2 ended without a number" in m for m in caplog.messages)


def test_a_gap_in_the_stream_is_not_taken_for_a_no_spin() -> None:
    # the port reopened: game 5's number may have gone by meanwhile
    t = tracker()
    seen(t, game(5, None, states=(1, 2, 3)))
    t.gap()
    readings = feed(t, game(6, 9, last=17, states=(4, 5)))
    assert [r.kind for r in readings] == ["no_more_bets", "number"]


def test_a_games_disagreeing_number_lines_are_logged_once_each(caplog) -> None:
    caplog.set_level(logging.INFO, logger="controller.wheel")
    t = tracker()
    lines = game(7, 17) + ["*X;5;7;18;0;700;1"] * 3 + ["*X;5;7;17;0;700;1"]
    assert [r.number for r in feed(t, lines) if r.kind == "number"] == [17]
    said = [m for m in caplog.messages if "disagree" in m]
    assert len(said) == 1 and "17 was sent, this line shows 18" in said[0]


def test_states_1_2_and_6_send_nothing() -> None:
    assert seen(tracker(), ["*X;1;9;;0;0;0", "*X;2;9;;0;700;1", "*X;6;9;;0;0;0"]) == []


def test_a_long_run_keeps_its_recent_games_only() -> None:
    t = tracker()
    for n in range(1, 3 * GAMES_KEPT):
        seen(t, game(n, 3, repeats=1))
    assert len(t.games) == GAMES_KEPT and t.run == "run1"


@pytest.mark.parametrize("line", ["*X;\t5;\t12;\t17\t;0;743;1", "*X\t:5:12:17:0:743:1\t"])
def test_a_tab_between_fields_is_whitespace(line: str) -> None:
    # docs/wheel-reader.md: whitespace around fields is ignored, tabs too
    assert seen(tracker(), [line]) == [("number", 17, 12)]


def test_plain_lines_are_each_a_number() -> None:
    assert plain_reading(17, "17", 5.0) == Reading("number", 17, None, "17", None, 5.0)


def test_a_game_begun_again_after_its_ball_was_in_the_track_is_a_no_spin_and_a_new_run() -> None:
    # super9 rule 18.2: the ball of game 8 was voided and the game replayed under its number
    t = tracker()
    before = feed(t, game(8, None, last=17, states=(1, 2, 3)))
    again = feed(t, [*game(8, None, last=17, states=(1,)), "*X;5;8;17;0;700;1"])
    assert [(r.kind, r.run) for r in before] == [("ball_in_track", "run1")]
    assert [(r.kind, r.game, r.run, r.ball_unseen) for r in again] == [
        ("no_spin", 8, "run1", False), ("number", 8, "run2", True)]


def test_lines_read_blind_time_no_ball_and_send_no_moments(caplog) -> None:
    # lines that waited while the reader was stalled: when each showed is unknown
    caplog.set_level(logging.INFO, logger="controller.wheel")
    t = tracker()
    readings = [r for line in game(9, 21) for r in t.feed(parse_cammegh(line), blind=True)]
    assert [(r.kind, r.number, r.ball_unseen) for r in readings] == [("number", 21, True)]
    assert sum("read blind" in m for m in caplog.messages) == 2  # ball in track, no more bets

"""The tracker: each game's moments once, however often the wheel repeats its line.

Readers that count every repeated line record a number dozens of times (issue 24); super9
rule 19 disregards a repeated number for the jackpot, so a number read twice for one spin
would be wrong on the board either way.
"""

from __future__ import annotations

from controller.wheel.protocols import parse_cammegh
from controller.wheel.sim import Wheel
from controller.wheel.tracker import GAMES_KEPT, CammeghTracker, Reading, plain_reading


def readings(tracker: CammeghTracker, lines: list[str]) -> list[tuple[str, int | None, int]]:
    out = []
    for line in lines:
        reading = tracker.feed(parse_cammegh(line))
        if reading is not None:
            assert reading.game is not None
            out.append((reading.kind, reading.number, reading.game))
    return out


def game(n: int, number: int, last: int | None = None, repeats: int = 5) -> list[str]:
    shown = "" if last is None else str(last)
    lines = []
    for state in (1, 2, 3, 4):
        lines += [f"*X;{state};{n};{shown};0;700;1"] * repeats
    return lines + [f"*X;5;{n};{number};0;700;1"] * repeats


def test_repeats_give_each_moment_once() -> None:
    # super9 rule 19 / issue 24: a number is recorded once per spin, not once per line
    lines = game(10, 17) + game(11, 5, last=17) + game(12, 17, last=5)
    assert readings(CammeghTracker(), lines) == [
        ("ball_in_track", None, 10), ("no_more_bets", None, 10), ("number", 17, 10),
        ("ball_in_track", None, 11), ("no_more_bets", None, 11), ("number", 5, 11),
        ("ball_in_track", None, 12), ("no_more_bets", None, 12), ("number", 17, 12)]


def test_the_previous_number_shown_before_state_5_is_not_a_reading() -> None:
    lines = ["*X;1;11;17;0;0;0", "*X;2;11;17;0;700;1"]
    assert readings(CammeghTracker(), lines) == []


def test_restart_mid_game_sends_what_the_game_shows_once() -> None:
    # A reader started while the wheel shows game 10's number sends it once (the controller
    # refuses it as already_read if the reader before the restart had sent it).
    lines = game(10, 17)
    first = CammeghTracker()
    before = readings(first, lines[:22])
    after = readings(CammeghTracker(), lines[22:] + game(11, 4, last=17))
    assert before[-1] == ("number", 17, 10) and after[0] == ("number", 17, 10)
    assert [r for r in after if r[2] == 10] == [("number", 17, 10)]


def test_no_spin_then_the_returned_ball() -> None:
    # super9 rules 18.2-18.3: a no spin gives no number; the ball back in the previous pocket
    # is read once under the new game number (the controller holds it for the MC)
    wheel = Wheel([17, 5])
    tracker = CammeghTracker()
    first = readings(tracker, list(wheel.games(1)))
    wheel.ask_no_spin()
    no_spin = readings(tracker, list(wheel.games(1)))
    after = readings(tracker, list(wheel.games(1)))
    assert first[-1] == ("number", 17, 1)
    assert no_spin == [("ball_in_track", None, 2), ("number", 17, 3)]
    assert after == [("ball_in_track", None, 4), ("no_more_bets", None, 4), ("number", 5, 4)]


def test_states_1_2_and_6_send_nothing() -> None:
    assert readings(CammeghTracker(), ["*X;1;9;;0;0;0", "*X;2;9;;0;700;1", "*X;6;9;;0;0;0"]) == []


def test_an_old_game_seen_again_is_not_sent_again_while_remembered() -> None:
    tracker = CammeghTracker()
    assert readings(tracker, game(1, 3)) != []
    for n in range(2, GAMES_KEPT + 1):
        readings(tracker, game(n, 3))
    assert readings(tracker, game(1, 3)[-1:]) == []


def test_plain_lines_are_each_a_number() -> None:
    assert plain_reading(17, "17") == Reading("number", 17, None, "17")

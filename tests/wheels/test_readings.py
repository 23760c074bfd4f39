"""The wheel's readings through the whole show (docs/wheel.md): routing to the game live at the
table, super9 rule 18.3's hold after a no spin, rule 19's repeats, and every refusal."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from controller.domain.commands import Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.promotions.roulette.events import RouletteBetsClosed, RouletteSpun
from controller.promotions.super9.events import Super9SpinEntered
from controller.wheels.events import WheelBallInTrack, WheelHoldResolved, WheelReadingHeld
from showrunner.contract.views import view_model
from tests.promotions.helpers import Driver
from tests.promotions.super9_floor import ms

WEDNESDAY = "2024-07-17"  # a Super 9 day (sessions 19:00 and 21:00) in the Spin-Off's weeks
SESSION = f"{WEDNESDAY}T19:00"
TICKETS = [[1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18]]
PLAIN = -1  # `game` of a plain line's reading: none


class Wheel(Driver):
    """The show, with a wheel's reader at table AR14 beside the MC."""

    game = 100

    def read(self, kind: str, number: int | None = None, *, table: str = "AR14",
             actor: str = "AR14", game: int | None = None, raw: str | None = None,
             **extra: Any) -> list[DomainEvent]:
        """A reading sent now (a number without a game is given the next one; `game=PLAIN`
        sends none, as the plain line protocol); `extra`: the payload's other fields (run,
        age_ms, ball_age_ms, ball_unseen)."""
        events = self.show.decide("wheel.reading",
                                  self.reading(kind, number, table, game, raw, extra),
                                  Context(actor, "device", self.now, self.rng))
        for event in events:
            self.apply(event)
        return events

    def reading(self, kind: str, number: int | None, table: str, game: int | None,
                raw: str | None, extra: dict[str, Any]) -> dict[str, Any]:
        if game is None and kind == "number":
            self.game += 1
            game = self.game
        elif game == PLAIN:
            game = None
        return {"table": table, "kind": kind, "number": number, "game": game,
                "raw": raw if raw is not None else f"*X;5;{game};{number};0;743;1", **extra}

    def refused_reading(self, kind: str, number: Any = None, **kw: Any) -> Rejected:
        """Refused with a sentence, and nothing changes (state and log)."""
        before, logged = pickle.dumps(self.show.features), len(self.log)
        with pytest.raises(Rejected) as info:
            self.read(kind, number, **kw)
        assert pickle.dumps(self.show.features) == before and len(self.log) == logged
        assert info.value.message.endswith("."), info.value.message
        return info.value

    def super9(self) -> None:
        """A Super 9 game started at 19:00 with two tickets."""
        self.now = ms(f"{WEDNESDAY} 10:00")
        for i, numbers in enumerate(TICKETS):
            self.do("super9.sell_ticket", {"ticket": str(i + 1)})
            self.do("super9.enter_ticket", {"ticket": str(i + 1), "original": numbers,
                                            "duplicate": numbers})
        self.now = ms(f"{WEDNESDAY} 19:00")
        self.do("super9.start_session", {"session": SESSION})

    def roulette(self) -> None:
        """Heat 1 of qualifying, its first spin taking bets."""
        self.now = ms(f"{WEDNESDAY} 15:00")
        card = self.members(1)[0]
        self.do("roulette.enter", {"card": card, "heat": "Heat 1"})
        self.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})

    def board(self) -> dict[str, Any]:
        return self.view("board:super9")

    def wheels(self) -> dict[str, Any]:
        doc = self.view("ops:wheels")
        view_model("ops:wheels").model_validate(doc)
        return doc["tables"][0]


def test_a_number_read_is_the_super9_spin_with_its_raw_line_and_reader():
    w = Wheel()
    w.super9()
    # super9 rule 12: the roulette wheel is the mechanism; the reading is the game's spin
    [spin] = w.read("number", 7, raw="*X;5;101;7;0;743;1")
    assert isinstance(spin, Super9SpinEntered) and spin.number == 7
    assert spin.reading == {"table": "AR14", "game": 101, "run": None,
                            "raw": "*X;5;101;7;0;743;1", "reader": "AR14", "at_ms": w.now}
    assert w.board()["last"]["number"] == 7 and w.board()["called"] == [7]
    row = w.wheels()
    assert row["serves"] == ["super9", "roulette"] and row["last_number"] == 7
    assert row["last_reading"]["raw"] == "*X;5;101;7;0;743;1"


def test_super9_has_no_betting_so_ball_in_track_and_no_more_bets_change_nothing():
    w = Wheel()
    w.super9()
    assert w.refused_reading("no_more_bets", game=101).code == "no_change"
    assert w.refused_reading("ball_in_track", game=101).code == "no_change"


def test_a_roulette_heat_taking_bets_closes_at_no_more_bets_and_records_the_number():
    w = Wheel()
    w.roulette()
    heat = w.view("spins:roulette")["heats"][0]
    assert heat["betting"] and not heat["bets_closed"]
    w.now += 40_000
    [closed] = w.read("no_more_bets", game=101, raw="*X;4;101;;0;743;1")
    assert isinstance(closed, RouletteBetsClosed) and closed.spin == 1
    heat = w.view("spins:roulette")["heats"][0]
    assert heat["bets_closed"] and heat["betting_closes_at"] == w.now  # the countdown stops
    assert w.refused_reading("no_more_bets", game=101).code == "no_change"  # a repeat
    [spun] = w.read("number", 23)
    assert isinstance(spun, RouletteSpun) and spun.number == 23 and spun.reading is not None
    heat = w.view("spins:roulette")["heats"][0]
    assert (heat["number"], heat["colour"], heat["betting"]) == (23, "red", False)
    view_model("spins:roulette").model_validate(w.view("spins:roulette"))


def test_the_mc_may_type_the_roulette_number_when_the_reader_is_offline():
    w = Wheel()
    w.roulette()
    # super9 rule 29's "another suitable method": the keypad, always there
    [spun] = w.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1", "number": 0})
    assert isinstance(spun, RouletteSpun) and spun.number == 0 and spun.reading is None
    heat = w.view("spins:roulette")["heats"][0]
    assert (heat["number"], heat["colour"]) == (0, "green")


def test_super9_comes_first_when_both_are_live_at_the_table():
    w = Wheel()
    w.roulette()
    w.super9()
    [spin] = w.read("number", 9)
    assert isinstance(spin, Super9SpinEntered)


def test_after_a_no_spin_the_previous_number_read_again_is_held_not_applied():
    w = Wheel()
    w.super9()
    w.read("number", 17)
    w.do("super9.no_spin", {"reason": "ball left the wheel"})
    assert w.wheels()["armed"]
    # super9 rule 18.3: the ball may have returned to the previous number: held for the MC
    [held] = w.read("number", 17, raw="*X;5;102;17;0;743;1")
    assert isinstance(held, WheelReadingHeld) and (held.number, held.game) == (17, 102)
    assert w.board()["spins"] == 1  # not applied
    row = w.wheels()
    assert row["held"] == {"number": 17, "promotion": "super9", "at_ms": w.now,
                           "why": "no_spin"}
    # the MC saw the ball land on 17: Apply records it as the spin, with its reading
    spin, resolved = w.do("wheel.apply_held", {"table": "AR14"})
    assert isinstance(spin, Super9SpinEntered) and spin.number == 17
    assert spin.reading is not None and spin.reading["raw"] == "*X;5;102;17;0;743;1"
    assert isinstance(resolved, WheelHoldResolved) and resolved.outcome == "applied"
    # rule 19: a repeated number is a spin the board marks as a repeat
    assert w.board()["last"] == {"number": 17, "colour": "black", "repeat": True}
    assert w.board()["spins"] == 2 and w.board()["counted_spins"] == 1
    assert w.wheels()["held"] is None and not w.wheels()["armed"]


def test_a_held_reading_discarded_with_a_reason_changes_the_board_not():
    w = Wheel()
    w.super9()
    w.read("number", 17)
    w.do("super9.no_spin", {})
    w.read("number", 17)
    exc = w.refuse("wheel.discard_held", {"table": "AR14", "reason": "  "})
    assert exc.code == "reason_required"
    [resolved] = w.do("wheel.discard_held", {"table": "AR14",
                                             "reason": "ball returned to 17 (rule 18.3)"})
    assert (resolved.outcome, resolved.by) == ("discarded", "mc")  # type: ignore[attr-defined]
    assert w.board()["spins"] == 1 and w.wheels()["held"] is None
    assert w.refuse("wheel.apply_held", {"table": "AR14"}).code == "nothing_held"
    # the held game was read: the reader sending it again changes nothing
    assert w.refused_reading("number", 17, game=102).code == "already_read"


def test_a_different_number_read_after_the_hold_is_applied_and_supersedes_it():
    w = Wheel()
    w.super9()
    w.read("number", 17)
    w.do("super9.no_spin", {})
    w.read("number", 17)
    resolved, spin = w.read("number", 5)
    assert isinstance(resolved, WheelHoldResolved) and resolved.outcome == "superseded"
    assert isinstance(spin, Super9SpinEntered) and spin.number == 5
    assert w.board()["called"] == [17, 5] and w.wheels()["held"] is None


def test_ball_in_track_after_the_no_spin_ends_the_hold_window():
    w = Wheel()
    w.super9()
    w.read("number", 17)
    w.do("super9.no_spin", {})
    [track] = w.read("ball_in_track", game=102, raw="*X;3;102;;0;743;1")
    assert isinstance(track, WheelBallInTrack) and not w.wheels()["armed"]
    # rule 18.3 covers the returned ball only: after a new launch, 17 again is a spin (rule 19)
    [spin] = w.read("number", 17, game=102)
    assert isinstance(spin, Super9SpinEntered)
    assert w.board()["last"]["repeat"] is True


def test_a_roulette_no_spin_arms_the_hold_too():
    w = Wheel()
    w.roulette()
    w.read("number", 32)
    w.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
    w.do("roulette.no_spin", {"stage": "qualifying", "heat": "Heat 1"})
    [held] = w.read("number", 32)
    assert isinstance(held, WheelReadingHeld) and held.promotion == "roulette"
    spun, _ = w.do("wheel.apply_held", {"table": "AR14"})
    assert isinstance(spun, RouletteSpun) and (spun.spin, spun.number) == (2, 32)


def test_the_keypad_stays_while_a_reading_is_held():
    w = Wheel()
    w.super9()
    w.read("number", 17)
    w.do("super9.no_spin", {})
    w.read("number", 17)
    # super9 rule 29: the MC can always type; the typed spin ends the hold
    w.do("super9.spin", {"number": 12})
    assert w.board()["called"] == [17, 12] and w.wheels()["held"] is None
    w.do("super9.undo_spin", {"reason": "typed wrong"})
    assert w.wheels()["last_number"] == 17


def test_a_reader_reports_for_its_own_table_only():
    w = Wheel()
    w.super9()
    exc = w.refused_reading("number", 7, table="AR14", actor="AR15")
    assert exc.code == "wrong_table" and "AR15" in exc.message


def test_no_game_live_is_refused_in_words():
    w = Wheel()
    exc = w.refused_reading("number", 17)
    assert exc.code == "no_game_live"
    assert exc.message == ("No Super 9 game or roulette spin is live at table AR14: the "
                           "reading 17 was not applied.")
    assert w.refused_reading("no_more_bets", game=3).code == "no_game_live"


def test_a_game_number_is_read_once():
    w = Wheel()
    w.super9()
    w.read("number", 7, game=500)
    # a reader restarted mid-game sends the winning number again: it counts once
    assert w.refused_reading("number", 7, game=500).code == "already_read"
    assert w.board()["spins"] == 1


@pytest.mark.parametrize(("number", "code"), [(37, "bad_payload"), (-1, "bad_payload"),
                                              ("17", "bad_payload"), (None, "bad_payload")])
def test_a_number_off_the_wheel_is_refused_and_nothing_is_logged(number: Any, code: str):
    w = Wheel()
    w.super9()
    # super9 rule 8: numbers 0 to 36
    assert w.refused_reading("number", number, game=9).code == code


def test_a_number_above_the_configured_highest_is_refused_as_bad_number():
    w = Wheel()
    w.super9()
    w.feature("super9").config = w.feature("super9").config.model_copy(
        update={"highest_number": 30})
    assert w.refused_reading("number", 33).code == "bad_number"  # super9 rule 8


def test_a_reading_waits_while_a_super9_call_is_pending():
    w = Wheel()
    w.super9()
    for n in TICKETS[0]:
        w.read("number", n)
    # rule 13: a complete ticket is confirmed (or the number undone) before the next spin
    assert w.refused_reading("number", 20).code == "super9_pending"


def test_unprintable_raw_characters_are_kept_as_question_marks():
    w = Wheel()
    w.super9()
    [spin] = w.read("number", 4, raw="*X;5;7;4\x07")
    assert spin.reading["raw"] == "*X;5;7;4?"  # type: ignore[attr-defined]


def test_the_table_may_move_to_another_wheel_at_any_time():
    w = Wheel()
    w.roulette()
    w.super9()
    history = list(enumerate(w.log, start=1))
    for name in ("super9", "roulette"):
        feature = w.feature(name)
        moved = feature.config.model_copy(update={"table": "AR15"})
        # super9 rule 12: the game's wheel; a free key, whatever the log holds
        assert feature.conflict(moved, history) is None


def test_a_reading_held_when_the_game_ends_is_dropped():
    w = Wheel()
    w.super9()
    w.read("number", 17)
    w.do("super9.no_spin", {})
    w.read("number", 17)
    assert w.wheels()["held"] is not None
    for ticket in ("1", "2"):
        w.do("super9.void_ticket", {"ticket": ticket, "reason": "rule 9"})
    w.do("super9.close_session", {"reason": "every ticket void"})
    row = w.wheels()
    assert row["held"] is None and not row["armed"] and row["last_number"] is None
    assert w.refuse("wheel.apply_held", {"table": "AR14"}).code == "nothing_held"

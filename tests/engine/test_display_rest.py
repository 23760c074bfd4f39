"""Frames only when something moves: the display loop on a simulated clock (no timing in the
test), counting the frames it presents with its own counter."""

from __future__ import annotations

import queue
from bisect import bisect_right

import pytest

from showrunner.contract.delta import diff
from showrunner.engine.display import FPS, Display, DisplayOptions, NoSuchOutput, open_window
from showrunner.engine.link import ClockOffset, LinkRefused, ViewChanged, ViewPatched
from showrunner.scenes import samples
from showrunner.scenes.leaderboard import Leaderboard

NOBODY = "http://127.0.0.1:9"
BASE_MS = samples.BASE_MS


class SimTime:
    """Simulated seconds: a wait returns at once, the clock jumps to its end (or to the next
    scheduled message), and the display's frame counter is noted at every wait."""

    def __init__(self, messages: list[tuple[float, object]] = ()) -> None:
        self.now = 0.0
        self.messages = sorted(messages, key=lambda m: m[0])
        self.display: Display | None = None
        self.notes: list[tuple[float, int]] = []

    def monotonic(self) -> float:
        return self.now

    def wall_ms(self) -> float:
        return BASE_MS + self.now * 1000

    def wait(self, inbox: queue.Queue, timeout: float) -> object | None:
        assert self.display is not None
        self.notes.append((self.now, self.display.frames))
        end = self.now + max(0.0, timeout)
        if self.messages and self.messages[0][0] <= end:
            at, message = self.messages.pop(0)
            self.now = max(self.now, at)
            return message
        self.now = end
        return None

    def frames_at(self, seconds: float) -> int:
        """Frames presented by `seconds` into the run."""
        i = bisect_right([t for t, _ in self.notes], seconds)
        return self.notes[i - 1][1] if i else 0

    def presented(self, start: float, end: float) -> int:
        return self.frames_at(end) - self.frames_at(start)


def clock_ticks(start: float, end: float) -> int:
    """Frames the venue badge's clock asks for in (start, end]: one at each minute of the wall
    clock (the simulated wall clock starts on a minute, BASE_MS)."""
    return int(end // 60) - int(start // 60)


def play(tmp_path, scene: str, view: str, doc: dict, seconds: float,
         messages: list[tuple[float, object]] = (), sim: SimTime | None = None) -> SimTime:
    sim = sim or SimTime(messages)
    display = Display(DisplayOptions(controller=NOBODY, screen="s1", size=(640, 360),
                                     state_dir=tmp_path, scene=scene, params={"view": view}),
                      timebase=sim)
    sim.display = display
    screen, ctx, host = display.open()
    inbox: queue.Queue = queue.Queue()
    inbox.put(ViewChanged(view, 1, doc))
    display.loop(ctx, host, screen, inbox, seconds=seconds)
    return sim


def test_a_leaderboard_at_rest_presents_no_frames(tmp_path):
    sim = play(tmp_path, "leaderboard", "leaderboard:slots", samples.leaderboard(8, True), 600)
    assert sim.presented(0, 5) > 10  # it came in, rows sliding
    assert sim.presented(5, 600) == clock_ticks(5, 600)  # only the corner clock, once a minute


def test_a_view_change_wakes_the_display_at_once(tmp_path):
    newer = ViewChanged("leaderboard:slots", 2, samples.leaderboard(9, True))
    sim = play(tmp_path, "leaderboard", "leaderboard:slots", samples.leaderboard(8, False), 120,
               messages=[(100.0, newer)])
    assert sim.presented(5, 99.9) == clock_ticks(5, 99.9)
    assert sim.frames_at(100.0) > sim.frames_at(99.99)  # drawn at the moment it arrived
    assert sim.presented(100, 104) > 60  # the rows that moved slide to their places
    assert sim.presented(105, 120) == clock_ticks(105, 120)


def test_a_delta_to_the_view_held_wakes_the_display_and_one_that_does_not_fit_is_left(
        tmp_path):
    old, new = samples.leaderboard(8, False), samples.leaderboard(9, True)
    patched = ViewPatched("leaderboard:slots", 2, 1, diff(old, new))
    stray = ViewPatched("leaderboard:slots", 9, 7, diff(new, old))  # base 7: never held
    sim = play(tmp_path, "leaderboard", "leaderboard:slots", old, 120,
               messages=[(100.0, patched), (110.0, stray)])
    assert sim.frames_at(100.0) > sim.frames_at(99.99)  # drawn at the moment it arrived
    replica = sim.display.replica
    assert replica.views["leaderboard:slots"] == new
    assert replica.revisions["leaderboard:slots"] == 2
    assert sim.presented(111, 120) == clock_ticks(111, 120)


def test_the_link_refining_the_clock_by_a_few_ms_is_not_worth_a_frame(tmp_path):
    sim = play(tmp_path, "leaderboard", "leaderboard:slots", samples.leaderboard(8, False), 60,
               messages=[(20.0, ClockOffset(3.0)), (40.0, ClockOffset(5000.0))])
    assert sim.presented(10, 39.9) == 0
    assert sim.presented(39.9, 40) == 1  # a real correction is drawn at once


def test_a_paged_leaderboard_wakes_only_to_turn_its_pages(tmp_path):
    sim = play(tmp_path, "leaderboard", "leaderboard:slots", samples.leaderboard(30, False), 60)
    turns = [sim.presented(t, t + 10) for t in (10, 20, 30, 40)]  # page_seconds 10
    assert all(0 < n < FPS * 2 for n in turns)  # the page goes out and the next comes in
    assert sim.presented(11, 19) == 0


def test_a_paged_leaderboard_draws_each_next_page_at_rest_not_in_its_moving_frames(
        tmp_path, monkeypatch):
    sim = SimTime()
    drawn: list[tuple[float, bool]] = []  # (when, whether frames were being drawn)
    real_draw_row = Leaderboard._draw_row

    def noted(self: Leaderboard, row):
        drawn.append((sim.now, sim.display.moving))
        return real_draw_row(self, row)

    monkeypatch.setattr(Leaderboard, "_draw_row", noted)
    play(tmp_path, "leaderboard", "leaderboard:slots", samples.leaderboard(30, False), 45,
         sim=sim)
    assert len(drawn) == 30  # three pages of ten, each row drawn once
    assert [moving for _, moving in drawn[:10]] == [True] * 10  # the first page comes in
    assert not any(moving for _, moving in drawn[10:])  # the others while a page rested
    assert drawn[10][0] < 10 and drawn[20][0] < 20  # each before its page turns in


def test_a_countdown_presents_once_a_second(tmp_path):
    doc = samples.betting(False)
    heat = {**doc["heats"][0], "betting_opened_at": BASE_MS,
            "betting_closes_at": BASE_MS + 60_500}
    sim = play(tmp_path, "roulette_countdown", "spins:roulette", {**doc, "heats": [heat]}, 70)
    assert sim.presented(5, 25) == 20  # 5.5 s, 6.5 s ... 24.5 s
    assert sim.presented(61, 70) == 0  # NO MORE BETS stands still


def test_at_a_rehearsals_speed_4_a_countdown_presents_four_times_a_second(tmp_path):
    doc = samples.betting(False)
    heat = {**doc["heats"][0], "betting_opened_at": BASE_MS,
            "betting_closes_at": BASE_MS + 60_500}
    speed_4 = ClockOffset(0.0, 4.0, BASE_MS + 1000)  # the show clock from 1 s on runs 4x
    sim = play(tmp_path, "roulette_countdown", "spins:roulette", {**doc, "heats": [heat]}, 30,
               messages=[(1.0, speed_4)])
    assert sim.presented(4, 14) == 40  # each show second, a quarter of a real second
    assert sim.presented(16, 30) == 0  # closed at 15.875 s: NO MORE BETS stands still


def test_a_transition_runs_at_the_full_frame_rate(tmp_path):
    refused = LinkRefused("this key was revoked")  # the notice comes in with a crossfade
    sim = play(tmp_path, "leaderboard", "leaderboard:slots", samples.leaderboard(8, False), 60,
               messages=[(20.0, refused)])
    assert sim.presented(19.9, 20.59) >= 0.6 * FPS - 1
    assert sim.presented(25, 60) == clock_ticks(25, 60)


def test_an_output_the_pc_does_not_have_is_refused_in_words():
    with pytest.raises(NoSuchOutput, match="there is no monitor 3: this PC has 1"):
        open_window(None, False, output=3)


def program(takeover_end_ms: int | None) -> dict:
    """screen:s1 with a leaderboard loop and an announcement takeover."""
    return {"screen": "s1", "name": "s1", "group": "stage", "status": "authorised",
            "takeover": {"id": "t1", "scene": "announcement", "params": {"title": "Hello"},
                         "start_ms": BASE_MS, "end_ms": takeover_end_ms},
            "playlists": [{"name": "loop", "priority": 0, "timezone": "Africa/Johannesburg",
                           "loop": True, "windows": [], "transition": "cut", "fallback": None,
                           "anchor_ms": BASE_MS - 1000, "until_ms": None,
                           "items": [{"scene": "leaderboard", "duration_ms": 3_600_000,
                                      "params": {}, "transition": "cut"}]}]}


def test_a_takeover_told_to_end_hands_back_at_its_end_time(tmp_path):
    ends = ViewChanged("screen:s1", 2, program(BASE_MS + 30_000))
    sim = play(tmp_path, "leaderboard", "screen:s1", program(None), 60,
               messages=[(20.0, ends)])
    assert sim.presented(20.1, 29.99) == 0  # told at 20 s, still the takeover until 30 s
    assert sim.frames_at(30.0) > sim.frames_at(29.99)
    assert sim.display is not None and sim.display.playing is not None
    assert sim.display.playing.scene == "leaderboard"

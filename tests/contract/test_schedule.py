"""The schedule: what a screen shows at a show-clock time, from its program alone."""

import datetime as dt
import zoneinfo

from hypothesis import given, settings
from hypothesis import strategies as st

from showrunner.contract.playlist.schedule import program_slot, screen_slot
from showrunner.contract.playlist.validate import validate

TZ = zoneinfo.ZoneInfo("Africa/Johannesburg")
LOOP = """\
name: loop
scenes:
  - {scene: leaderboard, duration: 10}
  - {scene: jackpot_ticker, duration: 5}
fallback: {scene: announcement, params: {title: Closed}}
"""


def entry(text: str, anchor_ms: int = 0, until_ms=None) -> dict:
    return {**validate(text, "p.yaml"), "anchor_ms": anchor_ms, "until_ms": until_ms}


def at(day: int, hh: int, mm: int = 0) -> int:
    """Epoch ms of 2026-03-0<day> hh:mm in Johannesburg (2026-03-02 is a Monday)."""
    return int(dt.datetime(2026, 3, day, hh, mm, tzinfo=TZ).timestamp() * 1000)


def test_items_follow_each_other_and_loop_from_the_anchor():
    program = [entry(LOOP, anchor_ms=1_000)]
    first = program_slot(program, 1_000)
    assert (first.scene, first.start_ms, first.end_ms) == ("leaderboard", 1_000, 11_000)
    assert program_slot(program, 11_000).scene == "jackpot_ticker"
    again = program_slot(program, 16_000)
    assert (again.scene, again.start_ms) == ("leaderboard", 16_000)


@settings(max_examples=50)
@given(st.integers(min_value=0, max_value=10**9))
def test_the_slot_holds_the_time_and_is_the_same_for_every_screen(t):
    program = [entry(LOOP, anchor_ms=0)]
    slot = program_slot(program, t)
    assert slot.start_ms <= t < slot.end_ms
    assert program_slot(program, slot.start_ms).key == slot.key  # same scene all along


def test_overnight_window_belongs_to_the_day_it_starts():
    text = LOOP + 'windows:\n  - {days: [fri], from: "20:00", to: "26:00"}\n'
    program = [entry(text)]
    assert program_slot(program, at(6, 21)).source == "playlist:loop"   # Friday 21:00
    assert program_slot(program, at(7, 1, 59)).source == "playlist:loop"  # Saturday 01:59
    closed = program_slot(program, at(7, 2))  # the end is exclusive
    assert closed.source == "fallback:loop" and closed.params == {"title": "Closed"}
    assert program_slot(program, at(5, 23)).source == "fallback:loop"  # Thursday night


def test_an_item_is_cut_short_when_its_window_closes():
    text = LOOP + 'windows:\n  - {from: "10:00", to: "11:00"}\n'
    slot = program_slot([entry(text)], at(2, 10, 59) + 59_000)
    assert slot.end_ms == at(2, 11)


def test_priority_then_fallback_then_default():
    night = LOOP.replace("name: loop", "name: night\npriority: 5") + \
        'windows:\n  - {from: "20:00", to: "23:00"}\n'
    day = LOOP.replace("name: loop", "name: day")
    program = [entry(night), entry(day)]
    assert program_slot(program, at(2, 21)).source == "playlist:night"
    before = program_slot(program, at(2, 19, 59))
    assert before.source == "playlist:day" and before.end_ms <= at(2, 20)
    assert program_slot([], 5).scene == "attract"


def test_a_replaced_entry_plays_until_the_new_one_starts():
    old = entry(LOOP, anchor_ms=0, until_ms=10_000)
    new = entry(LOOP.replace("leaderboard", "prize_table"), anchor_ms=10_000)
    program = [new, old]
    assert program_slot(program, 9_999).scene == "leaderboard"
    assert program_slot(program, 10_000).scene == "prize_table"


def test_a_playlist_taken_off_takes_its_fallback_with_it():
    # issue 48: a group whose playlist is taken off goes back to its default scene
    night = LOOP + 'windows:\n  - {from: "20:00", to: "23:00"}\n'
    program = [entry(night, until_ms=at(2, 12))]
    closed = program_slot(program, at(2, 11, 59) + 30_000)
    assert closed.source == "fallback:loop" and closed.end_ms == at(2, 12)
    assert program_slot(program, at(2, 12)).source == "default"


def test_not_looping_playlist_ends():
    program = [entry(LOOP + "loop: false\n", anchor_ms=0)]
    assert program_slot(program, 14_999).scene == "jackpot_ticker"
    assert program_slot(program, 15_000).source == "fallback:loop"


def test_a_takeover_interrupts_and_hands_back_to_the_running_playlist():
    view = {"playlists": [entry(LOOP)], "takeover": {
        "id": "T1", "scene": "wildcard_draw", "params": {}, "start_ms": 3_000, "end_ms": 12_000}}
    before = screen_slot(view, 2_000)
    assert before.scene == "leaderboard" and before.end_ms == 3_000
    assert screen_slot(view, 3_000).scene == "wildcard_draw"
    after = screen_slot(view, 12_000)
    assert (after.scene, after.start_ms) == ("jackpot_ticker", 10_000)

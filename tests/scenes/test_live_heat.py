"""The live heat on the floor: rows slide to their new rank, a credits update redraws and
presents only the rows it changed, and the time left counts down to the heat's absolute end."""

from __future__ import annotations

import copy
import queue
from typing import Any

import pygame

from showrunner.engine import render
from showrunner.engine.display import Display, DisplayOptions
from showrunner.engine.host import SceneHost
from showrunner.engine.link import ViewChanged
from showrunner.engine.render import SteppedClock, advance
from showrunner.scenes.live_heat import LiveHeat
from showrunner.scenes.samples import BASE_MS, live_heat
from tests.engine.test_display_rest import NOBODY, SimTime
from tests.engine.test_partial_present import Recording

SIZE = (960, 540)
VIEW = "live_heat:slots"


def on_screen(doc: dict[str, Any], at: float = 1.0
              ) -> tuple[SceneHost, SteppedClock, dict[str, dict[str, Any]], pygame.Surface]:
    """The scene `at` seconds in, its frame drawn whole: the host, its clock, the views it
    reads (change them to publish) and the frame on screen."""
    views = {VIEW: doc}
    host, clock = render.entered("live_heat", views, SIZE, None, at, BASE_MS)
    frame = pygame.Surface(SIZE).convert()
    host.draw(frame)
    return host, clock, views, frame


def scene(host: SceneHost) -> LiveHeat:
    assert isinstance(host.current, LiveHeat)
    return host.current


def step(host: SceneHost, clock: SteppedClock, frame: pygame.Surface) -> list[pygame.Rect] | None:
    """One frame as the display draws it: update, then draw only where the scene changed."""
    advance(host, clock, 1 / 60)
    rects = host.changed_rects()
    host.draw(frame, rects)
    return rects


def whole(host: SceneHost) -> bytes:
    """This moment drawn whole on a fresh surface."""
    fresh = pygame.Surface(SIZE).convert()
    host.draw(fresh)
    return pygame.image.tobytes(fresh, "RGB")


def test_rows_slide_to_their_new_rank_and_stop_there():
    # slots rule 13: the credits determine the players' ranking; the 5th overtakes the 4th
    doc = live_heat()
    host, clock, views, frame = on_screen(doc)
    live = scene(host)
    climber, sinker = doc["rows"][4]["seat"], doc["rows"][3]["seat"]
    start = {seat: live._placed()[seat][0].y for seat in (climber, sinker)}
    views[VIEW] = live_heat(swap=True)
    ys: dict[int, list[int]] = {climber: [], sinker: []}
    for _ in range(90):
        step(host, clock, frame)
        for seat, seen in ys.items():
            seen.append(live._placed()[seat][0].y)
    up, down = ys[climber], ys[sinker]
    assert up[-1] == start[sinker] and down[-1] == start[climber]  # they changed places
    between = [y for y in up if start[sinker] < y < start[climber]]
    assert len(between) > 10  # slid, frame by frame, rather than jumped
    assert up == sorted(up, reverse=True) and down == sorted(down)  # one way each
    assert host.next_change_ms(clock.now_ms()) != clock.now_ms()  # at rest once there


def test_a_credits_update_redraws_and_presents_only_that_row_and_the_clock():
    # slots rule 14: the leader board shows each score's place; only the row that scored moves
    doc = live_heat()
    host, clock, views, frame = on_screen(doc)
    live = scene(host)
    kept = {row.seat: live.drawings.get(row, live._draw_row) for row in live.rows}
    changed = copy.deepcopy(doc)
    changed["rows"][2]["credits"] += 15  # 3rd scores and stays 3rd
    views[VIEW] = changed
    rects = step(host, clock, frame)
    seat = doc["rows"][2]["seat"]
    assert rects is not None
    assert sorted(map(tuple, rects)) == sorted([tuple(live._clock_box()),
                                                tuple(live._placed()[seat][0])])
    redrawn = [row.seat for row in live.rows
               if live.drawings.get(row, live._draw_row) is not kept[row.seat]]
    assert redrawn == [seat]
    assert pygame.image.tobytes(frame, "RGB") == whole(host)  # and the screen shows it all


def test_a_new_heat_status_is_drawn_whole():
    host, clock, views, frame = on_screen(live_heat())
    views[VIEW] = live_heat("ended")
    assert step(host, clock, frame) is None
    assert pygame.image.tobytes(frame, "RGB") == whole(host)


def test_the_display_presents_only_the_rows_a_credits_update_changed(tmp_path):
    doc = live_heat()
    changed = copy.deepcopy(doc)
    changed["rows"][0]["credits"] += 40
    sim = SimTime([(0.5, ViewChanged(VIEW, 2, changed))])
    display = Display(DisplayOptions(controller=NOBODY, screen="s1", size=(640, 360),
                                     state_dir=tmp_path, scene="live_heat",
                                     params={"view": VIEW}), timebase=sim)
    sim.display = display
    display.presenter = recording = Recording(sim)
    screen, ctx, host = display.open()
    recording.scene = (ctx, host)
    inbox: queue.Queue = queue.Queue()
    inbox.put(ViewChanged(VIEW, 1, doc))
    display.loop(ctx, host, screen, inbox, seconds=1.0)
    live = scene(host)
    row = live._placed()[doc["rows"][0]["seat"]][0]
    assert recording.shown[0] is None  # the scene comes in whole
    partial = recording.shown[1:]
    assert partial and None not in partial
    assert [live._clock_box(), row] in partial  # the credits: their row (and the clock)
    assert all(sum(r.w * r.h for r in rects) < 640 * 360 / 4 for rects in partial)
    assert recording.shows_the_whole_picture()


def test_the_time_left_counts_to_the_heats_end_on_the_show_clock():
    doc = {**live_heat(), "ends_at_ms": BASE_MS + 90_500}
    host, clock, _views, _frame = on_screen(doc, at=10.0)
    # the next change is the next whole second before the deadline: 80.5 s left -> 80 s
    assert host.next_change_ms(clock.now_ms()) == BASE_MS + 10_500
    ended, _, _, _ = on_screen({**doc, "ends_at_ms": BASE_MS + 5_000}, at=6.0)
    assert ended.next_change_ms(BASE_MS + 6_000) is None  # "0:00": nothing more to count


def test_more_seats_than_a_page_are_paged_top_rows_first():
    # slots rule 14: the leader board shows positions from the top; a big bank pages
    host, clock, _views, frame = on_screen(live_heat(seats=24))
    live = scene(host)
    assert (live.pages, live.per_page) == (3, 8)  # 24 rows: three pages of 8 on a landscape
    first = sorted(row.rank or 0 for _rect, row in live._placed().values())
    assert first == list(range(1, 9))
    advance(host, clock, 10.0)  # page_seconds
    assert step(host, clock, frame) is None  # a page turn is drawn whole
    assert sorted(row.rank or 0 for _rect, row in live._placed().values()) == list(range(9, 17))

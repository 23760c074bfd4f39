"""Partial presents: where only part of the screen moves, the display draws and presents only
that part, and what is on screen is still the whole picture of the moment."""

from __future__ import annotations

import queue

import pygame

from showrunner.engine.display import Display, DisplayOptions
from showrunner.engine.link import ViewChanged
from showrunner.engine.present import Presenter
from showrunner.scenes import samples
from tests.engine.test_display_rest import BASE_MS, NOBODY, SimTime

SIZE = (640, 360)


class Recording(Presenter):
    """The display's own presenter, noting what each present showed (None: all of it)."""

    def __init__(self, sim: SimTime) -> None:
        self.sim = sim
        self.shown: list[list[pygame.Rect] | None] = []
        self.scene: tuple | None = None  # (ctx, host) once the display is open
        self.last: tuple[bytes, bytes] = (b"", b"")  # on screen, and drawn whole, at the last

    def present(self, rects):  # type: ignore[no-untyped-def]
        self.shown.append(None if rects is None else [pygame.Rect(r) for r in rects])
        super().present(rects)
        if self.scene is not None:  # the same moment on the show clock, drawn whole
            on_screen = pygame.image.tobytes(pygame.display.get_surface(), "RGB")
            self.last = (on_screen, pygame.image.tobytes(whole_frame(self.sim.display,
                                                                     *self.scene), "RGB"))

    def shows_the_whole_picture(self) -> bool:
        """What is on screen after the last present is that moment's whole picture."""
        on_screen, whole = self.last
        return bool(on_screen) and on_screen == whole


def run(tmp_path, scene: str, view: str, doc: dict, seconds: float):
    sim = SimTime()
    display = Display(DisplayOptions(controller=NOBODY, screen="s1", size=SIZE,
                                     state_dir=tmp_path, scene=scene, params={"view": view}),
                      timebase=sim)
    sim.display = display
    display.presenter = recording = Recording(sim)
    screen, ctx, host = display.open()
    recording.scene = (ctx, host)
    inbox: queue.Queue = queue.Queue()
    inbox.put(ViewChanged(view, 1, doc))
    display.loop(ctx, host, screen, inbox, seconds=seconds)
    return host, recording


def whole_frame(display: Display, ctx, host) -> pygame.Surface:
    """This moment drawn whole, overlays included, on a fresh surface."""
    frame = pygame.Surface(SIZE).convert()
    host.draw(frame)
    display.overlays(ctx, frame)
    return frame


def test_a_frame_where_only_the_ticker_rolls_presents_only_the_ticker(tmp_path):
    host, recording = run(
        tmp_path, "jackpot_ticker", "pools:poker", samples.POKER_POOLS, 1.5)
    bands = host.current.moving_rects()
    assert bands and len(bands) == len(samples.POKER_POOLS["pools"])
    assert recording.shown[0] is None  # the scene comes in whole
    partial = recording.shown[1:]
    assert len(partial) > 30  # still rolling at 60 fps
    assert all(rects == bands for rects in partial)  # the amounts' bands, nothing else
    screen_area = SIZE[0] * SIZE[1]
    assert sum(r.w * r.h for r in bands) < screen_area / 3
    # what is on screen is the whole picture of this moment, drawn band by band
    assert recording.shows_the_whole_picture()


def test_a_new_view_is_drawn_and_presented_whole(tmp_path):
    newer = {**samples.POKER_POOLS, "title": "Tonight's pools"}
    sim = SimTime([(0.5, ViewChanged("pools:poker", 2, newer))])
    display = Display(DisplayOptions(controller=NOBODY, screen="s1", size=SIZE,
                                     state_dir=tmp_path, scene="jackpot_ticker",
                                     params={"view": "pools:poker"}), timebase=sim)
    sim.display = display
    display.presenter = recording = Recording(sim)
    screen, ctx, host = display.open()
    recording.scene = (ctx, host)
    inbox: queue.Queue = queue.Queue()
    inbox.put(ViewChanged("pools:poker", 1, samples.POKER_POOLS))
    display.loop(ctx, host, screen, inbox, seconds=1.0)
    wholes = [i for i, rects in enumerate(recording.shown) if rects is None]
    assert len(wholes) == 2 and 25 <= wholes[1] <= 35  # entering, and the new title at 0.5 s
    assert recording.shows_the_whole_picture()


def test_a_countdown_presents_only_its_ring_each_second(tmp_path):
    doc = samples.betting(False)
    heat = {**doc["heats"][0], "betting_opened_at": BASE_MS,
            "betting_closes_at": BASE_MS + 20_500}
    host, recording = run(
        tmp_path, "roulette_countdown", "spins:roulette", {**doc, "heats": [heat]}, 10)
    ring = host.current.moving_rects()
    assert ring is not None and len(ring) == 1
    # whole when it comes in and when the offline mark appears (3 s); else the ring at 0.5 s,
    # 1.5 s ... 9.5 s
    assert recording.shown == [None, *[ring] * 3, None, *[ring] * 7]
    assert recording.shows_the_whole_picture()


def test_the_wild_card_draw_presents_its_reel_then_whole_for_the_winner_then_its_ring(tmp_path):
    # rule 39: the winner has 90 seconds to come forward, and the ring counts them down
    host, recording = run(
        tmp_path, "wildcard_draw", "draw:wildcard", samples.wildcard("claim"), 12)
    scene = host.current
    reel, ring = [scene._reel_window()], [pygame.Rect(r) for r in scene.moving_rects()]
    assert ring != reel
    kinds = []  # runs of what was presented, in order
    for rects in recording.shown:
        kind = "whole" if rects is None else "reel" if rects == reel else \
            "ring" if rects == ring else repr(rects)
        if not kinds or kinds[-1][0] != kind:
            kinds.append([kind, 0])
        kinds[-1][1] += 1
    # in, the reel spinning to 6 s (the offline mark comes at 3 s, whole), the winner popping
    # in (whole), then only the ring once a second
    assert [k for k, _ in kinds] == ["whole", "reel", "whole", "reel", "whole", "ring"]
    assert kinds[1][1] + kinds[3][1] > 5 * 60
    assert 5 <= kinds[5][1] <= 6  # 7 s ... 11 s (+ the first second after the pop)
    assert recording.shows_the_whole_picture()


class Lagging(SimTime):
    """A loaded machine: every frame takes a quarter of a second, so an animation's last step
    is a long one."""

    def wait(self, inbox: queue.Queue, timeout: float) -> object | None:
        self.now += 0.25
        return super().wait(inbox, max(0.0, timeout - 0.25))


def test_the_ticker_frame_that_ends_its_roll_is_presented_even_when_frames_are_slow(tmp_path):
    sim = Lagging()
    display = Display(DisplayOptions(controller=NOBODY, screen="s1", size=SIZE,
                                     state_dir=tmp_path, scene="jackpot_ticker",
                                     params={"view": "pools:poker"}), timebase=sim)
    sim.display = display
    screen, ctx, host = display.open()
    inbox: queue.Queue = queue.Queue()
    inbox.put(ViewChanged("pools:poker", 1, samples.POKER_POOLS))
    display.loop(ctx, host, screen, inbox, seconds=8)
    assert all(j.roll.done for j in host.current.jackpots)
    # on screen: the amounts where they came to rest, not where the frame before left them
    on_screen = pygame.image.tobytes(pygame.display.get_surface(), "RGB")
    assert on_screen == pygame.image.tobytes(whole_frame(display, ctx, host), "RGB")

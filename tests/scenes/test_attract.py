"""The attract loop: pan and zoom prepared ahead of time, and no black frame between images."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pygame
import pytest

from showrunner.engine.bandscale import BANDS, BandedScale
from showrunner.engine.pictures import Pictures
from showrunner.engine.render import entered, init_headless, render_scene
from showrunner.scenes.attract import DIP_FLOOR, FADE

SIZE = (320, 180)


def brightness(frame: pygame.Surface) -> float:
    r, g, b, _ = pygame.transform.average_color(frame)
    return (r + g + b) / 3


def flat_images(tmp_path) -> dict[str, object]:
    for i, colour in enumerate([(220, 180, 60), (60, 160, 220)]):
        image = pygame.Surface((64, 36))
        image.fill(colour)
        pygame.image.save(image, tmp_path / f"{i}.png")
    return {"images": [str(tmp_path / "0.png"), str(tmp_path / "1.png")], "seconds": 4.0}


def detailed_images(tmp_path) -> dict[str, object]:
    """Two pictures with a grid and a ring, so any misplaced pixel changes the frame."""
    init_headless(SIZE)
    names = []
    for i, (back, ring) in enumerate([((70, 30, 120), (255, 210, 0)),
                                      ((20, 90, 60), (240, 240, 240))]):
        image = pygame.Surface((400, 225))
        image.fill(back)
        for x in range(0, 400, 23):
            pygame.draw.line(image, (200, 200, 200), (x, 0), (x, 225))
        for y in range(0, 225, 19):
            pygame.draw.line(image, (200, 200, 200), (0, y), (400, y))
        pygame.draw.circle(image, ring, (200, 112), 60, 8)
        pygame.image.save(image, tmp_path / f"{i}.png")
        names.append(str(tmp_path / f"{i}.png"))
    return {"images": names, "seconds": 3.0}


def live_frames(params: dict, seconds: float) -> Iterator[tuple[float, pygame.Surface]]:
    """What a running display draws, frame by frame at 60 fps: (time, frame)."""
    host, clock = entered("attract", {}, SIZE, params)
    screen = pygame.Surface(SIZE)
    for frame in range(1, round(seconds * 60) + 1):
        clock.seconds += 1 / 60
        host.update(1 / 60)
        host.ctx.assets.pictures.wait()  # a display whose pictures are loaded in time
        host.draw(screen)
        yield frame / 60, screen


def test_the_change_of_image_dips_but_never_goes_black(tmp_path):
    params = flat_images(tmp_path)
    steady = brightness(render_scene("attract", {}, 2.0, SIZE, params))
    times = [4.0 + k * FADE / 10 for k in range(11)]
    levels = [brightness(render_scene("attract", {}, t, SIZE, params)) for t in times]
    assert min(levels) >= steady * DIP_FLOOR * 0.8  # dims, never black
    assert min(levels) < steady * 0.6  # and it does dip between the images


def test_a_running_loop_shows_what_a_fresh_render_of_the_same_moment_shows(tmp_path):
    params = detailed_images(tmp_path)
    checked = 0
    for frame, (at, shown) in enumerate(live_frames(params, 7.0)):
        if frame % 29 == 0:
            expected = render_scene("attract", {}, at, SIZE, params)
            assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(expected, "RGB"), at
            checked += 1
    assert checked > 10


def test_after_the_first_frame_no_frame_scales_more_than_a_third_of_a_picture(
        tmp_path, monkeypatch: pytest.MonkeyPatch):
    made: list[int] = []  # bands scaled, on whichever core (a list's append is atomic)
    real_band = BandedScale._scale_band

    def counted(self: BandedScale, band: int) -> None:
        made.append(band)
        real_band(self, band)

    monkeypatch.setattr(BandedScale, "_scale_band", counted)
    totals = [0] + [len(made) for _ in live_frames(detailed_images(tmp_path), 7.0)]
    per_frame = [b - a for a, b in itertools.pairwise(totals)][1:]  # after the first frame
    assert sum(per_frame) > 10 * BANDS  # the pictures were made during the run...
    assert max(per_frame) <= BANDS // 3  # ...a share per frame, never all at once


def test_while_a_picture_loads_the_backdrop_stands_in_and_the_picture_rises_from_a_dip(
        tmp_path, monkeypatch: pytest.MonkeyPatch):
    params = flat_images(tmp_path)
    steady = brightness(render_scene("attract", {}, 2.0, SIZE, params))
    loading = True
    real_get = Pictures.get

    def slow_get(self: Pictures, name, size):
        picture = real_get(self, name, size)
        return None if loading else picture

    monkeypatch.setattr(Pictures, "get", slow_get)
    frames = live_frames(params, 2.0)
    stand_in = [brightness(next(frames)[1]) for _ in range(10)]
    assert max(stand_in) - min(stand_in) < 1 and abs(stand_in[0] - steady) > 10
    loading = False
    rising = [brightness(next(frames)[1]) for _ in range(round(FADE / 2 * 60) + 2)]
    assert rising[0] < steady * (DIP_FLOOR + 0.1)  # comes up from the dip...
    assert rising == sorted(rising)  # ...steadily...
    assert rising[-1] == pytest.approx(steady, abs=1)  # ...to the full picture

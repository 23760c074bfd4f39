"""The video scene, headless: the exact frame at chosen show times, a loop's seam with no
black or repeated frame, a clip that ends, fit, and rest between frames. The clips are made
here with PyAV (showrunner.video.clips), each frame showing its own number."""

from __future__ import annotations

import logging
from pathlib import Path

import pygame
import pytest
from PIL import Image

from showrunner.engine.render import advance, entered, render_scene
from showrunner.engine.video import VideoDecoding
from showrunner.scenes.samples import BASE_MS
from showrunner.video.clips import make_clip, read_number

SIZE = (320, 180)
FPS = 30
FRAMES = 60  # a 2 s clip


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    return make_clip(tmp_path_factory.mktemp("clips") / "numbered.mp4", SIZE, FPS, FRAMES)


def image(surface: pygame.Surface) -> Image.Image:
    return Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))


def shown(surface: pygame.Surface) -> int | None:
    return read_number(image(surface))


@pytest.mark.parametrize("at,number", [(0.0, 0), (0.5, 15), (1.0, 30), (1.99, 59), (2.0, 0),
                                       (2.51, 15), (7.0, 30)])
def test_from_the_scene_start_the_frame_for_the_time_since(clip, at, number):
    frame = render_scene("video", {}, at, (640, 360), {"media": str(clip)}, BASE_MS)
    assert shown(frame) == number


@pytest.mark.parametrize("start_ms,at,number", [
    (BASE_MS, 0.0, 0),  # BASE_MS is a whole number of 2 s clips since the clock's zero
    (BASE_MS + 500, 0.0, 15),  # joined half a second into a loop: that loop's frame
    (BASE_MS + 1_250, 0.5, 52),
    (BASE_MS + 1_999, 0.0, 59),
])
def test_on_the_show_clock_every_screen_shows_the_frame_for_the_clock(clip, start_ms, at,
                                                                      number):
    frame = render_scene("video", {}, at, (640, 360), {"media": str(clip), "start": "clock"},
                         start_ms)
    assert shown(frame) == number


def test_the_loop_seam_has_no_black_or_repeated_frame(clip):
    """Every frame time across two seams, on one screen: each number once, in order."""
    host, clock = entered("video", {}, SIZE, {"media": str(clip)}, 1.5, BASE_MS)
    surface = pygame.Surface(SIZE).convert()
    seen = []
    for _ in range(75):  # 1.5 s to 4.0 s
        assert host.current is not None
        host.current.settle()
        host.draw(surface)
        seen.append(shown(surface))
        advance(host, clock, 1 / FPS)
    host.reset()
    assert seen == [(45 + i) % FRAMES for i in range(75)]


def test_a_clip_that_does_not_loop_holds_its_last_frame_and_rests(clip):
    host, clock = entered("video", {}, SIZE, {"media": str(clip), "loop": False}, 3.0, BASE_MS)
    scene = host.current
    assert scene is not None
    surface = pygame.Surface(SIZE).convert()
    host.draw(surface)
    assert shown(surface) == FRAMES - 1
    assert scene.next_change_ms(clock.now_ms()) is None  # at rest until the scene ends
    host.reset()


def test_between_frames_the_scene_rests_until_the_next_frame_is_due(clip):
    host, clock = entered("video", {}, SIZE, {"media": str(clip)}, 0.01, BASE_MS)
    scene = host.current
    assert scene is not None
    for frame in range(1, 6):
        scene.settle()
        due = scene.next_change_ms(clock.now_ms())
        assert due == BASE_MS + round(frame * 1000 / FPS)  # frame n at n/30 s, to the ms
        assert due > clock.now_ms()  # resting: the display presents nothing until then
        advance(host, clock, (due - clock.now_ms()) / 1000)
    host.reset()


def test_contain_shows_all_of_a_wide_clip_between_bars_of_the_backdrop(clip):
    frame = image(render_scene("video", {}, 1.0, (320, 320), {"media": str(clip),
                                                               "fit": "contain"}, BASE_MS))
    picture = frame.crop((0, 70, 320, 250))  # 320x180 in the middle
    assert read_number(picture) == 30
    top, bottom = frame.getpixel((160, 10)), frame.getpixel((160, 310))
    assert read_number(frame) is None and top != bottom  # the theme's gradient, not black


def test_cover_fills_a_narrow_screen_cropping_the_clip(clip):
    frame = image(render_scene("video", {}, 1.0, (180, 180), {"media": str(clip)}, BASE_MS))
    # 320x180 scaled to 180 high and centred: the middle 180 columns of the clip
    full = image(render_scene("video", {}, 1.0, SIZE, {"media": str(clip)}, BASE_MS))
    assert frame.getpixel((5, 90)) == full.getpixel((75, 90))
    assert frame.getpixel((174, 90)) == full.getpixel((244, 90))


@pytest.mark.parametrize("name", ["missing.mp4", "corrupt.mp4"])
def test_a_clip_that_cannot_play_gives_the_scene_up_in_words(tmp_path, name):
    (tmp_path / "corrupt.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42" + b"\xff" * 4000)
    host, _ = entered("video", {}, SIZE, {"media": str(tmp_path / name)}, 0.1, BASE_MS)
    assert host.current is not None
    why = host.current.gave_up
    assert why is not None and ("no file" in why or "cannot be decoded" in why)
    host.reset()


def test_hardware_decoding_not_available_falls_back_to_software_once(clip, caplog):
    import av.codec.hwaccel

    if "vaapi" in av.codec.hwaccel.hwdevices_available() and Path("/dev/dri").exists():
        pytest.skip("this PC may decode with VA-API")
    decoding = VideoDecoding("vaapi")
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            decoding.open(clip).close()
    assert decoding.status.startswith("software (vaapi not available")
    assert sum("decoding in software" in r.getMessage() for r in caplog.records) == 1

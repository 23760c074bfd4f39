"""Whole frames on the screen (showrunner.engine.wholeframe): a transition's still frame, a
scene's layer, the attract loop's window and dip; on frames laid out alike numkong's way or
pygame's, whichever the start-up check chose (showrunner.engine.framepaths), pygame's on any
other, the same picture every way; and what wholeframe.py takes from numkong and from pygame's
scale, pinned, so a release that changes it fails here, not on the floor."""

from __future__ import annotations

import os
import sys
from concurrent.futures import Executor, Future

import numkong
import pygame
import pytest

from showrunner.engine import cores
from showrunner.engine.render import init_headless
from showrunner.engine.still import Still
from showrunner.engine.wholeframe import (
    OPERATIONS,
    alike,
    copy,
    crossfade,
    dim,
    hold,
    use,
    using,
    ways,
    window,
)

SIZE = (64, 36)
WAYS = ["numkong", "pygame"]


def noise(depth: int = 32, size: tuple[int, int] = SIZE) -> pygame.Surface:
    """A frame whose every byte differs from its neighbours, at `depth` bits a pixel."""
    frame = pygame.Surface(size, 0, depth)
    raw = pygame.image.frombytes(os.urandom(size[0] * size[1] * 3), size, "RGB")
    frame.blit(raw, (0, 0))
    return frame


def still_of(frame: pygame.Surface) -> pygame.Surface:
    """The outgoing frame as a transition holds it (`hold`, on the ways in force), from a
    screen whose unused bytes are all 0."""
    screen = noise()
    with memoryview(screen.get_buffer()) as pixels:  # type: ignore[arg-type]
        pixels[3::4] = bytes(SIZE[0] * SIZE[1])
    screen.blit(frame, (0, 0))  # a blit onto a frame with no alpha leaves its 4th byte be
    still = Still().take(SIZE)
    hold(screen, still)
    return still


def rgb(frame: pygame.Surface) -> list[tuple[int, int, int]]:
    return [tuple(frame.get_at((x, y)))[:3] for y in range(SIZE[1]) for x in range(SIZE[0])]


@pytest.fixture(autouse=True)
def display() -> None:
    init_headless(SIZE)


def test_the_display_and_its_still_frame_are_laid_out_alike():
    # what a display draws on (the window surface) and its transitions' still frame: the
    # crossfade goes numkong's way on every display this project runs on
    screen = init_headless((320, 180))
    assert alike(screen, Still().take((320, 180)))
    assert not alike(pygame.Surface((320, 180), 0, 24), Still().take((320, 180)))
    screen.set_clip((0, 0, 10, 10))  # only part to draw: pygame's way, which clips
    assert not alike(screen, Still().take((320, 180)))
    screen.set_clip(None)


def every(way: str):
    """Every whole-frame operation taking `way` (as the start-up check may choose)."""
    return using(dict.fromkeys(OPERATIONS, way))


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("old", [1, 77, 128, 200, 254])
def test_a_crossfade_is_the_same_picture_every_way(old, way):
    outgoing, incoming = noise(), noise()
    fast, slow = incoming.copy(), pygame.Surface(SIZE, 0, 24)
    slow.blit(incoming, (0, 0))
    assert alike(fast, still_of(outgoing)) and not alike(slow, still_of(outgoing))
    with every(way):
        crossfade(fast, still_of(outgoing), old)
    crossfade(slow, still_of(outgoing), old)
    for a, b, was, comes in zip(rgb(fast), rgb(slow), rgb(outgoing), rgb(incoming),
                                strict=True):
        for ca, cb, o, n in zip(a, b, was, comes, strict=True):
            exact = (o * old + n * (255 - old)) / 255
            assert abs(ca - exact) <= 2 and abs(cb - exact) <= 2  # of 255: unseen


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("depth", [32, 24])
def test_the_still_frame_is_kept_and_shown_exactly(depth, way):
    screen, frame = noise(depth), noise()
    kept = still_of(noise())
    with every(way):
        hold(frame, kept)
        assert rgb(kept) == rgb(frame)
        copy(screen, kept)
    assert rgb(screen) == rgb(frame)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("depth", [32, 24])
def test_a_layer_is_copied_whole_or_only_inside_the_clip(depth, way):
    screen, layer = noise(depth), noise()
    with every(way):
        copy(screen, layer)
    assert rgb(screen) == rgb(layer)
    screen, part = noise(depth), pygame.Rect(5, 6, 20, 10)
    before = rgb(screen)
    screen.set_clip(part)
    with every(way):
        copy(screen, layer)
    assert rgb(screen) == [rgb(layer)[i] if part.collidepoint(i % SIZE[0], i // SIZE[0])
                           else before[i] for i in range(SIZE[0] * SIZE[1])]


@pytest.mark.parametrize("way", WAYS)
def test_a_layer_copied_into_a_frame_with_an_alpha_channel_leaves_it_opaque(way):
    # a frame a scene draws text into: its text is then blended onto opaque pixels
    layer, frame = noise(), pygame.Surface(SIZE, pygame.SRCALPHA, 32)
    with every(way):
        copy(frame, layer)
    assert rgb(frame) == rgb(layer)
    assert {frame.get_at((x, y)).a for x in range(SIZE[0]) for y in range(SIZE[1])} == {255}


def test_a_still_frame_has_the_screens_format_and_no_alpha_channel():
    # so pygame's crossfade is SDL's blend of an opaque frame at one alpha, whatever its 4th
    # bytes hold (a frame with an alpha channel took pygame's per-pixel blitter, 4 times as
    # long on a CPU without AVX2), and a blit of it is a copy
    screen, still = init_headless(SIZE), still_of(noise())
    assert still.get_masks() == screen.get_masks() and still.get_masks()[3] == 0
    assert still.get_bitsize() == screen.get_bitsize()


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("operation", ["copy", "hold", "crossfade", "dim"])
def test_each_operation_takes_the_way_chosen_for_it(operation, way, monkeypatch):
    calls: list[str] = []  # numkong's kernels called, from any core
    for name in ("scale", "blend"):
        real = getattr(numkong, name)
        monkeypatch.setattr(numkong, name, lambda *args, _real=real, _name=name, **kwargs:
                            calls.append(_name) or _real(*args, **kwargs))
    screen, layer, still = noise(), noise(), still_of(noise())
    run = {"copy": lambda: copy(screen, layer), "hold": lambda: hold(screen, still),
           "crossfade": lambda: crossfade(screen, still, 100), "dim": lambda: dim(screen, 100)}
    chosen = "copy" if operation == "hold" else operation  # a still frame kept is a copy
    others = "pygame" if way == "numkong" else "numkong"
    with using({**dict.fromkeys(OPERATIONS, others), chosen: way}):
        run[operation]()
    assert bool(calls) == (way == "numkong"), calls


def test_no_view_of_a_frames_pixels_outlives_the_call(monkeypatch):
    # a helper may hold on to its job a moment after the job's result is set (the thread
    # pool's worker deletes it only then): a band's view of the pixels held by the job kept
    # the frame locked, and the frame's next blit failed ("Surfaces must not be locked
    # during blit", seen in bench/frames.py's live heat at 4K on a loaded machine)
    held: list[object] = []

    class Lingering(Executor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
            done: Future = Future()
            done.set_result(fn(*args, **kwargs))
            held.append((fn, args))  # the job, not yet let go
            return done

    monkeypatch.setattr(cores, "_helpers", Lingering)
    monkeypatch.setattr(cores, "CORES", 2)
    screen, layer, still = noise(), noise(), still_of(noise())
    with every("numkong"):
        copy(screen, layer)
        hold(screen, still)
        crossfade(screen, still, 100)
        dim(screen, 100)
    assert held and not screen.get_locked() and not still.get_locked()
    screen.blit(layer, (0, 0))


# the attract loop: a window into a larger picture, and the dip between pictures -------------

@pytest.mark.parametrize("at", [(0, 0), (1, 0), (3, 7), (8, 13), (15, 13)])
def test_a_window_into_a_picture_is_the_same_picture_either_way(at, monkeypatch):
    picture = noise(size=(SIZE[0] + 15, SIZE[1] + 13))
    area = pygame.Rect(at, SIZE)
    scaled: list[pygame.Surface] = []  # the bands the fast way copied
    real_scale = pygame.transform.scale
    monkeypatch.setattr(pygame.transform, "scale",
                        lambda rows, size, into: scaled.append(rows) or real_scale(rows, size,
                                                                                    into))
    fast, slow = noise(), noise(24)
    window(fast, picture, area)
    assert sum(rows.get_height() for rows in scaled) == SIZE[1]
    window(slow, picture, area)  # 24 bits a pixel: pygame's blit
    expected = rgb(picture.subsurface(area))
    assert rgb(fast) == rgb(slow) == expected


def test_a_window_is_drawn_only_inside_the_clip():
    picture, screen = noise(size=(SIZE[0] + 9, SIZE[1] + 9)), noise()
    before, part = rgb(screen), pygame.Rect(5, 6, 20, 10)
    screen.set_clip(part)
    window(screen, picture, pygame.Rect((4, 5), SIZE))
    shown = rgb(picture.subsurface((4, 5, *SIZE)))
    assert rgb(screen) == [shown[i] if part.collidepoint(i % SIZE[0], i // SIZE[0])
                           else before[i] for i in range(SIZE[0] * SIZE[1])]


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("shade", [0, 89, 128, 254])
def test_a_dip_darkens_the_same_every_way(shade, way):
    fast, slow = noise(), pygame.Surface(SIZE, 0, 24)
    slow.blit(fast, (0, 0))
    lit = rgb(fast)
    assert alike(fast, fast) and not alike(slow, slow)
    with every(way):
        dim(fast, shade)
    dim(slow, shade)
    for a, b, was in zip(rgb(fast), rgb(slow), lit, strict=True):
        for ca, cb, c in zip(a, b, was, strict=True):
            exact = c * shade / 255
            assert abs(ca - exact) <= 1 and abs(cb - exact) <= 1


# what wholeframe.py takes from numkong and pygame ----------------------------------------------

def test_numkong_blends_and_copies_bytes_in_place_through_memoryviews():
    a, b = bytearray(os.urandom(4096)), bytearray(os.urandom(4096))
    weight = 0.3
    expected = [round(x * weight + y * (1 - weight)) for x, y in zip(a, b, strict=True)]
    with memoryview(a) as old, memoryview(b) as new:
        assert numkong.blend(old, new, alpha=weight, beta=1 - weight, out=new) is None
    assert max(abs(x - y) for x, y in zip(b, expected, strict=True)) <= 1
    copy = bytearray(4096)
    with memoryview(a) as source, memoryview(copy) as into:
        numkong.scale(source, alpha=1.0, beta=0.0, out=into)
    assert copy == a


def test_numkong_scales_bytes_in_place():
    data = bytearray(range(256))
    with memoryview(data) as read, memoryview(data) as written:
        numkong.scale(read, alpha=0.5, beta=0.0, out=written)
    assert all(abs(got - was / 2) <= 0.5 for got, was in zip(data, range(256), strict=True))


def test_pygames_scale_at_the_same_size_copies_exactly_into_part_of_a_frame():
    picture, screen = noise(size=(70, 40)), noise()
    rows, into = picture.subsurface((3, 5, 61, 17)), screen.subsurface((0, 9, 61, 17))
    assert pygame.transform.scale(rows, (61, 17), into) is into
    assert pygame.image.tobytes(into, "RGB") == pygame.image.tobytes(rows, "RGB")


def test_numkongs_kernels_can_be_left_serial_and_given_back():
    # the stand-in for a CPU without AVX2 (framepaths.serial_kernels) and the tests' undoing
    enabled = {name for name, on in numkong.get_capabilities().items() if on}
    assert "serial" in enabled
    try:
        for name in enabled - {"serial"}:
            numkong.disable_capability(name)
        assert {name for name, on in numkong.get_capabilities().items() if on} == {"serial"}
        test_numkong_blends_and_copies_bytes_in_place_through_memoryviews()  # the same bytes
    finally:
        for name in enabled - {"serial"}:
            numkong.enable_capability(name)
    assert {name for name, on in numkong.get_capabilities().items() if on} == enabled


def test_numkong_keeps_the_references_it_is_given():
    # SimSIMD, numkong's predecessor, dropped a reference to None on every call with `out=`:
    # a display would have crashed after enough crossfades ("none_dealloc")
    a, b = bytearray(1024), bytearray(1024)
    before = sys.getrefcount(None), sys.getrefcount(a), sys.getrefcount(b)
    with memoryview(a) as old, memoryview(b) as new:
        for _ in range(1000):
            numkong.blend(old, new, alpha=0.5, beta=0.5, out=new)
            numkong.scale(old, alpha=1.0, beta=0.0, out=new)
    assert (sys.getrefcount(None), sys.getrefcount(a), sys.getrefcount(b)) == before


def test_a_way_that_is_not_one_is_refused_and_changes_nothing():
    before = ways()
    with pytest.raises(ValueError, match="no whole-frame operation"):
        use({"blit": "pygame"})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="numkong or pygame"):
        use({"copy": "simd"})  # type: ignore[dict-item]
    assert ways() == before

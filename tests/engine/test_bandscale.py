"""A scale spread over frames gives the same picture however the bands were spread."""

from __future__ import annotations

import pygame

from showrunner.engine.bandscale import BANDS, BandedScale
from showrunner.engine.render import init_headless


def stripes(size: tuple[int, int]) -> pygame.Surface:
    """Every row and column a different colour, so a misplaced row or column shows."""
    surface = pygame.Surface(size).convert()
    w, h = size
    for y in range(h):
        for x in range(w):
            surface.set_at((x, y), (x * 255 // w, y * 255 // h, (x + y) % 256))
    return surface


def test_a_picture_made_over_many_frames_equals_one_made_at_once():
    init_headless((64, 64))
    source = stripes((50, 40))
    at_once, spread = BandedScale(), BandedScale()
    at_once.start("k", source, (61, 47))
    spread.start("k", source, (61, 47))
    for bands in (1, 5, 2, 9, 3, 100):
        spread.advance(bands)
    assert spread.remaining == 0
    assert (pygame.image.tobytes(at_once.finish(), "RGB")
            == pygame.image.tobytes(spread.finish(), "RGB"))


def test_the_bands_match_a_single_nearest_neighbour_scale_to_within_a_row():
    init_headless((64, 64))
    source = stripes((50, 40))
    banded = BandedScale()
    banded.start("k", source, (61, 47))
    picture = banded.finish()
    whole = pygame.transform.scale(source, (61, 47))
    for y in range(47):
        rows_near = [pygame.image.tobytes(whole.subsurface((0, r, 61, 1)), "RGB")
                     for r in range(max(0, y - 1), min(47, y + 2))]
        assert pygame.image.tobytes(picture.subsurface((0, y, 61, 1)), "RGB") in rows_near


def test_work_is_counted_in_bands_and_a_bigger_picture_gets_a_bigger_buffer():
    init_headless((64, 64))
    scale = BandedScale()
    scale.start("small", stripes((20, 20)), (30, 30))
    scale.advance(3)
    assert scale.remaining == BANDS - 3
    scale.start("big", stripes((20, 20)), (200, 120))
    assert scale.finish().get_size() == (200, 120)
    scale.forget()
    assert scale.key is None

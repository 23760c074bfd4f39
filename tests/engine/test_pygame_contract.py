"""What showrunner/engine/still.py takes from pygame-ce beyond its plain API, pinned, so a
release that moves it fails here (CI on the lock, `scripts/test --latest` on the newest
releases) rather than on the floor: `Surface._pixels_address`, the address of a surface's own
pixels, rows `get_pitch()` apart, which the still frame hands back to the system with madvise;
and a new surface's pixels zeroed by SDL (so a new still frame is resident and black)."""

from __future__ import annotations

import ctypes

import pygame

from showrunner.engine.render import init_headless


def test_a_surfaces_pixels_address_is_its_own_pixels_rows_a_pitch_apart():
    init_headless((64, 64))
    surface = pygame.Surface((40, 30), 0, 32)
    assert isinstance(surface._pixels_address, int) and surface._pixels_address > 0
    surface.fill((0, 0, 0))
    surface.set_at((7, 5), (10, 20, 30))
    pixel = ctypes.c_uint32.from_address(surface._pixels_address + 5 * surface.get_pitch() + 7 * 4)
    assert surface.unmap_rgb(pixel.value)[:3] == (10, 20, 30)
    with memoryview(surface.get_buffer()) as pixels:  # type: ignore[arg-type]
        assert ctypes.addressof(ctypes.c_char.from_buffer(pixels)) == surface._pixels_address


def test_a_new_surface_is_zeroed():
    init_headless((64, 64))
    surface = pygame.Surface((300, 200), 0, 32)
    with memoryview(surface.get_buffer()) as pixels:  # type: ignore[arg-type]
        assert not any(pixels.tobytes())

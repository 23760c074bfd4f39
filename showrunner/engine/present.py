"""Putting a drawn frame on the screen: all of it, or only the rectangles that changed.

Measured under a real X server (Xvfb, 1920x1080, pygame-ce 2.5 on SDL 2.32): a window opened
with vsync is an SDL renderer (OpenGL), and SDL's default window surface is a texture on one
too; either way every present uploads and shows the whole window (about 12 ms of CPU a frame
here, with `update(rects)` costing the same as `flip()`). The plain X11 window surface
(SDL_FRAMEBUFFER_ACCELERATION=0, set by `open_window`) sends only the rectangles given to
`pygame.display.update(rects)` (0.15 ms in the display and 0.05 ms in the X server for a
400x100 band; 0.7 ms together for a whole frame).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pygame

Rects = Sequence[pygame.Rect]


class Presenter:
    """Shows the screen surface: `None` for the whole frame, else only `rects` (tests record
    what was presented by overriding `present`)."""

    def present(self, rects: Rects | None) -> None:
        if rects is None:
            pygame.display.flip()
        elif rects:
            pygame.display.update(rects)


@contextmanager
def clipped(surface: pygame.Surface, rects: Rects | None) -> Iterator[None]:
    """Draw only inside `rects` (their union) while in the block; everywhere for None. A
    scene draws its whole picture as usual and SDL skips the pixels outside, so a full-screen
    layer blitted first costs only the changed band."""
    if rects is None:
        yield
        return
    before = surface.get_clip()
    surface.set_clip(rects[0].unionall(rects[1:]) if rects else pygame.Rect(0, 0, 0, 0))
    try:
        yield
    finally:
        surface.set_clip(before)

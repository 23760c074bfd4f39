"""A nearest-neighbour scale spread over several frames, a band of rows at a time.

At 4K one full-screen scale costs most of a frame's budget. A scene that knows which picture it
will need next (the attract loop's next zoom step) prepares it here in bands while it shows the
current one, so no single frame pays for the whole scale, and a frame's bands are shared over
the cores. The bands are fixed, so the finished picture is the same however many frames and
cores it took.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable

import pygame

from showrunner.engine.cores import on_every_core

BANDS = 32
HEADROOM = 32  # px


class BandedScale:
    """One reusable buffer being filled with `source` scaled to `size`."""

    def __init__(self) -> None:
        self.key: Hashable = None
        self.size = (0, 0)
        self._buffer: pygame.Surface | None = None
        self._source: pygame.Surface | None = None
        self._band = BANDS

    def start(self, key: Hashable, source: pygame.Surface, size: tuple[int, int]) -> None:
        """Begin scaling `source` (a subsurface is fine) to `size`; `key` names the result."""
        width, height = size
        if self._buffer is None or not self._buffer.get_rect().contains((0, 0, width, height)):
            # A little headroom, so later pictures' slightly different sizes fit (only a
            # little: blits from a much wider buffer measured 50% slower at 4K). Made in the
            # display's format directly: a convert() afterwards would double the cost.
            room, display = (width + HEADROOM, height + HEADROOM), pygame.display.get_surface()
            self._buffer = (pygame.Surface(room) if display is None  # headless: plain 32-bit
                            else pygame.Surface(room, 0, display))
        self.key, self._source, self.size, self._band = key, source, size, 0

    @property
    def remaining(self) -> int:
        """Bands still to scale."""
        return BANDS - self._band

    def advance(self, bands: int) -> None:
        """Scale up to `bands` more bands, shared over the cores (pygame's scale lets go of
        the GIL)."""
        first, self._band = self._band, self._band + min(bands, self.remaining)
        on_every_core([functools.partial(self._scale_band, band)
                       for band in range(first, self._band)])
        if not self.remaining:
            self._source = None

    def finish(self) -> pygame.Surface:
        """The whole picture, scaling whatever is left now."""
        self.advance(self.remaining)
        assert self._buffer is not None
        return self._buffer.subsurface((0, 0, *self.size))

    def forget(self) -> None:
        """Drop the result (its source changed); the buffer is kept for reuse."""
        self.key, self._source, self._band = None, None, BANDS

    def _scale_band(self, band: int) -> None:
        assert self._source is not None and self._buffer is not None
        width, height = self.size
        source_w, source_h = self._source.get_size()
        top, bottom = height * band // BANDS, height * (band + 1) // BANDS
        if bottom <= top:
            return
        source_top = top * source_h // height
        source_bottom = max(source_top + 1, min(source_h, -(-bottom * source_h // height)))
        rows = self._source.subsurface((0, source_top, source_w, source_bottom - source_top))
        target = self._buffer.subsurface((0, top, width, bottom - top))
        pygame.transform.scale(rows, (width, bottom - top), target)

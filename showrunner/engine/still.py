"""The outgoing scene's last frame, held still while a transition takes it off the screen.

At rest a screen holds two full screens (the window, the scene's layer); a transition needs one
more. Its memory faulted in at once costs about 25 ms at 4K (32 MiB), and handed back at once
about 8: each more than a frame has to spare. So the still frame's pages are mapped once and
touched a band at a time ahead of a switch (`prepare`, about 3 ms a band at 4K), and handed back
to the system a band at a time after it (`release`): a screen that moves right up to a switch,
and on after it, drops no frame for them, and one at rest holds none of it. It is laid out
as a display's screen is (showrunner.engine.wholeframe works on both byte for byte) and is
opaque: a blit of it is a copy, whatever its 4th byte holds (the screen's unused one, kept
byte for byte).
"""

from __future__ import annotations

import mmap

import pygame

BANDS = 8


class Still:
    """One frame's worth of pixels, made ready ahead (`prepare`), lent to a transition
    (`take`, `give_back`) and handed back to the system after (`release`), then unmapped."""

    def __init__(self) -> None:
        self._pixels: mmap.mmap | None = None
        self._surface: pygame.Surface | None = None
        self._resident = 0  # bands touched since they were last handed back
        self._returning = False  # a transition gave it back, no switch has asked for it since

    def prepare(self, size: tuple[int, int]) -> bool:
        """Touch one more band of a frame of `size`; True once all of it is resident."""
        self._returning = False
        if self._surface is None or self._surface.get_size() != size:
            self._surface = None  # (it reads the old pixels in place)
            self._pixels = mmap.mmap(-1, size[0] * size[1] * 4)  # mapped, not yet resident
            self._surface = pygame.image.frombuffer(self._pixels, size, "BGRA")
            self._surface.set_alpha(None)  # opaque: its alpha byte is not read
            self._resident = 0
        if self._resident < BANDS:
            top, bottom = self._rows(self._resident)
            self._surface.fill((0, 0, 0, 255), (0, top, size[0], bottom - top))
            self._resident += 1
        return self._resident == BANDS

    def take(self, size: tuple[int, int]) -> pygame.Surface:
        """The frame to hold the outgoing scene's, the rest of it made ready now if need be."""
        while not self.prepare(size):
            pass
        assert self._surface is not None
        return self._surface

    def give_back(self) -> None:
        """The transition is done with it: `release` may hand its memory back."""
        self._returning = True

    def release(self) -> bool:
        """After a transition gave it back, hand one more band of its memory back to the
        system; True once there is nothing more to hand back."""
        if not self._returning or self._pixels is None:
            return True
        if self._resident > 0:
            self._resident -= 1
            start = self._rows(self._resident)[0] * self._surface_pitch()
            start -= start % mmap.PAGESIZE  # from the page the band starts in, to the end
            self._pixels.madvise(mmap.MADV_DONTNEED, start, len(self._pixels) - start)
        self._returning = self._resident > 0
        if not self._returning:  # nothing resident: unmapped at no cost
            self._surface = self._pixels = None
        return not self._returning

    def _rows(self, band: int) -> tuple[int, int]:
        assert self._surface is not None
        height = self._surface.get_height()
        per = -(-height // BANDS)
        return min(height, band * per), min(height, (band + 1) * per)

    def _surface_pitch(self) -> int:
        assert self._surface is not None
        return self._surface.get_pitch()

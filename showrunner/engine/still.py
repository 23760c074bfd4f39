"""The outgoing scene's last frame, held still while a transition takes it off the screen.

At rest a screen holds two full screens (the window, the scene's layer); a transition needs one
more. Its memory faulted in at once costs about 25 ms at 4K (32 MiB), and handed back at once
about 8: each more than a frame has to spare. So the still frame is made once (SDL zeroes a new
surface: its pages are all faulted in then, before the display's first switch), and its pages
are handed back to the system a band at a time after each transition (`release`, madvise
through libc: pygame has no call for it) and touched again a band at a time ahead of the next
(`prepare`, about 3 ms a band at 4K): a screen that moves right up to a switch, and on after
it, drops no frame for them, and one at rest holds none of its memory.

It is a surface of the screen's own format, opaque (no alpha channel): showrunner.engine
.wholeframe works on both byte for byte, a blit of it is a copy, and pygame's crossfade blends
it by its surface alpha alone, which SDL does in SIMD on any x86-64 CPU (a frame with an alpha
channel took pygame's per-pixel blitter: 4.6 ms at 4K with AVX2, 26 without).
"""

from __future__ import annotations

import ctypes
import mmap

import pygame

BANDS = 8
_libc = ctypes.CDLL(None, use_errno=True)
_libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)


class Still:
    """One frame's worth of pixels, made ready ahead (`prepare`), lent to a transition
    (`take`, `give_back`) and its memory handed back to the system after (`release`)."""

    def __init__(self) -> None:
        self._surface: pygame.Surface | None = None
        self._resident = 0  # bands touched since they were last handed back
        self._returning = False  # a transition gave it back, no switch has asked for it since

    def prepare(self, size: tuple[int, int]) -> bool:
        """Touch one more band of a frame of `size`; True once all of it is resident."""
        self._returning = False
        if self._surface is None or self._surface.get_size() != size:
            self._surface = None
            screen = pygame.display.get_surface()  # (its format; a bare 32 bits without one)
            self._surface = pygame.Surface(size, 0, screen if screen is not None else 32)
            self._resident = BANDS  # SDL zeroed it: every page is in memory
        if self._resident < BANDS:
            top, bottom = self._rows(self._resident)
            self._surface.fill((0, 0, 0), (0, top, size[0], bottom - top))
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
        if not self._returning or self._surface is None:
            return True
        if self._resident > 0:
            self._resident -= 1
            self._hand_back(self._rows(self._resident)[0] * self._surface.get_pitch())
        self._returning = self._resident > 0
        return not self._returning

    def _hand_back(self, offset: int) -> None:
        """The pixels' whole pages from `offset` to the end go back to the system (touched
        again, they come back zeroed); the pages the buffer shares with the allocator's own
        bookkeeping, at its two ends, are left alone."""
        assert self._surface is not None
        address = self._surface._pixels_address
        end = address + self._surface.get_pitch() * self._surface.get_height()
        start = -(-(address + offset) // mmap.PAGESIZE) * mmap.PAGESIZE
        stop = end - end % mmap.PAGESIZE
        if stop > start and _libc.madvise(start, stop - start, mmap.MADV_DONTNEED) != 0:
            raise OSError(ctypes.get_errno(), "madvise of a still frame's pixels failed")

    def _rows(self, band: int) -> tuple[int, int]:
        assert self._surface is not None
        height = self._surface.get_height()
        per = -(-height // BANDS)
        return min(height, band * per), min(height, (band + 1) * per)

"""Whole frames copied and blended byte for byte, on every core: a scene's layer laid on the
screen, and a transition's still frame kept, shown alone or crossfaded.

pygame does each on one core: a 4K copy takes about 2.9 ms of a 60 Hz frame's 16.7, a blit of
a frame with per-pixel alpha is a blend even where it is all opaque (5.5 ms), and a crossfade
is an alpha fill and an alpha blit (9 ms). numkong works a byte at a time in SIMD and lets go
of the GIL, so the frame is cut into as many bands of rows as there are cores (up to 4), each
worked on its own thread: at 4K on two cores a copy takes 1.6 ms and a crossfade's blend 3
(bench/frames.py).

It works on bytes, so both frames must be laid out alike: 4 bytes a pixel, the same colour
masks and row length, and the whole screen to draw (no clip). The 4th byte, the screen's
unused one, is copied and blended like the others: nothing here reads it as alpha. Frames laid
out otherwise, or drawn only in part, go pygame's way.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING, cast

import numkong
import pygame

if TYPE_CHECKING:
    from typing_extensions import Buffer

BANDS = max(1, min(4, os.cpu_count() or 1))

Work = Callable[[memoryview, memoryview], object]  # (source band, band written)


def copy(target: pygame.Surface, source: pygame.Surface) -> None:
    """`source`, opaque, onto `target` at its top left (inside its clip). A target with an
    alpha channel (a still frame a scene draws into) goes pygame's way, which leaves it
    opaque: the bytes would leave it the source's 4th byte, and pygame's blit onto a pixel of
    alpha 0 takes the source's pixel whole, its edges unblended."""
    if alike(target, source) and not target.get_masks()[3]:
        _banded(_copy, source, target)
    else:
        target.blit(source, (0, 0))


def hold(screen: pygame.Surface, still: pygame.Surface) -> None:
    """Keep the frame just drawn on `screen` as the outgoing frame `still` (opaque)."""
    if alike(screen, still):
        _banded(_copy, screen, still)
    else:
        still.blit(screen, (0, 0))


def crossfade(target: pygame.Surface, still: pygame.Surface, old: int) -> None:
    """Blend the outgoing frame `still` (opaque, see showrunner.engine.still) over the
    incoming one already drawn on `target`, with weight old/255 (0 < old < 255)."""
    if alike(target, still):
        weight = old / 255
        _banded(lambda kept, shown: numkong.blend(kept, shown, alpha=weight, beta=1 - weight,
                                                  out=shown), still, target)
    else:  # its alpha bytes made opaque, then the whole frame's alpha set to `old`
        still.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MAX)
        still.set_alpha(old)
        target.blit(still, (0, 0))
        still.set_alpha(None)


def _copy(source: memoryview, into: memoryview) -> None:
    numkong.scale(source, alpha=1.0, beta=0.0, out=into)  # exact, and without the GIL


def alike(target: pygame.Surface, source: pygame.Surface) -> bool:
    """Whether the two frames are laid out byte for byte alike, the whole of `target` to
    draw: then the work here is numkong's, on every core."""
    return (target.get_size() == source.get_size()
            and target.get_bytesize() == source.get_bytesize() == 4
            and target.get_pitch() == source.get_pitch() == target.get_width() * 4
            and target.get_masks()[:3] == source.get_masks()[:3]
            and target.get_clip() == target.get_rect())


def _banded(work: Work, source: pygame.Surface, into: pygame.Surface) -> None:
    """`work` on each band of whole rows of the two frames, a band a thread, the last one on
    this thread."""
    rows, pitch = into.get_height(), into.get_pitch()
    cuts = [band * rows // BANDS * pitch for band in range(BANDS + 1)]
    with _pixels(source) as read, _pixels(into) as written:
        bands = [(read[a:b], written[a:b]) for a, b in pairwise(cuts)]
        helping = [_helpers().submit(work, *band) for band in bands[:-1]]
        work(*bands[-1])
        for band in helping:
            band.result()
        del bands  # the surfaces stay locked while a view of their pixels lives


def _pixels(surface: pygame.Surface) -> memoryview:
    """The surface's bytes, the surface locked while the view lives."""
    return memoryview(cast("Buffer", surface.get_buffer()))  # a BufferProxy exports its pixels


@cache
def _helpers() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(BANDS - 1, thread_name_prefix="wholeframe")

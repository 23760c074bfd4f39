"""Whole frames copied and blended byte for byte, on every core: a scene's layer laid on the
screen, a transition's still frame kept, shown alone or crossfaded, and the attract loop's
window into its picture laid on the screen and dimmed.

pygame does each on one core: a 4K copy takes about 2.9 ms of a 60 Hz frame's 16.7, a blit of
a frame with per-pixel alpha is a blend even where it is all opaque (5.5 ms), and a crossfade
is an alpha fill and an alpha blit (9 ms). numkong works a byte at a time in SIMD and lets go
of the GIL, so the frame is cut into a band of rows a core (showrunner.engine.cores): at 4K
on two cores a copy takes 1.6 ms and a crossfade's blend 3 (bench/frames.py).

It works on bytes, so both frames must be laid out alike: 4 bytes a pixel, the same colour
masks and row length, and the whole screen to draw (no clip). The 4th byte, the screen's
unused one, is copied and blended like the others: nothing here reads it as alpha. Frames laid
out otherwise, or drawn only in part, go pygame's way.

A window into a larger picture is not one run of bytes, which numkong's kernels need: it is
copied a band of rows at a time by pygame's nearest-neighbour scale at the same size, an exact
copy that lets go of the GIL (pygame's blit keeps it): 2 ms at 4K on two cores against 3.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, cast

import numkong
import pygame

from showrunner.engine.cores import cuts, on_every_core

if TYPE_CHECKING:
    from typing_extensions import Buffer

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


def window(target: pygame.Surface, source: pygame.Surface, area: pygame.Rect) -> None:
    """`area` of `source` (the size of `target`) onto the whole of `target`."""
    if (area.size == target.get_size() and source.get_rect().contains(area)
            and _pixels_alike(target, source)):
        width = area.width
        on_every_core([functools.partial(
            pygame.transform.scale, source.subsurface(area.x, area.y + top, width, bottom - top),
            (width, bottom - top), target.subsurface(0, top, width, bottom - top))
            for top, bottom in pairwise(cuts(area.height)) if bottom > top])
    else:
        target.blit(source, (0, 0), area)


def dim(target: pygame.Surface, shade: int) -> None:
    """Darken the whole frame to shade/255 of its light (0 <= shade < 255)."""
    if alike(target, target):
        weight = shade / 255
        _banded(lambda frame, same: numkong.scale(frame, alpha=weight, beta=0.0, out=same),
                target, target)
    else:
        target.fill((shade, shade, shade), special_flags=pygame.BLEND_RGB_MULT)


def _copy(source: memoryview, into: memoryview) -> None:
    numkong.scale(source, alpha=1.0, beta=0.0, out=into)  # exact, and without the GIL


def alike(target: pygame.Surface, source: pygame.Surface) -> bool:
    """Whether the two frames are laid out byte for byte alike, the whole of `target` to
    draw: then the work here is numkong's, on every core."""
    return (target.get_size() == source.get_size()
            and target.get_pitch() == source.get_pitch() == target.get_width() * 4
            and _pixels_alike(target, source))


def _pixels_alike(target: pygame.Surface, source: pygame.Surface) -> bool:
    """4 bytes a pixel in both, the same colour masks, and the whole of `target` to draw."""
    return (target.get_bytesize() == source.get_bytesize() == 4
            and target.get_masks()[:3] == source.get_masks()[:3]
            and target.get_clip() == target.get_rect())


def _banded(work: Work, source: pygame.Surface, into: pygame.Surface) -> None:
    """`work` on each band of whole rows of the two frames, a band a core."""
    pitch = into.get_pitch()
    with _pixels(source) as read, _pixels(into) as written:
        on_every_core([functools.partial(work, read[top * pitch:bottom * pitch],
                                         written[top * pitch:bottom * pitch])
                       for top, bottom in pairwise(cuts(into.get_height()))])
        # the bands' views of the pixels went with the call: the surfaces unlock here


def _pixels(surface: pygame.Surface) -> memoryview:
    """The surface's bytes, the surface locked while the view lives."""
    return memoryview(cast("Buffer", surface.get_buffer()))  # a BufferProxy exports its pixels

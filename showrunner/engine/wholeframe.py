"""Whole frames copied and blended byte for byte: a scene's layer laid on the screen, a
transition's still frame kept, shown alone or crossfaded, and the attract loop's window into
its picture laid on the screen and dimmed.

Each operation has two ways. pygame's own blits and fills are SDL's and pygame's C, which pick
SSE2 or AVX2 by the CPU at run time, on one core: a 4K copy takes 1.5 to 5 ms, a crossfade's
alpha blit 5 to 11. numkong works a byte at a time in SIMD and lets go of the GIL, so the frame
is cut into a band of rows a core (showrunner.engine.cores); but its kernels are fast only
where the CPU has what they were built for: on an AVX machine without AVX2 they fall to a
serial path, and a 4K copy took 87 ms. So a display measures both at its start
(showrunner.engine.framepaths) and each operation takes its faster way on this host (`use`);
until then, and wherever a frame is not laid out for numkong, pygame's.

numkong works on bytes, so both frames must be laid out alike: 4 bytes a pixel, the same colour
masks and row length, and the whole screen to draw (no clip). The 4th byte, the screen's
unused one, is copied and blended like the others: nothing here reads it as alpha.

A window into a larger picture is copied a band of rows at a time by pygame's
nearest-neighbour scale at the same size: an exact copy of the bytes that lets go of the GIL
(pygame's blit keeps it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from itertools import pairwise
from typing import TYPE_CHECKING, Literal, cast

import numkong
import pygame

from showrunner.engine.cores import cuts, on_every_core

if TYPE_CHECKING:
    from typing_extensions import Buffer

Way = Literal["numkong", "pygame"]
OPERATIONS = ("copy", "crossfade", "dim")  # what `use` chooses a way for
Work = Callable[[memoryview, memoryview], object]  # (source band, band written)

_ways: dict[str, Way] = dict.fromkeys(OPERATIONS, "pygame")


def use(ways: Mapping[str, Way]) -> None:
    """Take these ways for the operations named (the others keep theirs)."""
    unknown = set(ways) - set(OPERATIONS)
    if unknown:
        raise ValueError(f"no whole-frame operation {sorted(unknown)}; known: {OPERATIONS}")
    odd = {way for way in ways.values() if way not in ("numkong", "pygame")}
    if odd:
        raise ValueError(f"no way {sorted(odd)} for a whole frame: numkong or pygame")
    _ways.update(ways)


def ways() -> dict[str, Way]:
    """The way each operation takes now."""
    return dict(_ways)


@contextmanager
def using(chosen: Mapping[str, Way]) -> Iterator[None]:
    """These ways for a while (a measurement, a test), the ones before afterwards."""
    before = ways()
    use(chosen)
    try:
        yield
    finally:
        use(before)


def copy(target: pygame.Surface, source: pygame.Surface) -> None:
    """`source`, opaque, onto `target` at its top left (inside its clip). A target with an
    alpha channel (none the show draws on has one; a caller's own) takes pygame's blit, which
    leaves it opaque: the bytes would leave it the source's 4th byte, see-through."""
    if _ways["copy"] == "numkong" and alike(target, source) and not target.get_masks()[3]:
        _banded(_copy, source, target)
    else:
        target.blit(source, (0, 0))


def hold(screen: pygame.Surface, still: pygame.Surface) -> None:
    """Keep the frame just drawn on `screen` as the outgoing frame `still` (a surface of the
    screen's format, with no alpha channel: showrunner.engine.still)."""
    if _ways["copy"] == "numkong" and alike(screen, still):
        _banded(_copy, screen, still)
    else:
        still.blit(screen, (0, 0))


def crossfade(target: pygame.Surface, still: pygame.Surface, old: int) -> None:
    """Blend the outgoing frame `still` (no alpha channel, see showrunner.engine.still) over
    the incoming one already drawn on `target`, with weight old/255 (0 < old < 255). pygame's
    way is a blit of the still frame at surface alpha `old`: SDL's blend of an opaque frame,
    in SIMD on any x86-64 CPU (a frame with an alpha channel goes through pygame's per-pixel
    blitter: 26 ms at 4K on a CPU without AVX2, where this takes 6)."""
    if alike(target, still) and _ways["crossfade"] == "numkong":
        _banded(functools.partial(_blend, weight=old / 255), still, target)
    else:
        still.set_alpha(old)
        target.blit(still, (0, 0))
        still.set_alpha(None)


def window(target: pygame.Surface, source: pygame.Surface, area: pygame.Rect) -> None:
    """`area` of `source` (the size of `target`) onto the whole of `target`."""
    if (area.size == target.get_size() and source.get_rect().contains(area)
            and _pixels_alike(target, source)):
        _rows(target, source.subsurface(area))
    else:
        target.blit(source, (0, 0), area)


def dim(target: pygame.Surface, shade: int) -> None:
    """Darken the whole frame to shade/255 of its light (0 <= shade < 255)."""
    if alike(target, target) and _ways["dim"] == "numkong":
        _banded(functools.partial(_darken, weight=shade / 255), target, target)
    else:
        target.fill((shade, shade, shade), special_flags=pygame.BLEND_RGB_MULT)


def alike(target: pygame.Surface, source: pygame.Surface) -> bool:
    """Whether the two frames are laid out byte for byte alike, the whole of `target` to
    draw: then the work here may be numkong's, on every core."""
    return (target.get_size() == source.get_size()
            and target.get_pitch() == source.get_pitch() == target.get_width() * 4
            and _pixels_alike(target, source))


def _rows(target: pygame.Surface, source: pygame.Surface) -> None:
    """`source` (the size of `target`) copied exactly onto `target`, a band of rows a core."""
    width, height = target.get_size()
    on_every_core([functools.partial(
        pygame.transform.scale, source.subsurface(0, top, width, bottom - top),
        (width, bottom - top), target.subsurface(0, top, width, bottom - top))
        for top, bottom in pairwise(cuts(height)) if bottom > top])


def _copy(source: memoryview, into: memoryview) -> None:
    numkong.scale(source, alpha=1.0, beta=0.0, out=into)  # exact, and without the GIL


def _blend(kept: memoryview, shown: memoryview, weight: float) -> None:
    numkong.blend(kept, shown, alpha=weight, beta=1 - weight, out=shown)


def _darken(frame: memoryview, same: memoryview, weight: float) -> None:
    numkong.scale(frame, alpha=weight, beta=0.0, out=same)


#: numkong's kernel of each operation, on one band (the start-up check times them alone)
KERNELS: dict[str, Work] = {"copy": _copy,
                            "crossfade": functools.partial(_blend, weight=0.5),
                            "dim": functools.partial(_darken, weight=0.5)}


def _pixels_alike(target: pygame.Surface, source: pygame.Surface) -> bool:
    """4 bytes a pixel in both, the same colour masks, and the whole of `target` to draw."""
    return (target.get_bytesize() == source.get_bytesize() == 4
            and target.get_masks()[:3] == source.get_masks()[:3]
            and target.get_clip() == target.get_rect())


def _banded(work: Work, source: pygame.Surface, into: pygame.Surface) -> None:
    """`work` on each band of whole rows of the two frames, a band a core."""
    pitch = into.get_pitch()
    with _pixels(source) as read, _pixels(into) as written:
        on_every_core([functools.partial(_band, work, read, written, top * pitch, bottom * pitch)
                       for top, bottom in pairwise(cuts(into.get_height()))])
    # the surfaces unlock here: each band's views were let go of inside its job, and a helper
    # that holds on to its job a moment longer holds only these two, let go of now


def _band(work: Work, read: memoryview, written: memoryview, start: int, stop: int) -> None:
    with read[start:stop] as source, written[start:stop] as into:
        work(source, into)


def _pixels(surface: pygame.Surface) -> memoryview:
    """The surface's bytes, the surface locked while the view lives."""
    return memoryview(cast("Buffer", surface.get_buffer()))  # a BufferProxy exports its pixels

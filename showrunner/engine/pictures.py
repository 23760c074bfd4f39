"""Full-screen pictures, loaded on a worker thread so the frame loop never waits for one.

Decoding a photo and resizing it for a 4K screen takes about half a second, and the attract loop
may list fifty of them: loaded in the frame loop, they would freeze the screen for as long. Here
a worker loads them while the screen keeps moving, and only the pictures asked for recently are
kept (fifty 4K pictures would need 2 GB).

The worker must not hold Python's lock for long either, or the frame loop waits for it anyway:
pygame holds it for about 20 ms while it allocates a 4K surface and 70 ms while it converts one.
So every step here is one Pillow call, which releases the lock: the pixels are pasted into
anonymous memory, their bytes put into the display's order there, and pygame wraps that memory
without a copy. The wrapped surface has an alpha byte (always opaque): pictures are only ever
scaled into display-format surfaces, which copies the pixels as they are.
"""

from __future__ import annotations

import logging
import mmap
import struct
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Literal

import pygame
from PIL import Image, ImageOps

from showrunner.engine.logonce import warn_once

log = logging.getLogger(__name__)

# what Pillow raises for a missing, unreadable or malformed file: a placeholder, never a crash
IMAGE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, struct.error,
                Image.DecompressionBombError)
KEEP = 6  # pictures kept: the one on screen, the next, and a few to come back to
# a display pixel's byte order, by its red, green and blue masks (little-endian machines)
BYTE_ORDER: dict[tuple[int, ...], Literal["BGRA", "RGBA"]] = {
    (0xFF0000, 0xFF00, 0xFF): "BGRA", (0xFF, 0xFF00, 0xFF0000): "RGBA"}

Key = tuple[Path, tuple[int, int]]


class Pictures:
    """Opaque pictures cropped to fill `size`, loaded in the background, the last KEEP kept.

    Used from the frame loop's thread only; the worker just runs `_load`.
    """

    def __init__(self, resolve: Callable[[str | Path], Path],
                 placeholder: Callable[[tuple[int, int]], Image.Image]) -> None:
        self._resolve = resolve
        self._placeholder = placeholder
        self._loads: OrderedDict[Key, Future[pygame.Surface]] = OrderedDict()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")

    def get(self, name: str | Path, size: tuple[int, int]) -> pygame.Surface | None:
        """The picture if it is loaded; otherwise None, and it is being loaded."""
        key = (self._resolve(name), size)
        load = self._loads.get(key)
        if load is None:
            load = self._worker.submit(self._load, *key)
            self._loads[key] = load
            self._forget_oldest()
        self._loads.move_to_end(key)
        return load.result() if load.done() else None

    def wait(self) -> None:
        """Block until every picture asked for so far is loaded (for headless renders)."""
        wait(list(self._loads.values()))

    def _forget_oldest(self) -> None:
        for key in list(self._loads)[:-KEEP]:
            if self._loads[key].done():
                del self._loads[key]

    def _load(self, path: Path, size: tuple[int, int]) -> pygame.Surface:
        try:
            with Image.open(path) as opened:
                img = ImageOps.fit(opened.convert("RGBA"), size, Image.Resampling.LANCZOS)
        except IMAGE_ERRORS as exc:
            warn_once(log, f"picture:{path}", "image %s unusable (%s); showing a placeholder",
                      path, exc)
            img = self._placeholder(size)
        return _wrap(img)


def _wrap(img: Image.Image) -> pygame.Surface:
    """`img` (RGBA) as a surface with the display's byte order, made without pygame's help."""
    display = pygame.display.get_surface()
    order = BYTE_ORDER.get(display.get_masks()[:3]) if display is not None else None
    if order is None:  # no display, or an unusual one: the ordinary way, with its pause
        surface = pygame.image.frombytes(img.tobytes(), img.size, "RGBA")
        return surface.convert() if display is not None else surface
    pixels = mmap.mmap(-1, img.width * img.height * 4)
    # Pillow takes any buffer here (its docs say so); its hint names only bytes and bytearray
    shared = Image.frombuffer("RGBA", img.size, pixels, "raw", "RGBA", 0, 1)  # type: ignore[arg-type]
    # frombuffer marks the image read-only, and paste would then write to a copy; this memory
    # is ours, so let paste write into it (python-pillow/Pillow#6768)
    shared.readonly = 0
    shared.paste(img)
    if order != "RGBA":  # the same bytes read in the display's order, pasted back
        shared.paste(Image.frombuffer("RGBA", img.size, pixels, "raw", order, 0, 1))  # type: ignore[arg-type]
    return pygame.image.frombuffer(pixels, img.size, order)

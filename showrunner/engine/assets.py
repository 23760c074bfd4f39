"""Images loaded once with Pillow, scaled once to the size they are shown at on this screen.

A missing or corrupt file becomes a tidy placeholder and one warning: a typo in a playlist must
not put a stack trace on a casino floor.
"""

from __future__ import annotations

import logging
from functools import partial
from pathlib import Path

import pygame
from PIL import Image, ImageDraw, ImageOps

from showrunner.engine.logonce import warn_once
from showrunner.engine.pictures import IMAGE_ERRORS, Pictures

log = logging.getLogger(__name__)

PLACEHOLDER_BG = (24, 28, 56)
PLACEHOLDER_STRIPE = (36, 42, 80)


class AssetManager:
    def __init__(self, base_dir: Path | None = None) -> None:
        self.base_dir = base_dir
        self._images: dict[tuple[str, tuple[int, int], str], pygame.Surface] = {}
        #: full-screen pictures, loaded in the background (see pictures.py); given a plain
        #: function, not a bound method, so the two never form a reference cycle
        self.pictures = Pictures(partial(resolve, base_dir), placeholder_image)

    def path(self, name: str | Path) -> Path:
        """Where the file `name` is: the attract loop's pictures and the video scene's clips
        are found the same way."""
        return resolve(self.base_dir, name)

    def image(self, name: str | Path, size: tuple[int, int], fit: str = "cover") -> pygame.Surface:
        """The image at real pixel `size`; `fit` is "cover" (crop to fill) or "contain"."""
        path = resolve(self.base_dir, name)
        key = (str(path), size, fit)
        found = self._images.get(key)
        if found is None:
            found = self._load(path, size, fit)
            self._images[key] = found
        return found

    def _load(self, path: Path, size: tuple[int, int], fit: str) -> pygame.Surface:
        try:
            with Image.open(path) as opened:
                img = opened.convert("RGBA")
                if fit == "contain":
                    img = ImageOps.contain(img, size, Image.Resampling.LANCZOS)
                else:
                    img = ImageOps.fit(img, size, Image.Resampling.LANCZOS)
        except IMAGE_ERRORS as exc:
            warn_once(log, f"image:{path}", "image %s unusable (%s); showing a placeholder",
                      path, exc)
            img = placeholder_image(size)
        surface = pygame.image.frombytes(img.tobytes(), img.size, "RGBA")
        return surface.convert_alpha() if pygame.display.get_surface() else surface


def resolve(base_dir: Path | None, name: str | Path) -> Path:
    """`name` as a path: relative ones are under `base_dir` when there is one."""
    path = Path(name)
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    return path


def placeholder_image(size: tuple[int, int]) -> Image.Image:
    """Quiet diagonal stripes: clearly 'no picture', never alarming to a guest."""
    image = Image.new("RGBA", size, PLACEHOLDER_BG)
    draw = ImageDraw.Draw(image)
    w, h = size
    step = max(24, min(w, h) // 8)
    for start in range(-h, w, step):
        draw.line([(start, h), (start + h, 0)], fill=PLACEHOLDER_STRIPE, width=max(2, step // 4))
    return image

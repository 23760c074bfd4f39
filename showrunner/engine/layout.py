"""Logical layout space (1920x1080 landscape, 1080x1920 portrait) mapped onto the real screen.

Scenes place things in logical pixels and ask the layout for real pixels, so one design serves
1080p, 4K and odd sizes (a uniform scale, centred, never stretched). Text is rendered at the
real size, so it stays crisp at 4K.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

LANDSCAPE = (1920, 1080)
PORTRAIT = (1080, 1920)
SAFE_MARGIN = 64  # logical px kept clear at every edge (TV overscan, bezels)


@dataclass(frozen=True)
class Layout:
    real: tuple[int, int]

    @property
    def portrait(self) -> bool:
        return self.real[1] > self.real[0]

    @property
    def logical(self) -> tuple[int, int]:
        return PORTRAIT if self.portrait else LANDSCAPE

    @property
    def scale(self) -> float:
        lw, lh = self.logical
        return min(self.real[0] / lw, self.real[1] / lh)

    @property
    def offset(self) -> tuple[int, int]:
        lw, lh = self.logical
        return (round((self.real[0] - lw * self.scale) / 2),
                round((self.real[1] - lh * self.scale) / 2))

    @property
    def width(self) -> int:
        return self.logical[0]

    @property
    def height(self) -> int:
        return self.logical[1]

    def px(self, value: float) -> int:
        """A logical length in real pixels (at least 1 for a positive length)."""
        n = round(value * self.scale)
        return max(n, 1) if value > 0 else n

    def x(self, value: float) -> int:
        return self.offset[0] + round(value * self.scale)

    def y(self, value: float) -> int:
        return self.offset[1] + round(value * self.scale)

    def point(self, x: float, y: float) -> tuple[int, int]:
        return self.x(x), self.y(y)

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        left, top = self.x(x), self.y(y)
        return pygame.Rect(left, top, self.x(x + w) - left, self.y(y + h) - top)

    def safe(self, margin: float = SAFE_MARGIN) -> tuple[float, float, float, float]:
        """The logical safe area (x, y, w, h) inside the margins."""
        return margin, margin, self.width - 2 * margin, self.height - 2 * margin


def parse_size(text: str) -> tuple[int, int]:
    """'1920x1080' -> (1920, 1080); raises ValueError with a readable message."""
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"size must look like 1920x1080, not {text!r}") from None
    if not (16 <= w <= 16384 and 16 <= h <= 16384):
        raise ValueError(f"size {text!r} is out of range")
    return w, h

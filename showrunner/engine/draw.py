"""Drawing primitives shared by scenes: backdrop, panels, the countdown ring, clock text."""

from __future__ import annotations

import math

import pygame

from showrunner.engine.theme import Colour


def gradient_column(height: int, top: Colour, bottom: Colour) -> pygame.Surface:
    """A vertical gradient one pixel wide: scaled sideways, any strip of the full-screen one."""
    column = pygame.Surface((1, max(height, 1)))
    for y in range(height):
        t = y / max(height - 1, 1)
        column.set_at((0, y), tuple(round(a + (b - a) * t) for a, b in zip(top, bottom,
                                                                          strict=True)))
    return column


def panel(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, radius: int,
          alpha: int = 255) -> None:
    """A rounded rectangle, optionally translucent."""
    if alpha >= 255:
        pygame.draw.rect(surface, colour, rect, border_radius=radius)
        return
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(layer, (*colour, alpha), layer.get_rect(), border_radius=radius)
    surface.blit(layer, rect.topleft)


def ring(surface: pygame.Surface, centre: tuple[int, int], radius: int, width: int,
         fraction: float, colour: Colour, segments: int = 120) -> None:
    """An arc from 12 o'clock clockwise covering `fraction` of the circle, as one polygon."""
    fraction = max(0.0, min(1.0, fraction))
    if fraction <= 0:
        return
    steps = max(2, round(segments * fraction))
    outer, inner = [], []
    cx, cy = centre
    for i in range(steps + 1):
        angle = -math.pi / 2 + 2 * math.pi * fraction * i / steps
        c, s = math.cos(angle), math.sin(angle)
        outer.append((cx + radius * c, cy + radius * s))
        inner.append((cx + (radius - width) * c, cy + (radius - width) * s))
    pygame.draw.polygon(surface, colour, outer + inner[::-1])


def arrow(surface: pygame.Surface, centre: tuple[int, int], size: int, up: bool,
          colour: Colour) -> None:
    """A filled triangle (the fonts have no arrow glyphs)."""
    cx, cy = centre
    half = size // 2
    points = ([(cx, cy - half), (cx + half, cy + half), (cx - half, cy + half)] if up else
              [(cx, cy + half), (cx + half, cy - half), (cx - half, cy - half)])
    pygame.draw.polygon(surface, colour, points)


def clock_text(seconds_left: float) -> str:
    """Countdown text: whole seconds rounded up ("1:30", "0:05", "12:34", "1:02:03")."""
    total = max(0, math.ceil(seconds_left - 1e-9))
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def blit_centered(surface: pygame.Surface, image: pygame.Surface, centre: tuple[int, int]
                  ) -> None:
    surface.blit(image, image.get_rect(center=centre))


#: colour keys tried in turn: one the picture does not use marks its see-through pixels
KEYS = ((255, 0, 255), (0, 255, 1), (1, 0, 254), (254, 1, 0))


def cut_out(picture: pygame.Surface) -> pygame.Surface:
    """`picture` (per-pixel alpha, every pixel either see-through or opaque: a rounded panel,
    a ring without anti-aliasing) as an opaque surface of the screen's format with a colour
    key, run-length encoded: SDL's blit of it copies the opaque runs and skips the rest,
    where an alpha blit blends every pixel (4 times as long on a CPU without AVX2). A
    picture with partly see-through pixels, or using every key colour, is given back as it
    is."""
    size = picture.get_size()
    solid = pygame.mask.from_surface(picture, 254).count()
    if pygame.mask.from_surface(picture, 0).count() != solid:
        return picture  # an edge blended with what is behind it: it needs its alpha
    screen = pygame.display.get_surface()
    see_through = size[0] * size[1] - solid
    for key in KEYS:
        out = pygame.Surface(size, 0, screen if screen is not None else 32)
        out.fill(key)
        out.blit(picture, (0, 0))
        if pygame.mask.from_threshold(out, key, (1, 1, 1, 255)).count() == see_through:
            out.set_colorkey(key, pygame.RLEACCEL)
            return out
    return picture

"""The countdown ring shared by the Wild Card draw, the claim countdown and roulette betting.

Drawn every frame from `deadline - now` on the show clock, so all screens show the same second.
The ring turns amber, then red, as time runs out.
"""

from __future__ import annotations

import pygame

from showrunner.engine.draw import clock_text, cut_out, ring
from showrunner.engine.scene import SceneContext

AMBER_AT = 30.0  # seconds left
RED_AT = 10.0


_bases: dict[tuple[int, int, tuple[int, int, int]], pygame.Surface] = {}


def _base(radius: int, width: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """The ring's empty track, drawn once per size (a thick circle is slow to draw at 4K)."""
    key = (radius, width, colour)
    found = _bases.get(key)
    if found is None:
        if len(_bases) > 8:
            _bases.clear()
        track = pygame.Surface((radius * 2 + 2, radius * 2 + 2), pygame.SRCALPHA)
        pygame.draw.circle(track, colour, (radius + 1, radius + 1), radius, width)
        found = _bases[key] = cut_out(track)  # blitted every frame: copied, not blended
    return found


def ring_colour(ctx: SceneContext, seconds_left: float) -> tuple[int, int, int]:
    if seconds_left <= RED_AT:
        return ctx.theme.colour("red")
    if seconds_left <= AMBER_AT:
        return ctx.theme.colour("amber")
    return ctx.theme.colour("accent")


def ring_box(ctx: SceneContext, centre: tuple[float, float], radius: float) -> pygame.Rect:
    """The screen rectangle the ring at logical `centre` draws in, digits and caption too:
    all a countdown changes from one second to the next."""
    box = ctx.layout.rect(centre[0] - radius, centre[1] - radius, 2 * radius, 2 * radius)
    return box.inflate(4, 4)


def draw_ring(ctx: SceneContext, surface: pygame.Surface, centre: tuple[float, float],
              radius: float, seconds_left: float, total: float, caption: str = "") -> None:
    """Ring at logical `centre` with the remaining time in its middle and a caption under it."""
    lay, theme, text = ctx.layout, ctx.theme, ctx.text
    c = lay.point(*centre)
    left = max(0.0, seconds_left)
    colour = ring_colour(ctx, left)
    width = lay.px(radius * 0.14)
    base = _base(lay.px(radius), width, theme.colour("panel_alt"))
    surface.blit(base, base.get_rect(center=c))
    ring(surface, c, lay.px(radius), width, left / total if total > 0 else 0.0, colour)
    digits = text.render(clock_text(left), "display", radius * 0.75, colour)
    surface.blit(digits, digits.get_rect(center=(c[0], c[1] + lay.px(radius * 0.04))))
    if caption:
        cap = text.fit(caption, "body", max(20.0, radius * 0.13), theme.colour("muted"),
                       radius * 1.3, min_size=16)
        surface.blit(cap, cap.get_rect(center=(c[0], c[1] + lay.px(radius * 0.5))))

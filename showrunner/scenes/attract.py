"""Attract loop: full-screen images with a slow pan and zoom, dipping from one to the next.

Images come from the `images` parameter (comma-separated paths) or the "attract" view's
{"images": [...]}. Each image is scaled once (by the asset manager) to 112% of the screen;
the zoom is a fast nearest-neighbour scale of a shrinking window, the pan moves that window.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pygame

from showrunner.engine.easing import in_out_sine
from showrunner.engine.scene import Scene
from showrunner.scenes.common import backdrop

OVERSCAN = 1.12
FADE = 1.0
DIP_FLOOR = 0.35  # the darkest point between two images: dim, never a black frame


class Attract(Scene):
    name = "attract"
    default_view = "attract"
    params: ClassVar[dict[str, Any]] = {"images": [], "seconds": 8.0}

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        listed = doc.get("images")
        names = self.p["images"] or ([str(n) for n in listed] if isinstance(listed, list)
                                     else [])
        w, h = self.ctx.layout.real
        big = (round(w * OVERSCAN), round(h * OVERSCAN))
        self.images = [self.ctx.assets.image(n, big).convert() for n in names[:50]]
        self.frame = pygame.Surface((w, h)).convert()
        self.fading = pygame.Surface((w, h)).convert()
        self.incoming = pygame.Surface((w, h)).convert()
        self.faded_index = -1

    def _view_of(self, index: int, t: float, target: pygame.Surface) -> None:
        """Image `index` at `t` s into its slot: window shrinks (zoom in) while it pans."""
        image = self.images[index % len(self.images)]
        span = max(self.p["seconds"], 1.0)
        u = in_out_sine(min(max(t / (span + FADE), 0.0), 1.0))
        w, h = target.get_size()
        zoom = 1.0 + 0.06 * u
        win_w, win_h = round(w / zoom), round(h / zoom)
        slack_x, slack_y = image.get_width() - win_w, image.get_height() - win_h
        direction = 1 if index % 2 == 0 else -1
        px = slack_x * (0.5 + direction * (u - 0.5) * 0.9)
        py = slack_y * (0.5 + direction * (0.5 - u) * 0.6)
        window = image.subsurface(pygame.Rect(round(px), round(py), win_w, win_h))
        if window.get_size() == (w, h):
            target.blit(window, (0, 0))
        else:
            pygame.transform.scale(window, (w, h), target)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.images:
            surface.blit(backdrop(self.ctx), (0, 0))
            return
        span = max(self.p["seconds"], 1.0)
        index, t = int(self.elapsed // span), self.elapsed % span
        if t >= FADE or self.elapsed < span or len(self.images) < 2:
            self._view_of(index, t + FADE, surface)
            return
        # Between images the picture dips (never to black) and comes back: the outgoing image
        # dims, then the incoming one brightens, both holding still. One blit and one multiply
        # per frame: a true crossfade's surface-alpha blit costs more than a 4K frame allows.
        if self.faded_index != index:
            self._view_of(index, 2 * FADE, self.incoming)
            self._view_of(index - 1, span + FADE, self.fading)
            self.faded_index = index
        half = FADE / 2
        if t < half:
            surface.blit(self.fading, (0, 0))
            level = 1 - (1 - DIP_FLOOR) * t / half
        else:
            surface.blit(self.incoming, (0, 0))
            level = DIP_FLOOR + (1 - DIP_FLOOR) * (t - half) / half
        shade = round(255 * level)
        if shade < 255:
            surface.fill((shade, shade, shade), special_flags=pygame.BLEND_RGB_MULT)

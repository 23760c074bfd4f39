"""Roulette betting countdown: 120 s to place bets (Spin-Off rule 7), +30 s after a "no spin"
(rule 25). The controller moves the deadline; the screen draws from it every frame.

View "roulette": {"title", "subtitle", "spin", "spins", "betting_opened_at",
"betting_closes_at", "no_spin"} (times are UTC epoch ms).
"""

from __future__ import annotations

from typing import Any, ClassVar

import pygame

from showrunner.engine import viewdata as vd
from showrunner.engine.draw import panel
from showrunner.engine.scene import Scene
from showrunner.scenes.common import centred_message, content_top, static_layer
from showrunner.scenes.countdown import draw_ring

BETTING_SECONDS = 120.0  # rule 7
NO_SPIN_EXTRA = 30.0  # rule 25


class RouletteCountdown(Scene):
    name = "roulette_countdown"
    default_view = "roulette"
    params: ClassVar[dict[str, Any]] = {"betting_seconds": BETTING_SECONDS}

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        self.closes = vd.optional_int(doc, "betting_closes_at", where)
        opened = vd.optional_int(doc, "betting_opened_at", where)
        self.total = self.p["betting_seconds"]
        if opened is not None and self.closes is not None and self.closes > opened:
            self.total = (self.closes - opened) / 1000
        spin, spins = vd.integer(doc, "spin", 0, where), vd.integer(doc, "spins", 0, where)
        right = f"Spin {spin} of {spins}" if spin and spins else ""
        self.static = static_layer(self.ctx, vd.text(doc, "title", "Roulette", where),
                                   vd.text(doc, "subtitle", "", where), right)
        if vd.flag(doc, "no_spin"):
            tag = text.render(f"NO SPIN  +{NO_SPIN_EXTRA:.0f} S TO CHANGE BETS", "display", 56,
                              theme.colour("background_top"))
            r = tag.get_rect().inflate(lay.px(40), lay.px(12))
            r.center = lay.point(lay.width / 2, content_top() + 50)
            panel(self.static, r, theme.colour("amber"), lay.px(14))
            self.static.blit(tag, tag.get_rect(center=r.center))

    def draw(self, surface: pygame.Surface) -> None:
        lay = self.ctx.layout
        surface.blit(self.static, (0, 0))
        cy = (content_top() + 90 + lay.height - 64) / 2
        if self.closes is None:
            centred_message(self.ctx, surface, "Place your bets", cy, size=120, role="display")
            return
        left = (self.closes - self.now_ms()) / 1000
        if left <= 0:
            centred_message(self.ctx, surface, "NO MORE BETS", cy, size=200, role="display",
                            colour="red")
            return
        radius = min(340.0, (lay.height - 64 - content_top() - 100) / 2 - 10,
                     lay.width / 2 - 100)
        draw_ring(self.ctx, surface, (lay.width / 2, cy), radius, left, self.total,
                  "to place your bets")

"""Roulette betting countdown: 120 s to place bets (Spin-Off rule 7), +30 s after a "no spin"
(rule 25). The controller moves the deadline; the screen draws from it every frame.

View "spins:roulette" (docs/scenes.md; controller/promotions/roulette/views.py): {"title", "heats":
[{"stage", "heat", "title", "subtitle", "spin", "spins", "betting", "betting_opened_at",
"betting_closes_at", "no_spin", "bets_closed", "number", "colour"}]} (times are UTC epoch ms).
The scene shows the heat named by its `heat` parameter, or the first listed (the controller
lists heats taking bets first). When the wheel's reader says "no more bets" (`bets_closed`) the
countdown stops at once; between spins the number the last spin landed on is shown in its
pocket's colour.
"""

from __future__ import annotations

from typing import Any

import pygame

from showrunner.contract.wheel import colour
from showrunner.engine import viewdata as vd
from showrunner.engine.draw import panel
from showrunner.engine.scene import Scene, next_second_ms
from showrunner.scenes.common import centred_message, content_top, static_layer
from showrunner.scenes.countdown import draw_ring, ring_box
from showrunner.scenes.super9_board import POCKET_COLOURS

NO_SPIN_EXTRA = 30.0  # rule 25
FIELDS = ("stage", "heat", "title", "spin", "spins", "betting_opened_at", "betting_closes_at",
          "no_spin")


class RouletteCountdown(Scene):
    name = "roulette_countdown"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        vd.expect(doc, ("title", "heats"), where)
        heats = vd.items(doc, "heats", where)
        chosen = [h for h in heats if not self.p["heat"] or h.get("heat") == self.p["heat"]]
        if chosen:
            vd.expect(chosen[0], FIELDS, where + ".heats")
        self._show(chosen[0] if chosen else {"title": doc.get("title")}, where)

    def _show(self, doc: dict[str, Any], where: str) -> None:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        self.closes = vd.optional_int(doc, "betting_closes_at", where)
        opened = vd.optional_int(doc, "betting_opened_at", where)
        self.total = self.p["betting_seconds"]
        if opened is not None and self.closes is not None and self.closes > opened:
            self.total = (self.closes - opened) / 1000
        # the wheel's marks (views of older controllers lack them: no mark)
        self.bets_closed = vd.flag(doc, "bets_closed")
        number = vd.optional_int(doc, "number", where)
        self.number = number if number is not None and 0 <= number <= 36 else None
        self.pocket = POCKET_COLOURS[vd.choice(doc, "colour", tuple(POCKET_COLOURS),
                                               colour(self.number), where)] \
            if self.number is not None else "ok"
        spin, spins = vd.integer(doc, "spin", 0, where), vd.integer(doc, "spins", 0, where)
        right = f"Spin {spin} of {spins}" if spin and spins else ""
        s = self.static = static_layer(self.ctx, vd.text(doc, "title", "Roulette", where),
                                       vd.text(doc, "subtitle", "", where), right,
                                       into=self.static)
        if vd.flag(doc, "no_spin"):
            tag = text.render(f"NO SPIN  +{NO_SPIN_EXTRA:.0f} S TO CHANGE BETS", "display", 56,
                              theme.colour("background_top"))
            r = tag.get_rect().inflate(lay.px(40), lay.px(12))
            r.center = lay.point(lay.width / 2, content_top() + 50)
            panel(s, r, theme.colour("amber"), lay.px(14))
            s.blit(tag, tag.get_rect(center=r.center))

    def next_change_ms(self, now_ms: int) -> int | None:
        if self.bets_closed:
            return None  # the countdown has stopped
        return next_second_ms(now_ms, self.closes)  # the ring and digits move once a second

    def moving_rects(self) -> list[pygame.Rect] | None:
        if self.bets_closed or self.closes is None or self.closes <= self.now_ms():
            return None  # NO MORE BETS replaces the ring: drawn whole
        return [ring_box(self.ctx, *self._ring())]

    def _ring(self) -> tuple[tuple[float, float], float]:
        """The ring's centre and radius (logical)."""
        lay = self.ctx.layout
        cy = (content_top() + 90 + lay.height - 64) / 2
        radius = min(340.0, (lay.height - 64 - content_top() - 100) / 2 - 10,
                     lay.width / 2 - 100)
        return (lay.width / 2, cy), radius

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_layer(surface)
        (cx, cy), radius = self._ring()
        if self.bets_closed:
            centred_message(self.ctx, surface, "NO MORE BETS", cy, size=200, role="display",
                            colour="red")
            return
        if self.closes is None and self.number is not None:
            self._number(surface, (cx, cy), radius)
            return
        if self.closes is None:
            centred_message(self.ctx, surface, "Place your bets", cy, size=120, role="display")
            return
        left = (self.closes - self.now_ms()) / 1000
        if left <= 0:
            centred_message(self.ctx, surface, "NO MORE BETS", cy, size=200, role="display",
                            colour="red")
            return
        draw_ring(self.ctx, surface, (cx, cy), radius, left, self.total,
                  "to place your bets")

    def _number(self, surface: pygame.Surface, centre: tuple[float, float],
                radius: float) -> None:
        """The number the last spin landed on, big on a disc of its pocket's colour."""
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        r = radius * 0.78
        c = lay.point(centre[0], centre[1] - radius * 0.12)
        pygame.draw.circle(surface, theme.colour("accent"), c, lay.px(r + 12))
        pygame.draw.circle(surface, theme.colour(self.pocket), c, lay.px(r))
        num = text.render(str(self.number), "display", r * 1.1, theme.colour("text"))
        surface.blit(num, num.get_rect(center=(c[0], c[1] + lay.px(r * 0.04))))
        centred_message(self.ctx, surface, "Last spin", centre[1] + radius * 0.86, size=48)

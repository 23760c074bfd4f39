"""Claim countdown on its own (rule 39: 90 s to present yourself), for screens near the stage.

Reads the same "wildcard" view as the draw: winner and claim_deadline (UTC epoch ms).
"""

from __future__ import annotations

from typing import Any, ClassVar

import pygame

from showrunner.engine import viewdata as vd
from showrunner.engine.scene import Scene
from showrunner.scenes.common import centred_message, static_layer
from showrunner.scenes.countdown import draw_ring
from showrunner.scenes.wildcard_draw import CLAIM_SECONDS

OUTCOMES = {"claimed": ("CLAIMED", "ok"), "redraw": ("NOT CLAIMED – REDRAW", "red"),
            "absent": ("REGISTERED AS NOT PRESENT", "highlight")}


class ClaimCountdown(Scene):
    name = "claim_countdown"
    default_view = "wildcard"
    params: ClassVar[dict[str, Any]] = {"claim_seconds": CLAIM_SECONDS,
                                        "caption": "to claim at the stage"}

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        winner = vd.mapping(doc, "winner", where)
        self.deadline = vd.optional_int(doc, "claim_deadline", where)
        self.phase = vd.text(doc, "phase", "", where)
        lay, theme = self.ctx.layout, self.ctx.theme
        self.static = static_layer(self.ctx, vd.text(doc, "title", "Wild Card Draw", where),
                                   vd.text(doc, "subtitle", "", where))
        name = self.ctx.text.fit(vd.text(winner, "name", "", where), "bold", 96,
                                 theme.colour("text"), lay.width - 200, min_size=48)
        self.static.blit(name, name.get_rect(center=lay.point(lay.width / 2, self._name_y())))

    def _name_y(self) -> float:
        return 330.0 if not self.ctx.layout.portrait else 420.0

    def draw(self, surface: pygame.Surface) -> None:
        lay = self.ctx.layout
        surface.blit(self.static, (0, 0))
        cy = (lay.height + self._name_y()) / 2 + 40
        if self.phase in OUTCOMES:
            label, colour = OUTCOMES[self.phase]
            centred_message(self.ctx, surface, label, cy, size=140, role="display",
                            colour=colour)
            return
        if self.deadline is None:
            centred_message(self.ctx, surface, "Waiting for the draw", cy)
            return
        left = (self.deadline - self.now_ms()) / 1000
        radius = min(300.0, (lay.height - self._name_y()) / 2 - 120)
        draw_ring(self.ctx, surface, (lay.width / 2, cy), radius, left,
                  self.p["claim_seconds"], self.p["caption"])

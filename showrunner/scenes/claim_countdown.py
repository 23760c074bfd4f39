"""Claim countdown on its own (rule 39: 90 s to present yourself), for screens near the stage.

Reads the same "draw:wildcard" view as the draw (docs/scenes.md): `phase`, `winner`,
`reveal_at`, `claim_deadline` (UTC epoch ms), `finalist` and `redraws`. The winner's name is
held back until `reveal_at`, like on the draw screen.
"""

from __future__ import annotations

from typing import Any

import pygame

from showrunner.engine import viewdata as vd
from showrunner.engine.scene import Scene, next_second_ms
from showrunner.scenes.common import centred_message, static_layer
from showrunner.scenes.countdown import draw_ring
from showrunner.scenes.wildcard_draw import PHASES

FIELDS = ("title", "phase", "winner", "finalist", "redraws", "reveal_at", "claim_deadline")


class ClaimCountdown(Scene):
    name = "claim_countdown"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        vd.expect(doc, FIELDS, where)
        winner = vd.mapping(doc, "winner", where)
        vd.expect(winner, ("name", "in_register"), where + ".winner")
        self.deadline = vd.optional_int(doc, "claim_deadline", where)
        self.reveal_at = vd.optional_int(doc, "reveal_at", where)
        self.phase = vd.choice(doc, "phase", PHASES, "entries", where)
        self.in_register = vd.flag(winner, "in_register")
        self.present = vd.flag(vd.mapping(doc, "finalist", where), "present", True)
        redraws = vd.items(doc, "redraws", where)
        shown = vd.text(winner, "name", "", where)
        self.outcome: tuple[str, str] | None = None
        if self.phase == "finalist":
            self.outcome = (("CLAIMED", "ok") if self.present
                            else ("REGISTERED AS NOT PRESENT", "highlight"))
        elif self.phase == "frozen" and redraws:
            shown = vd.text(redraws[-1], "name", "", where)
            self.outcome = ("NOT CLAIMED – REDRAW", "red")
        elif self.phase == "claim" and self.in_register:
            self.outcome = ("IN THE DECLINE-TO-ATTEND REGISTER", "highlight")
        lay, theme = self.ctx.layout, self.ctx.theme
        self.static = static_layer(self.ctx, vd.text(doc, "title", "Wild Card Draw", where),
                                   vd.text(doc, "subtitle", "", where), into=self.static)
        self.name_img = self.ctx.text.fit(shown, "bold", 96, theme.colour("text"),
                                          lay.width - 200, min_size=48)

    def _name_y(self) -> float:
        return 330.0 if not self.ctx.layout.portrait else 420.0

    def next_change_ms(self, now_ms: int) -> int | None:
        if self.phase == "claim" and self.reveal_at is not None and now_ms < self.reveal_at:
            return self.reveal_at
        if self.phase == "claim" and self.outcome is None:
            return next_second_ms(now_ms, self.deadline)  # the ring moves once a second
        return None

    def draw(self, surface: pygame.Surface) -> None:
        lay = self.ctx.layout
        self.draw_layer(surface)
        now = self.now_ms()
        revealed = self.phase not in ("drawing", "claim") or (
            self.phase == "claim" and self.reveal_at is not None and now >= self.reveal_at)
        cy = (lay.height + self._name_y()) / 2 + 40
        if not revealed:
            centred_message(self.ctx, surface, "The draw is on", cy)
            return
        centre = lay.point(lay.width / 2, self._name_y())
        surface.blit(self.name_img, self.name_img.get_rect(center=centre))
        if self.outcome is not None:
            label, colour = self.outcome
            centred_message(self.ctx, surface, label, cy, size=140, role="display",
                            colour=colour)
            return
        if self.phase != "claim" or self.deadline is None:
            centred_message(self.ctx, surface, "Waiting for the draw", cy)
            return
        left = (self.deadline - now) / 1000
        radius = min(300.0, (lay.height - self._name_y()) / 2 - 120)
        draw_ring(self.ctx, surface, (lay.width / 2, cy), radius, left,
                  self.p["claim_seconds"], self.p["caption"])

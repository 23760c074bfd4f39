"""Announcement: a title and a body, auto-fitted to the screen.

Its text comes from the `title` and `body` parameters (a playlist item or a takeover carries
it); with a `view` parameter, that view's {"title", "body"} wins.
"""

from __future__ import annotations

from typing import Any

import pygame

from showrunner.engine import viewdata as vd
from showrunner.engine.easing import clamp01, out_cubic
from showrunner.engine.scene import Scene
from showrunner.engine.text import ELLIPSIS, wrap
from showrunner.scenes.common import backdrop_layer

SIZES = (96, 84, 72, 64, 56, 48)
RISE_SECONDS = 0.7


class Announcement(Scene):
    name = "announcement"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        title = vd.text(doc, "title", self.p["title"], where)
        given = doc.get("body")
        body = given if isinstance(given, str) else self.p["body"]
        self.static = backdrop_layer(self.ctx, into=self.static)
        _x, y, w, h = lay.safe(120)
        t = text.fit(title.upper(), "display", 180, theme.colour("accent"), w, min_size=90)
        title_h = t.get_height() / lay.scale
        self.title_img = t
        self.title_y = y + 40
        max_lines_h = h - title_h - 120
        lines: list[str] = []
        size = SIZES[-1]
        for size in SIZES:
            font = text.fonts.get("bold", size)
            lines = wrap(font, body[:2000], lay.px(w))
            if len(lines) * font.get_linesize() <= lay.px(max_lines_h):
                break
        font = text.fonts.get("bold", size)
        fit = max(1, int(lay.px(max_lines_h) // font.get_linesize()))
        if len(lines) > fit:
            lines = [*lines[:fit - 1], lines[fit - 1] + ELLIPSIS]
        self.body = [text.render(line, "bold", size, theme.colour("text")) for line in lines]
        self.line_h = font.get_linesize()
        self.body_y = lay.y(self.title_y + title_h + 60)
        self.settled = False  # the text is on the static layer

    def next_change_ms(self, now_ms: int) -> int | None:
        return None if self.settled else now_ms

    def draw(self, surface: pygame.Surface) -> None:
        rise = (1 - out_cubic(clamp01(self.elapsed / RISE_SECONDS))) * 80
        if rise == 0:  # settled: the text joins the layer, one blit from now on
            if not self.settled:
                self._compose(self.layer, 0.0)
                self.settled = True
            self.draw_layer(surface)
            return
        self.draw_layer(surface)
        self._compose(surface, rise)

    def _compose(self, surface: pygame.Surface, rise: float) -> None:
        lay = self.ctx.layout
        cx = lay.x(lay.width / 2)
        surface.blit(self.title_img, self.title_img.get_rect(
            midtop=(cx, lay.y(self.title_y + rise))))
        top = self.body_y + lay.px(rise * 1.5)
        for i, line in enumerate(self.body):
            surface.blit(line, line.get_rect(midtop=(cx, top + i * self.line_h)))

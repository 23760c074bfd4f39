"""Prize table: places and amounts, e.g. the Spin-Off's 50/20/15/10/5 split (rule 27).

View "prizes:<promotion>" (docs/scenes.md; controller/promotions/tournament/views.py): {"title",
"subtitle", "pool", "places": [{"place", "percent", "amount", "name"}]} (cents; `name` is null
until the place is decided).
"""

from __future__ import annotations

from typing import Any

import pygame

from showrunner.contract.money import format_zar
from showrunner.engine import viewdata as vd
from showrunner.engine.draw import panel
from showrunner.engine.easing import clamp01, out_cubic
from showrunner.engine.scene import Scene
from showrunner.scenes.common import backdrop_strip, centred_message, content_top, static_layer

MAX_PRIZES = 10
STAGGER = 0.08  # s between rows sliding in
SLIDE = 0.6  # s one row takes to slide in
FIELDS = ("place", "percent", "amount", "name")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class PrizeTable(Scene):
    name = "prize_table"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        vd.expect(doc, ("title", "pool", "places"), where)
        pool = vd.integer(doc, "pool", 0, where)
        self.static = static_layer(self.ctx, vd.text(doc, "title", "Prizes", where),
                                   vd.text(doc, "subtitle", "", where),
                                   f"Prize pool {format_zar(pool)}" if pool else "",
                                   into=self.static)
        prizes = vd.items(doc, "places", where, limit=MAX_PRIZES)
        _x, _, w, _ = lay.safe()
        top = content_top() + 10
        self.row_h = min(150.0, (lay.height - 64 - top) / max(len(prizes), 1))
        self.top = top
        self.rows = []
        self.settled = False
        for i, p in enumerate(prizes):
            h = self.row_h - 14
            # drawn onto the backdrop behind its place, so the row is opaque, as the
            # leaderboard's: a 4K frame of rows sliding in took 16 ms blended on a CPU without
            # AVX2; the backdrop is a vertical gradient, the same behind the corners as it slides
            surf = backdrop_strip(self.ctx, (lay.px(w), lay.px(h)),
                                  lay.y(self.top + i * self.row_h))
            panel(surf, surf.get_rect(), theme.colour("panel" if i % 2 else "panel_alt"),
                  lay.px(18))
            mid = surf.get_height() // 2
            vd.expect(p, FIELDS, where + ".places")
            place = text.fit(ordinal(vd.integer(p, "place", i + 1, where)), "display", h * 0.7,
                             theme.colour("accent" if i == 0 else "text"), 220)
            surf.blit(place, (lay.px(30), mid - place.get_height() // 2))
            amount = text.fit(format_zar(vd.integer(p, "amount", 0, where)), "display",
                              h * 0.78, theme.colour("accent"), w * 0.45)
            surf.blit(amount, (surf.get_width() - amount.get_width() - lay.px(30),
                               mid - amount.get_height() // 2))
            percent = vd.optional_int(p, "percent", where)
            share = f"{percent}% of the pool" if percent is not None else ""
            label = " · ".join(v for v in (vd.text(p, "name", "", where), share) if v)
            if label:
                lab = text.fit(label, "bold", h * 0.36, theme.colour("muted"),
                               w - 300 - amount.get_width() / lay.scale - 60)
                surf.blit(lab, (lay.px(270), mid - lab.get_height() // 2))
            self.rows.append(surf)

    def next_change_ms(self, now_ms: int) -> int | None:
        return now_ms if self.rows else None  # the rows slide in, then join the static layer

    def draw(self, surface: pygame.Surface) -> None:
        lay = self.ctx.layout
        x = lay.safe()[0]
        if self.rows and self.elapsed >= (len(self.rows) - 1) * STAGGER + SLIDE:
            # the rows are in place: they join the static layer, and a frame is one blit
            for i, row in enumerate(self.rows):
                self.layer.blit(row, lay.point(x, self.top + i * self.row_h))
            self.rows, self.settled = [], True
        self.draw_layer(surface)
        if not self.rows and not self.settled:
            centred_message(self.ctx, surface, "Prizes to be announced", lay.height / 2 + 60)
            return
        for i, row in enumerate(self.rows):
            slide = (1 - out_cubic(clamp01((self.elapsed - i * STAGGER) / SLIDE))) * lay.width
            surface.blit(row, lay.point(x + slide, self.top + i * self.row_h))

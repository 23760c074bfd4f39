"""Seating chart: who sits where in each heat or table (Slots rules 16, 19.1, 41).

View "seating:<promotion>" (docs/scenes.md; controller/promotions/tournament/views.py): {"title",
"stages": [{"stage", "title", "heats": [{"heat", "seats": [{"seat", "name", "note"}]}]}]}. The
scene shows the stage named by its `stage` parameter, or the last stage with seats: up to six
heats side by side (landscape) or stacked (portrait).
"""

from __future__ import annotations

from typing import Any

from showrunner.engine import viewdata as vd
from showrunner.engine.draw import panel
from showrunner.engine.scene import Scene
from showrunner.scenes.common import centred_message, content_top, static_layer

MAX_GROUPS = 6
MAX_SEATS = 12


class SeatingChart(Scene):
    name = "seating_chart"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        vd.expect(doc, ("title", "stages"), where)
        wanted = self.p["stage"]
        stages = [st for st in vd.items(doc, "stages", where)
                  if (st.get("stage") == wanted if wanted else st.get("heats"))]
        stage = stages[-1] if stages else {}
        vd.expect(stage, ("stage", "title", "heats"), where + ".stages")
        s = self.static = static_layer(self.ctx, vd.text(doc, "title", "Seating", where),
                                       vd.text(stage, "title", "", where), into=self.static)
        groups = vd.items(stage, "heats", where, limit=MAX_GROUPS)
        self.empty = not groups
        x, _, w, _ = lay.safe()
        top = content_top() + 10
        height = lay.height - 64 - top
        n = max(1, len(groups))
        if lay.portrait:
            boxes = [(x, top + i * height / n, w, height / n - 20) for i in range(n)]
        else:
            gap = 24
            bw = (w - gap * (n - 1)) / n  # panels fill the safe width, edge to edge
            boxes = [(x + i * (bw + gap), top, bw, height) for i in range(n)]
        for g, (bx, by, bw, bh) in zip(groups, boxes, strict=False):
            panel(s, lay.rect(bx, by, bw, bh), theme.colour("panel"), lay.px(20))
            head = text.fit(vd.text(g, "heat", "", where).upper(), "display", 60,
                            theme.colour("accent"), bw - 40)
            s.blit(head, lay.point(bx + 24, by + 14))
            seats = vd.items(g, "seats", where, limit=MAX_SEATS)
            row_h = min(90.0, (bh - 100) / max(len(seats), 1))
            for j, seat in enumerate(seats):
                vd.expect(seat, ("seat", "name", "note"), where + ".seats")
                ry = by + 90 + j * row_h
                num = text.render(str(vd.integer(seat, "seat", j + 1, where)), "display",
                                  row_h * 0.7, theme.colour("accent"))
                s.blit(num, lay.point(bx + 24, ry))
                note = vd.text(seat, "note", "", where)
                name = vd.text(seat, "name", "—", where) + (f" ({note})" if note else "")
                img = text.fit(name, "bold", row_h * 0.42, theme.colour("text"), bw - 130,
                               min_size=row_h * 0.3)
                s.blit(img, (lay.x(bx + 110), lay.y(ry + row_h * 0.38) - img.get_height() // 2))

    def next_change_ms(self, now_ms: int) -> int | None:
        return None  # nothing moves: a new picture only with a new view

    def draw(self, surface) -> None:
        self.draw_layer(surface)
        if self.empty:
            centred_message(self.ctx, surface, "Seats will be drawn soon",
                            self.ctx.layout.height / 2 + 60)

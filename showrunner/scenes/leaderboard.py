"""Leaderboard: up to 45 (or more) rows, paged, with animated rank changes and a "new" highlight.

View (e.g. "leaderboard:slots"): {"title", "subtitle", "entries", "rows": [{"position", "name",
"score", "movement", "new"}]}. `movement` is places climbed since the last published board
(positive = up); the scene slides a moved row from its old slot to its new one.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any, NamedTuple

import pygame

from showrunner.contract.money import format_int
from showrunner.engine import viewdata as vd
from showrunner.engine.draw import arrow, panel
from showrunner.engine.drawings import Drawings
from showrunner.engine.easing import clamp01, in_quad, out_cubic
from showrunner.engine.layout import SAFE_MARGIN
from showrunner.engine.render import FPS
from showrunner.engine.scene import Scene
from showrunner.scenes.common import backdrop_strip, centred_message, content_top, static_layer

MOVE_DELAY = 0.4  # s before rank changes start, so eyes find the board first
MOVE_TIME = 1.4
PAGE_IN = 0.5
PAGE_OUT = 0.35
ROW_GROWTH_MAX = 1.35  # rows may grow this much when a page holds fewer
STAGGER = 0.045
ROWS_AHEAD = 1  # the next page's rows drawn each frame while this page goes out, if not at rest


class Row(NamedTuple):
    """Everything a row's picture shows: the key it is drawn and kept by."""

    position: int
    movement: int
    new: bool
    name: str
    score: int
    height: float
    slot: int  # its place on its page, for the backdrop behind it


class Leaderboard(Scene):
    name = "leaderboard"
    rows: list[Row]

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        lay = self.ctx.layout
        raw = vd.items(doc, "rows", where)[: max(self.p["max_rows"], 0)]
        most = self.p["rows_per_page"] or (16 if lay.portrait else 10)
        # balanced pages: 12 rows are two pages of 6, never a page of 10 and a page of 2
        self.pages = max(1, math.ceil(len(raw) / most))
        self.per_page = max(1, math.ceil(len(raw) / self.pages))
        top = content_top() + 8
        room = lay.height - SAFE_MARGIN - top
        self.row_h = min(room / self.per_page, room / most * ROW_GROWTH_MAX)
        self.top = top
        # A row is drawn when it first comes on screen, or ahead: while the page before it
        # rests (draw_ahead), else one a frame while that page goes out. At 4K, drawing all 45
        # on entry took 40 ms (200 ms with no text cached), and drawn ahead on entry they
        # filled the frames of the transition that brings the scene in, the most a 4K screen
        # does in a frame; a row drawn in a page's moving frames cost them 1 to 3 ms each.
        if first:
            self.drawings: Drawings[Row] = Drawings()
            self.stand_ins: dict[Row, pygame.Surface] = {}
            self.page_origin = self.elapsed  # the pages turn from the scene's entry
        before = [] if first else self.rows
        self.rows = [Row(vd.integer(r, "position", 0, where), vd.integer(r, "movement", 0, where),
                         vd.flag(r, "new"), vd.text(r, "name", "—", where),
                         vd.integer(r, "score", 0, where), self.row_h, i % self.per_page)
                     for i, r in enumerate(raw)]
        self.stand_ins = {} if first else self._stand_ins(before)
        self.drawings.keep_only(self.rows)
        entries = vd.integer(doc, "entries", len(self.rows), where)
        right = f"{format_int(entries)} entries" if entries else ""
        self.static = static_layer(self.ctx, vd.text(doc, "title", "Leaderboard", where),
                                   vd.text(doc, "subtitle", "", where), right, into=self.static)
        self.changed_at = self.elapsed

    def _stand_ins(self, before: list[Row]) -> dict[Row, pygame.Surface]:
        """For each changed row, its player's drawing before the change, shown in its stead
        until `tick` draws it. The ranks wait MOVE_DELAY in their old places before they move,
        so the rows are drawn a row a frame in that wait, each taking its stand-in's place as it
        is made (drawn all at once, twelve rows took a 4K frame 20 to 28 ms, on every score
        change that moves a rank)."""
        if not any(row.movement for row in self.rows):  # no delay: nothing moves
            return {}
        stand_ins = {}
        for i, row in enumerate(self.rows):
            was = i + row.movement
            if row in self.drawings or not 0 <= was < len(before) or \
                    before[was].name != row.name:
                continue
            old = self.drawings.kept(before[was]) or self.stand_ins.get(before[was])
            if old is not None:
                stand_ins[row] = old
        return stand_ins

    def tick(self, dt: float) -> None:
        waited = self.elapsed - self.changed_at
        # the changed rows, drawn in the frames after the change's own (which rebuilt the
        # scene's layer and drew the rows that have no stand-in) before the ranks move
        if self.stand_ins and waited > 0:
            frames_left = max(1, math.floor((MOVE_DELAY - waited) * FPS) - 1)
            for row in list(self.stand_ins)[:math.ceil(len(self.stand_ins) / frames_left)]:
                self.drawings.get(row, self._draw_row)
                del self.stand_ins[row]
            if waited >= MOVE_DELAY:  # (frames came late) the rest are drawn as they are shown
                self.stand_ins.clear()
        page, t_page = self._page()
        if self.pages > 1 and t_page >= max(self.p["page_seconds"], 1.0) - PAGE_OUT:
            # not drawn ahead at rest (the page never rested): one a frame while this page
            # goes out, frames that move anyway
            for row in itertools.islice(self._undrawn(page + 1), ROWS_AHEAD):
                self.drawings.get(row, self._draw_row)

    def draw_ahead(self) -> None:
        """At rest, the next page's rows, kept for when it comes on screen."""
        for row in self._undrawn(self._page()[0] + 1):
            self.drawings.get(row, self._draw_row)

    def _undrawn(self, page: int) -> Iterator[Row]:
        """Page `page`'s rows (counted round), those not drawn yet."""
        first = page % self.pages * self.per_page
        return (row for row in self.rows[first:first + self.per_page] if row not in self.drawings)

    def next_change_ms(self, now_ms: int) -> int | None:
        """Moving while ranks slide or a page comes in or goes out; at rest until the next
        page turns (or for good on a single page)."""
        if not self.rows:
            return None
        if any(row.movement for row in self.rows) and \
                self.elapsed - self.changed_at < MOVE_DELAY + MOVE_TIME:
            return now_ms
        _page, t_page = self._page()
        if t_page < PAGE_IN + (self.per_page - 1) * STAGGER:
            return now_ms
        if self.pages == 1:
            return None
        leaves = max(self.p["page_seconds"], 1.0) - PAGE_OUT
        return now_ms if t_page >= leaves else self.at_elapsed(now_ms,
                                                               self.elapsed + leaves - t_page)

    def _draw_row(self, row: Row) -> pygame.Surface:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        position, movement, new, name_text, score, row_h, slot = row
        _x, _, w, _ = lay.safe()
        h = row_h - 8
        # Drawn straight onto the backdrop behind its place, so the row is opaque: an opaque
        # blit costs a third of a blended one, and there is no transparent row to composite
        # (half a row's drawing at 4K). The backdrop is a vertical gradient, so sliding
        # sideways shows the same pixels behind the rounded corners.
        surf = backdrop_strip(self.ctx, (lay.px(w), lay.px(h)), lay.y(self.top + slot * row_h))
        body = theme.colour("panel_alt" if position % 2 else "panel")
        panel(surf, surf.get_rect(), body, lay.px(14))
        if new:
            pygame.draw.rect(surf, theme.colour("highlight"), surf.get_rect(), lay.px(4),
                             border_radius=lay.px(14))
        top3 = 1 <= position <= 3
        badge = pygame.Rect(0, 0, lay.px(h * 1.35), lay.px(h))
        panel(surf, badge, theme.colour("accent" if top3 else "accent_dark"), lay.px(14))
        num = text.fit(str(position) if position else "–", "display", h * 0.8,
                       theme.colour("background_top"), h * 1.3)
        surf.blit(num, num.get_rect(center=badge.center))
        mid = surf.get_height() // 2
        if movement:
            arrow(surf, (lay.px(h * 1.35 + 34), mid), lay.px(24), movement > 0,
                  theme.colour("up" if movement > 0 else "down"))
        name_x = h * 1.35 + 64
        score_text = format_int(score) + (f" {self.p['score_label']}" if self.p["score_label"]
                                          else "")
        score_img = text.fit(score_text, "display", h * 0.82, theme.colour("accent"), 520)
        tag_w = 0.0
        if new:
            tag = text.render("NEW", "display", h * 0.5, theme.colour("background_top"))
            tag_rect = tag.get_rect().inflate(lay.px(20), lay.px(4))
            tag_rect.midright = (surf.get_width() - score_img.get_width() - lay.px(48), mid)
            panel(surf, tag_rect, theme.colour("highlight"), lay.px(8))
            surf.blit(tag, tag.get_rect(center=tag_rect.center))
            tag_w = tag_rect.width / lay.scale + 24
        name_w = w - name_x - score_img.get_width() / lay.scale - 60 - tag_w
        name = text.fit(name_text, "bold", h * 0.52, theme.colour("text"), name_w,
                        min_size=h * 0.4)
        surf.blit(name, (lay.px(name_x), mid - name.get_height() // 2))
        surf.blit(score_img, (surf.get_width() - score_img.get_width() - lay.px(24),
                              mid - score_img.get_height() // 2))
        return surf

    def _page(self) -> tuple[int, float]:
        """Current page index and seconds since it came up."""
        if self.pages == 1:
            return 0, self.elapsed - self.page_origin
        span = max(self.p["page_seconds"], 1.0)
        t = self.elapsed - self.page_origin
        return int(t // span) % self.pages, t % span

    def draw(self, surface: pygame.Surface) -> None:
        lay = self.ctx.layout
        self.draw_layer(surface)
        if not self.rows:
            centred_message(self.ctx, surface, self.p["empty_text"], lay.height / 2 + 60)
            return
        page, t_page = self._page()
        span = max(self.p["page_seconds"], 1.0)
        first = page * self.per_page
        x = lay.safe()[0]
        move = out_cubic(clamp01((self.elapsed - self.changed_at - MOVE_DELAY) / MOVE_TIME))
        still: list[tuple[int, float, float, Row]] = []
        moving: list[tuple[int, float, float, Row]] = []
        for i, row in enumerate(self.rows[first:first + self.per_page]):
            slide = (1 - out_cubic(clamp01((t_page - i * STAGGER) / PAGE_IN))) * lay.width
            if self.pages > 1:
                leaving = t_page - (span - PAGE_OUT) - i * STAGGER * 0.5
                slide -= in_quad(clamp01(leaving / PAGE_OUT)) * lay.width
            slot = float(i)
            if row.movement and move < 1:
                old = min(max(i + row.movement, -1.5), self.per_page + 0.5)
                slot = old + (i - old) * move
            entry = (row.movement, x + slide, self.top + slot * self.row_h, row)
            (moving if row.movement and move < 1 else still).append(entry)
        moving.sort(key=lambda e: e[0])  # climbers last, so they pass over the others
        width = lay.safe()[2]
        for _, row_x, y, row in still + moving:
            if row_x < lay.width and row_x + width > 0:  # on screen
                image = self.stand_ins.get(row) or self.drawings.get(row, self._draw_row)
                surface.blit(image, (lay.x(row_x), lay.y(y)))
        if self.pages > 1:
            self._dots(surface, page)

    def _dots(self, surface: pygame.Surface, page: int) -> None:
        lay, theme = self.ctx.layout, self.ctx.theme
        gap = 30
        x0 = lay.width / 2 - (self.pages - 1) * gap / 2
        y = lay.height - SAFE_MARGIN / 2
        for i in range(min(self.pages, 50)):
            colour = theme.colour("accent" if i == page else "muted")
            pygame.draw.circle(surface, colour, lay.point(x0 + i * gap, y), lay.px(7 if i == page
                                                                                   else 5))

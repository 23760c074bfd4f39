"""The heat in progress on a bank of slot machines: each seat's live credits, its rank in the
heat, where that score would place on the qualifying leaderboard (slots rules 11, 14), and the
time left, counted down to the heat's absolute end on the show clock.

View "live_heat:slots" (docs/scenes.md; showrunner/contract/views/live_heat.py): {"title",
"stage", "heat", "status", "started_at_ms", "ends_at_ms", "rows": [{"seat", "machine", "name",
"credits", "rank", "place", "silent"}], "leaderboard_rows"}. Credits arrive up to twice a second
a machine, so a new view redraws only the rows whose picture changed, and presents only their
places (and the clock's box); a row whose rank changed slides to its new place.
"""

from __future__ import annotations

import logging
import math
from typing import Any, NamedTuple

import pygame

from showrunner.contract.money import format_int
from showrunner.engine import viewdata as vd
from showrunner.engine.draw import clock_text, panel
from showrunner.engine.drawings import Drawings
from showrunner.engine.layout import SAFE_MARGIN
from showrunner.engine.logonce import warn_once
from showrunner.engine.scene import Scene, next_second_ms
from showrunner.engine.theme import Colour
from showrunner.engine.tween import Tween
from showrunner.scenes.common import backdrop_strip, content_top, static_layer
from showrunner.scenes.countdown import ring_colour
from showrunner.scenes.prize_table import ordinal

log = logging.getLogger(__name__)

STATUSES = ("idle", "live", "ended", "accepted")
FIELDS = ("title", "stage", "heat", "status", "started_at_ms", "ends_at_ms", "rows",
          "leaderboard_rows")
ROW_FIELDS = ("seat", "machine", "name", "credits", "rank", "place", "silent")
MOVE_TIME = 0.8  # s a row takes to slide to its new place
ROW_GROWTH_MAX = 1.35  # rows may grow this much when a page holds fewer
PANEL_W = 460.0  # the clock's column on a landscape screen (logical px)
BAND_H = 220.0  # the clock's band on a portrait screen
GAP = 32.0
ROW_GAP = 8.0


class Row(NamedTuple):
    """Everything a row's picture shows: the key it is drawn and kept by."""

    seat: int
    machine: str
    name: str
    credits: int | None
    rank: int | None
    place: int | None
    silent: bool
    recorded: bool  # the heat's scores are accepted: "placed 3rd", no longer "would place"
    height: float
    slot: int  # its place on its page, for the backdrop behind it


class LiveHeat(Scene):
    name = "live_heat"
    _partial = False  # the view just taken changed rows only: no whole redraw

    def update(self, dt: float) -> None:
        """A new view that changes only rows is drawn where they are, not whole (credits
        arrive several times a second); anything else is drawn whole as usual."""
        whole, self._partial = self.redraw_all, False
        super().update(dt)
        if self._partial and not whole:
            self.redraw_all = False

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        lay = self.ctx.layout
        vd.expect(doc, FIELDS, where)
        self.status = vd.choice(doc, "status", STATUSES, "idle", where) if doc else "idle"
        self.ends_at = vd.optional_int(doc, "ends_at_ms", where)
        self.started_at = vd.optional_int(doc, "started_at_ms", where)
        raw = self._each_seat_once(vd.items(doc, "rows", where)
                                   if self.status != "idle" else [], where)
        most = self.p["rows_per_page"] or (16 if lay.portrait else 10)
        pages = max(1, math.ceil(len(raw) / most))
        per_page = max(1, math.ceil(len(raw) / pages))
        room = self._rows_area()[3]
        row_h = min(room / per_page, room / most * ROW_GROWTH_MAX)
        title = self.p["title"] or vd.text(doc, "title", "Slots tournament", where)
        stage, heat = vd.text(doc, "stage", "", where), vd.text(doc, "heat", "", where)
        self.board_rows = max(0, vd.integer(doc, "leaderboard_rows", 0, where))
        header = (title, stage, heat, self.status, pages, per_page, row_h, self.board_rows)
        if first:
            self.drawings: Drawings[Row] = Drawings()
            self.slides: dict[int, Tween] = {}
            self.page_origin = self.elapsed
            self.drawn: dict[int, tuple[pygame.Rect, Row]] | None = None
            self.drawn_page = 0
        self.pages, self.per_page, self.row_h = pages, per_page, row_h
        self.rows = self._rows(raw, where)
        self.drawings.keep_only(self.rows)
        self._slide(self.rows)
        if first or header != getattr(self, "header", None):
            self.header = header
            subtitle = " · ".join(part for part in (stage, heat) if part)
            self.static = static_layer(self.ctx, title, subtitle, into=self.static)
            self._clock_face(self.static)
        else:
            self._partial = True

    def _each_seat_once(self, raw: list[dict[str, Any]], where: str
                        ) -> list[dict[str, Any]]:
        """The view's rows in its order (by rank, then seat), a seat listed twice once."""
        if raw:
            vd.expect(raw[0], ROW_FIELDS, where + ".rows")
        rows: list[dict[str, Any]] = []
        seats: set[int] = set()
        for i, r in enumerate(raw):
            seat = vd.integer(r, "seat", i + 1, where)
            if seat in seats:
                warn_once(log, f"seat-twice:{where}", "%s: seat %d is listed twice; showing "
                          "the first", where, seat)
                continue
            seats.add(seat)
            rows.append({**r, "seat": seat})
        return rows

    def _rows(self, raw: list[dict[str, Any]], where: str) -> list[Row]:
        """Each row as drawn: a negative count or rank shown as none."""
        rows: list[Row] = []
        for i, r in enumerate(raw):
            credits, rank = vd.optional_int(r, "credits", where), vd.optional_int(r, "rank", where)
            place = vd.optional_int(r, "place", where)
            rows.append(Row(r["seat"], vd.text(r, "machine", "", where),
                            vd.text(r, "name", "—", where),
                            None if credits is None else max(0, credits),
                            rank if rank is not None and rank > 0 else None,
                            place if place is not None and place > 0 else None,
                            vd.flag(r, "silent"), self.status == "accepted", self.row_h,
                            i % self.per_page))
        return rows

    def _slide(self, rows: list[Row]) -> None:
        """Each seat heads for its new place from wherever it is on screen now."""
        slides: dict[int, Tween] = {}
        for i, row in enumerate(rows):
            tween = self.slides.get(row.seat)
            if tween is None:
                tween = Tween(i, i, 0.0)
            elif tween.end != i:
                tween.retarget(i, MOVE_TIME)
            slides[row.seat] = tween
        self.slides = slides

    def tick(self, dt: float) -> None:
        for tween in self.slides.values():
            tween.update(dt)

    # geometry --------------------------------------------------------------------------------
    def _rows_area(self) -> tuple[float, float, float, float]:
        """The rows' area (x, y, w, h), logical: beside the clock, or under it in portrait."""
        lay = self.ctx.layout
        x, _, w, _ = lay.safe()
        top = content_top() + 8
        if lay.portrait:
            top += BAND_H + 24
            return x, top, w, lay.height - SAFE_MARGIN - top
        return x, top, w - PANEL_W - GAP, lay.height - SAFE_MARGIN - top

    def _clock_area(self) -> tuple[float, float, float, float]:
        lay = self.ctx.layout
        x, _, w, _ = lay.safe()
        top = content_top() + 8
        if lay.portrait:
            return x, top, w, BAND_H
        return x + w - PANEL_W, top, PANEL_W, lay.height - SAFE_MARGIN - top - ROW_GAP

    def _digits_centre(self) -> tuple[float, float]:
        x, y, w, h = self._clock_area()
        return (x + w / 2, y + (125 if self.ctx.layout.portrait else h * 0.42))

    def _digits_size(self) -> float:
        return 140.0 if self.ctx.layout.portrait else 230.0

    def _bar(self) -> tuple[float, float, float, float]:
        """The bar of time left under the digits (x, y, w, h), logical."""
        x, y, w, h = self._clock_area()
        if self.ctx.layout.portrait:
            return x + 120, y + BAND_H - 34, w - 240, 12
        return x + 50, y + h * 0.42 + 170, w - 100, 16

    def _clock_box(self) -> pygame.Rect:
        """Everything the time left draws in, from one second to the next."""
        x, _, w, _ = self._clock_area()
        _, cy = self._digits_centre()
        h = self._digits_size()
        _, by, _, bh = self._bar()
        return self.ctx.layout.rect(x + 8, cy - h * 0.55, w - 16, by + bh + 4 - (cy - h * 0.55))

    # the still parts -------------------------------------------------------------------------
    def _clock_face(self, layer: pygame.Surface) -> None:
        """The clock's panel and what stands still in it, or the card of a heat not live."""
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        if self.status == "idle":
            x, y, w, h = lay.safe()
            top = content_top() + 8
            card = lay.rect(x + w * 0.15, top + (lay.height - SAFE_MARGIN - top) * 0.25,
                            w * 0.7, (lay.height - SAFE_MARGIN - top) * 0.4)
            panel(layer, card, theme.colour("panel"), lay.px(28))
            soon = text.fit("Next heat soon", "display", 150, theme.colour("accent"),
                            w * 0.7 - 80, min_size=64)
            layer.blit(soon, soon.get_rect(center=card.center))
            return
        x, y, w, h = self._clock_area()
        panel(layer, lay.rect(x, y, w, h), theme.colour("panel"), lay.px(24))
        cx, cy = self._digits_centre()
        if self.status == "live":
            label = text.render("TIME LEFT", "display", 56 if not lay.portrait else 48,
                                theme.colour("muted"))
            ly = y + (70 if not lay.portrait else 36)
            layer.blit(label, label.get_rect(center=lay.point(cx, ly)))
            if self.board_rows and not lay.portrait:  # what "would place" is measured on
                note = text.fit(f"Leaderboard: places 1–{self.board_rows}", "body", 30,
                                theme.colour("muted"), w - 60, min_size=20)
                layer.blit(note, note.get_rect(center=lay.point(cx, y + h - 60)))
            return
        words, colour, caption = (("HEAT OVER", "accent", "Final credits being checked")
                                  if self.status == "ended" else
                                  ("SCORES RECORDED", "ok", "Final credits accepted"))
        big = text.fit(words, "display", 120 if not lay.portrait else 104,
                       theme.colour(colour), w - 60, min_size=56)
        layer.blit(big, big.get_rect(center=lay.point(cx, cy - (20 if lay.portrait else 40))))
        small = text.fit(caption, "body", 34, theme.colour("text"), w - 60, min_size=22)
        layer.blit(small, small.get_rect(center=lay.point(
            cx, cy + (62 if lay.portrait else 80))))

    # rows -------------------------------------------------------------------------------------
    def _draw_row(self, row: Row) -> pygame.Surface:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        _, top, w, _ = self._rows_area()
        h = row.height - ROW_GAP
        surf = pygame.Surface((lay.px(w), lay.px(h)), pygame.SRCALPHA)
        dim = row.silent
        body = _mix(theme.colour("panel"), theme.colour("background_top"), 0.5) if dim else \
            theme.colour("panel")
        panel(surf, surf.get_rect(), body, lay.px(14))
        top3 = row.rank is not None and row.rank <= 3 and not dim
        badge = pygame.Rect(0, 0, lay.px(h * 1.2), lay.px(h))
        panel(surf, badge, theme.colour("accent" if top3 else "accent_dark" if not dim
                                        else "panel_alt"), lay.px(14))
        rank = text.fit(str(row.rank) if row.rank else "–", "display", h * 0.75,
                        theme.colour("background_top" if not dim else "muted"), h * 1.1)
        surf.blit(rank, rank.get_rect(center=badge.center))
        mid = surf.get_height() // 2
        credits_w = 220.0 if lay.portrait else 300.0  # "99 999" fits; more shrinks
        place_w = 250.0 if lay.portrait else 260.0
        name_x = h * 1.2 + 28
        name_w = (w - name_x - 24 - credits_w - 24 - 20
                  - (place_w if row.place is not None else 0))
        name = text.fit(row.name, "bold", h * 0.42, theme.colour("muted" if dim else "text"),
                        name_w, min_size=h * 0.3)
        surf.blit(name, (lay.px(name_x), lay.px(h * 0.4) - name.get_height() // 2))
        machine = text.fit(f"Machine {row.machine}" if row.machine else "", "body", h * 0.24,
                           theme.colour("muted"), name_w - 40)
        my = lay.px(h * 0.77)
        surf.blit(machine, (lay.px(name_x), my - machine.get_height() // 2))
        if dim:  # a calm mark, no alarm: staff see it; the director is told on the console
            centre = (lay.px(name_x) + machine.get_width() + lay.px(h * 0.16), my)
            pygame.draw.circle(surf, theme.colour("muted"), centre, lay.px(h * 0.08),
                               max(1, lay.px(2)))
        right = surf.get_width() - lay.px(24)
        if row.place is not None:
            words = "placed" if row.recorded else "would place"
            place = text.fit(f"{words} {ordinal(row.place)}", "body",
                             h * (0.27 if lay.portrait else 0.3),
                             theme.colour("muted" if dim else "highlight"), place_w,
                             min_size=h * 0.22)
            px = right - lay.px(credits_w + 24)
            surf.blit(place, (px - place.get_width(), mid - place.get_height() // 2))
        credits = text.fit(format_int(row.credits) if row.credits is not None else "–",
                           "display", h * 0.8, theme.colour("muted" if dim else "accent"),
                           credits_w)
        surf.blit(credits, (right - credits.get_width(), mid - credits.get_height() // 2))
        # Laid on the backdrop behind its place, the row is opaque: an opaque blit costs a
        # third of a blended one (the backdrop is a vertical gradient: a row sliding to the
        # next place shows nearly the same pixels behind its rounded corners).
        opaque = backdrop_strip(self.ctx, surf.get_size(), lay.y(top + row.slot * row.height))
        opaque.blit(surf, (0, 0))
        return opaque

    def _page(self) -> tuple[int, float]:
        """The page shown, and seconds until the next page."""
        span = max(self.p["page_seconds"], 1.0)
        t = self.elapsed - self.page_origin
        if self.pages == 1:
            return 0, math.inf
        return int(t // span) % self.pages, span - t % span

    def _placed(self) -> dict[int, tuple[pygame.Rect, Row]]:
        """Each shown seat's rectangle on screen now (within the rows' area) and picture."""
        lay = self.ctx.layout
        x, top, w, room = self._rows_area()
        area = lay.rect(x, top, w, room)
        page, _ = self._page()
        first = page * self.per_page
        placed: dict[int, tuple[pygame.Rect, Row]] = {}
        for row in self.rows:
            slot = self.slides[row.seat].value - first
            if -1 < slot < self.per_page:
                rect = lay.rect(x, top + slot * self.row_h, w, self.row_h - ROW_GAP)
                rect = rect.clip(area)
                if rect.height > 0:
                    placed[row.seat] = (rect, row)
        return placed

    # frames -----------------------------------------------------------------------------------
    def next_change_ms(self, now_ms: int) -> int | None:
        """Moving while a row slides; else at the clock's next second and the next page."""
        if any(not tween.done for tween in self.slides.values()):
            return now_ms
        times = []
        if self.status == "live":
            times.append(next_second_ms(now_ms, self.ends_at))
        _, turn = self._page()
        if math.isfinite(turn):
            times.append(self.at_elapsed(now_ms, self.elapsed + turn))
        known = [t for t in times if t is not None]
        return min(known) if known else None

    def moving_rects(self) -> list[pygame.Rect] | None:
        """The clock's box, and the places of the rows that moved or changed since the last
        frame (where they were and where they are); the whole screen when the page turns."""
        page, _ = self._page()
        if self.drawn is None or page != self.drawn_page:
            return None
        rects = [self._clock_box()] if self.status == "live" else []
        now = self._placed()
        for seat in now.keys() | self.drawn.keys():
            before, after = self.drawn.get(seat), now.get(seat)
            if before != after:
                rects.extend(placed[0] for placed in (before, after)
                             if placed is not None and placed[0] not in rects)
        return rects

    def draw(self, surface: pygame.Surface) -> None:
        lay, theme = self.ctx.layout, self.ctx.theme
        self.draw_layer(surface)
        placed = self._placed()
        self.drawn, self.drawn_page = placed, self._page()[0]
        if self.status == "idle":
            return
        if self.status == "live":
            left = (self.ends_at - self.now_ms()) / 1000 if self.ends_at is not None else 0.0
            shown = clock_text(left) if self.ends_at is not None else "–"
            digits = self.ctx.text.fit(shown, "display", self._digits_size(),
                                       ring_colour(self.ctx, max(0.0, left)),
                                       self._clock_area()[2] - 40,
                                       min_size=self._digits_size() * 0.4)
            surface.blit(digits, digits.get_rect(center=lay.point(*self._digits_centre())))
            self._time_bar(surface, left)
        if not self.rows:
            x, top, w, room = self._rows_area()
            msg = self.ctx.text.fit("The seats appear as the heat starts", "bold", 48,
                                    theme.colour("muted"), w - 80)
            surface.blit(msg, msg.get_rect(center=lay.point(x + w / 2, top + room / 2)))
            return
        x, top, w, room = self._rows_area()
        before = surface.get_clip()
        surface.set_clip(before.clip(lay.rect(x, top, w, room)))
        try:
            # rows at rest first, then the moving ones, climbers last (they pass over)
            order = sorted(placed.values(), key=lambda p: self._climb(p[1]))
            for rect, row in order:
                image = self.drawings.get(row, self._draw_row)
                surface.blit(image, (rect.x, lay.y(top + (self.slides[row.seat].value - self
                                                          ._page()[0] * self.per_page)
                                                   * self.row_h)))
        finally:
            surface.set_clip(before)
        if self.pages > 1:
            self._dots(surface, self.drawn_page)

    def _time_bar(self, surface: pygame.Surface, left: float) -> None:
        """The share of the heat's time still to play, shrinking with the digits."""
        lay, theme = self.ctx.layout, self.ctx.theme
        bar = lay.rect(*self._bar())
        radius = bar.height // 2
        pygame.draw.rect(surface, theme.colour("panel_alt"), bar, border_radius=radius)
        if self.started_at is None or self.ends_at is None or self.ends_at <= self.started_at:
            return
        # in whole seconds, like the digits: the bar moves when they do
        share = max(0.0, min(1.0, math.ceil(left - 1e-9) * 1000
                             / (self.ends_at - self.started_at)))
        if share > 0:
            fill = pygame.Rect(bar.x, bar.y, max(bar.height, round(bar.width * share)),
                               bar.height)
            pygame.draw.rect(surface, ring_colour(self.ctx, max(0.0, left)), fill,
                             border_radius=radius)

    def _climb(self, row: Row) -> float:
        """How far a row still has to climb (0 at rest, negative sinking)."""
        tween = self.slides[row.seat]
        return 0.0 if tween.done else tween.value - tween.end

    def _dots(self, surface: pygame.Surface, page: int) -> None:
        lay, theme = self.ctx.layout, self.ctx.theme
        x, _, w, _ = self._rows_area()
        gap = 30
        x0 = x + w / 2 - (self.pages - 1) * gap / 2
        y = lay.height - SAFE_MARGIN / 2
        for i in range(min(self.pages, 50)):
            colour = theme.colour("accent" if i == page else "muted")
            pygame.draw.circle(surface, colour, lay.point(x0 + i * gap, y),
                               lay.px(7 if i == page else 5))


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    """`a` moved `t` of the way to `b`."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))

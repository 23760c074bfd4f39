"""Jackpot ticker: one to four jackpots or prize pools with odometer digits rolling to each new
amount.

Views "pools:<promotion>" and "jackpot:super9" (docs/scenes.md): {"title", "subtitle", "pools":
[{"name", "title", "amount", "previous", "target", "progress_percent", "note"}]} (cents). The
roll starts from `previous` on entry (or from what was on screen when the amount changes) and
lands exactly on `amount`. Whole rands are shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from showrunner.contract.money import format_zar
from showrunner.engine import viewdata as vd
from showrunner.engine.draw import panel
from showrunner.engine.scene import Scene
from showrunner.engine.tween import Tween
from showrunner.scenes.common import centred_message, content_top, static_layer

MAX_JACKPOTS = 4
FIELDS = ("name", "title", "amount", "previous", "target")


@dataclass
class Jackpot:
    name: str
    amount: int  # cents
    target: int | None
    percent: int
    note: str
    roll: Tween  # value in rands


class JackpotTicker(Scene):
    name = "jackpot_ticker"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        shown = {j.name: j.roll.value for j in getattr(self, "jackpots", [])}
        self.jackpots = []
        vd.expect(doc, ("title", "pools"), where)
        for item in vd.items(doc, "pools", where, limit=MAX_JACKPOTS):
            vd.expect(item, FIELDS, where + ".pools")
            name = vd.text(item, "title", "Jackpot", where)
            amount = max(0, vd.integer(item, "amount", 0, where))
            start = shown.get(name)
            if start is None:
                start = max(0, vd.integer(item, "previous", amount, where)) // 100
            target = vd.optional_int(item, "target", where)
            percent = max(0, min(100, vd.integer(item, "progress_percent", 0, where)))
            self.jackpots.append(Jackpot(name, amount, target if target and target > 0 else None,
                                         percent, vd.text(item, "note", "", where),
                                         Tween(start, amount // 100, self.p["roll_seconds"],
                                               "out_cubic", delay=0.3)))
        self.static = static_layer(self.ctx, vd.text(doc, "title", "Jackpots", where),
                                   vd.text(doc, "subtitle", "", where), into=self.static)
        self.rolled = [False] * len(self.jackpots)
        self._panels(self.static)

    def tick(self, dt: float) -> None:
        # the rolls this frame moves, the one that ends a roll included: its band is redrawn
        self.rolled = [not j.roll.done for j in self.jackpots]
        for j in self.jackpots:
            j.roll.update(dt)

    def next_change_ms(self, now_ms: int) -> int | None:
        return now_ms if any(not j.roll.done for j in self.jackpots) else None

    def moving_rects(self) -> list[pygame.Rect] | None:
        """The band of each amount this frame rolled: the digits never leave it."""
        lay, rects = self.ctx.layout, []
        for rolled, (x, y, w, h) in zip(self.rolled, self._boxes(), strict=False):
            if rolled:
                _, cell_h, _ = self._strip(self._digit_size(h))
                rects.append(pygame.Rect(lay.x(x + 40), lay.y(y + h * 0.52) - cell_h // 2,
                                         lay.px(w - 80), cell_h))
        return rects

    def _boxes(self) -> list[tuple[float, float, float, float]]:
        x, _, w, _ = self.ctx.layout.safe()
        top = content_top() + 20
        bottom = self.ctx.layout.height - 64
        n = max(1, len(self.jackpots))
        h = (bottom - top) / n
        return [(x, top + i * h, w, h - 24) for i in range(n)]

    def _digit_size(self, box_h: float) -> float:
        return min(260.0, box_h * 0.62)

    def _panels(self, layer: pygame.Surface) -> None:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        for j, (x, y, w, h) in zip(self.jackpots, self._boxes(), strict=False):
            panel(layer, lay.rect(x, y, w, h), theme.colour("panel"), lay.px(24))
            label = text.fit(j.name.upper(), "display", min(64.0, h * 0.2),
                             theme.colour("muted"), w - 80)
            layer.blit(label, lay.point(x + 40, y + 16))
            if j.target:
                self._progress(layer, j, j.target, (x, y, w, h))
            elif j.note:
                note = text.fit(j.note, "body", 28, theme.colour("muted"), w - 80)
                layer.blit(note, (lay.x(x + w - 40) - note.get_width(),
                                  lay.y(y + h - 44) - note.get_height() // 2))

    def _progress(self, layer: pygame.Surface, j: Jackpot, target: int,
                  box: tuple[float, float, float, float]) -> None:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        x, y, w, h = box
        bar_y = y + h - 44
        bar = lay.rect(x + 40, bar_y, w - 80, 18)
        pygame.draw.rect(layer, theme.colour("panel_alt"), bar, border_radius=lay.px(9))
        if j.percent > 0:
            fill = pygame.Rect(bar.x, bar.y, max(bar.h, round(bar.w * j.percent / 100)), bar.h)
            pygame.draw.rect(layer, theme.colour("accent"), fill, border_radius=lay.px(9))
        caption = f"{j.percent}% of the {format_zar(target)} target"
        if j.note:
            caption = f"{j.note}  ·  {caption}"
        cap = text.fit(caption, "body", 28, theme.colour("muted"), w - 80)
        layer.blit(cap, (lay.x(x + w - 40) - cap.get_width(), lay.y(bar_y - 44)))

    def _strip(self, size: float) -> tuple[pygame.Surface, int, int]:
        """Digits 0-9 then 0 stacked vertically, rendered once per size.

        Each cell is cut to the digits' ink (plus a small gap), not the font's line height,
        so a rolling digit never shows outside the number's own band. Returns the strip, the
        cell height and how far below a line's top the cell starts (to place the "R"). Kept
        with the screen's text, for the next time a jackpot ticker enters.
        """
        colour = self.ctx.theme.colour("accent")

        def make() -> tuple[pygame.Surface, tuple[int, ...]]:
            glyphs = [self.ctx.text.glyph(str(d % 10), "display", size, colour)
                      for d in range(11)]
            ink = [g.get_bounding_rect() for g in glyphs]
            gap = max(2, glyphs[0].get_height() // 20)
            ink_top = max(0, min(r.top for r in ink) - gap)
            cell_h = min(glyphs[0].get_height(), max(r.bottom for r in ink) + gap) - ink_top
            cell_w = max(g.get_width() for g in glyphs)
            strip = pygame.Surface((cell_w, cell_h * 11), pygame.SRCALPHA)
            for i, g in enumerate(glyphs):
                strip.blit(g, ((cell_w - g.get_width()) // 2, i * cell_h),
                           pygame.Rect(0, ink_top, g.get_width(), cell_h))
            return strip, (cell_h, ink_top)

        strip, (cell_h, ink_top) = self.ctx.text.composed(("odometer", size, colour), make)
        return strip, cell_h, ink_top

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_layer(surface)
        if not self.jackpots:
            centred_message(self.ctx, surface, "Jackpots will be announced soon",
                            self.ctx.layout.height / 2 + 60)
            return
        for j, box in zip(self.jackpots, self._boxes(), strict=False):
            self._draw_amount(surface, j, box)

    def _draw_amount(self, surface: pygame.Surface, j: Jackpot,
                     box: tuple[float, float, float, float]) -> None:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        x, y, w, h = box
        size = self._digit_size(h)
        value = max(0.0, j.roll.value)
        final = j.amount // 100
        digits = len(str(max(final, int(j.roll.start), 1)))
        strip, cell_h, ink_top = self._strip(size)
        cell_w = strip.get_width()
        space = text.glyph("\u00a0", "display", size, theme.colour("accent")).get_width()
        prefix = text.glyph("R", "display", size, theme.colour("accent"))
        groups = (digits - 1) // 3
        total_w = prefix.get_width() + digits * cell_w + groups * space
        max_w = lay.px(w - 80)
        if total_w > max_w:  # absurd amounts: fall back to plain fitted text
            img = text.fit(format_zar(j.amount), "display", size, theme.colour("accent"), w - 80)
            surface.blit(img, img.get_rect(center=lay.point(x + w / 2, y + h * 0.52)))
            return
        wheels = f"{int(value):0{digits + groups},d}".replace(",", "\u00a0")
        text.note(f"R{wheels}")  # the number the wheels show, for text snapshots
        left = lay.x(x + w / 2) - total_w // 2
        top = lay.y(y + h * 0.52) - cell_h // 2
        surface.blit(prefix, (left, top - ink_top))
        cx = left + prefix.get_width()
        area = pygame.Rect(0, 0, cell_w, cell_h)
        for k in range(digits - 1, -1, -1):
            area.y = round(odometer(value, k) * cell_h)
            surface.blit(strip, (cx, top), area)
            cx += cell_w + (space if k % 3 == 0 and k else 0)


def odometer(value: float, column: int) -> float:
    """Position (0-10) of digit `column` (0 = units) on a mechanical counter showing `value`."""
    unit = 10**column
    whole = (value // unit) % 10
    below = value % unit
    carry = max(0.0, below - (unit - 1))  # the column turns only while the one below wraps
    return whole + carry

"""Super 9 board: the 37 roulette numbers with those called lit, the last spin, the jackpot.

Rules shown: a Super 9 within the first 18 spins wins the jackpot (rule 14), after that the
first to complete wins the consolation (rule 16): the prize being played for is highlighted;
repeated numbers do not count again (rule 19); a "no spin" is not a spin (rule 18.2).
View "board:super9" (docs/scenes.md; controller/promotions/super9/views.py): reads "title",
"session", "status", "numbers" ([{number, colour}]: each pocket's colour on the wheel), "called"
(numbers in counted order), "last": {"number"}, "jackpot_cents", "consolation_cents",
"jackpot_spins", "playing_for" and "message".
"""

from __future__ import annotations

import logging
from typing import Any

import pygame

from showrunner.contract.money import format_zar
from showrunner.engine import viewdata as vd
from showrunner.engine.draw import panel
from showrunner.engine.easing import clamp01, out_back
from showrunner.engine.logonce import warn_once
from showrunner.engine.scene import Scene
from showrunner.scenes.common import content_top, static_layer

#: a pocket's colour as the view names it (showrunner/contract/wheel.py) -> the theme's
POCKET_COLOURS = {"green": "ok", "red": "red", "black": "background_top"}
NO_COLOUR = "muted"  # a called number the view gives no colour for
JACKPOT_SPINS = 18  # rule 14
STATUSES = ("idle", "playing", "super9", "won", "closed")
PRIZES = ("jackpot", "consolation")
POP_SECONDS = 0.5  # the last number pops in
FIELDS = ("title", "called", "last", "jackpot_cents", "consolation_cents", "counted_spins",
          "jackpot_spins", "message")


log = logging.getLogger(__name__)


class Super9Board(Scene):
    name = "super9_board"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        vd.expect(doc, FIELDS, where)
        spins = self._calls(doc, where)
        called = set(spins)
        self.colours = self._colours(doc, where)
        last = vd.optional_int(vd.mapping(doc, "last", where), "number", where)
        if last is None and spins:
            last = spins[-1]
        limit = vd.integer(doc, "jackpot_spins", JACKPOT_SPINS, where)
        # the controller counts the spins (a repeated number does not count, rule 19)
        counted = vd.integer(doc, "counted_spins", len(spins), where)
        self.last = last
        self.last_changed = self.elapsed if not first else -10.0
        status = vd.choice(doc, "status", STATUSES, "playing", where)
        # the idle board has no prize yet; otherwise the controller says (rules 14, 16)
        playing_for = vd.choice(doc, "playing_for", PRIZES,
                                "jackpot" if counted < limit else "consolation", where)
        live = status in ("idle", "playing", "super9")
        s = self.static = static_layer(self.ctx, vd.text(doc, "title", "Super 9", where),
                                       vd.text(doc, "subtitle", vd.text(doc, "session"), where),
                                       _caption(status, playing_for, counted, limit),
                                       into=self.static)
        x, _, w, _ = lay.safe()
        top = content_top() + 20
        grid_w = w if lay.portrait else w * 0.66
        cell = min(grid_w / 13, 110.0)
        for n in range(37):
            col, row = (0, 0) if n == 0 else ((n - 1) // 3 + 1, 2 - (n - 1) % 3)
            h = cell * 3 if n == 0 else cell
            r = lay.rect(x + col * cell + 4, top + row * cell + 4, cell - 8, h - 8)
            lit = n in called
            panel(s, r, theme.colour(self.pocket_colour(n) if lit else "panel"), lay.px(12))
            if lit:
                pygame.draw.rect(s, theme.colour("accent"), r, lay.px(4), border_radius=lay.px(12))
            num = text.render(str(n), "display", cell * 0.6,
                              theme.colour("text" if lit else "muted"))
            s.blit(num, num.get_rect(center=r.center))
        info_y = top + cell * 3 + 40
        jackpot = vd.integer(doc, "jackpot_cents", 0, where)
        consolation = vd.integer(doc, "consolation_cents", 0, where)
        rows = [("jackpot", jackpot)] if jackpot else []
        if consolation:
            rows.append(("consolation", consolation))
        for i, (prize, value) in enumerate(rows):
            bx = x + i * (grid_w / 2)
            on = live and prize == playing_for
            label = f"PLAYING FOR THE {prize.upper()}" if on else prize.upper()
            s.blit(text.render(label, "body", 30, theme.colour("highlight" if on else "muted")),
                   lay.point(bx, info_y))
            s.blit(text.fit(format_zar(value), "display", 110,
                            theme.colour("accent" if on or not live else "muted"),
                            grid_w / 2 - 30), lay.point(bx, info_y + 40))
        recent = spins[-self.p["recent"]:]
        ry = info_y + (190 if rows else 0)
        s.blit(text.render("LAST SPINS", "body", 30, theme.colour("muted")), lay.point(x, ry))
        for i, n in enumerate(reversed(recent)):
            r = lay.rect(x + i * 96, ry + 44, 84, 84)
            pygame.draw.ellipse(s, theme.colour(self.pocket_colour(n)), r)
            pygame.draw.ellipse(s, theme.colour("accent_dark"), r, lay.px(3))
            t = text.render(str(n), "display", 52, theme.colour("text"))
            s.blit(t, t.get_rect(center=r.center))
        message = vd.text(doc, "message", "", where)
        if message:
            m = text.fit(message, "bold", 44, theme.colour("highlight"), w)
            s.blit(m, lay.point(x, lay.height - 64 - 60))
        self.ball_centre = ((x + w / 2, top + cell * 3 + 560) if lay.portrait
                            else (x + w * 0.84, top + 260))

    def _calls(self, doc: dict[str, Any], where: str) -> list[int]:
        """Called numbers in counted order (`called`); anything off the wheel is ignored."""
        return [n for n in vd.numbers(doc, "called", where) if 0 <= n <= 36]

    def _colours(self, doc: dict[str, Any], where: str) -> dict[int, str]:
        """Each pocket's theme colour from the view's `numbers`; the idle board has none."""
        colours: dict[int, str] = {}
        for cell in vd.items(doc, "numbers", where, limit=37):
            number = vd.optional_int(cell, "number", where)
            colour = vd.choice(cell, "colour", tuple(POCKET_COLOURS), "", where)
            if number is not None and colour:
                colours[number] = POCKET_COLOURS[colour]
        return colours

    def pocket_colour(self, number: int) -> str:
        """The theme colour of a called number's pocket, as the view colours it."""
        if number not in self.colours:
            warn_once(log, f"colour:{self.name}:{number}", "%s:%s: number %d has no colour in "
                      "'numbers'", self.name, self.p["view"], number)
            return NO_COLOUR
        return self.colours[number]

    def next_change_ms(self, now_ms: int) -> int | None:
        return self.moving_until(now_ms, self.last_changed + POP_SECONDS)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_layer(surface)
        if self.last is None:
            return
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        pop = out_back(clamp01((self.elapsed - self.last_changed) / POP_SECONDS))
        radius = 190 * (0.5 + 0.5 * pop)
        c = lay.point(*self.ball_centre)
        pygame.draw.circle(surface, theme.colour("accent"), c, lay.px(radius + 10))
        pygame.draw.circle(surface, theme.colour(self.pocket_colour(self.last)), c,
                           lay.px(radius))
        num = text.render(str(self.last), "display", 220, theme.colour("text"))
        if pop >= 0.999:
            surface.blit(num, num.get_rect(center=c))


def _caption(status: str, playing_for: str, counted: int, limit: int) -> str:
    """The header's right-hand caption: which spin, and for which prize (rules 14, 16)."""
    if status == "won":
        return f"Won on spin {counted}"
    if status == "closed":
        return "No winner this game"
    if playing_for == "jackpot":
        return f"Spin {counted} of {limit} for the jackpot"
    return f"Spin {counted}: for the consolation"

"""Wild Card draw (Slots PAYOFF rules 33-41): pool, reel, winner card, 90 s claim countdown.

The controller picks the winner before any animation (DESIGN "Draws"); this scene only presents
it. The reel position is a pure function of the show clock between `spin_started_at` and
`reveal_at`, so every screen lands at the same instant, exactly at `reveal_at`, on a sealed card
that opens into the winner card. The winner reaches the view up to 1.5 s early and is held back
until `reveal_at`.

View "draw:wildcard" (docs/scenes.md; built by controller/promotions/wildcard/views.py): {"title",
"subtitle", "phase": "entries"|"frozen"|"drawing"|"claim"|"finalist", "round", "activated",
"pool": {"members", "tickets", "digest"} | null, "reel": [{"name", "ticket"}], "winner":
{"name", "masked_card", "ticket"} | null, "finalist": {"present", ...} | null,
"spin_started_at", "reveal_at", "claim_deadline"} (times are UTC epoch ms).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pygame

from showrunner.contract.money import format_int
from showrunner.engine import viewdata as vd
from showrunner.engine.draw import cut_out, panel
from showrunner.engine.drawings import Drawings
from showrunner.engine.easing import clamp01, out_back, out_quart
from showrunner.engine.scene import Scene, next_second_ms
from showrunner.scenes.common import content_top, static_layer
from showrunner.scenes.countdown import draw_ring, ring_box

VISIBLE = 5  # reel cards in view; the middle one is the pick
SPEED = 14.0  # reel cards per second at full speed
MAX_REEL = 64
CARD_H = 120.0
POP_S = 0.6  # the winner card pops in
POPPED_S = POP_S + 0.1  # from here only the claim ring moves (the card drawn whole at rest)
PHASES = ("entries", "frozen", "drawing", "claim", "finalist")
FIELDS = ("title", "phase", "round", "pool", "reel", "winner", "finalist", "spin_started_at",
          "reveal_at", "claim_deadline")


class Card(NamedTuple):
    """What one reel card shows: the key it is drawn and kept by."""

    name: str
    ticket: str
    chosen: bool


class WildcardDraw(Scene):
    name = "wildcard_draw"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        self._place()
        vd.expect(doc, FIELDS, where)
        self.phase = vd.choice(doc, "phase", PHASES, "entries", where)
        self.round = vd.integer(doc, "round", 1, where)
        pool = vd.mapping(doc, "pool", where)
        vd.expect(pool, ("members", "tickets", "digest"), where + ".pool")
        self.frozen = bool(pool)
        self.tickets = vd.integer(pool, "tickets", 0, where)
        self.members = vd.integer(pool, "members", 0, where)
        self.activated = vd.integer(doc, "activated", 0, where)
        self.digest = vd.text(pool, "digest", "", where)
        self.winner = vd.mapping(doc, "winner", where)
        vd.expect(self.winner, ("name", "ticket", "masked_card"), where + ".winner")
        finalist = vd.mapping(doc, "finalist", where)
        self.present = vd.flag(finalist, "present", True)
        self.spin_at = vd.optional_int(doc, "spin_started_at", where)
        self.reveal_at = vd.optional_int(doc, "reveal_at", where)
        self.deadline = vd.optional_int(doc, "claim_deadline", where)
        reel = vd.items(doc, "reel", where, limit=MAX_REEL)
        for entry in reel:
            vd.expect(entry, ("name", "ticket"), where + ".reel")
        # the reel's cards rarely change between views: keep the ones already drawn
        if first:
            self.drawings: Drawings[Card] = Drawings()
        sealed = Card("WILD CARD", "?", True)
        cards = [Card(vd.text(e, "name", "…", where), vd.text(e, "ticket", "", where), False)
                 for e in reel]
        self.drawings.keep_only([sealed, *cards])
        self.sealed_card = self.drawings.get(sealed, self._draw_card)
        # the reel is known from the freeze (fixed by the pool, never by the pick); its names
        # spin only from the draw, so nobody reads a still frame as a pick
        spinning = self.spin_at is not None
        self.cards = ([self.drawings.get(card, self._draw_card) for card in cards if spinning]
                      or [self.sealed_card])
        title = vd.text(doc, "title", "Wild Card Draw", where)
        subtitle = vd.text(doc, "subtitle", "", where)
        right = f"Draw {self.round}" if self.round > 1 else ""
        self.static = static_layer(self.ctx, title, subtitle, right, into=self.static)
        self._pool_panel(self.static)
        self.winner_panel = self._winner_panel(where)

    # cached pieces ---------------------------------------------------------------------------
    def _draw_card(self, card: Card) -> pygame.Surface:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        name_text, ticket_text, chosen = card
        w = self.reel_w
        surf = pygame.Surface((lay.px(w), lay.px(CARD_H - 12)), pygame.SRCALPHA)
        panel(surf, surf.get_rect(), theme.colour("panel_alt" if not chosen else "panel"),
              lay.px(16))
        name = text.fit(name_text, "bold", 54, theme.colour("text"), w - 360, min_size=36)
        ticket = text.fit(ticket_text, "display", 50, theme.colour("accent"), 300)
        mid = surf.get_height() // 2
        surf.blit(name, (lay.px(36), mid - name.get_height() // 2))
        surf.blit(ticket, (surf.get_width() - ticket.get_width() - lay.px(36),
                           mid - ticket.get_height() // 2))
        return cut_out(surf)  # the reel blits cards every frame: copied, not blended

    def _pool_panel(self, layer: pygame.Surface) -> None:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        x, y = self.pool_xy
        r = lay.rect(x, y, 620, 300)
        panel(layer, r, theme.colour("panel"), lay.px(20))
        lines = ([("TICKETS IN THE DRAW", format_int(self.tickets)),
                  ("MEMBERS", format_int(self.members))] if self.frozen
                 else [("MEMBERS ACTIVATED", format_int(self.activated))])
        for i, (label, value) in enumerate(lines):
            lab = text.render(label, "body", 26, theme.colour("muted"))
            val = text.fit(value, "display", 72, theme.colour("accent"), 280)
            px = x + 30 + i * 300
            layer.blit(lab, lay.point(px, y + 24))
            layer.blit(val, lay.point(px, y + 58))
        lab = text.render("POOL SHA-256", "body", 26, theme.colour("muted"))
        layer.blit(lab, lay.point(x + 30, y + 158))
        digest = self.digest or "not frozen yet"
        for i in range(0, min(len(digest), 64), 32):
            part = text.fit(digest[i:i + 32], "body", 28, theme.colour("text"), 560, min_size=20)
            layer.blit(part, lay.point(x + 30, y + 194 + i // 32 * 40))

    def _winner_panel(self, where: str) -> pygame.Surface:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        w, h = self.reel_w, 560.0
        surf = pygame.Surface((lay.px(w), lay.px(h)), pygame.SRCALPHA)
        panel(surf, surf.get_rect(), theme.colour("panel"), lay.px(28))
        pygame.draw.rect(surf, theme.colour("accent"), surf.get_rect(), lay.px(6),
                         border_radius=lay.px(28))
        cx = surf.get_width() // 2
        head = text.render("WILD CARD WINNER", "display", 64, theme.colour("accent"))
        surf.blit(head, head.get_rect(center=(cx, lay.px(80))))
        name = text.fit(vd.text(self.winner, "name", "…", where), "bold", 110,
                        theme.colour("text"), w - 80, min_size=56)
        surf.blit(name, name.get_rect(center=(cx, lay.px(220))))
        ticket = vd.text(self.winner, "ticket", "", where)
        card = vd.text(self.winner, "masked_card", "", where)
        detail = "   ".join(p for p in (f"Ticket {ticket}" if ticket else "", card) if p)
        if detail:
            d = text.fit(detail, "display", 60, theme.colour("accent"), w - 80)
            surf.blit(d, d.get_rect(center=(cx, lay.px(330))))
        if self.phase == "finalist":
            label, colour = (("CLAIMED", "ok") if self.present else
                             ("FINALIST – REGISTERED AS NOT PRESENT", "highlight"))
            s = text.fit(label, "display", 72, theme.colour(colour), w - 80)
            surf.blit(s, s.get_rect(center=(cx, lay.px(460))))
        else:
            s = text.fit("Present yourself at the stage with your card and ID", "body", 36,
                         theme.colour("muted"), w - 80)
            surf.blit(s, s.get_rect(center=(cx, lay.px(460))))
        return surf

    # layout ----------------------------------------------------------------------------------
    def _place(self) -> None:
        """Reel and winner card left, pool and ring right (landscape) or stacked (portrait)."""
        x, _, w, _ = self.ctx.layout.safe()
        top = content_top()
        if self.ctx.layout.portrait:
            self.reel_w = w
            self.reel_xy = (x, top + 40)
            self.pool_xy = (x + (w - 620) / 2, top + 700)
            self.ring = ((x + w / 2), top + 1300.0, 260.0)
        else:
            self.reel_w = w - 680
            self.reel_xy = (x, top + 40)
            self.pool_xy = (x + w - 620, top + 20)
            self.ring = (x + w - 310, top + 560.0, 200.0)

    # drawing ---------------------------------------------------------------------------------
    def _offset(self, now: int) -> tuple[float, int]:
        """Reel position in cards at `now`, and the index the winner sits at."""
        if self.spin_at is None or self.reveal_at is None or self.reveal_at <= self.spin_at:
            return 0.0, 0
        span = (self.reveal_at - self.spin_at) / 1000
        target = max(len(self.cards), round(SPEED * span / 4)) + VISIBLE
        u = clamp01((now - self.spin_at) / (self.reveal_at - self.spin_at))
        return target * out_quart(u), target

    # motion ----------------------------------------------------------------------------------
    def next_change_ms(self, now_ms: int) -> int | None:
        """The reel spins from `spin_started_at` to `reveal_at`; the winner card pops in for
        POP_S, then the claim ring moves once a second; otherwise at rest."""
        if self.spin_at is not None and self.reveal_at is not None and now_ms < self.reveal_at:
            return max(now_ms, self.spin_at)
        if self._winner_shown(now_ms) and self.phase == "claim":
            assert self.reveal_at is not None
            if now_ms < self.reveal_at + POP_S * 1000:
                return now_ms
            return next_second_ms(now_ms, self.deadline)
        return None

    def moving_rects(self) -> list[pygame.Rect] | None:
        """While spinning, the reel's window; after the pop, the claim ring."""
        now = self.now_ms()
        if self.spin_at is not None and self.reveal_at is not None and \
                self.spin_at <= now < self.reveal_at:
            return [self._reel_window()]
        if self._winner_shown(now) and self.phase == "claim" and self.deadline is not None \
                and self.reveal_at is not None and now >= self.reveal_at + POPPED_S * 1000:
            cx, cy, radius = self.ring
            return [ring_box(self.ctx, (cx, cy), radius)]
        return None

    def _winner_shown(self, now: int) -> bool:
        revealed = self.reveal_at is not None and now >= self.reveal_at
        return bool(self.winner) and (self.phase == "finalist" or
                                      (revealed and self.phase == "claim"))

    def _reel_window(self) -> pygame.Rect:
        x, y = self.reel_xy
        return self.ctx.layout.rect(x, y, self.reel_w, CARD_H * VISIBLE)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_layer(surface)
        now = self.now_ms()
        if self._winner_shown(now):
            self._draw_winner(surface, now)
        else:
            self._draw_reel(surface, now)

    def _draw_reel(self, surface: pygame.Surface, now: int) -> None:
        lay, theme = self.ctx.layout, self.ctx.theme
        x, y = self.reel_xy
        offset, target = self._offset(now)
        previous = surface.get_clip()
        surface.set_clip(self._reel_window().clip(previous))  # within the display's own clip
        base = int(offset)
        frac = offset - base
        for k in range(-1, VISIBLE + 1):
            index = base + k - VISIBLE // 2
            if index == target and target:
                card = self.sealed_card
            else:
                card = self.cards[index % len(self.cards)]
            top = y + (k - frac) * CARD_H
            surface.blit(card, lay.point(x, top))
        surface.set_clip(previous)
        frame = lay.rect(x - 8, y + CARD_H * (VISIBLE // 2) - 8, self.reel_w + 16, CARD_H + 4)
        pygame.draw.rect(surface, theme.colour("accent"), frame, lay.px(6),
                         border_radius=lay.px(20))

    def _draw_winner(self, surface: pygame.Surface, now: int) -> None:
        lay = self.ctx.layout
        x, y = self.reel_xy
        since = (now - (self.reveal_at or now)) / 1000
        pop = out_back(clamp01(since / POP_S)) if self.phase == "claim" else 1.0
        panel_img = self.winner_panel
        if pop < 0.999:
            scale = 0.6 + 0.4 * pop
            size = (max(1, round(panel_img.get_width() * scale)),
                    max(1, round(panel_img.get_height() * scale)))
            # nearest-neighbour: invisible during a 0.6 s pop, and a third of smoothscale's cost
            panel_img = pygame.transform.scale(panel_img, size)
        centre = lay.point(x + self.reel_w / 2, y + 300)
        surface.blit(panel_img, panel_img.get_rect(center=centre))
        if self.phase == "claim" and self.deadline is not None:
            total = self.p["claim_seconds"]
            left = (self.deadline - now) / 1000
            cx, cy, radius = self.ring
            draw_ring(self.ctx, surface, (cx, cy), radius, left, total, "to claim")

"""Next-event clock: "Super 9 starts in 12:34", then the events after it.

View "schedule:super9" (docs/scenes.md; controller/promotions/super9/views.py): {"title", "events":
[{"name", "starts_at", "where"}]} (UTC epoch ms; `where` optional). The countdown is drawn from
`starts_at - now` each frame; the clock text is cached per second.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pygame

from showrunner.engine import viewdata as vd
from showrunner.engine.draw import clock_text
from showrunner.engine.scene import Scene, next_second_ms
from showrunner.scenes.common import centred_message, static_layer

STARTING_WINDOW_MS = 5 * 60 * 1000  # "starting now" for five minutes after the start


class NextEvent(Scene):
    name = "next_event"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        where = f"{self.name}:{self.p['view']}"
        vd.expect(doc, ("title", "events"), where)
        for e in vd.items(doc, "events", where):
            vd.expect(e, ("name", "starts_at"), where + ".events")
        self.events = sorted(
            ((vd.integer(e, "starts_at", 0, where), vd.text(e, "name", "Next event", where),
              vd.text(e, "where", "", where)) for e in vd.items(doc, "events", where)
             if e.get("starts_at") is not None),
            key=lambda e: e[0])
        self.static = static_layer(self.ctx, vd.text(doc, "title", self.p["title"], where),
                                   into=self.static)
        self._later_for: int | None = None
        self.later: pygame.Surface | None = None

    def _upcoming(self, now: int) -> list[tuple[int, str, str]]:
        return [e for e in self.events if e[0] + STARTING_WINDOW_MS > now]

    def next_change_ms(self, now_ms: int) -> int | None:
        upcoming = self._upcoming(now_ms)
        if not upcoming:
            return None
        starts = upcoming[0][0]
        tick = next_second_ms(now_ms, starts)
        gone = starts + STARTING_WINDOW_MS  # then the next event takes its place
        return gone if tick is None else min(tick, gone)

    def draw(self, surface: pygame.Surface) -> None:
        lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
        self.draw_layer(surface)
        now = self.now_ms()
        upcoming = self._upcoming(now)
        cy = lay.height * 0.45
        if not upcoming:
            centred_message(self.ctx, surface, "See you at the next event", cy)
            return
        starts, name, place = upcoming[0]
        left = (starts - now) / 1000
        head = f"{name} starts in" if left > 0 else f"{name} is starting now"
        img = text.fit(head, "bold", 80, theme.colour("text"), lay.width - 200, min_size=48)
        surface.blit(img, img.get_rect(center=lay.point(lay.width / 2, cy - 150)))
        if left > 0:
            digits = text.render(clock_text(left), "display", 300, theme.colour("accent"))
            surface.blit(digits, digits.get_rect(center=lay.point(lay.width / 2, cy + 60)))
        if place:
            centred_message(self.ctx, surface, place, cy + 230, size=48, role="body")
        self._draw_later(surface, upcoming[1:4], starts)

    def _draw_later(self, surface: pygame.Surface, later: list[tuple[int, str, str]],
                    key: int) -> None:
        if not later:
            return
        if self._later_for != key:
            lay, theme, text = self.ctx.layout, self.ctx.theme, self.ctx.text
            line = "Later:  " + "   ·   ".join(
                f"{n} {hhmm(s, self.p['timezone'])}" for s, n, _ in later)
            self.later = text.fit(line, "body", 40, theme.colour("muted"), lay.width - 200)
            self._later_for = key
        if self.later is not None:
            lay = self.ctx.layout
            surface.blit(self.later, self.later.get_rect(center=lay.point(lay.width / 2,
                                                                          lay.height - 130)))


def hhmm(epoch_ms: int, timezone: str) -> str:
    """Venue wall-clock time of an event as 19h00 (the venue's style), independent of the PC."""
    moment = dt.datetime.fromtimestamp(epoch_ms // 1000, tz=ZoneInfo(timezone))
    return f"{moment.hour:02d}h{moment.minute:02d}"

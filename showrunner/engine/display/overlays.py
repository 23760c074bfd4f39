"""What is drawn over every scene: the venue badge with its clock and, while the controller
is unreachable, a calm "offline since hh:mm" mark.

Overlays are drawn after the scene and before the present, on every frame including a woken
one; an overlay whose picture changes by itself says when in `overlay_due_ms`."""

from __future__ import annotations

import math

import pygame

from showrunner.contract.scenes import VENUE_VIEW
from showrunner.engine.display.state import DisplayState
from showrunner.engine.draw import panel
from showrunner.engine.scene import SceneContext
from showrunner.engine.venue_badge import venue_time

MINUTE_MS = 60_000  # the venue badge shows the time to the minute
OFFLINE_GRACE_MS = 3000  # do not flash the mark while the first connection is being made


class Overlays(DisplayState):
    def overlays(self, ctx: SceneContext, screen: pygame.Surface) -> None:
        """What is drawn over every scene, on every frame presented."""
        self.badge.draw(ctx, screen, self.time.wall_ms() / 1000, self.venue_zone())
        self.draw_offline_mark(ctx, screen)

    def venue_zone(self) -> str | None:
        """The venue's IANA zone (the `venue` view), for the times the overlays show."""
        return (self.replica.views.get(VENUE_VIEW) or {}).get("timezone")

    def overlay_due_ms(self, show_now: int) -> float:
        """When an overlay changes by itself (show clock): the venue badge's clock at the next
        minute, the offline mark after its grace."""
        wall_now = self.time.wall_ms()
        wait = MINUTE_MS - wall_now % MINUTE_MS
        if self.offline_since is not None:
            shows_at = self.started_ms + OFFLINE_GRACE_MS
            if wall_now < shows_at:
                wait = min(wait, math.ceil(shows_at - wall_now))
        return show_now + wait * self.clock.rate  # a wall-clock wait, on the show clock

    def overlay_state(self) -> tuple[int, bool]:
        """What the overlays show that changes by itself (the badge's minute, the offline
        mark after its grace): a frame where it changes is drawn whole."""
        wall = self.time.wall_ms()
        shown = self.offline_since is not None and wall - self.started_ms >= OFFLINE_GRACE_MS
        return int(wall // MINUTE_MS), shown

    def draw_offline_mark(self, ctx: SceneContext, screen: pygame.Surface) -> None:
        """A small, calm corner mark; guests should barely notice, technicians should."""
        since = self.offline_since
        if since is None or self.time.wall_ms() - self.started_ms < OFFLINE_GRACE_MS:
            return
        key = (since, self.venue_zone())
        if self._mark is None or self._mark[0] != key:
            hhmm = venue_time(since / 1000, key[1])
            text = ctx.text.render(f"offline since {hhmm}", "body", 22,
                                   ctx.theme.colour("muted"))
            lay = ctx.layout
            mark = pygame.Surface((text.get_width() + lay.px(24), text.get_height() + lay.px(8)),
                                  pygame.SRCALPHA)
            panel(mark, mark.get_rect(), ctx.theme.colour("background_top"), lay.px(8), 200)
            mark.blit(text, (lay.px(12), lay.px(4)))
            self._mark = (key, mark)
        mark = self._mark[1]
        w, h = screen.get_size()
        screen.blit(mark, (w - mark.get_width() - ctx.layout.px(12),
                           h - mark.get_height() - ctx.layout.px(12)))

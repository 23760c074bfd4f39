"""The corner badge: the venue's logo, small, with the time, on every scene.

Drawn over each frame by the display (not part of a scene), rebuilt once a minute, so a guest
always sees whose floor this is and the time of day at the venue (its zone from the `venue`
view, whatever this PC's zone); a missing or broken logo shows the time alone.
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pygame

from showrunner.engine.draw import panel
from showrunner.engine.scene import SceneContext

LOGO_H = 34  # logical px
MARGIN = 14


def venue_time(now_s: float, zone: str | None) -> str:
    """"18:05": the time of day at the venue (this PC's zone if none or unknown)."""
    try:
        tz = ZoneInfo(zone) if zone else None
    except (ZoneInfoNotFoundError, ValueError):
        tz = None
    if tz is None:
        return time.strftime("%H:%M", time.localtime(now_s))
    return dt.datetime.fromtimestamp(now_s, tz).strftime("%H:%M")


class Badge:
    def __init__(self, logo: Path | None) -> None:
        self.logo = logo
        self._made: tuple[str, pygame.Surface] | None = None

    def surface(self, ctx: SceneContext, hhmm: str) -> pygame.Surface:
        if self._made is None or self._made[0] != hhmm:
            lay = ctx.layout
            clock = ctx.text.render(hhmm, "bold", 26, ctx.theme.colour("text"))
            logo = (ctx.assets.image(self.logo, (lay.px(160), lay.px(LOGO_H)), fit="contain")
                    if self.logo else None)
            gap, pad = lay.px(12), lay.px(10)
            width = clock.get_width() + (logo.get_width() + gap if logo else 0) + 2 * pad
            height = max(clock.get_height(), logo.get_height() if logo else 0) + pad
            badge = pygame.Surface((width, height), pygame.SRCALPHA)
            panel(badge, badge.get_rect(), ctx.theme.colour("background_top"), lay.px(8), 170)
            x = pad
            if logo:
                badge.blit(logo, (x, (height - logo.get_height()) // 2))
                x += logo.get_width() + gap
            badge.blit(clock, (x, (height - clock.get_height()) // 2))
            self._made = (hhmm, badge)
        return self._made[1]

    def draw(self, ctx: SceneContext, screen: pygame.Surface, now_s: float | None = None,
             zone: str | None = None) -> None:
        """Bottom-left corner (the offline mark takes the bottom right). `zone`: the venue's
        IANA zone (the `venue` view); without one, this PC's."""
        hhmm = venue_time(time.time() if now_s is None else now_s, zone)
        badge = self.surface(ctx, hhmm)
        margin = ctx.layout.px(MARGIN)
        screen.blit(badge, (margin, screen.get_height() - badge.get_height() - margin))

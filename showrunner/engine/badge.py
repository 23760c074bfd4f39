"""The REHEARSAL badge: a small corner mark over every scene while the controller rehearses.

The controller publishes the `rehearsal` view only on a rehearsal log (docs/rehearsal.md), so a
screen, a preview or a render showing that log's views carries the mark; the live show never.
"""

from __future__ import annotations

import pygame

from showrunner.contract.scenes import REHEARSAL_VIEW
from showrunner.engine.draw import panel
from showrunner.engine.scene import SceneContext

VIEW = REHEARSAL_VIEW
LABEL = "REHEARSAL"
VENUE_BADGE_CLEARANCE = 64  # logical px: the venue badge (logo and time) sits below


class RehearsalBadge:
    """Drawn last, bottom-left above the venue's logo-and-time badge (the offline mark takes
    bottom-right), small; built once per screen size."""

    def __init__(self) -> None:
        self._badge: tuple[tuple[int, int], pygame.Surface] | None = None

    def draw(self, ctx: SceneContext, surface: pygame.Surface) -> None:
        if not ctx.views.get(VIEW):
            return
        size = surface.get_size()
        if self._badge is None or self._badge[0] != size:
            self._badge = (size, self._build(ctx))
        badge, margin = self._badge[1], ctx.layout.px(12)
        above_venue_badge = ctx.layout.px(VENUE_BADGE_CLEARANCE)
        surface.blit(badge, (margin, size[1] - badge.get_height() - margin - above_venue_badge))

    @staticmethod
    def _build(ctx: SceneContext) -> pygame.Surface:
        lay = ctx.layout
        text = ctx.text.render(LABEL, "bold", 20, ctx.theme.colour("amber"))
        badge = pygame.Surface((text.get_width() + lay.px(24), text.get_height() + lay.px(8)),
                               pygame.SRCALPHA)
        panel(badge, badge.get_rect(), ctx.theme.colour("background_top"), lay.px(8), 210)
        pygame.draw.rect(badge, ctx.theme.colour("amber"), badge.get_rect(), max(1, lay.px(2)),
                         border_radius=lay.px(8))
        badge.blit(text, (lay.px(12), lay.px(4)))
        return badge

"""Transitions between two scenes. Both scenes keep drawing during it, so there is no black frame.

A transition composes the outgoing and incoming frames; `progress` runs 0 -> 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from showrunner.contract.scenes import TRANSITIONS
from showrunner.engine.easing import clamp01, easing


@dataclass
class Transition:
    kind: str = "cut"
    duration: float = 0.0
    ease: str = "in_out_cubic"
    elapsed: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in TRANSITIONS:
            raise ValueError(f"unknown transition {self.kind!r}; known: {', '.join(TRANSITIONS)}")
        easing(self.ease)  # fail early on a bad name
        if self.kind == "cut":
            self.duration = 0.0

    def update(self, dt: float) -> None:
        self.elapsed += dt

    @property
    def progress(self) -> float:
        if self.duration <= 0:
            return 1.0
        return easing(self.ease)(clamp01(self.elapsed / self.duration))

    @property
    def done(self) -> bool:
        return self.elapsed >= self.duration

    def compose(self, target: pygame.Surface, old: pygame.Surface, new: pygame.Surface) -> None:
        """Draw the blend of `old` and `new` frames (same size as `target`) onto `target`.

        `old` may be `target` itself, already holding the outgoing frame (the host draws it
        there: no buffer for it); a crossfade uses `new` as scratch (a scene draws it afresh
        every frame).
        """
        p = self.progress
        if self.kind == "crossfade":
            alpha = round(255 * p)
            if alpha >= 255:  # a plain blit: blended at alpha 255, SDL took 86 ms at 4K
                target.blit(new, (0, 0))
                return
            if old is not target:
                target.blit(old, (0, 0))
            if alpha > 0:
                # old * (1 - a) + new * a, as two multiplies and an add: at 4K about 5 ms,
                # where SDL's surface-alpha blend takes 6 to 9
                target.fill((255 - alpha,) * 3, special_flags=pygame.BLEND_RGB_MULT)
                new.fill((alpha,) * 3, special_flags=pygame.BLEND_RGB_MULT)
                target.blit(new, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
        elif self.kind == "slide":
            w = target.get_width()
            shift = round(w * p)
            if old is target:  # moved left in place; the columns it leaves are covered next
                target.scroll(-shift, 0)
            else:
                target.blit(old, (-shift, 0))
            target.blit(new, (w - shift, 0))
        else:
            target.blit(new, (0, 0))

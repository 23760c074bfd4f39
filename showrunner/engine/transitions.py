"""Transitions between two scenes. Both scenes keep drawing during it, so there is no black frame.

A transition composes the outgoing and incoming frames; `progress` runs 0 -> 1.
"""

from __future__ import annotations

from collections.abc import Callable
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

    def draw(self, target: pygame.Surface, scratch: pygame.Surface,
             old: Callable[[pygame.Surface], None], new: Callable[[pygame.Surface], None]) -> None:
        """Draw the blend of the outgoing (`old`) and incoming (`new`) scenes' frames onto
        `target`, with `scratch` (a full-screen layer, the host's buffer) for the incoming
        one. Each is drawn only where it shows: a 4K pass costs 1.5 to 2.5
        ms, and the frame has 16.7."""
        if self.kind == "slide":
            self._slide(target, scratch, old, new)
            return
        alpha = round(255 * self.progress) if self.kind == "crossfade" else 255
        if alpha >= 255:  # a plain frame: blended at alpha 255, SDL took 86 ms at 4K
            new(target)
            return
        old(target)
        if alpha > 0:
            # old * (1 - a) + new * a, as two multiplies and an add: at 4K about 5 ms, where
            # SDL's surface-alpha blend takes 6 to 9 (an alpha blit of a per-pixel alpha layer
            # takes 3.5 with its multiply, but a scene draws into one 1 to 2 ms slower)
            new(scratch)
            target.fill((255 - alpha,) * 3, special_flags=pygame.BLEND_RGB_MULT)
            scratch.fill((alpha,) * 3, special_flags=pygame.BLEND_RGB_MULT)
            target.blit(scratch, (0, 0), special_flags=pygame.BLEND_RGB_ADD)

    def _slide(self, target: pygame.Surface, scratch: pygame.Surface,
               old: Callable[[pygame.Surface], None], new: Callable[[pygame.Surface], None]
               ) -> None:
        """The outgoing frame moves left by `shift`, the incoming one follows it in: each
        scene is drawn (clipped) only in the columns it will show."""
        w, h = target.get_size()
        shift = round(w * self.progress)
        whole = target.get_clip()
        if shift < w:
            target.set_clip(whole.clip((shift, 0, w - shift, h)))
            old(target)
            target.set_clip(whole)
            if shift > 0:
                target.scroll(-shift, 0)  # the columns it leaves are covered next
        if shift > 0:
            scratch.set_clip((0, 0, shift, h))
            new(scratch)
            scratch.set_clip(None)
            target.blit(scratch, (w - shift, 0), (0, 0, shift, h))


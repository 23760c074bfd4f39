"""A video clip, full screen, at its own frame rate and on the show clock.

The file (`media`) is found as the attract loop's pictures are (AssetManager.path) and decoded
ahead on a worker thread (showrunner.engine.video). Each frame drawn is the clip's frame for
`show time - start`: `start: scene` counts from the moment the scene came on this screen,
`start: clock` from the show clock's zero, so every screen playing the clip shows the same
frame (a video wall) whenever it joined. Between frames the screen rests: the scene says when
its next frame is due (`next_change_ms`), so a 30 fps clip costs 30 frames a second, not 60.

A file that cannot be opened or stops decoding gives the scene up (`gave_up`): the display
skips it with one log line and shows the playlist's next scene in the same frame. Until the
first frame is decoded the theme's backdrop stands in (a few milliseconds, never black).
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from showrunner.engine.scene import Scene
from showrunner.engine.video import Decoder, Ended, Failed, Frame
from showrunner.scenes.common import paint_backdrop
from showrunner.video.probe import Unplayable

EARLY_S = 0.0005  # a frame due within half a millisecond is shown now (clock rounding)
POLL_MS = 4  # while the worker is behind, look again this soon


class Video(Scene):
    name = "video"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        if not first:
            return
        self.frame: Frame | None = None  # the frame due now
        self.drawn: Frame | None = None  # the frame on the screen
        self.ended = False
        self.decoder: Decoder | None = None
        self.counted = 0  # the decoder's skipped frames already counted as dropped
        on_clock = self.p["start"] == "clock"
        self.base_ms = 0 if on_clock else self.now_ms()
        if not self.p["media"]:
            self.gave_up = "no video named (its 'media' parameter)"
            return
        screen = self.ctx.layout.real
        try:
            self.decoder = Decoder(self.ctx.assets.path(self.p["media"]), screen,
                                   self.p["fit"], self._timeline(), self.p["loop"] or on_clock,
                                   self.ctx.video, self._timeline)
        except Unplayable as exc:
            self.gave_up = str(exc)

    def exit(self) -> None:
        if self.decoder is not None:
            self.decoder.close()
            self.decoder = None
        super().exit()

    def _timeline(self) -> float:
        """Where the clip is now: seconds of show time since its start."""
        return (self.now_ms() - self.base_ms) / 1000

    def tick(self, dt: float) -> None:
        """Take the frame due now; frames due earlier that were never drawn are dropped."""
        if self.decoder is None or self.gave_up:
            return
        now, taken = self._timeline(), 0
        while True:
            item = self.decoder.peek()
            if isinstance(item, Frame) and item.at <= now + EARLY_S:
                self.frame = item
                taken += 1
            elif isinstance(item, Failed):
                self.gave_up = item.why
            elif isinstance(item, Ended):
                self.ended = True
            else:
                break
            self.decoder.pop()
        if taken:
            self.ctx.video.shown += 1
            self.ctx.video.dropped += taken - 1
        skipped = self.decoder.skipped  # frames the worker left, already past
        self.ctx.video.dropped += skipped - self.counted
        self.counted = skipped

    def settle(self) -> None:
        """Wait for the frame due now (headless renders show it, not the moment it decoded)."""
        while self.decoder is not None and not (self.gave_up or self.ended):
            item = self.decoder.peek()
            if item is None:
                self.decoder.wait()
            elif isinstance(item, Frame) and item.at > self._timeline() + EARLY_S:
                return
            self.tick(0.0)

    def next_change_ms(self, now_ms: int) -> int | None:
        if self.gave_up:
            return now_ms
        if self.decoder is None or self.ended:
            return None
        item = self.decoder.peek()
        if isinstance(item, Frame):
            return max(now_ms, self.base_ms + math.ceil((item.at - EARLY_S) * 1000))
        if item is not None:  # the end or a failure: act on it now
            return now_ms
        return now_ms + POLL_MS

    def moving_rects(self) -> list[pygame.Rect] | None:
        """The picture's rectangle when a new frame is due; none at all when the display
        woke to look for a frame the worker has not decoded yet (nothing is presented)."""
        if self.decoder is None or self.frame is None:
            return None
        if self.frame is self.drawn:
            return []
        return [self.decoder.placed.clip(pygame.Rect((0, 0), self.ctx.layout.real))]

    def draw(self, surface: pygame.Surface) -> None:
        if self.decoder is None or self.frame is None:
            paint_backdrop(self.ctx, surface)
            return
        placed = self.decoder.placed
        if not placed.contains(surface.get_rect()):
            paint_backdrop(self.ctx, surface)  # contain: the bars beside the picture
        surface.blit(self.frame.surface, placed)
        self.drawn = self.frame

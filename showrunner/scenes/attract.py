"""Attract loop: full-screen images with a slow pan and zoom, dipping from one to the next.

Images come from the `images` parameter (a list of paths), the "attract" view's
{"images": [...]}, or else the venue's own pictures (assets/attract/, see docs/branding.md).
Each image is scaled once (by the asset manager) to 112% of the screen.

The zoom moves in steps of about one screen pixel at the picture's edge, and each step's
picture (the window that the pan will cross during the step, scaled to the screen) is prepared
in bands during the frames before it is needed. A frame is then one copy of a window of it,
on every core (showrunner.engine.wholeframe), which is what lets the loop keep 60 fps at 4K;
the pan itself moves every frame.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from showrunner.engine import wholeframe
from showrunner.engine.bandscale import BandedScale
from showrunner.engine.easing import in_out_sine
from showrunner.engine.scene import Scene
from showrunner.engine.venue import attract_pictures
from showrunner.scenes.common import paint_backdrop

OVERSCAN = 1.12
ZOOM = 0.06  # how much the picture grows across its slot
FADE = 1.0
DIP_FLOOR = 0.35  # the darkest point between two images: dim, never a black frame
LOOKAHEAD = 90  # frames searched for the next zoom step
STEPS_PER_SECOND = 20  # at most: a step's picture is prepared over at least three frames

Key = tuple[int, int]  # (image, zoom step)

# Scale buffers kept between visits to the scene: allocating one at 4K takes about 17 ms, a
# dropped frame, so it is paid once per display rather than each time the loop comes round.
_spare_scales: list[BandedScale] = []


def _take_scale() -> BandedScale:
    return _spare_scales.pop() if _spare_scales else BandedScale()


class Attract(Scene):
    name = "attract"

    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        listed = doc.get("images")
        self.names = (self.p["images"] or ([str(n) for n in listed] if isinstance(listed, list)
                                           else []) or attract_pictures())[:50]
        w, h = self.ctx.layout.real
        self.picture_size = (round(w * OVERSCAN), round(h * OVERSCAN))
        # One zoom step moves the picture's edges by about one pixel, unless a short slot would
        # then need a new step more often than every third frame (in_out_sine's steepest
        # slope is pi/2): each step's picture is a full-screen scale.
        motion = max(self.p["seconds"], 1.0) + FADE
        self.steps = max(1, min(round(ZOOM * w / 2), math.floor(STEPS_PER_SECOND * motion
                                                                  * 2 / math.pi)))
        if first:
            self.shown, self.coming = _take_scale(), _take_scale()
            self.frame_dt = 1 / 60
            self.standing_in = False
            self.revealed_at: float | None = None  # when a stand-in gave way to the picture
        self.shown.forget()
        self.coming.forget()
        self.plan: tuple[Key, Key, float] | None = None  # (from, next, when)
        self._ask_for_pictures()

    def exit(self) -> None:
        for scale in (self.shown, self.coming):
            scale.forget()
        _spare_scales[:] = [*_spare_scales, self.shown, self.coming][-2:]
        super().exit()

    def tick(self, dt: float) -> None:
        if dt > 0:
            self.frame_dt = min(max(dt, 1 / 240), 1 / 20)
        self._ask_for_pictures()

    def _image(self, index: int) -> pygame.Surface | None:
        """Image `index` scaled to cover the screen with overscan, or None while it loads."""
        return self.ctx.assets.pictures.get(self.names[index], self.picture_size)

    def _ask_for_pictures(self) -> None:
        """Keep the picture on screen and the next one loaded (in the background)."""
        if self.names:
            index = self._shot(self.elapsed)[0]
            self._image(index)
            self._image((index + 1) % len(self.names))

    # the timeline -----------------------------------------------------------------------------
    def _shot(self, elapsed: float) -> tuple[int, float, float]:
        """(image, seconds into its motion, brightness) on screen `elapsed` s into the scene.

        Between images the picture dips (never to black) and comes back: the outgoing image
        dims, then the incoming one brightens, both holding still.
        """
        span = max(self.p["seconds"], 1.0)
        index, t = int(elapsed // span), elapsed % span
        if t >= FADE or elapsed < span or len(self.names) < 2:
            return index % len(self.names), t + FADE, 1.0
        half = FADE / 2
        if t < half:
            return (index - 1) % len(self.names), span + FADE, 1 - (1 - DIP_FLOOR) * t / half
        return index % len(self.names), 2 * FADE, DIP_FLOOR + (1 - DIP_FLOOR) * (t - half) / half

    def _progress(self, motion: float) -> float:
        span = max(self.p["seconds"], 1.0)
        return in_out_sine(min(max(motion / (span + FADE), 0.0), 1.0))

    def _step(self, progress: float) -> int:
        return min(self.steps, int(progress * self.steps))

    # the camera -------------------------------------------------------------------------------
    def _zoom(self, step: int) -> float:
        return 1.0 + ZOOM * step / self.steps

    def _window(self, index: int, step: int, progress: float) -> tuple[float, float, int, int]:
        """The image's window (x, y, w, h) at zoom `step` and pan `progress`."""
        image_w, image_h = self.picture_size
        w, h = self.ctx.layout.real
        zoom = self._zoom(step)
        win_w, win_h = min(round(w / zoom), image_w), min(round(h / zoom), image_h)
        slack_x, slack_y = image_w - win_w, image_h - win_h
        direction = 1 if index % 2 == 0 else -1
        x = slack_x * (0.5 + direction * (progress - 0.5) * 0.9)
        y = slack_y * (0.5 + direction * (0.5 - progress) * 0.6)
        return x, y, win_w, win_h

    def _region(self, key: Key) -> pygame.Rect:
        """The part of the image the pan crosses during one zoom step."""
        index, step = key
        first = self._window(index, step, step / self.steps)
        last = self._window(index, step, min(1.0, (step + 1) / self.steps))
        left, top = math.floor(min(first[0], last[0])), math.floor(min(first[1], last[1]))
        right = math.ceil(max(first[0], last[0])) + first[2]
        bottom = math.ceil(max(first[1], last[1])) + first[3]
        region = pygame.Rect(left, top, right - left, bottom - top)
        return region.clip(pygame.Rect((0, 0), self.picture_size))

    def _start(self, scale: BandedScale, key: Key) -> bool:
        """Begin scaling `key`'s picture into `scale`; False while its image is loading."""
        image = self._image(key[0])
        if image is None:
            return False
        region = self._region(key)
        w, h = self.ctx.layout.real
        zoom = self._zoom(key[1])
        size = (max(w, round(region.width * zoom)), max(h, round(region.height * zoom)))
        scale.start(key, image.subsurface(region), size)
        return True

    def _picture(self, key: Key) -> pygame.Surface | None:
        """The scaled picture for `key`: already shown, prepared in advance, or made now."""
        if self.shown.key != key:
            if self.coming.key != key and not self._start(self.coming, key):
                return None
            self.shown, self.coming = self.coming, self.shown
            self.coming.forget()
        return self.shown.finish()

    def _prepare_next(self, key: Key) -> None:
        """Scale a share of the next zoom step's picture, enough to have it all in time."""
        if self.plan is None or self.plan[0] != key or self.elapsed >= self.plan[2]:
            self.plan = (key, *self._next_change(key))
        _, upcoming, at = self.plan
        if upcoming == key:
            return
        if self.coming.key != upcoming and not self._start(self.coming, upcoming):
            return
        frames_left = max(1, round((at - self.elapsed) / self.frame_dt))
        self.coming.advance(-(-self.coming.remaining // frames_left))

    def _next_change(self, key: Key) -> tuple[Key, float]:
        """The next zoom step shown after `key`, and when; `key` itself if none is near."""
        for frame in range(1, LOOKAHEAD + 1):
            at = self.elapsed + frame * self.frame_dt
            index, motion, _ = self._shot(at)
            upcoming = (index, self._step(self._progress(motion)))
            if upcoming != key:
                return upcoming, at
        return key, self.elapsed + LOOKAHEAD * self.frame_dt / 2

    # drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if not self.names:
            paint_backdrop(self.ctx, surface)
            return
        index, motion, light = self._shot(self.elapsed)
        progress = self._progress(motion)
        key = (index, self._step(progress))
        picture = self._picture(key)
        if picture is None:
            self._draw_stand_in(surface)
            return
        if self.standing_in:
            self.standing_in, self.revealed_at = False, self.elapsed
        if self.revealed_at is not None:
            # after a stand-in the picture comes up out of the dip, as at a change of image
            rise = (self.elapsed - self.revealed_at) / (FADE / 2)
            light = min(light, DIP_FLOOR + (1 - DIP_FLOOR) * min(rise, 1.0))
        region = self._region(key)
        x, y, _, _ = self._window(index, key[1], progress)
        w, h = surface.get_size()
        sx, sy = picture.get_width() / region.width, picture.get_height() / region.height
        offset_x = min(max(round((x - region.x) * sx), 0), picture.get_width() - w)
        offset_y = min(max(round((y - region.y) * sy), 0), picture.get_height() - h)
        self.held = (pygame.Rect(offset_x, offset_y, w, h), round(255 * light))
        self._blit_held(surface)
        self._prepare_next(key)

    def _blit_held(self, surface: pygame.Surface) -> None:
        area, shade = self.held
        wholeframe.window(surface, self.shown.finish(), area)
        if shade < 255:
            wholeframe.dim(surface, shade)

    def _draw_stand_in(self, surface: pygame.Surface) -> None:
        """While an image loads: the last frame held still, or the theme's backdrop."""
        self.standing_in = True
        if self.shown.key is None:
            paint_backdrop(self.ctx, surface)
        else:
            self._blit_held(surface)

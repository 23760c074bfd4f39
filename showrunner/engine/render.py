"""Headless rendering of one scene at time t: what golden tests, previews and `render` use.

Time is stepped exactly: the scene enters at show-clock `start_ms` and is updated in 1/60 s
steps until `at` seconds later, so a frame at t=3.5 is the frame a screen shows 3.5 s in.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import pygame

from showrunner.engine.host import SceneHost
from showrunner.engine.scene import SceneContext
from showrunner.engine.text import TextRecorder
from showrunner.engine.theme import Theme

FPS = 60
MAX_STEPPED = 600.0  # seconds stepped frame by frame; earlier time is skipped in one update


def init_headless(size: tuple[int, int]) -> pygame.Surface:
    """Make sure pygame has a (dummy when headless) display, so surfaces can be converted."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.get_surface()
    if surface is None or surface.get_size() != size:
        surface = pygame.display.set_mode(size)
    return surface


class SteppedClock:
    """A show clock that advances only when told: start_ms + stepped seconds."""

    def __init__(self, start_ms: int) -> None:
        self.start_ms = start_ms
        self.seconds = 0.0

    def now_ms(self) -> int:
        return self.start_ms + round(self.seconds * 1000)


def render_scene(name: str, views: Mapping[str, dict[str, Any]], at: float,
                 size: tuple[int, int], params: Mapping[str, Any] | None = None,
                 start_ms: int = 0, theme: Theme | None = None,
                 recorder: TextRecorder | None = None) -> pygame.Surface:
    """The frame scene `name` shows `at` seconds after entering, as a new Surface.

    With a `recorder`, every string the scene rendered for this frame is noted in it: the
    layers it built on entering and the text of the final frame (nothing is drawn between).
    """
    host, _ = entered(name, views, size, params, at, start_ms, theme, recorder)
    frame = pygame.Surface(size).convert()
    host.draw(frame)
    host.reset()  # the scene leaves: a video's decoder stops
    return frame


def entered(name: str, views: Mapping[str, dict[str, Any]], size: tuple[int, int],
            params: Mapping[str, Any] | None = None, at: float = 0.0, start_ms: int = 0,
            theme: Theme | None = None, recorder: TextRecorder | None = None
            ) -> tuple[SceneHost, SteppedClock]:
    """A headless host showing scene `name` `at` seconds after it entered, with the stepped
    clock it runs on: renders, tests and benchmarks start here."""
    from showrunner.scenes import REGISTRY  # scenes import the engine, not the reverse

    init_headless(size)
    clock = SteppedClock(start_ms)
    ctx = SceneContext.create(size, theme or Theme.load(), views, clock.now_ms)
    ctx.text.recorder = recorder
    host = SceneHost(ctx, REGISTRY)
    if not host.switch(name, params):
        raise ValueError(f"unknown scene {name!r}; known: {', '.join(sorted(REGISTRY))}")
    host.update(0.0)
    advance(host, clock, at)
    ctx.assets.pictures.wait()  # a render shows the pictures, not the moment they were loading
    if host.current is not None:
        host.current.settle()
    return host, clock


def advance(host: SceneHost, clock: SteppedClock, seconds: float) -> None:
    """Step host and clock forward by `seconds` in frame-sized steps."""
    if seconds > MAX_STEPPED:
        clock.seconds += seconds - MAX_STEPPED
        host.update(seconds - MAX_STEPPED)
        seconds = MAX_STEPPED
    steps = round(seconds * FPS)
    for _ in range(steps):
        clock.seconds += 1 / FPS
        host.update(1 / FPS)
    rest = seconds - steps / FPS
    if rest > 0:
        clock.seconds += rest
        host.update(rest)

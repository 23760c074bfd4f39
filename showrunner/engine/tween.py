"""Tweens driven by an explicit dt, so tests and headless renders step time exactly."""

from __future__ import annotations

from showrunner.engine.easing import clamp01, easing


class Tween:
    """A value moving from `start` to `end` over `duration` seconds after `delay` seconds."""

    def __init__(self, start: float, end: float, duration: float, ease: str = "out_cubic",
                 delay: float = 0.0) -> None:
        self.start = start
        self.end = end
        self.duration = max(duration, 0.0)
        self.delay = max(delay, 0.0)
        self.elapsed = 0.0
        self._ease = easing(ease)

    def update(self, dt: float) -> None:
        self.elapsed += dt

    @property
    def progress(self) -> float:
        if self.duration == 0:
            return 1.0 if self.elapsed >= self.delay else 0.0
        return clamp01((self.elapsed - self.delay) / self.duration)

    @property
    def value(self) -> float:
        return self.start + (self.end - self.start) * self._ease(self.progress)

    @property
    def done(self) -> bool:
        return self.elapsed >= self.delay + self.duration

    def retarget(self, end: float, duration: float | None = None) -> None:
        """Head for a new end from wherever the value is now (no jump on screen)."""
        self.start = self.value
        self.end = end
        if duration is not None:
            self.duration = max(duration, 0.0)
        self.elapsed = 0.0
        self.delay = 0.0

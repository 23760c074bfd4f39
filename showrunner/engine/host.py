"""SceneHost: the one place that owns the current scene and switches scenes.

A playlist player or a takeover asks `switch(name, params, transition, at_ms)`; the switch
happens on the first frame at or after `at_ms` on the show clock, so screens that share a clock
change together. The host never leaves the screen empty: an unknown scene name is logged and
the current scene keeps playing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

import pygame

from showrunner.engine.badge import RehearsalBadge
from showrunner.engine.logonce import warn_once
from showrunner.engine.present import Rects, clipped
from showrunner.engine.scene import Scene, SceneContext, drop_spare_layers, keep_spare
from showrunner.engine.still import Still
from showrunner.engine.transitions import Transition
from showrunner.engine.wholeframe import copy, hold

log = logging.getLogger(__name__)

SceneFactory = Callable[[SceneContext], Scene]


@dataclass
class PendingSwitch:
    name: str
    params: dict[str, Any]
    transition: Transition
    at_ms: int | None = None


@dataclass
class SceneHost:
    ctx: SceneContext
    registry: Mapping[str, SceneFactory]
    current: Scene | None = None
    transition: Transition | None = None
    pending: list[PendingSwitch] = field(default_factory=list)
    still: Still = field(default_factory=Still)  # the transitions' old frame, made ahead
    _still: pygame.Surface | None = None  # the outgoing scene's last frame, while it goes
    _leaving: Scene | None = None  # the outgoing scene, until its last frame is drawn
    _entering: PendingSwitch | None = None  # the incoming scene, to enter on the next frame
    badge: RehearsalBadge = field(default_factory=RehearsalBadge)
    left: bool = False  # a scene has left since the display last trimmed the heap

    def switch(self, name: str, params: Mapping[str, Any] | None = None,
               transition: str = "cut", duration: float = 0.6,
               at_ms: int | None = None) -> bool:
        """Queue a switch to scene `name`; False (and one log line) if no such scene."""
        if name not in self.registry:
            warn_once(log, f"scene:{name}", "no scene %r (known: %s); keeping the current one",
                      name, ", ".join(sorted(self.registry)))
            return False
        self.pending.append(PendingSwitch(name, dict(params or {}),
                                          Transition(transition, duration), at_ms))
        self.pending.sort(key=lambda s: -1 if s.at_ms is None else s.at_ms)
        return True

    def update(self, dt: float) -> None:
        """Advance by dt seconds; a scene (and its transition) started in this frame starts
        from nothing, however long the screen rested before it. A scene that comes in by a
        transition enters on the frame after the switch's, which shows the outgoing scene's
        last frame held still."""
        now = self.ctx.now_ms()
        started = self._entering is not None or (bool(self.pending) and (
            self.pending[0].at_ms is None or self.pending[0].at_ms <= now))
        if self._entering is not None:
            entering, self._entering = self._entering, None
            if self._leaving is not None and self._still is not None:  # no frame was drawn
                self._leaving.draw(self._still)
            self._let_go()
            self._enter(entering)
        while self.pending and (self.pending[0].at_ms is None or self.pending[0].at_ms <= now):
            self._start(self.pending.pop(0))
        if self.current is not None:
            self.current.update(0.0 if started else dt)
        if self.transition is not None:
            self.transition.update(0.0 if started else dt)
            if self.transition.done and self.current is not None:
                self.transition = None
                self._switch_done()

    def draw_ahead(self) -> None:
        """At rest: the current scene draws ahead what its next frames need (not while a
        transition runs or a switch is due, when the screen is not at rest)."""
        if self.current is not None and self.transition is None and self._entering is None:
            self.current.draw_ahead()

    def prepare(self, size: tuple[int, int]) -> bool:
        """Ahead of a switch, a band at a time: make ready the full screen its transition
        needs (showrunner.engine.still); True once it is."""
        return self.still.prepare(size)

    def release(self) -> bool:
        """After a switch, a band at a time: hand that full screen's memory back; True once
        it is (or while a transition holds it)."""
        return self.still.release()

    def reset(self) -> None:
        """Show nothing, switch to nothing (a scene raised or gave up, a render is done): the
        scene leaves and the next switch starts afresh."""
        for scene in (self.current, self._leaving):
            if scene is not None:
                with suppress(Exception):  # a scene that raised may raise again as it leaves
                    self._leave(scene)
        self._leaving = None
        self.current, self.transition, self._entering = None, None, None
        self.pending.clear()
        self._switch_done()

    def next_change_ms(self, now_ms: int) -> int | None:
        """When the screen next changes (see Scene.next_change_ms): at once during a
        transition or for a switch due now, else at the next switch or the scene's own time."""
        if self.transition is not None or (self.pending and (
                self.pending[0].at_ms is None or self.pending[0].at_ms <= now_ms)):
            return now_ms
        times = [s.at_ms for s in self.pending]
        if self.current is not None:
            times.append(self.current.next_change_ms(now_ms))
        known = [t for t in times if t is not None]
        return min(known) if known else None

    def changed_rects(self) -> list[pygame.Rect] | None:
        """Where the next frame differs from the last one drawn (after `update`): the current
        scene's moving parts, or None for the whole screen (a scene's first frame, a new view,
        a transition, a scene that does not say)."""
        scene = self.current
        if scene is None or scene.redraw_all or self.transition is not None:
            return None
        return scene.moving_rects()

    def draw(self, surface: pygame.Surface, rects: Rects | None = None) -> None:
        """Draw the frame, only inside `rects` if given (see changed_rects)."""
        with clipped(surface, rects):
            self._draw_scenes(surface)
            self.badge.draw(self.ctx, surface)
        if self.current is not None:  # a blend drawn now: the frame after it is drawn whole
            self.current.redraw_all = self.transition is not None

    def _draw_scenes(self, surface: pygame.Surface) -> None:
        if self._still is not None and self.transition is not None:
            if self.current is None:  # the switch's frame: the outgoing scene's, held
                self._hold(surface, self._still)
            else:
                self.transition.draw(surface, self._still, self.current.draw)
        elif self.current is not None:
            self.current.draw(surface)
        else:
            surface.fill(self.ctx.theme.colour("background_top"))

    def _hold(self, surface: pygame.Surface, still: pygame.Surface) -> None:
        """The switch's frame: the outgoing scene's last frame (mid-transition, the incoming
        one's: the oldest goes), drawn on the screen and kept as the still frame; then the
        scene leaves, its layer handed to the incoming scene (a switch makes no full screen
        on its frame, see prepare). Drawn into the still frame itself, which has an alpha
        channel, a 4K leaderboard took 10 ms where the screen takes 6."""
        if self._leaving is None:  # drawn again: it is kept already
            copy(surface, still)
            return
        self._leaving.draw(surface)
        hold(surface, still)
        self._let_go()

    def _let_go(self) -> None:
        leaving, self._leaving = self._leaving, None
        if leaving is not None:
            self._leave(leaving)

    def _start(self, switch: PendingSwitch) -> None:
        blend = self.current is not None and switch.transition.kind != "cut"
        if self.current is not None:
            if blend:  # the still frame made ready (see prepare), drawn on the next frame
                self._still = self._still or self.still.take(self.ctx.layout.real)
                self._leaving = self.current
            else:
                self._leave(self.current)
            self.current = None
        if blend:  # the incoming scene enters on the next frame: each costs about 6 ms at 4K
            self.transition, self._entering = switch.transition, switch
        else:
            self.transition = None
            self._enter(switch)
            self._switch_done()

    def _enter(self, switch: PendingSwitch) -> None:
        scene = self.registry[switch.name](self.ctx)
        scene.enter(switch.params)
        self.current = scene

    def _leave(self, scene: Scene) -> None:
        if scene.static is not None:
            keep_spare(scene.static)
        scene.exit()
        self.left = True

    def _switch_done(self) -> None:
        """The switch is done: its still frame goes back (see release), and a layer it freed
        that no scene took is freed."""
        self._let_go()  # switched on again before its frame was drawn: never shown
        if self._still is not None:
            self._still = None
            self.still.give_back()
        drop_spare_layers()

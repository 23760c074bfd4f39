"""The scene lifecycle: enter(params) -> update(dt) / draw(surface) each frame -> exit().

Between frames a scene says when its picture next changes (`next_change_ms`), so a screen at
rest neither redraws nor presents: a floor PC left on for months costs almost nothing while a
leaderboard stands still.

A scene reads views only (never rules) through its SceneContext, and is told nothing about
where views come from: the live link, a replica on disk, or a test's dictionary.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pygame

from showrunner.contract.params import drawable
from showrunner.engine import wholeframe
from showrunner.engine.assets import AssetManager
from showrunner.engine.layout import Layout
from showrunner.engine.logonce import warn_once
from showrunner.engine.text import Fonts, TextCache
from showrunner.engine.theme import Theme
from showrunner.engine.video import VideoDecoding

log = logging.getLogger(__name__)

# The full-screen layer of the scene a switch takes off the screen, for the incoming scene to
# draw its own into (keep_spare, spare_layer): a new one costs about 25 ms at 4K, more than a
# frame. Freed when the switch is done (drop_spare_layers), if no scene took it.
_spare_layers: list[pygame.Surface] = []


def spare_layer(size: tuple[int, int]) -> pygame.Surface | None:
    """A full-screen layer of `size` a switch freed, to draw into, if there is one."""
    for i, layer in enumerate(_spare_layers):
        if layer.get_size() == size:
            return _spare_layers.pop(i)
    return None


def keep_spare(layer: pygame.Surface) -> None:
    """A switch has taken `layer`'s scene off the screen: the next scene may draw into it."""
    _spare_layers.append(layer)


def drop_spare_layers() -> None:
    """The switch is done: a layer it freed that no scene took is freed."""
    _spare_layers.clear()


@dataclass
class SceneContext:
    """Everything a scene may use; one per screen, shared by all its scenes."""

    layout: Layout
    theme: Theme
    text: TextCache
    assets: AssetManager
    views: Mapping[str, dict[str, Any]]
    now_ms: Callable[[], int]
    video: VideoDecoding = field(default_factory=VideoDecoding)

    @classmethod
    def create(cls, size: tuple[int, int], theme: Theme, views: Mapping[str, dict[str, Any]],
               now_ms: Callable[[], int], assets: AssetManager | None = None,
               video: VideoDecoding | None = None) -> SceneContext:
        """Build a context for a screen of `size` real pixels (pygame display must exist)."""
        layout = Layout(size)
        return cls(layout=layout, theme=theme, text=TextCache(Fonts(theme, layout)),
                   assets=assets or AssetManager(), views=views, now_ms=now_ms,
                   video=video or VideoDecoding())


class Scene:
    """Base class. Subclasses set `name` (a scene of the catalogue, showrunner.contract.scenes,
    which holds its parameters) and override the hooks."""

    name: ClassVar[str] = ""
    #: the full-screen layer a scene builds when its view changes and blits first each frame
    static: pygame.Surface | None = None
    #: the next frame is drawn whole (entering, a new view); the host clears it after drawing
    redraw_all: bool = True
    #: why the scene cannot play (a video that will not decode): the display skips it, with
    #: one log line, for the playlist's next scene
    gave_up: str | None = None

    def __init__(self, ctx: SceneContext) -> None:
        self.ctx = ctx
        self.elapsed = 0.0
        self.p: dict[str, Any] = {}
        self.doc: dict[str, Any] = {}
        self._doc_obj: object = None

    # lifecycle -------------------------------------------------------------------------------
    def enter(self, params: Mapping[str, Any] | None = None) -> None:
        self.p = drawable_params(self.name, params or {})
        self.elapsed = 0.0
        self._doc_obj = self._current_doc_obj()
        self.doc = self._doc_obj if isinstance(self._doc_obj, dict) else {}
        self.on_view(self.doc, first=True)
        self.redraw_all = True

    def update(self, dt: float) -> None:
        self.elapsed += dt
        found = self._current_doc_obj()
        if found is not self._doc_obj:
            self._doc_obj = found
            self.doc = found if isinstance(found, dict) else {}
            self.on_view(self.doc, first=False)
            self.redraw_all = True
        self.tick(dt)

    def draw(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    def exit(self) -> None:
        """Release per-scene caches (the host hands its full-screen layer to the next scene,
        see keep_spare); shared caches (text, images) stay with the context."""
        self.static = None

    # hooks -----------------------------------------------------------------------------------
    def on_view(self, doc: dict[str, Any], first: bool) -> None:
        """The view changed (or the scene entered): rebuild cached layers, start animations."""

    def tick(self, dt: float) -> None:
        """Advance animations by dt seconds."""

    def draw_ahead(self) -> None:
        """The screen is at rest (no frame due until the scene's next change): draw off screen
        what the coming moving frames will show, so none of them pays for it (a leaderboard's
        next page). Nothing on the screen changes."""

    def next_change_ms(self, now_ms: int) -> int | None:
        """When the picture next changes, on the show clock: `now_ms` (or earlier) while
        something moves, so the next frame is drawn at the full rate; a later time when the
        scene is at rest until then (a countdown's next second, a page turn); None when it is
        at rest until its view changes. A scene that does not say is always moving."""
        return now_ms

    def settle(self) -> None:
        """Headless renders: wait for what the scene loads in the background for this moment
        (a video's frame), so the render shows it rather than its stand-in."""

    def moving_rects(self) -> list[pygame.Rect] | None:
        """Where this frame can differ from the one before (screen pixels), when only part of
        the screen moves: a ticker's digits, a countdown's ring. The display then draws (the
        scene's whole `draw`, clipped) and presents only there. Each rectangle must cover what
        was drawn there last frame as well as now; a fixed box around the moving part does.
        None (the default) redraws the whole screen. Not asked on a scene's first frame, after
        a new view or during a transition: those are always drawn whole."""
        return None

    # helpers ---------------------------------------------------------------------------------
    def draw_layer(self, surface: pygame.Surface) -> None:
        """The frame's first pass: the scene's layer (`static`) over all of it, copied the
        way this host measured fastest (showrunner.engine.wholeframe, .framepaths)."""
        wholeframe.copy(surface, self.layer)

    @property
    def layer(self) -> pygame.Surface:
        """`static` for drawing on and blitting: `on_view` makes it as the scene enters."""
        assert self.static is not None, "on_view makes the layer as the scene enters"
        return self.static

    def _current_doc_obj(self) -> object:
        name = self.p.get("view")
        if not name:
            return None
        doc = self.ctx.views.get(name)
        if doc is None:
            warn_once(log, f"noview:{self.name}:{name}", "scene %s: no view %r yet; drawing "
                      "an empty one", self.name, name)
        return doc

    def now_ms(self) -> int:
        return self.ctx.now_ms()

    def moving_until(self, now_ms: int, seconds: float) -> int | None:
        """For a scene whose motion ends `seconds` into its life (`elapsed`): moving until then,
        at rest after."""
        return now_ms if self.elapsed < seconds else None

    def at_elapsed(self, now_ms: int, seconds: float) -> int:
        """The show-clock time at which `elapsed` reaches `seconds`."""
        return now_ms + max(0, math.ceil((seconds - self.elapsed) * 1000))


def next_second_ms(now_ms: int, deadline_ms: int | None) -> int | None:
    """When a countdown to `deadline_ms`, shown in whole seconds rounded up, next changes:
    at the next whole second before the deadline, or at the deadline; None once it has passed."""
    if deadline_ms is None or deadline_ms <= now_ms:
        return None
    return deadline_ms - (deadline_ms - now_ms - 1) // 1000 * 1000


def drawable_params(scene: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of `scene`, each safe to draw: what was given, clamped or repaired where
    it is out of bounds (an old log, a replica), the catalogue's default where it is unusable.
    Each problem is logged once."""
    params, notes = drawable(scene, given)
    for note in notes:
        warn_once(log, f"param:{note}", "%s", note)
    return params

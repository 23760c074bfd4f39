"""The display process: one screen, one window, a fixed-rate loop that never waits on the network.

Each frame: drain the link's inbox (views, link status, clock offset) without blocking, update
and draw the scene host, mark "offline since hh:mm" while the controller is unreachable, flip.
The replica is saved (throttled, atomically) when views change, so a restart shows the
last-known views at once; a snapshot PNG can be written every N seconds for headless PCs.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from showrunner.engine.clock import ShowClock
from showrunner.engine.draw import panel
from showrunner.engine.host import SceneHost
from showrunner.engine.link import ClockOffset, Link, LinkStatus, ViewChanged
from showrunner.engine.replica import Replica
from showrunner.engine.scene import SceneContext
from showrunner.engine.theme import Theme

log = logging.getLogger(__name__)

FPS = 60
SAVE_EVERY_S = 2.0
OFFLINE_GRACE_MS = 3000  # do not flash the mark while the first connection is being made


@dataclass
class DisplayOptions:
    controller: str
    screen: str
    key: str = ""
    size: tuple[int, int] | None = None
    fullscreen: bool = False
    state_dir: Path = Path("var/screens")
    snapshot: Path | None = None
    snapshot_every: float = 10.0
    scene: str = "leaderboard"
    params: Mapping[str, Any] = field(default_factory=dict)
    theme: Path | None = None
    max_frames: int | None = None  # tests stop the loop after this many frames


def open_window(size: tuple[int, int] | None, fullscreen: bool) -> pygame.Surface:
    """The screen surface: fullscreen at the desktop size, or a window; vsync where offered."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption("Showrunner")
    flags = pygame.FULLSCREEN if fullscreen else 0
    if size is None:
        info = pygame.display.Info()
        size = (info.current_w, info.current_h) if fullscreen and info.current_w > 0 \
            else (1920, 1080)
    surface = None
    if os.environ.get("SDL_VIDEODRIVER") != "dummy":
        try:
            surface = pygame.display.set_mode(size, flags, vsync=1)
        except pygame.error:  # this driver offers no vsync: a plain window
            surface = None
    if surface is None:
        surface = pygame.display.set_mode(size, flags)
    pygame.mouse.set_visible(False)
    return surface


class Display:
    def __init__(self, options: DisplayOptions) -> None:
        self.o = options
        self.state_path = options.state_dir / f"{options.screen}.json"
        self.running = True
        self.replica = Replica.load(self.state_path)
        self.clock = ShowClock()
        self.offline_since: int | None = int(time.time() * 1000)
        self.started_ms = self.offline_since
        self.dirty = False
        self.last_save = 0.0
        self.last_snapshot = 0.0
        self._mark: tuple[int, pygame.Surface] | None = None

    def stop(self, *_: object) -> None:
        self.running = False

    def run(self) -> int:
        screen = open_window(self.o.size, self.o.fullscreen)
        ctx = SceneContext.create(screen.get_size(), Theme.load(self.o.theme),
                                  self.replica.views, self.clock.now_ms)
        from showrunner.scenes import REGISTRY
        host = SceneHost(ctx, REGISTRY)
        if not host.switch(self.o.scene, self.o.params):
            host.switch("leaderboard")
        link = Link(self.o.controller, self.o.screen, self.o.key, self.replica.revisions)
        signal.signal(signal.SIGTERM, self.stop)
        if self.o.snapshot:
            print(f"snapshot: {self.o.snapshot} every {self.o.snapshot_every:g} s", flush=True)
        link.start()
        ticker = pygame.time.Clock()
        frames = 0
        try:
            while self.running:
                dt = ticker.tick(FPS) / 1000
                for event in pygame.event.get():
                    if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and
                                                     event.key == pygame.K_ESCAPE):
                        self.running = False
                self.drain(link.inbox)
                host.update(dt)
                host.draw(screen)
                self.draw_offline_mark(ctx, screen)
                pygame.display.flip()
                self.housekeeping(screen)
                frames += 1
                if self.o.max_frames is not None and frames >= self.o.max_frames:
                    break
        except KeyboardInterrupt:
            pass
        finally:
            link.stop()
            if self.dirty:
                self.replica.save(self.state_path)
            pygame.quit()
        return 0

    def drain(self, inbox: queue.Queue) -> None:
        """Apply everything the link has put on the queue so far; never blocks."""
        while True:
            try:
                message = inbox.get_nowait()
            except queue.Empty:
                return
            if isinstance(message, ViewChanged):
                if self.replica.apply(message.name, message.revision, message.doc):
                    self.dirty = True
            elif isinstance(message, LinkStatus):
                self.offline_since = None if message.online else (
                    self.offline_since or message.since_ms)
            elif isinstance(message, ClockOffset):
                self.clock.offset_ms = message.offset_ms

    def draw_offline_mark(self, ctx: SceneContext, screen: pygame.Surface) -> None:
        """A small, calm corner mark; guests should barely notice, technicians should."""
        since = self.offline_since
        if since is None or time.time() * 1000 - self.started_ms < OFFLINE_GRACE_MS:
            return
        if self._mark is None or self._mark[0] != since:
            hhmm = time.strftime("%H:%M", time.localtime(since / 1000))
            text = ctx.text.render(f"offline since {hhmm}", "body", 22,
                                   ctx.theme.colour("muted"))
            lay = ctx.layout
            mark = pygame.Surface((text.get_width() + lay.px(24), text.get_height() + lay.px(8)),
                                  pygame.SRCALPHA)
            panel(mark, mark.get_rect(), ctx.theme.colour("background_top"), lay.px(8), 200)
            mark.blit(text, (lay.px(12), lay.px(4)))
            self._mark = (since, mark)
        mark = self._mark[1]
        w, h = screen.get_size()
        screen.blit(mark, (w - mark.get_width() - ctx.layout.px(12),
                           h - mark.get_height() - ctx.layout.px(12)))

    def housekeeping(self, screen: pygame.Surface) -> None:
        now = time.monotonic()
        if self.dirty and now - self.last_save >= SAVE_EVERY_S:
            self.replica.save(self.state_path)
            self.dirty = False
            self.last_save = now
        if self.o.snapshot and now - self.last_snapshot >= self.o.snapshot_every:
            save_png(screen, self.o.snapshot)
            self.last_snapshot = now


def save_png(surface: pygame.Surface, path: Path) -> None:
    """Write a PNG atomically (a viewer never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix or '.png'}")
    pygame.image.save(surface, str(tmp))
    os.replace(tmp, path)

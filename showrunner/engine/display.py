"""The display process: one screen, one window, a fixed-rate loop that never waits on the network.

Each frame: drain the link's inbox (views, link status, clock offset) without blocking, ask the
player what to show (the screen's program on the show clock), update and draw the scene host,
mark "offline since hh:mm" while the controller is unreachable, flip. A frame is timed to land
on a scene boundary, so screens of a group change together. A scene that raises is logged and
skipped; the screen goes on with the next one.
The replica is saved (throttled, atomically) when views change, so a restart shows the
last-known views at once; a snapshot PNG can be written every N seconds for headless PCs.
"""

from __future__ import annotations

import base64
import io
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

from showrunner.contract.playlist.schedule import Slot
from showrunner.engine.clock import ShowClock
from showrunner.engine.draw import panel
from showrunner.engine.host import SceneHost
from showrunner.engine.link import (
    ClockOffset,
    Link,
    LinkRefused,
    LinkStatus,
    LogJoined,
    ScreenshotRequested,
    ViewChanged,
)
from showrunner.engine.logonce import warn_once
from showrunner.engine.player import Player
from showrunner.engine.replica import Replica
from showrunner.engine.scene import SceneContext
from showrunner.engine.theme import Theme
from showrunner.engine.venue import venue_file
from showrunner.engine.venue_badge import Badge

log = logging.getLogger(__name__)

FPS = 60
FRAME_S = 1 / FPS
SAVE_EVERY_S = 2.0
HEARTBEAT_EVERY_S = 5.0
SCREENSHOT_EVERY_S = 300.0
SCREENSHOT_SIZE = (320, 180)
VERSION = "0.1.0"
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
        self.player = Player(options.screen, options.scene, options.params)
        self.playing: Slot | None = None
        self.switched_ms: int | None = None
        self.frames = 0
        self.dropped = 0
        self.last_heartbeat = 0.0
        self.last_screenshot = 0.0
        self.want_screenshot = False
        self.resyncs = 0
        self.resync_reason = ""
        self.link: Link | None = None
        self._next_frame = time.monotonic()

    def stop(self, *_: object) -> None:
        self.running = False

    def run(self) -> int:
        screen = open_window(self.o.size, self.o.fullscreen)
        ctx = SceneContext.create(screen.get_size(),
                                  Theme.load(self.o.theme or venue_file("theme.yaml")),
                                  self.replica.views, self.clock.now_ms)
        badge = Badge(venue_file("logo.png"))
        from showrunner.scenes import REGISTRY
        host = SceneHost(ctx, REGISTRY)
        self.link = link = Link(self.o.controller, self.o.screen, self.o.key,
                                self.replica.revisions, self.replica.log_id)
        signal.signal(signal.SIGTERM, self.stop)
        if self.o.snapshot:
            print(f"snapshot: {self.o.snapshot} every {self.o.snapshot_every:g} s", flush=True)
        link.start()
        last = time.monotonic()
        try:
            while self.running:
                self.pace()
                now = time.monotonic()
                dt, last = now - last, now
                if dt > 1.5 * FRAME_S:
                    self.dropped += 1
                for event in pygame.event.get():
                    if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and
                                                     event.key == pygame.K_ESCAPE):
                        self.running = False
                self.drain(link.inbox)
                self.frame(host, screen, dt)
                badge.draw(ctx, screen)
                self.draw_offline_mark(ctx, screen)
                pygame.display.flip()
                if self.playing is not None and self.switched_ms is None:
                    self.switched_ms = self.clock.now_ms()
                    self.heartbeat()
                self.housekeeping(screen)
                self.frames += 1
                if self.o.max_frames is not None and self.frames >= self.o.max_frames:
                    break
        except KeyboardInterrupt:
            pass
        finally:
            link.stop()
            if self.dirty:
                self.replica.save(self.state_path)
            pygame.quit()
        return 0

    def pace(self) -> None:
        """Sleep to the next frame, or to the scene boundary if that comes first, so the
        first frame of a new scene shows at the boundary rather than up to a frame later."""
        now = time.monotonic()
        wake = self._next_frame
        if self.playing is not None:
            boundary = now + (self.playing.end_ms - self.clock.now_ms()) / 1000
            if now <= boundary < wake:
                wake = boundary
        if wake > now:
            time.sleep(wake - now)
        self._next_frame = max(wake, time.monotonic() - FRAME_S) + FRAME_S

    def frame(self, host: SceneHost, screen: pygame.Surface, dt: float) -> None:
        """Switch if the program says so, then update and draw; a scene that raises is
        skipped (logged once) and the next one takes its place in the same frame."""
        for _attempt in range(4):
            slot = self.player.slot(self.replica.views, self.clock.now_ms())
            if self.playing is None or slot.key != self.playing.key or \
                    slot.scene != self.playing.scene:
                host.switch(slot.scene, slot.params, slot.transition)
                self.playing, self.switched_ms = slot, None
            try:
                host.update(dt)
                host.draw(screen)
                return
            except Exception as exc:  # a scene's bug must not take the screen down
                self.player.crashed(self.playing, exc)
                host.current = host.outgoing = host.transition = None
                host.pending.clear()
                self.playing = None
                dt = 0.0

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
                if message.online:
                    self.player.refusal = None
                    self.last_heartbeat = 0.0
            elif isinstance(message, LogJoined):
                self.joined(message)
            elif isinstance(message, LinkRefused):
                self.player.refusal = message.reason
            elif isinstance(message, ScreenshotRequested):
                self.want_screenshot = True
            elif isinstance(message, ClockOffset):
                self.clock.offset_ms = message.offset_ms

    def joined(self, message: LogJoined) -> None:
        """The controller's log: on another one, every view held is dropped (the link then
        resyncs from nothing) and the telemetry says so."""
        if message.reset:
            log.warning("resync from scratch: %s", message.reset)
            self.replica.clear()
            self.resyncs += 1
            self.resync_reason = message.reset
        if message.reset or self.replica.log_id != message.log_id:
            self.replica.log_id = message.log_id
            self.dirty = True

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
        # a file that cannot be written (disk full, folder gone) is logged, never a crash:
        # the screen goes on showing the show
        if self.dirty and now - self.last_save >= SAVE_EVERY_S:
            self.dirty = False
            self.last_save = now
            try:
                self.replica.save(self.state_path)
            except OSError as exc:
                warn_once(log, "replica-save", "cannot save the views to %s (%s); the screen "
                          "goes on, but would start without them", self.state_path, exc)
        if self.o.snapshot and now - self.last_snapshot >= self.o.snapshot_every:
            self.last_snapshot = now
            try:
                save_png(screen, self.o.snapshot)
            except (OSError, pygame.error) as exc:
                warn_once(log, "snapshot-save", "cannot write the snapshot %s (%s)",
                          self.o.snapshot, exc)
        if now - self.last_heartbeat >= HEARTBEAT_EVERY_S:
            self.heartbeat()
        if self.want_screenshot or now - self.last_screenshot >= SCREENSHOT_EVERY_S:
            self.send_screenshot(screen)

    def heartbeat(self) -> None:
        """Telemetry for technicians: version, frame rate, dropped frames, what plays."""
        self.last_heartbeat = time.monotonic()
        if self.link is None:
            return
        uptime = time.time() - self.started_ms / 1000
        self.link.emit("heartbeat", {
            "version": VERSION, "fps": round(self.frames / max(uptime, 1e-3), 1),
            "dropped_frames": self.dropped, "scene": self.playing.scene if self.playing else "",
            "uptime_s": round(uptime, 1), "switched_ms": self.switched_ms or 0,
            "log_id": self.replica.log_id or "", "resyncs": self.resyncs,
            "resync_reason": self.resync_reason})

    def send_screenshot(self, screen: pygame.Surface) -> None:
        self.last_screenshot, self.want_screenshot = time.monotonic(), False
        if self.link is None:
            return
        small = pygame.transform.smoothscale(screen, SCREENSHOT_SIZE)
        buffer = io.BytesIO()
        pygame.image.save(small, buffer, "screenshot.jpg")
        self.link.emit("screenshot", {"jpeg": base64.b64encode(buffer.getvalue()).decode()})


def save_png(surface: pygame.Surface, path: Path) -> None:
    """Write a PNG atomically (a viewer never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix or '.png'}")
    pygame.image.save(surface, str(tmp))
    os.replace(tmp, path)

"""The display process: one screen, one window, a loop that never waits on the network and
draws only when the picture changes.

Each frame: apply what the link has put on its inbox (views, link status, clock offset), ask the
player what to show (the screen's program on the show clock), update and draw the scene host,
mark "offline since hh:mm" while the controller is unreachable, present. While something moves
(a tween, a transition) frames come at 60 a second; at rest the loop waits on the inbox until a
view changes or the next moment the picture changes (a countdown's next second, a page turn, a
scene switch), so a leaderboard that stands still costs almost nothing. Where only part of the
screen moves (a ticker, a countdown ring) a frame is drawn and presented only there
(`Scene.moving_rects`, showrunner.engine.present); anything else that changed the picture (a
view, a switch, a transition, an overlay) makes a whole frame. A frame is timed to land on a
scene boundary, so screens of a group change together. A scene that raises is logged and
skipped; the screen goes on with the next one.

Overlays drawn over the scene (the offline mark) are drawn in `overlays`, after the scene and
before the present, on every frame including a woken one; an overlay whose picture changes by
itself must say when in `overlay_due_ms`.
The replica is saved (throttled, atomically) when views change, so a restart shows the
last-known views at once; a snapshot PNG can be written every N seconds for headless PCs.
"""

from __future__ import annotations

import base64
import io
import logging
import math
import os
import queue
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from showrunner.contract.playlist.schedule import Slot
from showrunner.contract.scenes import VENUE_VIEW
from showrunner.engine.clock import ShowClock, local_ms
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
    ViewPatched,
)
from showrunner.engine.logonce import warn_once
from showrunner.engine.memory import return_freed_surfaces, trim
from showrunner.engine.player import Player
from showrunner.engine.present import Presenter, Rects, clipped
from showrunner.engine.replica import Replica
from showrunner.engine.scene import SceneContext, prepare_layers
from showrunner.engine.theme import Theme
from showrunner.engine.venue import venue_file
from showrunner.engine.venue_badge import Badge, venue_time
from showrunner.engine.watchdog import Notifier

log = logging.getLogger(__name__)

FPS = 60
MINUTE_MS = 60_000  # the venue badge shows the time to the minute
FRAME_S = 1 / FPS
SAVE_EVERY_S = 2.0
HEARTBEAT_EVERY_S = 5.0
SCREENSHOT_EVERY_S = 300.0
SCREENSHOT_SIZE = (320, 180)
VERSION = "0.1.0"
OFFLINE_GRACE_MS = 3000  # do not flash the mark while the first connection is being made
MAX_WAIT_S = 0.5  # at rest the loop still looks at the window and its timers this often
REDRAW_OFFSET_MS = 50  # a clock correction this large is drawn at once (a countdown's second)
PREPARE_MS = 250  # this long before a scene's end, at rest, the next one's layers are made
SWITCH_LAYERS = 2  # the incoming scene's layer and the transition's buffer


class Timebase:
    """The loop's clocks and its wait for the link; tests pass a simulated one."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall_ms(self) -> float:
        return local_ms()

    def wait(self, inbox: queue.Queue, timeout: float) -> object | None:
        """The next message from the link, or None after `timeout` seconds."""
        try:
            return inbox.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None


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
    output: int = 0  # the monitor (pygame display index)
    vsync: bool = False  # whole frames through the GPU at the refresh (open_window)
    max_passes: int | None = None  # tests stop the loop after this many (a frame or a wait)


class NoSuchOutput(Exception):
    """--output names a monitor this PC does not have."""


def open_window(size: tuple[int, int] | None, fullscreen: bool,
                output: int = 0, vsync: bool = False) -> pygame.Surface:
    """The screen surface on monitor `output`: fullscreen at its size, or a window; no mouse
    cursor, and the screen never blanks while it runs.

    By default the plain window surface, where a frame in which only a ticker moves presents
    only the ticker (showrunner.engine.present); with `vsync` (where the driver offers it)
    frames go through the GPU in step with the monitor's refresh, no tearing, but every
    present is a whole frame."""
    pygame.display.init()
    pygame.font.init()
    monitors = pygame.display.get_num_displays()
    if not 0 <= output < monitors:
        raise NoSuchOutput(f"there is no monitor {output}: this PC has {monitors} "
                           f"(--output 0 to {monitors - 1})")
    pygame.display.set_caption("Showrunner")
    flags = pygame.FULLSCREEN if fullscreen else 0
    if size is None:
        desktop = pygame.display.get_desktop_sizes()[output]
        size = desktop if fullscreen and desktop[0] > 0 else (1920, 1080)
    surface = None
    if vsync and os.environ.get("SDL_VIDEODRIVER") != "dummy":
        try:
            surface = pygame.display.set_mode(size, flags, vsync=1, display=output)
        except pygame.error:  # this driver offers no vsync: a plain window
            surface = None
    if surface is None:
        # the window surface itself, not a texture on a renderer: update(rects) sends only those
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
        surface = pygame.display.set_mode(size, flags, display=output)
    pygame.mouse.set_visible(False)
    keep_awake()
    return surface


def keep_awake() -> None:
    """No screen saver, no blanking, no power saving. SDL already inhibits the screen saver
    while a window is open (SDL_VIDEO_ALLOW_SCREENSAVER=0, its default); an X server's own
    blanking timer and DPMS are turned off too, with `xset`, where there is one."""
    if not os.environ.get("DISPLAY") or os.environ.get("SDL_VIDEODRIVER") == "dummy":
        return
    try:
        subprocess.run(["xset", "s", "off", "s", "noblank", "-dpms"], check=True,
                       capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("could not turn the X screen saver off with xset (%s); the kiosk session "
                    "should (docs/kiosk.md)", exc)


class Display:
    def __init__(self, options: DisplayOptions, timebase: Timebase | None = None) -> None:
        self.o = options
        self.time = timebase or Timebase()
        self.state_path = options.state_dir / f"{options.screen}.json"
        self.running = True
        self.replica = Replica.load(self.state_path)
        self.clock = ShowClock(source=self.time.wall_ms)
        self.offline_since: int | None = int(self.time.wall_ms())
        self.started_ms = self.offline_since
        self.dirty = False
        self.last_save = 0.0
        self.last_snapshot = 0.0
        self._mark: tuple[tuple[int, str | None], pygame.Surface] | None = None
        self.player = Player(options.screen, options.scene, options.params)
        self.playing: Slot | None = None
        self.switched_ms: int | None = None
        self.frames = 0  # frames presented
        self.dropped = 0
        self.last_heartbeat = 0.0
        self.last_screenshot = 0.0
        self.want_screenshot = False
        self.resyncs = 0
        self.resync_reason = ""
        self.link: Link | None = None
        self._next_frame = self.time.monotonic()
        self.moving = True  # the last frame drawn was part of a motion
        self.notifier = Notifier.from_env()
        self.presenter = Presenter()
        self._overlays: tuple[int, bool] | None = None
        self._prepare_at = math.inf  # (monotonic) when to make the next switch's layers

    def stop(self, *_: object) -> None:
        self.running = False

    def open(self) -> tuple[pygame.Surface, SceneContext, SceneHost]:
        """The window, the scenes' context and the scene host."""
        screen = open_window(self.o.size, self.o.fullscreen, self.o.output, self.o.vsync)
        theme = Theme.load(self.o.theme or venue_file("theme.yaml"))
        ctx = SceneContext.create(screen.get_size(), theme, self.replica.views, self.clock.now_ms)
        self.badge = Badge(venue_file("logo.png"))
        from showrunner.scenes import REGISTRY
        return screen, ctx, SceneHost(ctx, REGISTRY)

    def run(self) -> int:
        return_freed_surfaces()
        screen, ctx, host = self.open()
        self.link = link = Link(self.o.controller, self.o.screen, self.o.key,
                                self.replica.revisions, self.replica.log_id)
        signal.signal(signal.SIGTERM, self.stop)
        if self.o.snapshot:
            print(f"snapshot: {self.o.snapshot} every {self.o.snapshot_every:g} s", flush=True)
        link.start()
        try:
            self.loop(ctx, host, screen, link.inbox)
        except KeyboardInterrupt:
            pass
        finally:
            link.stop()
            if self.dirty:
                self.replica.save(self.state_path)
            pygame.quit()
        return 0

    def loop(self, ctx: SceneContext, host: SceneHost, screen: pygame.Surface,
             inbox: queue.Queue, seconds: float | None = None) -> None:
        """Draw and present when the picture changes, wait on the inbox in between; stop
        after `seconds` (tests, on their timebase) or max_passes passes."""
        t = self.time
        start = last = t.monotonic()
        wake = start
        passes = 0
        while self.running and (self.o.max_passes is None or passes < self.o.max_passes):
            passes += 1
            message = t.wait(inbox, min(min(wake, self._prepare_at) - t.monotonic(),
                                        MAX_WAIT_S))
            now = t.monotonic()
            if seconds is not None and now - start >= seconds:
                return
            changed = self.drain(inbox, message)
            changed = self.window_events() or changed
            if changed or now >= wake:
                dt, last = now - last, now
                if self.moving and dt > 1.5 * FRAME_S:
                    self.dropped += 1
                overlays = self.overlay_state()
                whole = changed or overlays != self._overlays
                self._overlays = overlays
                rects = self.frame(host, screen, dt, whole)
                with clipped(screen, rects):
                    self.overlays(ctx, screen)
                self.presenter.present(rects)
                self.frames += 1
                if self.frames == 1:
                    self.notifier.ready()
                if self.playing is not None and self.switched_ms is None:
                    self.switched_ms = self.clock.now_ms()
                    self.heartbeat()
                wake = self.plan(host, now)
            self.housekeeping(screen)
            self.release(host)
            self.notifier.alive(t.monotonic())

    def plan(self, host: SceneHost, drawn_at: float) -> float:
        """When to draw next (monotonic): the next frame while something moves, else the
        next moment the picture changes (the scene's own, a scene boundary, an overlay's), so
        the first frame of a new scene shows at its boundary rather than up to a frame late."""
        show_now = self.clock.now_ms()
        scene = host.next_change_ms(show_now)
        self.moving = scene is not None and scene <= show_now
        later = [self.overlay_due_ms(show_now)]
        if not self.moving:
            later.append(scene)
        if self.playing is not None:
            later.append(self.playing.end_ms)
        due = [ms for ms in later if ms is not None]
        mono_now = self.time.monotonic()
        # at least a millisecond on: the show clock is read in whole milliseconds
        # the show clock may run faster than real time (a rehearsal's speed)
        wake = (mono_now + max(1, min(due) - show_now) / 1000 / self.clock.rate if due
                else float("inf"))
        if self.moving:
            if drawn_at - self._next_frame > FRAME_S:  # after a rest, or far behind
                self._next_frame = drawn_at
            self._next_frame += FRAME_S
            wake = min(wake, self._next_frame)
        self._prepare_at = (mono_now + max(0, self.playing.end_ms - PREPARE_MS - show_now)
                            / 1000 / self.clock.rate
                            if self.playing is not None and not self.moving else math.inf)
        return wake

    def window_events(self) -> bool:
        """Handle the window's events: True if the window needs drawing again."""
        expose = False
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and
                                             event.key == pygame.K_ESCAPE):
                self.running = False
            elif event.type in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED):
                expose = True
        return expose

    def overlays(self, ctx: SceneContext, screen: pygame.Surface) -> None:
        """What is drawn over every scene, on every frame presented."""
        self.badge.draw(ctx, screen, self.time.wall_ms() / 1000, self.venue_zone())
        self.draw_offline_mark(ctx, screen)

    def venue_zone(self) -> str | None:
        """The venue's IANA zone (the `venue` view), for the times the overlays show."""
        return (self.replica.views.get(VENUE_VIEW) or {}).get("timezone")

    def overlay_due_ms(self, show_now: int) -> int | None:
        """When an overlay changes by itself (show clock): the venue badge's clock at the next
        minute, the offline mark after its grace."""
        wall_now = self.time.wall_ms()
        wait = MINUTE_MS - wall_now % MINUTE_MS
        if self.offline_since is not None:
            shows_at = self.started_ms + OFFLINE_GRACE_MS
            if wall_now < shows_at:
                wait = min(wait, math.ceil(shows_at - wall_now))
        return show_now + wait * self.clock.rate  # a wall-clock wait, on the show clock

    def overlay_state(self) -> tuple[int, bool]:
        """What the overlays show that changes by itself (the badge's minute, the offline
        mark after its grace): a frame where it changes is drawn whole."""
        wall = self.time.wall_ms()
        shown = self.offline_since is not None and wall - self.started_ms >= OFFLINE_GRACE_MS
        return int(wall // MINUTE_MS), shown

    def frame(self, host: SceneHost, screen: pygame.Surface, dt: float,
              whole: bool = True) -> Rects | None:
        """Switch if the program says so, then update and draw: only where the scene moves
        unless `whole` (something else changed), returning those rectangles (None: all of
        it). A scene that raises is skipped (logged once) and the next one takes its place
        in the same frame."""
        for _attempt in range(4):
            slot = self.player.slot(self.replica.views, self.clock.now_ms())
            if self.playing is None or slot.key != self.playing.key or \
                    slot.scene != self.playing.scene:
                host.switch(slot.scene, slot.params, slot.transition)
                self.playing, self.switched_ms = slot, None
            else:  # the same slot, perhaps with a new end (a takeover told to end)
                self.playing = slot
            try:
                host.update(dt)
                rects = None if whole else host.changed_rects()
                host.draw(screen, rects)
                return rects
            except Exception as exc:  # a scene's bug must not take the screen down
                self.player.crashed(self.playing, exc)
                host.current = host.outgoing = host.transition = None
                host.pending.clear()
                self.playing = None
                dt, whole = 0.0, True
        return None

    def drain(self, inbox: queue.Queue, first: object | None = None) -> bool:
        """Apply `first` and everything else the link has put on the queue so far; never
        blocks. True if any of it may change the picture."""
        changed = False
        message = first
        while True:
            if message is not None:
                changed = self.apply(message) or changed
            try:
                message = inbox.get_nowait()
            except queue.Empty:
                return changed

    def apply(self, message: object) -> bool:
        """One message from the link; True if it may change the picture."""
        if isinstance(message, ViewChanged):
            if self.replica.apply(message.name, message.revision, message.doc):
                self.dirty = True
                return True
        elif isinstance(message, ViewPatched):
            if self.replica.patch(message.name, message.revision, message.base, message.delta):
                self.dirty = True
                return True
            if self.link is not None:
                self.link.request_whole(message.name)
        elif isinstance(message, LinkStatus):
            before = self.offline_since
            self.offline_since = None if message.online else (
                self.offline_since or message.since_ms)
            if message.online:
                self.player.refusal = None
                self.last_heartbeat = 0.0
            return self.offline_since != before or message.online
        elif isinstance(message, LogJoined):
            self.joined(message)
            return True
        elif isinstance(message, LinkRefused):
            self.player.refusal = message.reason
            return True
        elif isinstance(message, ScreenshotRequested):
            self.want_screenshot = True
        elif isinstance(message, ClockOffset):
            # the link refines the clock by a few ms every few seconds: not worth a frame
            changed = (abs(self.clock.correction_ms(message.fix)) >= REDRAW_OFFSET_MS
                       or message.rate != self.clock.rate)
            self.clock.fix = message.fix
            return changed
        return False

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
        if since is None or self.time.wall_ms() - self.started_ms < OFFLINE_GRACE_MS:
            return
        key = (since, self.venue_zone())
        if self._mark is None or self._mark[0] != key:
            hhmm = venue_time(since / 1000, key[1])
            text = ctx.text.render(f"offline since {hhmm}", "body", 22,
                                   ctx.theme.colour("muted"))
            lay = ctx.layout
            mark = pygame.Surface((text.get_width() + lay.px(24), text.get_height() + lay.px(8)),
                                  pygame.SRCALPHA)
            panel(mark, mark.get_rect(), ctx.theme.colour("background_top"), lay.px(8), 200)
            mark.blit(text, (lay.px(12), lay.px(4)))
            self._mark = (key, mark)
        mark = self._mark[1]
        w, h = screen.get_size()
        screen.blit(mark, (w - mark.get_width() - ctx.layout.px(12),
                           h - mark.get_height() - ctx.layout.px(12)))

    def prepare_switch(self, screen: pygame.Surface) -> None:
        """Just before the scene's end, while the screen rests, make the full-screen layers
        the switch will need (`plan` says when): made on the switch's frame they cost it about
        30 ms at 4K, and kept all the time they cost 64 MiB. A screen that is moving then
        makes them on the switch's frame."""
        if self.time.monotonic() >= self._prepare_at:
            self._prepare_at = math.inf
            prepare_layers(screen.get_size(), SWITCH_LAYERS, screen)

    def release(self, host: SceneHost) -> None:
        """At rest after a scene has left, hand back to the system the heap memory it freed
        (a leaderboard's rows: 20 MiB at 4K): not while moving, where it cost a transition's
        last frame at 4K 8 ms (the pages are faulted in again as they are reused)."""
        if host.left and not self.moving:
            host.left = False
            trim()

    def housekeeping(self, screen: pygame.Surface) -> None:
        self.prepare_switch(screen)
        now = self.time.monotonic()
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
        """Telemetry for technicians: version, frames presented a second since start (near
        0 while the screen rests), frames dropped while moving, what plays."""
        self.last_heartbeat = self.time.monotonic()
        if self.link is None:
            return
        uptime = (self.time.wall_ms() - self.started_ms) / 1000
        self.link.emit("heartbeat", {
            "version": VERSION, "fps": round(self.frames / max(uptime, 1e-3), 1),
            "dropped_frames": self.dropped, "scene": self.playing.scene if self.playing else "",
            "uptime_s": round(uptime, 1), "switched_ms": self.switched_ms or 0,
            "log_id": self.replica.log_id or "", "resyncs": self.resyncs,
            "resync_reason": self.resync_reason,
            "clock_offset_ms": round(self.clock.fix.offset_ms)})

    def send_screenshot(self, screen: pygame.Surface) -> None:
        self.last_screenshot, self.want_screenshot = self.time.monotonic(), False
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

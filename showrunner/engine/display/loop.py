"""The display's loop: apply what the link has sent, switch and draw when the picture
changes, present, and in between wait on the inbox until a view changes or the next moment the
picture changes by itself.

Each frame: apply what the link has put on its inbox (`Inbox`), ask the player what to show
(the screen's program on the show clock), update and draw the scene host, draw the overlays
(`Overlays`), present. While something moves frames come at 60 a second; at rest the loop
waits until the next change it knows of (`plan`). A frame is timed to land on a scene
boundary, so screens of a group change together. Between passes, `Upkeep` saves, snapshots
and reports.
"""

from __future__ import annotations

import math
import queue
import signal

import pygame

from showrunner.engine.display.inbox import Inbox
from showrunner.engine.display.overlays import Overlays
from showrunner.engine.display.upkeep import Upkeep
from showrunner.engine.display.window import open_window
from showrunner.engine.framepaths import choose
from showrunner.engine.host import SceneHost
from showrunner.engine.link import Link
from showrunner.engine.memory import return_freed_surfaces
from showrunner.engine.present import Rects, clipped
from showrunner.engine.scene import SceneContext
from showrunner.engine.theme import Theme
from showrunner.engine.venue import venue_file
from showrunner.engine.venue_badge import Badge

FPS = 60
FRAME_S = 1 / FPS
MAX_WAIT_S = 0.5  # at rest the loop still looks at the window and its timers this often
PREPARE_MS = 250  # this long before a scene's end its transition's full screen is made ready


class Display(Inbox, Overlays, Upkeep):
    """One screen: its window, its link to the controller and the loop between them."""

    def open(self) -> tuple[pygame.Surface, SceneContext, SceneHost]:
        """The window, the scenes' context and the scene host; whole frames take the ways
        measured fastest on this host for this screen (showrunner.engine.framepaths)."""
        screen = open_window(self.o.size, self.o.fullscreen, self.o.output, self.o.vsync)
        self.frame_paths = choose(screen)
        theme = Theme.load(self.o.theme or venue_file("theme.yaml"))
        ctx = SceneContext.create(screen.get_size(), theme, self.replica.views, self.clock.now_ms,
                                  video=self.video)
        self.badge = Badge(venue_file("logo.png"))
        from showrunner.scenes import REGISTRY
        return screen, ctx, SceneHost(ctx, REGISTRY)

    def run(self) -> int:
        return_freed_surfaces()
        screen, ctx, host = self.open()
        self.link = link = Link(self.o.controller, self.o.screen, self.o.key,
                                self.replica.revisions, self.replica.log_id)
        signal.signal(signal.SIGTERM, self.stop)
        self.want_media()
        self.media.start()
        if self.o.snapshot:
            print(f"snapshot: {self.o.snapshot} every {self.o.snapshot_every:g} s", flush=True)
        link.start()
        try:
            self.loop(ctx, host, screen, link.inbox)
        except KeyboardInterrupt:
            pass
        finally:
            host.reset()  # the scene leaves: a video's decoder stops
            link.stop()
            self.media.stop()
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
            drained = self.drain(inbox, message)
            exposed = self.window_events()
            if drained or exposed or now >= wake:
                dt, last = now - last, now
                if self.moving and dt > 1.5 * FRAME_S:
                    self.dropped += 1
                overlays = self.overlay_state()
                # a scene's new view: the host knows what it redraws (all of it by default)
                whole = exposed or (drained and not self.views_only) or \
                    overlays != self._overlays
                self._overlays = overlays
                rects = self.frame(host, screen, dt, whole)
                with clipped(screen, rects):
                    self.overlays(ctx, screen)
                self.presenter.present(rects)
                self.frames += rects is None or bool(rects)  # [] presents nothing
                if self.frames == 1:
                    self.notifier.ready()
                if self.playing is not None and self.switched_ms is None:
                    self.switched_ms = self.clock.now_ms()
                    self.heartbeat()
                wake = self.plan(host, now)
            self.housekeeping(host, screen)
            self.release(host)
            self.notifier.alive(t.monotonic())

    def plan(self, host: SceneHost, drawn_at: float) -> float:
        """When to draw next (monotonic): the next frame while something moves, else the
        next moment the picture changes (the scene's own, a scene boundary, an overlay's), so
        the first frame of a new scene shows at its boundary rather than up to a frame late."""
        show_now = self.clock.now_ms()
        scene = host.next_change_ms(show_now)
        self.moving = scene is not None and scene <= show_now
        later: list[float | None] = [self.overlay_due_ms(show_now)]
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
                            if self.playing is not None else math.inf)
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

    def frame(self, host: SceneHost, screen: pygame.Surface, dt: float,
              whole: bool = True) -> Rects | None:
        """Switch if the program says so, then update and draw: only where the scene moves
        unless `whole` (something else changed), returning those rectangles (None: all of
        it). A scene that raises or gives up (a video that will not decode) is skipped
        (logged once) and the next one takes its place in the same frame."""
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
                why = host.current.gave_up if host.current is not None else None
                if why is None:
                    rects = None if whole else host.changed_rects()
                    host.draw(screen, rects)
                    return rects
                self.player.gave_up(self.playing, why)
            except Exception as exc:  # a scene's bug must not take the screen down
                self.player.crashed(self.playing, exc)
            host.reset()
            self.playing = None
            dt, whole = 0.0, True
        return None

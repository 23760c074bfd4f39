"""Between frames: the scene's next moving frames drawn ahead at rest, the replica saved, the
snapshot written, the telemetry sent, the next switch's layers made and freed memory handed
back, each when it is due.

The replica is saved (throttled, atomically) when views change, so a restart shows the
last-known views at once; a snapshot PNG can be written every N seconds for headless PCs."""

from __future__ import annotations

import logging
import math

import pygame

from showrunner.engine.display.telemetry import Telemetry
from showrunner.engine.display.window import save_png
from showrunner.engine.host import SceneHost
from showrunner.engine.logonce import warn_once
from showrunner.engine.memory import trim

log = logging.getLogger(__name__)

SAVE_EVERY_S = 2.0


class Upkeep(Telemetry):
    def housekeeping(self, host: SceneHost, screen: pygame.Surface) -> None:
        if not self.moving:  # no frame due until the scene's next change
            host.draw_ahead()
        self.prepare_switch(host, screen)
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
        self.report(screen, now)

    def prepare_switch(self, host: SceneHost, screen: pygame.Surface) -> None:
        """Just before the scene's end (`plan` says when), make ready the full screen the
        switch's transition will need, and after it hand its memory back
        (showrunner.engine.still): a band a pass while the screen moves (all at once it cost
        a frame about 25 ms at 4K to make, 8 to hand back), all of it at rest; kept all the
        time it would cost 32 MiB."""
        if self.time.monotonic() >= self._prepare_at:
            while not host.prepare(screen.get_size()):
                if self.moving:
                    return
            self._prepare_at = math.inf
        else:
            while not host.release():
                if self.moving:
                    return

    def release(self, host: SceneHost) -> None:
        """At rest after a scene has left, hand back to the system the heap memory it freed
        (a leaderboard's rows: 20 MiB at 4K): not while moving, where it cost a transition's
        last frame at 4K 8 ms (the pages are faulted in again as they are reused)."""
        if host.left and not self.moving:
            host.left = False
            trim()

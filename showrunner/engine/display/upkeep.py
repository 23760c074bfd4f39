"""Between frames: the replica saved, the snapshot written, the telemetry sent, the next
switch's layers made and freed memory handed back, each when it is due.

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
from showrunner.engine.scene import drop_spare_layers, prepare_layers

log = logging.getLogger(__name__)

SAVE_EVERY_S = 2.0


class Upkeep(Telemetry):
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
        self.report(screen, now)

    def prepare_switch(self, screen: pygame.Surface) -> None:
        """Just before the scene's end, while the screen rests, make the full-screen layers
        the switch will need (`plan` says when): made on the switch's frame they cost it about
        30 ms at 4K, and kept all the time they cost 64 MiB. A screen that is moving then
        makes them on the switch's frame."""
        if self.time.monotonic() >= self._prepare_at:
            self._prepare_at = math.inf
            prepare_layers(screen.get_size(), screen)

    def release(self, host: SceneHost) -> None:
        """At rest after a scene has left, free the layers kept for a switch (made again
        before the next, see prepare_switch) and hand back to the system the heap memory it
        freed (a leaderboard's rows: 20 MiB at 4K): not while moving, where a switch would
        make its layers on its frame (20 ms each at 4K) and trimming cost a transition's last
        frame at 4K 8 ms (the pages are faulted in again as they are reused)."""
        if host.left and not self.moving:
            host.left = False
            drop_spare_layers()
            trim()

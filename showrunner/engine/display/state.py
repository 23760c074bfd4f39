"""What a display holds between frames, shared by the parts of its loop (a mixin each)."""

from __future__ import annotations

import math

import pygame

from showrunner.contract.playlist.schedule import Slot
from showrunner.engine.clock import ShowClock
from showrunner.engine.display.options import DisplayOptions, Timebase, first_address
from showrunner.engine.framepaths import Timing
from showrunner.engine.link import Link, Wake
from showrunner.engine.media_gate import MediaGate
from showrunner.engine.mediacache import MediaCache
from showrunner.engine.player import Player
from showrunner.engine.present import Presenter
from showrunner.engine.replica import Replica
from showrunner.engine.venue_badge import Badge
from showrunner.engine.video import VideoDecoding
from showrunner.engine.watchdog import Notifier


class DisplayState:
    """The replica of the views, the show clock, what plays, the link's status and the
    counters the telemetry reports."""

    badge: Badge  # made with the window (Display.open)

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
        self.media = MediaCache(options.media_dir or options.state_dir / "media",
                                options.media_url or first_address(options.controller),
                                options.screen,
                                options.key,
                                options.media_limit_bytes, self._media_arrived)
        self.player = Player(options.screen, options.scene, options.params,
                             MediaGate(self.media))
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
        self.video = VideoDecoding(options.hwaccel)  # the scenes' (SceneContext.video)
        self._overlays: tuple[int, bool] | None = None
        self._prepare_at = math.inf  # (monotonic) when to make the next switch's full screen ready
        self.frame_paths: dict[str, Timing] = {}  # whole frames' ways (Display.open)

    def stop(self, *_: object) -> None:
        self.running = False

    def _media_arrived(self) -> None:
        """From the cache's worker: a file is here, so the loop draws again (a playlist that
        waited for it may play now)."""
        if self.link is not None:
            self.link.inbox.put(Wake())

"""What the link puts on the display's inbox, applied: views, the link's status, the log
joined, a refusal, a screenshot asked for, the clock's offset."""

from __future__ import annotations

import logging
import queue
from collections.abc import Mapping
from typing import Any

from showrunner.contract.media import needed
from showrunner.contract.scenes import OVERLAY_VIEWS
from showrunner.engine.display.state import DisplayState
from showrunner.engine.link import (
    ClockOffset,
    LinkRefused,
    LinkStatus,
    LogJoined,
    ScreenshotRequested,
    ViewChanged,
    ViewPatched,
    Wake,
)

log = logging.getLogger(__name__)

REDRAW_OFFSET_MS = 50  # a clock correction this large is drawn at once (a countdown's second)


class Inbox(DisplayState):
    #: the changes drained last were all to scenes' views (not an overlay's, the link's or
    #: the clock's): the scene then says where it redraws (SceneHost.changed_rects), so a
    #: live heat's credits present only their rows (a scene says nothing: all of it)
    views_only: bool = False
    def drain(self, inbox: queue.Queue, first: object | None = None) -> bool:
        """Apply `first` and everything else the link has put on the queue so far; never
        blocks. True if any of it may change the picture; `views_only` then says whether
        every such change was to a scene's view."""
        changed = False
        self.views_only = True
        message = first
        while True:
            if message is not None and self.apply(message):
                changed = True
                self.views_only = self.views_only and isinstance(
                    message, ViewChanged | ViewPatched) and message.name not in OVERLAY_VIEWS
            try:
                message = inbox.get_nowait()
            except queue.Empty:
                return changed

    def apply(self, message: object) -> bool:
        """One message from the link; True if it may change the picture."""
        if isinstance(message, ViewChanged):
            if self.replica.apply(message.name, message.revision, message.doc):
                self.dirty = True
                self.want_media(message.name)
                return True
        elif isinstance(message, ViewPatched):
            if self.replica.patch(message.name, message.revision, message.base, message.delta):
                self.dirty = True
                self.want_media(message.name)
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
        elif isinstance(message, Wake):
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

    def want_media(self, name: str | None = None) -> None:
        """Tell the media cache what the screen's program needs (when its own view
        changed, or `name` None: at start, from the views saved)."""
        if name is not None and name != self.player.view_name:
            return
        view = self.replica.views.get(self.player.view_name) or {}
        wanted: dict[str, Mapping[str, Any]] = {}
        for entry in view.get("playlists") or []:
            wanted.update(needed(entry))
        self.media.want(wanted)

    def joined(self, message: LogJoined) -> None:
        """The controller's log: on another one, every view held is dropped (the link then
        resyncs from nothing) and the telemetry says so."""
        if message.reset:
            log.warning("resync from scratch: %s", message.reset)
            self.replica.clear()
            self.resyncs += 1
            self.resync_reason = message.reset
        if self.o.media_url is None:  # media come from the controller it reached
            self.media.url = message.url.rstrip("/")
        if message.reset or self.replica.log_id != message.log_id:
            self.replica.log_id = message.log_id
            self.dirty = True

"""Telemetry for technicians, sent up the link: a heartbeat every few seconds and a small
screenshot every few minutes or when the console asks for one."""

from __future__ import annotations

import base64
import io
from importlib.metadata import version

import pygame

from showrunner.engine.display.state import DisplayState
from showrunner.engine.wholeframe import ways

VERSION = version("showrunner")  # the installed package's, as pyproject.toml names it
HEARTBEAT_EVERY_S = 5.0
SCREENSHOT_EVERY_S = 300.0
SCREENSHOT_SIZE = (320, 180)


class Telemetry(DisplayState):
    def report(self, screen: pygame.Surface, now: float) -> None:
        """The heartbeat and the screenshot, each if it is due at `now` (monotonic)."""
        if now - self.last_heartbeat >= HEARTBEAT_EVERY_S:
            self.heartbeat()
        if self.want_screenshot or now - self.last_screenshot >= SCREENSHOT_EVERY_S:
            self.send_screenshot(screen)

    def heartbeat(self) -> None:
        """Version, frames presented a second since start (near 0 while the screen rests),
        frames dropped while moving (and video frames never shown), what plays, how video
        is decoded, the way each whole-frame operation takes (showrunner.engine.framepaths:
        `copy=pygame crossfade=pygame dim=numkong`), and while its playlists wait for media
        what is missing and how far the download is."""
        self.last_heartbeat = self.time.monotonic()
        if self.link is None:
            return
        uptime = (self.time.wall_ms() - self.started_ms) / 1000
        self.link.emit("heartbeat", {
            "version": VERSION, "fps": round(self.frames / max(uptime, 1e-3), 1),
            "dropped_frames": self.dropped + self.video.dropped,
            "scene": self.playing.scene if self.playing else "",
            "uptime_s": round(uptime, 1), "switched_ms": self.switched_ms or 0,
            "log_id": self.replica.log_id or "", "resyncs": self.resyncs,
            "resync_reason": self.resync_reason,
            "clock_offset_ms": round(self.clock.fix.offset_ms),
            "video_decode": self.video.status,
            "frame_paths": " ".join(f"{operation}={way}" for operation, way in ways().items()),
            **({"media": media} if (media := self.media.progress()) else {})})

    def send_screenshot(self, screen: pygame.Surface) -> None:
        self.last_screenshot, self.want_screenshot = self.time.monotonic(), False
        if self.link is None:
            return
        small = pygame.transform.smoothscale(screen, SCREENSHOT_SIZE)
        buffer = io.BytesIO()
        pygame.image.save(small, buffer, "screenshot.jpg")
        self.link.emit("screenshot", {"jpeg": base64.b64encode(buffer.getvalue()).decode()})

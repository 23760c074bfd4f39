"""Video frames decoded ahead of the screen on a worker thread, ready to blit.

A worker decodes with PyAV (FFmpeg) and converts each frame, scaled to the size it is shown at,
into the display's own byte order (one libswscale call, which like the decoding itself runs
without Python's lock), then wraps it as a surface without a copy. It keeps at most AHEAD
frames ready; the frame loop takes the frame due at each moment and blits it. At the end of a
looping clip the worker seeks back to the start and goes on, so the next loop's first frames
are ready before the last one leaves the screen: no black or repeated frame at the seam.

Frames are placed on the clip's timeline: loop number x the clip's length + the frame's own
time. The scene maps the show clock onto that timeline (showrunner.scenes.video).

Hardware decoding (`showrunner display --hwaccel vaapi`) is asked for only when the screen was
told to; where the PC cannot (no such device, or a codec it does not decode) decoding falls back
to software, said once in the log and in the screen's telemetry (`video_decode`).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import av
import pygame
from av.codec.hwaccel import HWAccel

from showrunner.engine.pictures import BYTE_ORDER
from showrunner.video.probe import Unplayable, is_file, said

log = logging.getLogger(__name__)

AHEAD = 6  # frames decoded ahead: 200 ms at 30 fps; 200 MiB at 4K would be AHEAD x 33 MiB
SOFTWARE = "software"


class VideoDecoding:
    """How this screen decodes video (`--hwaccel`), what it found, and the frames its video
    scenes showed and dropped, for the telemetry. One per screen, in its SceneContext."""

    def __init__(self, hwaccel: str | None = None) -> None:
        self.hwaccel = hwaccel
        self.status = hwaccel or SOFTWARE  # until a video has been opened
        self.shown = 0
        self.dropped = 0

    def open(self, path: Path) -> av.container.InputContainer:
        """The container, decoding on the device asked for if it can, else in software."""
        if self.hwaccel is not None:
            try:
                container = av.open(str(path), hwaccel=HWAccel(
                    device_type=self.hwaccel, allow_software_fallback=False))
                video = container.streams.video
                if video and video[0].codec_context is not None and \
                        video[0].codec_context.is_hwaccel:
                    self.status = self.hwaccel
                    return container
                container.close()
                reason = "no decoder of this video's codec on the device"
            except (av.error.FFmpegError, RuntimeError, OSError, ValueError) as exc:
                reason = str(exc)
            log.warning("hardware video decoding (%s) is not available on this PC (%s); "
                        "decoding in software", self.hwaccel, reason)
            self.status = f"{SOFTWARE} ({self.hwaccel} not available: {reason})"
            self.hwaccel = None
        return av.open(str(path))


@dataclass
class Frame:
    """A decoded frame: where it is on the clip's timeline and its picture."""

    at: float  # seconds
    number: int  # the frame's place on the timeline (0, 1, ... across loops)
    surface: pygame.Surface
    keep: Any = None  # the decoded frame whose memory `surface` wraps


@dataclass
class Ended:
    """No frame after the last one (a clip that does not loop)."""


@dataclass
class Failed:
    why: str


Item = Frame | Ended | Failed


class Decoder:
    """One clip decoded from timeline time `start` (seconds), each frame scaled to `fit` a
    screen of `screen` pixels ("cover": fill it, cropping; "contain": all of it) and shown at
    `placed`.

    Opening happens here, so an unreadable file is Unplayable at once; the worker decodes until
    `close`. Used from the frame loop's thread (`peek`, `pop`, `close`) and the worker.
    """

    def __init__(self, path: Path, screen: tuple[int, int], fit: str, start: float,
                 loop: bool, decoding: VideoDecoding,
                 timeline: Callable[[], float] | None = None) -> None:
        if not is_file(path):  # on this screen: the media cache has not fetched it, a typo
            raise Unplayable(f"there is no file {said(path)}")
        try:
            self._container = decoding.open(path)
        except av.error.FFmpegError as exc:
            raise Unplayable(f"{path.name!r} cannot be decoded ({exc.strerror or exc})") from None
        except (OSError, ValueError) as exc:
            raise Unplayable(f"{path.name!r} cannot be read ({exc})") from None
        if not self._container.streams.video or \
                self._container.streams.video[0].codec_context is None:
            self._container.close()
            raise Unplayable(f"{path.name!r} holds no video picture this screen decodes")
        self._stream = stream = self._container.streams.video[0]
        stream.thread_type = "AUTO"  # frame and slice threads: FFmpeg's own, lock-free
        rate = stream.average_rate or stream.guessed_rate
        self.fps = float(rate) if rate else 30.0
        if stream.duration is not None and stream.time_base is not None:
            self.length = float(stream.duration * stream.time_base)
        else:
            self.length = (self._container.duration or 0) / av.time_base
        if self.length <= 0:
            self._container.close()
            raise Unplayable(f"{path.name!r} has no length")
        width, height = stream.codec_context.width, stream.codec_context.height
        if width <= 0 or height <= 0:
            self._container.close()
            raise Unplayable(f"{path.name!r} has no picture size")
        self.placed = placement((width, height), screen, fit)
        self.size = self.placed.size
        self.name = path.name
        self.loop = loop
        #: where the screen is on the timeline now: a frame already past (its successor due)
        #: is not converted (the worker catches up), counted in `skipped`
        self._timeline = timeline
        self.skipped = 0
        self._format, self._order = _pixel_format()
        self._items: deque[Item] = deque()
        self._ready = threading.Condition()
        self._stop = False
        self._worker = threading.Thread(target=self._run, args=(start,), daemon=True,
                                        name=f"video:{path.name}")
        self._worker.start()

    # the frame loop's side -------------------------------------------------------------------
    def peek(self) -> Item | None:
        """The next item, if the worker has made it."""
        with self._ready:
            return self._items[0] if self._items else None

    def pop(self) -> None:
        with self._ready:
            if self._items:
                self._items.popleft()
                self._ready.notify_all()

    def wait(self, timeout: float = 10.0) -> None:
        """Until an item is ready (headless renders, tests)."""
        with self._ready:
            self._ready.wait_for(lambda: bool(self._items) or self._stop, timeout)

    def close(self) -> None:
        with self._ready:
            self._stop = True
            self._items.clear()
            self._ready.notify_all()
        self._worker.join(timeout=5)
        self._container.close()

    # the worker ------------------------------------------------------------------------------
    def _put(self, item: Item) -> bool:
        """Hand `item` over, waiting for room; False once closed."""
        with self._ready:
            self._ready.wait_for(lambda: len(self._items) < AHEAD or self._stop)
            if self._stop:
                return False
            self._items.append(item)
            self._ready.notify_all()
            return True

    def _run(self, start: float) -> None:
        loops = int(start // self.length) if self.loop else 0
        position = start - loops * self.length
        period = 1 / self.fps
        try:
            while True:
                if not self._one_pass(loops, position, period):
                    return
                if not self.loop:
                    self._put(Ended())
                    return
                loops, position = loops + 1, 0.0
        except (av.error.FFmpegError, OSError, ValueError, MemoryError) as exc:
            self._put(Failed(f"{self.name!r} stopped decoding "
                             f"({getattr(exc, 'strerror', None) or exc})"))

    def _one_pass(self, loops: int, position: float, period: float) -> bool:
        """Decode the clip once from `position` (seconds into it); False once closed."""
        stream, base = self._stream, loops * self.length
        unit = stream.time_base
        assert unit is not None  # a stream that decodes has one
        origin = float(stream.start_time * unit) if stream.start_time else 0.0
        self._container.seek(int((origin + position) / unit), stream=stream, backward=True)
        seen = 0
        held: tuple[float, av.VideoFrame] | None = None  # decoded, handed over once the
        for frame in self._container.decode(stream):  # next one says whether it is past
            if frame.pts is None:
                continue
            at = float(frame.pts * unit) - origin
            if at + period <= position + 1e-6 or at >= self.length - 1e-6:
                continue  # before the start asked for (since the keyframe), or past the end
            seen += 1
            if held is not None and not self._hand(base, *held, self._past(base + at)):
                return False
            held = (at, frame)
        if seen == 0 and position <= period:
            raise ValueError("no frame decodes")
        # the last frame of a clip that ends stays on the screen: it is never past
        return held is None or self._hand(base, *held, self.loop and
                                          self._past(base + self.length))

    def _past(self, successor_at: float) -> bool:
        """Is the frame before one at `successor_at` already off the screen's timeline?"""
        return self._timeline is not None and successor_at <= self._timeline()

    def _hand(self, base: float, at: float, frame: av.VideoFrame, past: bool) -> bool:
        """Convert and hand over a frame, or (`past`) count it skipped; False once closed."""
        if past:
            self.skipped += 1
            return True
        converted = frame.reformat(width=self.size[0], height=self.size[1],
                                   format=self._format)
        plane = converted.planes[0]
        surface = pygame.image.frombuffer(plane, self.size, self._order, pitch=plane.line_size)
        return self._put(Frame(base + at, round((base + at) * self.fps), surface, converted))


def placement(video: tuple[int, int], screen: tuple[int, int], fit: str) -> pygame.Rect:
    """Where a `video`-sized picture goes on the screen, scaled to cover it or be contained,
    centred (a covering picture's edges fall off the screen)."""
    scales = (screen[0] / video[0], screen[1] / video[1])
    scale = max(scales) if fit == "cover" else min(scales)
    size = (max(1, round(video[0] * scale)), max(1, round(video[1] * scale)))
    return pygame.Rect(((screen[0] - size[0]) // 2, (screen[1] - size[1]) // 2), size)


def _pixel_format() -> tuple[str, Literal["BGRA", "RGBA"]]:
    """(PyAV's pixel format, pygame's) in the display's byte order, so a blit is a copy."""
    display = pygame.display.get_surface()
    order = BYTE_ORDER.get(display.get_masks()[:3]) if display is not None else None
    return ("rgba", "RGBA") if order == "RGBA" else ("bgra", "BGRA")

"""Open a video as a screen would, and say in words whether it can play it.

`showrunner validate` opens every video a playlist names before the playlist reaches a
screen: the container and the codec must be readable, a first frame must decode, and its
size, frame rate and length are read. A missing file or one no decoder reads is an error; a
video larger than the screens it plays on is a warning (it plays, scaled down, at a cost in
decoding: an 8K file on a 1080p screen decodes sixteen times the pixels it shows).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

MAX_FPS = 120.0


class Unplayable(Exception):
    """A video a screen cannot play; the message says why, in words."""


@dataclass(frozen=True)
class VideoInfo:
    width: int
    height: int
    fps: float
    seconds: float
    codec: str

    def __str__(self) -> str:
        return f"{self.width}x{self.height} {self.codec} at {self.fps:g} fps, {self.seconds:.1f} s"


def said(path: Path) -> str:
    """A path as a message quotes it: whole, or its end when it is absurdly long."""
    text = str(path)
    return repr(text if len(text) <= 200 else "…" + text[-80:])


def is_file(path: Path) -> bool:
    """Whether `path` is a file; False for a name no file system takes (too long)."""
    try:
        return path.is_file()
    except OSError:
        return False


def probe(path: Path) -> VideoInfo:
    """What the video at `path` is, or Unplayable saying why a screen could not play it."""
    import av  # FFmpeg loads with the first video probed: a controller's start never waits

    if not is_file(path):
        raise Unplayable(f"there is no file {said(path)}")
    try:
        with av.open(str(path)) as container:
            if not container.streams.video:
                raise Unplayable(f"{path.name!r} holds no video picture (audio or data only)")
            stream = container.streams.video[0]
            if stream.codec_context is None:
                raise Unplayable(f"{path.name!r} holds video in a format no decoder on the "
                                 f"screens reads (use H.264, HEVC, VP9 or AV1)")
            codec = stream.codec_context.name
            first = next(container.decode(stream), None)
            if first is None:
                raise Unplayable(f"{path.name!r} has a {codec} stream but no frame decodes")
            rate = stream.average_rate or stream.guessed_rate
            fps = float(rate) if rate else 0.0
            if stream.duration is not None and stream.time_base is not None:
                seconds = float(stream.duration * stream.time_base)
            else:
                seconds = (container.duration or 0) / av.time_base
            info = VideoInfo(first.width, first.height, fps, seconds, codec)
    except av.error.FFmpegError as exc:
        raise Unplayable(f"{path.name!r} cannot be decoded ({exc.strerror or exc})") from None
    except (OSError, ValueError) as exc:
        raise Unplayable(f"{path.name!r} cannot be read ({exc})") from None
    if not 0 < info.fps <= MAX_FPS:
        raise Unplayable(f"{path.name!r} has no usable frame rate ({info.fps:g} fps)")
    if info.seconds <= 0:
        raise Unplayable(f"{path.name!r} has no length")
    return info


def too_large(info: VideoInfo, screen: tuple[int, int]) -> str | None:
    """A warning when the video is larger than a screen of `screen` pixels (either way up)."""
    width, height = screen
    if min(info.width, info.height) <= min(width, height) and \
            max(info.width, info.height) <= max(width, height):
        return None
    return (f"the video is {info.width}x{info.height}, larger than the {width}x{height} "
            f"screens it plays on: it plays scaled down, but decoding it costs the screen's PC "
            f"{info.width * info.height / (width * height):.1f} times the pixels it shows; "
            f"a {width}x{height} version plays lighter")


def file_check(base: Path, screen: tuple[int, int]) -> Callable[[str], tuple[str | None,
                                                                           str | None]]:
    """A playlist validator's video check (showrunner.contract.playlist.validate.VideoCheck):
    each name opened as a file, relative ones under `base`, for screens of `screen` pixels;
    each file opened once."""
    @cache
    def check(name: str) -> tuple[str | None, str | None]:
        path = Path(name) if Path(name).is_absolute() else base / name
        try:
            info = probe(path)
        except Unplayable as exc:
            return f"a screen cannot play it: {exc}", None
        return None, too_large(info, screen)

    return check

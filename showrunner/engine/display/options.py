"""What a display is told to do (the command line's options) and the clocks it runs on."""

from __future__ import annotations

import queue
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from showrunner.engine.clock import local_ms


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
    #: the controller's URL, or a controller's and its standbys' in the order they are tried
    controller: str | tuple[str, ...]
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
    hwaccel: str | None = None  # decode video on this device (vaapi), else in software
    max_passes: int | None = None  # tests stop the loop after this many (a frame or a wait)
    media_dir: Path | None = None  # the media cache (default: <state_dir>/media)
    media_url: str | None = None  # where media are fetched (default: the controller)
    media_limit_bytes: int = 8 * 2**30  # the most the media cache keeps on disk


def first_address(controller: str | tuple[str, ...]) -> str:
    """The address a screen tries first (and fetches media from until it reaches another)."""
    return controller if isinstance(controller, str) else controller[0]

"""The display's window on its monitor, kept awake, and the PNG snapshot of what it shows."""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path

import pygame

log = logging.getLogger(__name__)


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


def save_png(surface: pygame.Surface, path: Path) -> None:
    """Write a PNG atomically (a viewer never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix or '.png'}")
    pygame.image.save(surface, str(tmp))
    os.replace(tmp, path)

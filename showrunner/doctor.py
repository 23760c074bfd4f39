"""`showrunner doctor`: checks a floor PC and says what to fix, in words a technician can act on.

Video driver, resolution and refresh of the chosen monitor, the theme's fonts, the clock's offset
to the controller, the key file's permissions and the free disk space for the screens' state.
Exit status 1 if anything needs fixing.
"""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from showrunner.contract.keyfile import KeyFileError, read_key

MIN_FREE_BYTES = 500 * 1024 * 1024
MIN_REFRESH_HZ = 50
MAX_OFFSET_MS = 500


@dataclass(frozen=True)
class Finding:
    ok: bool
    what: str
    detail: str  # what was found, or what to do about it


def video(output: int) -> list[Finding]:
    import pygame

    pygame.display.init()
    driver = pygame.display.get_driver()
    found = [Finding(driver not in ("dummy", "offscreen"), "video driver",
                     driver if driver not in ("dummy", "offscreen") else
                     f"SDL's {driver} driver puts nothing on a screen: start the X server "
                     "(showrunner-x.service) and set DISPLAY=:0 (docs/kiosk.md)")]
    sizes = pygame.display.get_desktop_sizes()
    if not 0 <= output < len(sizes):
        return [*found, Finding(False, "monitor", f"there is no monitor {output}: this PC has "
                                f"{len(sizes)} (--output 0 to {len(sizes) - 1})")]
    w, h = sizes[output]
    rates = pygame.display.get_desktop_refresh_rates()
    rate = rates[output] if output < len(rates) else 0
    found.append(Finding(w >= 1280 and h >= 720, "resolution",
                         f"{w}x{h}" if w >= 1280 and h >= 720 else
                         f"{w}x{h} is too small for the scenes: set the monitor to 1920x1080 "
                         "or more"))
    detail = ("not reported by this driver" if rate == 0 else f"{rate} Hz"
              if rate >= MIN_REFRESH_HZ else f"{rate} Hz: motion will judder; set 60 Hz")
    found.append(Finding(rate == 0 or rate >= MIN_REFRESH_HZ, "refresh", detail))
    return found


def fonts() -> list[Finding]:
    from showrunner.engine.theme import Theme

    missing = [f"{role} ({path})" for role, path in Theme.load().fonts.items()
               if not path.is_file()]
    return [Finding(not missing, "fonts", "all the theme's fonts are there" if not missing else
                    "missing: " + ", ".join(missing) + "; reinstall showrunner (docs/fonts.md)")]


def clock_offset(controller: str, now_ms: Callable[[], float] | None = None) -> Finding:
    """This PC's clock against the controller's /clock, corrected for half the round trip."""
    now = now_ms or (lambda: time.time_ns() / 1e6)
    sent = now()
    try:
        with urllib.request.urlopen(controller.rstrip("/") + "/clock", timeout=5) as reply:
            server = json.load(reply)["server_ms"]
    except (OSError, ValueError, KeyError) as exc:
        return Finding(False, "controller", f"cannot reach {controller} ({exc}); check the "
                       "network and SHOWRUNNER_CONTROLLER in /etc/showrunner/display.env")
    received = now()
    offset = server - (sent + received) / 2
    good = abs(offset) <= MAX_OFFSET_MS
    return Finding(good, "clock offset", f"{offset:+.0f} ms to the controller" if good else
                   f"{offset / 1000:+.1f} s off the controller's clock: the screens correct it, "
                   "but logs and the wall clock will disagree; turn NTP on "
                   "(timedatectl set-ntp true)")


def key_file(path: Path | None) -> Finding:
    if path is None:
        return Finding(True, "key file", "none given (--key-file); not checked")
    try:
        read_key(path, "", "this screen's key")
    except KeyFileError as exc:
        return Finding(False, "key file", str(exc))
    return Finding(True, "key file", f"{path} (owner only)")


def disk(state_dir: Path) -> Finding:
    where = state_dir if state_dir.exists() else Path(state_dir.anchor or "/")
    free = shutil.disk_usage(where).free
    good = free >= MIN_FREE_BYTES
    return Finding(good, "disk space", f"{free / 2**30:.1f} GB free in {where}" if good else
                   f"only {free / 2**20:.0f} MB free in {where}: the screen cannot save its "
                   "views; clear the journal (journalctl --vacuum-size=200M) or old files")


def run(controller: str | None, key: Path | None, state_dir: Path, output: int) -> int:
    findings = [*video(output), *fonts(), key_file(key), disk(state_dir)]
    if controller:
        findings.append(clock_offset(controller))
    for f in findings:
        print(f"{'ok ' if f.ok else 'FIX'}  {f.what}: {f.detail}")
    return 0 if all(f.ok for f in findings) else 1

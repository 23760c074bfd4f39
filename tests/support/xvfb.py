"""A real X server (Xvfb) for the window test and bench/present.py."""

from __future__ import annotations

import os
import shutil
import subprocess


def have_xvfb() -> bool:
    return shutil.which("Xvfb") is not None


def start_xvfb(size: tuple[int, int]) -> tuple[subprocess.Popen[bytes], str]:
    """Xvfb at `size` on a display number it picks itself (-displayfd): the process and
    its DISPLAY. The caller terminates it."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0",
                               f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        raise RuntimeError("Xvfb did not start")
    return server, f":{number}"

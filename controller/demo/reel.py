"""The demo screen's short video: `demo-reel.mp4`, three seconds of gold rings, made rather than
shipped, beside `playlists/demo.yaml`, which names it.

scripts/setup makes it (`python -m controller.demo.reel`), and the demo if it is missing, so
`showrunner validate playlists/*.yaml` finds it on a set-up checkout (a playlist's videos are
looked for beside it) and the demo's screen plays it from there (its working folder).
"""

from __future__ import annotations

import os
from pathlib import Path

from controller.application.child_process import ROOT

PLAYLIST = ROOT / "playlists" / "demo.yaml"
REEL = PLAYLIST.parent / "demo-reel.mp4"  # the video the playlist names


def make_reel(path: Path = REEL) -> Path:
    """The reel at `path`, made unless a file is there: written whole under another name, then
    renamed, so a demo and a setup making it at once never leave half a video."""
    if path.is_file():
        return path
    from showrunner.video.clips import make_clip  # PyAV: only when one is made

    part = path.with_name(f".{path.stem}-{os.getpid()}{path.suffix}")  # the suffix says mp4
    try:
        make_clip(part, (480, 270), 30, 90, crf=23, numbered=False)
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)
    return path


if __name__ == "__main__":
    print(f"the demo's reel: {make_reel().relative_to(ROOT)}")

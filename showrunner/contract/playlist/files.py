"""Playlist files on disk: read one and check it (validate.py checks text, with no I/O)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from showrunner.contract.playlist.validate import Problem, VideoCheck, check


def check_file(path: Path, video_check: VideoCheck | None = None
               ) -> tuple[dict[str, Any] | None, list[Problem]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(str(path), 1, 1, f"cannot read the file ({exc})")]
    return check(text, str(path), stem=path.stem, video_check=video_check)

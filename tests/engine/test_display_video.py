"""The display process playing videos, headless and with no controller: a clip that cannot be
opened or decoded is skipped with one log line and the playlist's next scene shows in the same
frame (never black); the heartbeat says how video is decoded."""

from __future__ import annotations

import json
import logging
import queue
import time
from pathlib import Path

import pygame
import pytest
from PIL import Image

from showrunner.engine.display import Display, DisplayOptions
from showrunner.video.clips import make_clip, read_number
from tests.support.heartbeat import heartbeat_of

NOBODY = "http://127.0.0.1:9"  # no controller listens here
SIZE = (320, 180)


def saved_program(state_dir: Path, items: list[tuple[str, dict]]) -> None:
    now = time.time_ns() // 1_000_000
    view = {"screen": "s1", "name": "s1", "group": "stage", "status": "authorised",
            "takeover": None, "playlists": [{
                "name": "loop", "priority": 0, "timezone": "Africa/Johannesburg", "loop": True,
                "windows": [], "transition": "cut", "fallback": None, "anchor_ms": now - 1000,
                "until_ms": None, "items": [{"scene": s, "duration_ms": 3_600_000,
                                             "params": p, "transition": "cut"}
                                            for s, p in items]}]}
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "s1.json").write_text(json.dumps(
        {"saved_at_ms": now, "views": {"screen:s1": {"revision": 7, "doc": view}}}))


def play(state_dir: Path, passes: int) -> tuple[Display, Image.Image]:
    """Run the display loop for `passes` passes; the screen it left."""
    display = Display(DisplayOptions(controller=NOBODY, screen="s1", key="k", size=SIZE,
                                     state_dir=state_dir, max_passes=passes))
    screen, ctx, host = display.open()
    display.loop(ctx, host, screen, queue.Queue())
    shot = Image.frombytes("RGB", SIZE, pygame.image.tobytes(screen, "RGB"))
    host.reset()
    return display, shot


def corrupt(folder: Path, kind: str) -> Path:
    """A clip that will not open (random bytes) or whose pictures will not decode (an mp4
    whose frames' data is zeroed, its header intact)."""
    path = folder / f"{kind}.mp4"
    if kind == "unopenable":
        path.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 40)
    else:
        data = bytearray(make_clip(path, SIZE, 30, 30).read_bytes())
        start, end = data.find(b"mdat") + 104, data.find(b"moov") - 8
        data[start:end] = bytes(end - start)
        path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("kind", ["unopenable", "undecodable"])
def test_a_clip_that_cannot_play_is_skipped_for_the_next_scene(tmp_path, kind, caplog):
    clip = corrupt(tmp_path, kind)
    saved_program(tmp_path / "screens", [
        ("video", {"media": str(clip)}),
        ("announcement", {"view": None, "title": "Tonight", "body": "Super 9 at 21h00"})])
    with caplog.at_level(logging.INFO):
        display, shot = play(tmp_path / "screens", passes=6)
    assert display.playing is not None and display.playing.scene == "announcement"
    lines = [r.getMessage() for r in caplog.records if "video" in r.getMessage()]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"scene video cannot play: '{clip.name}'")
    assert lines[0].endswith("skipping it")
    assert max(high for _, high in shot.getextrema()) > 100  # the announcement, not black


def test_a_clip_that_plays_is_shown_and_the_heartbeat_says_how_it_decodes(tmp_path):
    clip = make_clip(tmp_path / "ok.mp4", SIZE, 30, 30)
    saved_program(tmp_path / "screens", [("video", {"media": str(clip)})])
    # a second of frames: the first picture is decoded on a worker, a few milliseconds on a
    # quiet machine (the backdrop stands in), and was not there 4 frames in on a loaded one
    display, shot = play(tmp_path / "screens", passes=60)
    assert display.playing is not None and display.playing.scene == "video"
    assert read_number(shot) is not None
    assert heartbeat_of(display)["video_decode"] == "software"

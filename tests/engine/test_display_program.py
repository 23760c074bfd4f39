"""The display process, headless and with no controller: it plays its saved program, skips a
scene that crashes, and sets a corrupt saved state aside."""

from __future__ import annotations

import json
import logging
import time

import pytest

from showrunner.engine.display import Display, DisplayOptions
from showrunner.engine.scene import Scene

NOBODY = "http://127.0.0.1:9"  # no controller listens here


class Boom(Scene):
    name = "announcement"  # a scene of the catalogue (its parameters) whose drawing fails

    def draw(self, surface) -> None:
        raise RuntimeError("bad file")


def saved_program(state_dir, items: list[str]) -> None:
    now = time.time_ns() // 1_000_000
    view = {"screen": "s1", "name": "s1", "group": "stage", "status": "authorised",
            "takeover": None, "playlists": [{
                "name": "loop", "priority": 0, "timezone": "Africa/Johannesburg", "loop": True,
                "windows": [], "transition": "cut", "fallback": None, "anchor_ms": now - 1000,
                "until_ms": None, "items": [{"scene": s, "duration_ms": 3_600_000, "params": {},
                                             "transition": "cut"} for s in items]}]}
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "s1.json").write_text(json.dumps(
        {"saved_at_ms": now, "views": {"screen:s1": {"revision": 7, "doc": view}}}))


def run(state_dir, frames: int = 3) -> Display:
    display = Display(DisplayOptions(controller=NOBODY, screen="s1", key="k", size=(320, 180),
                                     state_dir=state_dir, max_passes=frames))
    display.run()
    return display


def test_started_without_the_controller_it_plays_its_saved_program_at_once(tmp_path):
    saved_program(tmp_path, ["prize_table", "leaderboard"])
    display = run(tmp_path, frames=1)
    assert display.playing.scene == "prize_table"  # on the very first frame
    assert display.offline_since is not None


def test_a_scene_that_raises_is_logged_and_skipped(tmp_path, monkeypatch, caplog):
    from showrunner.scenes import REGISTRY

    monkeypatch.setitem(REGISTRY, "boom", Boom)
    saved_program(tmp_path, ["boom", "leaderboard"])
    with caplog.at_level(logging.ERROR):
        display = run(tmp_path, frames=3)
    assert display.playing.scene == "leaderboard"
    assert "scene boom crashed (RuntimeError: bad file); skipping it" in caplog.text


def test_a_corrupt_saved_state_is_set_aside_and_the_screen_still_runs(tmp_path, caplog):
    (tmp_path / "s1.json").write_text('{"views": {"screen:s1": ')
    display = run(tmp_path, frames=2)
    assert display.playing.scene == "leaderboard"  # the screen's configured scene
    assert [p.name.startswith("s1.json.corrupt-") for p in tmp_path.iterdir()] == [True]
    assert "unreadable" in caplog.text


@pytest.mark.parametrize("status,title", [("pending", "Waiting for authorisation"),
                                          ("revoked", "This screen is not authorised")])
def test_a_screen_says_when_it_may_not_play(tmp_path, status, title):
    saved_program(tmp_path, ["leaderboard"])
    path = tmp_path / "s1.json"
    data = json.loads(path.read_text())
    data["views"]["screen:s1"]["doc"]["status"] = status
    path.write_text(json.dumps(data))
    display = run(tmp_path, frames=1)
    assert (display.playing.scene, display.playing.params["title"]) == ("announcement", title)

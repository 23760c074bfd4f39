"""A real headless display against a real controller: a score command changes the screen's
replica and its rendered frame; a controller restart on the same file carries on."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame

from controller.application.child_process import ROOT
from tests.support.live import live_controller

VIEW = "leaderboard:slots"


def start_display(url: str, key: str, tmp: Path, snapshot: Path | None = None,
                  stderr: int = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """A display reading its key from a mode-600 file, as a technician sets one up."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    key_file = tmp / "screen.key"
    key_file.write_text(key + "\n")
    key_file.chmod(0o600)
    return subprocess.Popen(
        [sys.executable, "-m", "showrunner.cli", "display", "--controller", url,
         "--screen", "test-1", "--key-file", str(key_file), "--state-dir", str(tmp / "screens"),
         "--size", "640x360", "--snapshot", str(snapshot or tmp / "frame.png"),
         "--snapshot-every", "0.3"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr,
    )


def saved_view(tmp: Path) -> tuple[int, dict] | None:
    path = tmp / "screens" / "test-1.json"
    if not path.exists():
        return None
    view = json.loads(path.read_text())["views"].get(VIEW)
    return (view["revision"], view["doc"]) if view else None


async def until(predicate, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.1)
    raise AssertionError("condition never held")


def frame_pixels(tmp: Path) -> bytes | None:
    try:
        return pygame.image.tobytes(pygame.image.load(tmp / "frame.png"), "RGB")
    except (pygame.error, FileNotFoundError):
        return None


async def test_command_reaches_the_screen_and_survives_a_controller_restart(tmp_path, log_at):
    async with live_controller(log_at) as ctl:
        async with ctl.client() as mc:
            await mc.send("register_member", {"card": "1234567", "display_name": "Thandi M"})
            await mc.send("register_member", {"card": "7654321", "display_name": "Sipho D"})
            await mc.send("slots.enter", {"card": "1234567"})
            await mc.send("slots.enter", {"card": "7654321"})
            await mc.send("slots.record_score", {"entry": "S1", "score": 900})
            first = await mc.send("slots.record_score", {"entry": "S2", "score": 400})
        display = start_display(ctl.url, ctl.keys["display"], tmp_path)
        try:
            _, doc = await until(
                lambda: (v := saved_view(tmp_path)) and v[0] == first["seq"] and v)
            assert [r["name"] for r in doc["rows"]] == ["Thandi M.", "Sipho D."]
            cmdline = Path(f"/proc/{display.pid}/cmdline").read_bytes()
            assert b"showrunner.cli" in cmdline and ctl.keys["display"].encode() not in cmdline
            await asyncio.sleep(1.5)  # let the entry animation settle into a steady frame
            before = await until(lambda: frame_pixels(tmp_path))

            async with ctl.client() as mc:
                moved = await mc.send("slots.record_score", {"entry": "S2", "score": 5000})
            _, doc = await until(
                lambda: (v := saved_view(tmp_path)) and v[0] == moved["seq"] and v)
            assert [r["name"] for r in doc["rows"]] == ["Sipho D.", "Thandi M."]
            assert doc["rows"][0]["movement"] == 1
            await until(lambda: (p := frame_pixels(tmp_path)) is not None and p != before)

            await ctl.restart()  # SIGKILL, then the same file and port
            async with ctl.client() as mc:
                assert mc.revisions[VIEW] == moved["seq"]
                assert mc.views[VIEW]["rows"][0]["score"] == 5000
                after = await mc.send("slots.record_score", {"entry": "S1", "score": 6000})
            assert after["seq"] == moved["seq"] + 1
            _, doc = await until(
                lambda: (v := saved_view(tmp_path)) and v[0] == after["seq"] and v)
            assert doc["rows"][0] == {**doc["rows"][0], "name": "Thandi M.", "score": 6000}
        finally:
            display.terminate()
            assert display.wait(10) == 0


async def test_a_snapshot_that_cannot_be_written_is_logged_once_and_the_screen_goes_on(
        tmp_path, log_at):
    (tmp_path / "blocker").write_text("a file where the snapshot's folder should be")
    async with live_controller(log_at) as ctl:
        display = start_display(ctl.url, ctl.keys["display"], tmp_path,
                                snapshot=tmp_path / "blocker" / "frame.png",
                                stderr=subprocess.PIPE)
        try:
            async with ctl.client() as mc:
                await mc.send("register_member", {"card": "1234567", "display_name": "Thandi M"})
                await mc.send("slots.enter", {"card": "1234567"})
                await asyncio.sleep(2)  # several snapshot intervals fail meanwhile
                scored = await mc.send("slots.record_score", {"entry": "S1", "score": 900})
            await until(lambda: (v := saved_view(tmp_path)) and v[0] == scored["seq"])
            assert display.poll() is None  # still showing the show
        finally:
            display.terminate()
            _, err = display.communicate(timeout=10)
        assert display.returncode == 0
        assert err.decode().count("cannot write the snapshot") == 1

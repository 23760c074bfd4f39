"""Secrets never on the command line: the display's and the technician's keys come from an
owner-only file or the environment; `--key` is gone."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.application.child_process import ROOT
from tests.support.live import live_controller

BARE_ENV = {k: v for k, v in os.environ.items()
            if k not in ("SHOWRUNNER_KEY", "SHOWRUNNER_DISPLAY_KEY")}


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60,
                          env={**BARE_ENV, "SDL_VIDEODRIVER": "dummy", **(env or {})})


def key_file(tmp_path: Path, text: str, mode: int) -> Path:
    path = tmp_path / "screen.key"
    path.write_text(text)
    path.chmod(mode)
    return path


DISPLAY = ("showrunner.cli", "display", "--controller", "http://127.0.0.1:9", "--screen", "s1")


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_a_display_key_file_others_may_read_is_refused_with_a_sentence(tmp_path, mode):
    path = key_file(tmp_path, "abc123\n", mode)
    done = run(*DISPLAY, "--key-file", str(path))
    assert done.returncode == 2
    assert f"The key file {path} may be read or changed by other users (mode {mode:o}); " \
           f"run `chmod 600 {path}` first." in done.stderr
    assert "Traceback" not in done.stderr


def test_a_display_without_a_key_or_with_an_empty_one_says_how_to_give_it(tmp_path):
    done = run(*DISPLAY)
    assert done.returncode == 2
    assert "Give this screen's key with --key-file PATH or in SHOWRUNNER_DISPLAY_KEY." \
        in done.stderr
    empty = run(*DISPLAY, "--key-file", str(key_file(tmp_path, "\n", 0o600)))
    assert empty.returncode == 2 and "is empty" in empty.stderr
    missing = run(*DISPLAY, "--key-file", str(tmp_path / "nowhere.key"))
    assert missing.returncode == 2 and "Cannot read the key file" in missing.stderr


@pytest.mark.parametrize("command", [DISPLAY, ("controller.cli", "screens")])
def test_key_is_no_longer_an_option(command):
    done = run(*command, "--key", "abc123")
    assert done.returncode == 2 and "unrecognized arguments: --key" in done.stderr


async def test_the_technician_commands_read_a_key_file_or_the_environment(tmp_path, log_at):
    async with live_controller(log_at) as ctl:
        url = {"SHOWRUNNER_URL": ctl.url}
        private = key_file(tmp_path, ctl.keys["technician"] + "\n", 0o600)
        listing = await asyncio.to_thread(run, "controller.cli", "screens",
                                          "--key-file", str(private), env=url)
        assert listing.returncode == 0, listing.stderr
        assert listing.stdout.startswith("SCREEN")
        private.chmod(0o644)
        shared = await asyncio.to_thread(run, "controller.cli", "screens",
                                         "--key-file", str(private), env=url)
        assert shared.returncode == 2 and "may be read or changed by other users" \
            in shared.stderr
        none = await asyncio.to_thread(run, "controller.cli", "screens", env=url)
        assert none.returncode == 2
        assert "Give a technician key with --key-file PATH or in SHOWRUNNER_KEY." in none.stderr
        from_env = await asyncio.to_thread(
            run, "controller.cli", "screens",
            env={**url, "SHOWRUNNER_KEY": ctl.keys["technician"]})
        assert from_env.returncode == 0, from_env.stderr

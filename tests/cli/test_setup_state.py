"""`scripts/demo` runs scripts/setup only when the checkout is not set up (issue 48: it reran the
whole setup, 15-17 s, before every demo). The check (scripts/setup_state.py) runs here as the
demo runs it, on a copy of this checkout's setup inputs with what setup makes beside them; the
full setup is not run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.application.child_process import ROOT

SCRIPTS = ("setup_state.py", "demo")
INPUTS = ("requirements/lock.txt", "pyproject.toml", "controller/web/package-lock.json",
          "bench/fanout/package-lock.json", "scripts/setup")
MADE = (".venv/bin/python", "controller/web/node_modules/.package-lock.json",
        "bench/fanout/node_modules/.package-lock.json", "playlists/demo-reel.mp4")


def state(checkout: Path, verb: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "scripts/setup_state.py", verb], cwd=checkout,
                          capture_output=True, text=True, timeout=30, check=False)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """This checkout's setup inputs and scripts, and a file for each thing setup makes."""
    for name in (*INPUTS, *(f"scripts/{s}" for s in SCRIPTS)):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    for name in MADE:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("made by setup\n")
    return tmp_path


def test_a_checkout_is_set_up_once_stamped_and_not_after_a_lock_changes(checkout):
    assert state(checkout, "check").stdout.splitlines() == ["setup has not finished here"]
    assert state(checkout, "stamp").returncode == 0
    done = state(checkout, "check")
    assert (done.returncode, done.stdout) == (0, "")

    with (checkout / "requirements/lock.txt").open("a") as lock:
        lock.write("newpackage==1.0 --hash=sha256:00\n")
    (checkout / "controller/web/node_modules/.package-lock.json").unlink()
    stale = state(checkout, "check")
    assert stale.returncode == 1
    assert stale.stdout.splitlines() == [
        "controller/web/node_modules/.package-lock.json is missing",
        "requirements/lock.txt changed since the last setup"]


def test_the_stamp_goes_with_the_venv(checkout):
    state(checkout, "stamp")
    shutil.rmtree(checkout / ".venv")
    assert state(checkout, "check").stdout.splitlines() == [
        ".venv/bin/python is missing", "setup has not finished here"]


def test_the_demo_runs_setup_only_when_the_check_says_so(checkout):
    """scripts/demo itself, with a stand-in for the setup and for the demo it then runs, each
    saying that it ran."""
    for name, says in (("scripts/setup", "setup ran"),
                       (".venv/bin/showrunner-controller", "demo ran: $*")):
        (checkout / name).write_text(f'#!/usr/bin/env bash\necho "{says}"\n')
        (checkout / name).chmod(0o755)
    state(checkout, "stamp")

    def demo() -> list[str]:
        ran = subprocess.run(["scripts/demo", "--fast"], cwd=checkout, capture_output=True,
                             text=True, timeout=30, check=True)
        return ran.stdout.splitlines()

    assert demo() == ["demo ran: demo --fast"]  # set up: straight to the demo
    (checkout / "pyproject.toml").write_text("[project]\nname = 'changed'\n")
    assert demo() == ["demo: setting up first (pyproject.toml changed since the last setup)",
                      "setup ran", "demo ran: demo --fast"]

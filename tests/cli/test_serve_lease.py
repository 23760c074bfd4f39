"""Whose lease a starting controller may take at once (controller/cli/serve.py): only one held by
a process of this PC that has ended, gone or a zombie; never a live one's, nor another PC's."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from controller.cli.serve import _ended_on_this_pc

HERE = socket.gethostname()


def child() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_a_process_of_this_pc_that_has_ended_is_known_to_have_ended():
    ended = child()
    ended.kill()
    ended.wait()
    assert _ended_on_this_pc(f"{HERE}:{ended.pid}")


def test_a_killed_process_not_yet_reaped_has_ended():
    zombie = child()
    os.kill(zombie.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    stat = Path(f"/proc/{zombie.pid}/stat")
    while stat.read_text().rpartition(")")[2].split()[0] != "Z":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    try:
        assert _ended_on_this_pc(f"{HERE}:{zombie.pid}")
    finally:
        zombie.wait()


def test_a_live_process_another_pcs_and_this_one_are_not():
    alive = child()
    try:
        assert not _ended_on_this_pc(f"{HERE}:{alive.pid}")
        alive.kill()
        alive.wait()
        assert not _ended_on_this_pc(f"another-{HERE}:{alive.pid}")  # its lease is waited out
    finally:
        alive.kill()
    assert not _ended_on_this_pc(f"{HERE}:{os.getpid()}")
    assert not _ended_on_this_pc("pc-a")  # a name not of this form

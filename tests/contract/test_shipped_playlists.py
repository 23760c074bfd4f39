"""Every playlist shipped in playlists/ validates on a clean checkout once scripts/setup has run,
with the command a technician types (issue 48: `showrunner validate playlists/*.yaml` called
the demo's playlist broken, its video being made only when the demo started). Setup makes that
video beside the playlist (controller/demo/reel.py), where the validator looks for a playlist's
videos unless told `--media-dir`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from controller.application.child_process import ROOT
from controller.demo.reel import REEL, make_reel

SHOWRUNNER = Path(sys.executable).parent / "showrunner"  # as scripts/setup installs it


def validate(cwd: Path, *paths: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SHOWRUNNER), "validate", *paths], cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False)


def test_every_shipped_playlist_validates_on_a_clean_checkout(tmp_path):
    shipped = sorted(p for p in (ROOT / "playlists").iterdir() if p.suffix == ".yaml")
    others = {p.name for p in (ROOT / "playlists").iterdir()} - {p.name for p in shipped}
    assert others <= {REEL.name}, f"not a playlist, not checked: {others}"
    clean = tmp_path / "playlists"  # the shipped files alone, as a clone has them
    clean.mkdir()
    for playlist in shipped:
        shutil.copy2(playlist, clean)
    names = [f"playlists/{p.name}" for p in shipped]

    before = validate(tmp_path, *names)  # before setup: the one thing it makes is missing
    assert before.returncode == 1
    assert re.match(r"playlists/demo\.yaml:\d+:\d+: video 'demo-reel\.mp4': a screen cannot "
                    r"play it: there is no file 'playlists/demo-reel\.mp4'\n1 of \d+ playlist",
                    before.stderr), before.stderr

    make_reel(clean / REEL.name)  # scripts/setup's step (python -m controller.demo.reel)
    after = validate(tmp_path, *names)
    assert (after.returncode, after.stdout, after.stderr) == (
        0, f"{len(shipped)} playlist(s) OK\n", "")
    inside = validate(clean, *(p.name for p in shipped))  # the same from the folder itself
    assert (inside.returncode, inside.stderr) == (0, "")

"""A controller started from elsewhere (the demo, the console's rehearsal child) runs from the
repository's root: a venue's config folder and a log file named relative to the caller must
still be the caller's."""

# SQLite's file: `--db` given as a path relative to the caller, on purpose; not parametrised
from __future__ import annotations

import shutil
from pathlib import Path

from controller.application.settings import CONFIG_DIR, CONFIG_DIR_ENV
from tests.support.live import live_controller

ZONE = "Asia/Tokyo"


async def test_a_relative_config_folder_and_log_are_the_callers(tmp_path, monkeypatch):
    venue = tmp_path / "venue"
    shutil.copytree(CONFIG_DIR, venue)
    for config in venue.glob("*.yaml"):  # every promotion of this venue in its own zone
        config.write_text(config.read_text().replace("Africa/Johannesburg", ZONE))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(CONFIG_DIR_ENV, "venue")
    async with live_controller(Path("show.db")) as ctl, ctl.client("display") as screen:
        assert (await screen.wait_view("venue"))["timezone"] == ZONE
    assert (tmp_path / "show.db").exists()

"""The technician's command line against a real controller: enrol, list, authorise, assign
(validated before anything reaches a screen) and revoke."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from controller.application.child_process import ROOT
from tests.support.live import live_controller


def tech(ctl, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHOWRUNNER_URL": ctl.url, "SHOWRUNNER_KEY": ctl.keys["technician"]}
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


async def run(ctl, *args: str) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(tech, ctl, *args)


async def test_enrol_authorise_assign_and_revoke_from_the_command_line(tmp_path, log_at):
    async with live_controller(log_at) as ctl:
        enrolled = await run(ctl, "enrol", "--screen", "bar-1", "--group", "bar")
        assert enrolled.returncode == 0, enrolled.stderr
        key = enrolled.stdout.strip().splitlines()[-1].rsplit(" ", 1)[-1]
        assert len(key) >= 20  # the screen's key, printed once

        listing = await run(ctl, "screens")
        assert listing.returncode == 0 and "bar-1" in listing.stdout
        assert "pending" in listing.stdout

        assert (await run(ctl, "authorise", "--screen", "bar-1")).returncode == 0

        broken = tmp_path / "broken.yaml"
        broken.write_text("name: bar\nscenes:\n  - scene: no_such_scene\n    duration: 10s\n")
        refused = await run(ctl, "assign", str(broken), "--groups", "bar")
        assert refused.returncode != 0
        assert "broken.yaml:3:12: unknown scene" in refused.stderr
        assert "no screen was changed" in refused.stderr
        assert "no_such_scene" in refused.stdout + refused.stderr

        good = await run(ctl, "assign", str(ROOT / "playlists" / "house-default.yaml"),
                         "--groups", "bar")
        assert good.returncode == 0, good.stdout + good.stderr
        async with ctl.client("technician") as t:
            screen = await t.wait_view("screen:bar-1", lambda d: d.get("playlists"))
            assert screen["group"] == "bar"

        revoked = await run(ctl, "revoke", "--screen", "bar-1", "--reason", "moved venue")
        assert revoked.returncode == 0, revoked.stderr
        listing = await run(ctl, "screens")
        assert "revoked" in listing.stdout


async def test_development_reload_puts_a_changed_playlist_on_its_screens(tmp_path, log_at):
    playlists = tmp_path / "playlists"
    playlists.mkdir()
    bar = playlists / "bar.yaml"
    bar.write_text((ROOT / "playlists" / "house-default.yaml").read_text())
    async with live_controller(log_at, ("--playlists", str(playlists))) as ctl:
        assert (await run(ctl, "enrol", "--screen", "bar-1", "--group", "bar")).returncode == 0
        assert (await run(ctl, "authorise", "--screen", "bar-1")).returncode == 0
        assert (await run(ctl, "assign", str(bar), "--groups", "bar")).returncode == 0
        async with ctl.client("technician") as t:
            first = await t.wait_view("screen:bar-1", lambda d: d.get("playlists"))
            bar.write_text("name: bar night\nscenes:\n"
                           "  - {scene: announcement, duration: 20s,"
                           " params: {title: Last call, body: The bar closes at 02:00}}\n")
            changed = await t.wait_view("screen:bar-1", lambda d: d != first)
            assert "Last call" in str(changed["playlists"])
            bar.write_text("name: broken\nscenes: [\n")  # a broken save changes nothing
            await asyncio.sleep(2.5)
            assert t.views["screen:bar-1"] == changed

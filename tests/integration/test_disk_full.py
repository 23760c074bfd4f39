"""A full disk under a real controller (issue 12): a command is refused with
`storage_unavailable` and a sentence, nothing is half-written, views are still served, and
commands work again once there is space. The disk is a real size-limited tmpfs."""

# SQLite's file: the .db on a full size-limited tmpfs; not parametrised
from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import aiohttp

from controller.application.child_process import ROOT
from tests.support.disk import fill
from tests.support.live import live_controller

SENTENCE = ("The show log cannot be written (disk full?): nothing was recorded. "
            "Tell the technician.")


async def healthz_seq(url: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(f"{url}/healthz") as response:
        return (await response.json())["seq"]


def audit_verify(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "audit", "verify", "--db",
                           str(db)], capture_output=True, text=True, timeout=60, cwd=ROOT)


async def test_a_full_disk_refuses_commands_and_recovers_when_space_returns(small_disk):
    db = small_disk / "show.db"
    async with live_controller(db) as ctl:
        async with ctl.client() as mc:
            assert (await mc.send("register_member", {"card": "1234567",
                                                      "display_name": "Thandi Mokoena"}))["ok"]
            ack = await mc.send("slots.enter", {"card": "1234567"})
            entry = ack["events"][0]["data"]["entry"]
            ack = await mc.send("slots.record_score", {"entry": entry, "score": 100})
            assert ack["ok"]
            seq = ack["seq"]
            board = await mc.wait_view("leaderboard:slots", lambda d: d["rows"])

            filler = fill(small_disk)
            score = {"entry": entry, "score": 900}
            refused = [await mc.send("slots.record_score", score, command_id="score-900"),
                       await mc.send("register_member", {"card": "7654321",
                                                         "display_name": "Sipho Ndlovu"})]
            for ack in refused:
                assert ack["ok"] is False, ack
                assert ack["error"] == {"code": "storage_unavailable", "message": SENTENCE}
            assert refused[0]["command_id"] == "score-900"
            # nothing recorded, nothing applied; views are still served
            assert await healthz_seq(ctl.url) == seq
            reply = await mc.call("sync", {"revisions": {}})
            views = {v["name"]: v for v in reply["views"]}
            assert views["leaderboard:slots"]["doc"] == board
            assert views["leaderboard:slots"]["revision"] == seq
            async with ctl.client() as late:  # a screen or tablet connecting now gets views
                assert late.views["leaderboard:slots"] == board

            filler.unlink()
            ack = await mc.send("slots.record_score", score, command_id="score-900")
            assert ack["ok"], ack
            assert ack["seq"] == seq + 1  # the refused attempts left no trace in the chain
            doc = await mc.wait_view("leaderboard:slots", lambda d: d["rows"][0]["score"] == 900)
            assert doc["rows"][0]["name"] == "Thandi M."
        await asyncio.sleep(0.2)
        output = "".join(ctl.output)
    assert "database or disk is full" in output
    assert "cannot rollback" not in output and "Traceback" not in output
    result = audit_verify(db)
    assert result.returncode == 0, result.stderr
    assert f"OK: {seq + 1} events" in result.stdout

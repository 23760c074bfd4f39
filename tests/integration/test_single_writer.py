"""One writer per log: a second `serve` on the same db is refused while the first runs
(issue 12), with a real second process."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from controller.application.child_process import ROOT
from tests.support.live import live_controller


def second_serve(db) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", "serve", "--db", str(db), "--port", "0"],
        capture_output=True, text=True, timeout=30, cwd=ROOT)


async def test_a_second_serve_on_the_same_log_exits_naming_the_holder(tmp_path):
    db = tmp_path / "show.db"
    async with live_controller(db) as ctl:
        result = await asyncio.to_thread(second_serve, db)
        assert result.returncode == 2
        assert (f"{db} is already in use by another controller (PID {ctl.process.pid}); only "
                "one may write a show's log.") in result.stderr
        assert "Traceback" not in result.stderr and "listening" not in result.stdout
        async with ctl.client() as mc:  # the first one still answers
            ack = await mc.send("register_member", {"card": "1000001",
                                                    "display_name": "Thandi Mokoena"})
            assert ack["ok"], ack
        ctl.kill()  # the kernel releases the lock however the holder ends
        await ctl.start()
        async with ctl.client() as mc:
            assert (await mc.send("register_member", {"card": "1000002",
                                                      "display_name": "Sipho Ndlovu"}))["ok"]

"""One writer per log: a second `serve` on the same db is refused while the first runs
(issue 12), with a real second process."""

# SQLite's file: the writer lock file beside it (PostgreSQL's one leader is the lease:
# test_lease.py, test_postgres_failover.py); not parametrised
from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from controller.application.child_process import ROOT
from controller.store.lock import writer_lock
from controller.store.sqlite import StoreError
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


HOLD_AND_FORK = """
import os, sys, time
from pathlib import Path
from controller.store.lock import writer_lock
with writer_lock(Path(sys.argv[1])):
    ready, started = os.pipe()
    if os.fork() == 0:  # a child as the snapshot writer is: alive long after its parent
        os.write(started, b"!")  # it runs (the fork's hooks have run), as a writer pickling
        time.sleep(30)
        os._exit(0)
    os.read(ready, 1)  # on a busy machine the child may run long after the fork returned
    print("holding", flush=True)
    time.sleep(30)
"""


def test_the_lock_is_free_the_moment_its_holder_dies_though_a_child_it_forked_lives(tmp_path):
    """A controller SIGKILLed while its forked snapshot writer is still pickling: the next
    `serve` (or a standby) takes the log at once, not when the child ends."""
    db = tmp_path / "show.db"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_AND_FORK, str(db)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        with pytest.raises(StoreError, match="already in use"), writer_lock(db):
            pass
        holder.kill()
        holder.wait(10)
        with writer_lock(db):  # the child still runs, and does not hold it
            pass
    finally:
        holder.kill()
        subprocess.run(["pkill", "-f", f"{db}"], check=False)

"""The log's watch of a real controller outlives a disk that fails under it (issue 47): its
signed checkpoints go to a real tmpfs remounted read-only mid-show (what a failing disk's
filesystem does to itself), and while every checkpoint fails, the other jobs of the watch go
on: a key revoked at the shell is cut, and a snapshot is written once 10,000 events have come.
The failure is logged once (then counted), and its recovery said once the disk is writable
again, with the checkpoints caught up. Before, the first failed checkpoint ended the whole
watch for the rest of the night without a word.

SQLite's file (the checkpoints and the disk are the PC's own, whatever the store)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from controller.access.keys import issue_key, revoke_key
from controller.application.service import wall_clock_ms
from controller.store.target import open_log
from tests.integration.test_keys import Raw
from tests.support.disk import remount
from tests.support.live import LiveController, said
from tests.support.season import write_members

FAILED = "Signed checkpoints of the log failed, retrying: OSError: [Errno 30] Read-only file system"
AGAIN = "Signed checkpoints of the log: the same error again (1 times so far)"
RECOVERED = "Signed checkpoints of the log works again"


def snapshot_seqs(db: Path) -> list[int]:
    with open_log(db, create=False) as log:
        return [row.seq for row in log.snapshots()]


def checkpointed(anchors: Path) -> int:
    """The last seq the checkpoints file anchors."""
    return max(json.loads(line)["seq"] for line in anchors.read_text().splitlines())


async def test_a_disk_that_fails_under_the_checkpoints_stops_no_other_job_of_the_watch(
        small_disk: Path, tmp_path: Path) -> None:
    db = tmp_path / "show.db"
    anchors = small_disk / "show.checkpoints"
    ctl = LiveController(db, extra_args=("--checkpoints", str(anchors),
                                         "--checkpoint-every", "1"))
    ctl.issue_keys()
    with open_log(db) as log:
        reader_key = issue_key(log, "device", "AR7", 0)
    await ctl.start()
    reader = Raw(ctl.url, "/device", {"key": reader_key})
    try:
        assert await reader.connect() is None
        remount(small_disk, "ro")
        async with ctl.client() as mc:
            for n in range(3):  # each an event: a checkpoint due after each
                ack = await mc.send("register_member", {"card": f"700000{n}",
                                                        "display_name": f"Guest {n}"})
                assert ack["ok"], ack  # the show goes on: the log is on another disk
            await said(ctl, AGAIN, 30)  # tried again, and not logged again

            with open_log(db) as log:  # at the shell, as `showrunner-controller key revoke`
                revoke_key(log, 0, name="AR7", reason="reader PC stolen")
            await asyncio.wait_for(reader.gone.wait(), 10)  # still cut
            assert reader.refused == ["This key was revoked."]

            before = snapshot_seqs(db)
            write_members(db, 10_000, wall_clock_ms())  # a snapshot period's events, beside
            deadline = time.monotonic() + 60
            while snapshot_seqs(db) == before:  # still written at its cadence
                assert time.monotonic() < deadline, "no snapshot:\n" + "".join(ctl.output)
                await asyncio.sleep(0.2)

            remount(small_disk, "rw")
            await said(ctl, RECOVERED, 30)
            last = await mc.send("register_member", {"card": "7000009",
                                                     "display_name": "Guest 9"})
            deadline = time.monotonic() + 30
            while checkpointed(anchors) < last["seq"]:  # caught up with the log
                assert time.monotonic() < deadline, "".join(ctl.output)
                await asyncio.sleep(0.2)
        output = "".join(ctl.output)
        assert output.count("Signed checkpoints of the log failed") == 1, output
        assert "stopped (" not in output  # no job of the watch ended
    finally:
        await reader.close()
        ctl.stop()
        remount(small_disk, "rw")

"""A season's log: the controller writes its snapshot on its own, is SIGKILLed during a Wild Card
claim, and is back showing the same claim from the snapshot and the tail.

The log is generated (tests/support/season.py): `SHOWRUNNER_SEASON_EVENTS` events, 200,000 by
default (a CI run); `SHOWRUNNER_SEASON_EVENTS=2000000 pytest -s` is the season of the issue,
and prints how long the claim was off the screens.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from controller.application.service import wall_clock_ms
from controller.store.target import LogAt, is_database, open_log
from tests.support.wildcard import draw_to_claim, season_show

EVENTS = int(os.environ.get("SHOWRUNNER_SEASON_EVENTS", "200000"))


def snapshot_seqs(db: LogAt) -> list[int]:
    with open_log(db, create=False) as log:
        return sorted(row.seq for row in log.snapshots())


@pytest.mark.timeout(120 + EVENTS // 2000)  # writing and first replaying a season: minutes
async def test_a_claim_is_back_on_screen_from_the_snapshot_after_a_sigkill(tmp_path, log_at,
                                                                           monkeypatch):
    # wild card rules 39-40: the claim's 90 s run from an absolute deadline a restart keeps
    # the bins stay open while the first start replays the whole season
    ctl = await season_show(tmp_path, monkeypatch, EVENTS, max(30_000, EVENTS // 15), log_at)
    db = ctl.db_path
    try:
        async with ctl.client() as mc:
            deadline = time.monotonic() + 120
            while not snapshot_seqs(db):  # the cadence: a child writes it, the loop goes on
                assert time.monotonic() < deadline, "no snapshot was written"
                await asyncio.sleep(0.2)
            drawn = await draw_to_claim(mc)
        assert max(snapshot_seqs(db)) < last_seq(db), "the draw is in the tail"
        ctl.kill()
        killed = time.monotonic()
        await ctl.start()
        listening_s = time.monotonic() - killed
        async with ctl.client("display") as screen:
            doc = await screen.wait_view("draw:wildcard", lambda d: d["phase"] == "claim",
                                         timeout=30)
        back_s = time.monotonic() - killed
        print(f"\n{EVENTS} events: the controller listened again {listening_s:.2f} s and the "
              f"claim was back on a screen {back_s:.2f} s after the SIGKILL")
        assert doc["claim_deadline"] == drawn["claim_deadline_ms"]
        assert wall_clock_ms() < doc["claim_deadline"]
        # it started from that snapshot: one it passed over is logged with the reason
        assert "not used" not in "".join(ctl.output), "".join(ctl.output)
        if is_database(db):  # its killed self's lease taken at once, not waited out
            assert "taken at once from this PC's controller that ended" in "".join(ctl.output)
    finally:
        ctl.stop()


def last_seq(db: LogAt) -> int:
    with open_log(db, create=False) as log:
        return log.last_seq

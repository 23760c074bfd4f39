"""Rehearsal: the Wild Card night at its dated time, on any day, beside an untouched live log."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
from typing import Any
from zoneinfo import ZoneInfo

import psycopg

from controller.cli.main import main
from controller.rehearsal.log import LIVE, REHEARSAL, log_kind
from controller.store.target import LogAt, is_database, open_log
from tests.support.live import LiveController, live_controller
from tests.support.wildcard import freeze_when_bins_close

ZONE = ZoneInfo("Africa/Johannesburg")
START = "2024-01-18 17:58"  # the shipped wildcard.yaml: bins close at 18:00 on 18 January
SPEED = 30  # the 2 minutes to the bins closing take 4 s; the 90 s claim 3 s
MEMBERS = (("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu"),
           ("1000003", "Lerato Dlamini"))


def ms(local: str) -> int:
    return int(dt.datetime.fromisoformat(local).replace(tzinfo=ZONE).timestamp() * 1000)


class Rehearsal(LiveController):
    command = "rehearse"


def footprint(db: LogAt) -> tuple[Any, ...]:
    """The log's chain head and its rows' count, and for a file its size and modification
    time, read without writing."""
    if is_database(db):
        with psycopg.connect(db) as conn:
            head = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"
                                ).fetchone()
            return head, conn.execute("SELECT COUNT(*) FROM events").fetchone()
    db_ro = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        head = db_ro.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        db_ro.close()
    stat = db.stat()
    return head, stat.st_size, stat.st_mtime_ns


async def live_show(db: LogAt) -> None:
    async with live_controller(db) as ctl, ctl.client() as mc:
        assert (await mc.send("register_member", {"card": "1000009",
                                                  "display_name": "Pieter Wessels"}))["ok"]


async def test_the_wild_card_night_rehearsed_at_its_date_leaves_the_live_log_untouched(
        tmp_path, log_at):
    # rules 33, 36, 39-40: the draw at 18:00 on 18 January 2024, rehearsed on any day
    # (the live log on each store; a rehearsal's log is always a file: `rehearse --db PATH`)
    live, rehearsal = log_at, tmp_path / "rehearsal.db"
    await live_show(live)
    before = footprint(live)
    ctl = Rehearsal(rehearsal,
                    ("--promotion", "wildcard", "--at", START, "--speed", str(SPEED)))
    ctl.issue_keys()
    await ctl.start()
    try:
        async with ctl.client() as mc, ctl.client("display") as screen:
            clock = await screen.call("clock", {"client_ms": 0})
            assert ms(START) <= clock["server_ms"] < ms("2024-01-18 18:00")
            mark = await screen.wait_view("rehearsal")
            assert (mark["started_local"], mark["speed"]) == (START, SPEED)
            for card, name in MEMBERS:
                assert (await mc.send("register_member",
                                      {"card": card, "display_name": name}))["ok"]
                assert (await mc.send("wildcard.activate", {"card": card}))["ok"]
            draw = await screen.wait_view("draw:wildcard")
            assert draw["bins_close_at"] == ms("2024-01-18 18:00")
            frozen = await freeze_when_bins_close(mc)
            assert frozen["ok"], frozen
            drawn = await mc.send("wildcard.draw")
            assert drawn["ok"], drawn
            reveal_at = drawn["events"][0]["data"]["reveal_at_ms"]
            assert reveal_at > ms("2024-01-18 18:00")
            await screen.wait_view("draw:wildcard", lambda d: d["phase"] == "claim"
                                   and d["winner"] is not None)
            while (await screen.call("clock", {}))["server_ms"] < reveal_at:
                await asyncio.sleep(0.02)  # the winner reaches the screens just before reveal
            claimed = await mc.send("wildcard.claim", {"card_checked": True,
                                                       "id_checked": True})
            assert claimed["ok"], claimed
            doc = await screen.wait_view("draw:wildcard", lambda d: d["phase"] == "finalist")
            assert doc["finalist"]["present"] is True
    finally:
        ctl.stop()
    assert footprint(live) == before  # not one byte of the live log changed
    for db, kind in ((live, LIVE), (rehearsal, REHEARSAL)):
        log = open_log(db, create=False)
        try:
            assert log_kind(log) == kind
            assert log.first_broken_link() is None
        finally:
            log.close()
    assert main(["audit", "verify", "--db", str(live)]) == 0


async def test_serve_refuses_a_rehearsal_log_and_rehearse_refuses_a_live_one(tmp_path, log_at,
                                                                           capsys):
    live, rehearsal = log_at, tmp_path / "rehearsal.db"  # a rehearsal's log is always a file
    await live_show(live)
    ctl = Rehearsal(rehearsal, ("--promotion", "slots", "--at", START))
    await ctl.start()
    ctl.stop()
    heads = footprint(live), footprint(rehearsal)
    assert main(["serve", "--db", str(rehearsal), "--port", "0"]) == 2
    assert "is a rehearsal log" in capsys.readouterr().err
    assert main(["rehearse", "--promotion", "slots", "--at", START, "--db", str(live),
                 "--port", "0"]) == 2
    assert "a rehearsal never writes to it" in capsys.readouterr().err
    out = tmp_path / "export"
    assert main(["audit", "export", "--db", str(rehearsal), "--out", str(out)]) == 1
    assert "is a rehearsal log" in capsys.readouterr().err
    assert not out.exists()
    assert (footprint(live), footprint(rehearsal)) == heads  # refusals change nothing

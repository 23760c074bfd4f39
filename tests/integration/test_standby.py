"""A standby beside the controller on its PC (`serve --standby`): it keeps the show's state hot
from the log, does not listen while the controller lives, and takes over on the same port the
moment the controller is SIGKILLed during a Wild Card claim, with nothing acknowledged lost.

The log is a generated season (tests/support/season.py) of `SHOWRUNNER_SEASON_EVENTS` events,
20,000 by default; `SHOWRUNNER_SEASON_EVENTS=2000000 pytest -s` is the season of issue 26 and
prints how long the claim was off the screens (beside test_restart_at_scale.py's restart).
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from controller.application.service import wall_clock_ms
from controller.store.target import is_database
from tests.support.live import Client, LiveController, said
from tests.support.ports import free_port
from tests.support.wildcard import draw_to_claim, season_show

EVENTS = int(os.environ.get("SHOWRUNNER_SEASON_EVENTS", "20000"))
MEMBER = {"card": "7000001", "display_name": "Thandi Mokoena"}


@pytest.mark.timeout(120 + EVENTS // 1000)
async def test_a_standby_takes_over_a_claim_the_moment_the_controller_is_killed(
        tmp_path, log_at, monkeypatch):
    # wild card rules 39-40: the claim's 90 s run from an absolute deadline the takeover keeps
    # the bins stay open while the controller and then its standby replay the whole season
    owner = await season_show(tmp_path, monkeypatch, EVENTS, max(20_000, EVENTS // 5), log_at)
    # on one PC the standby waits for the SQLite file's writer lock and then takes the same
    # port; a PostgreSQL log's standby serves on a port of its own meanwhile
    on_pg = is_database(log_at)
    standby = LiveController(owner.db_path, extra_args=("--standby",))
    standby.keys, standby.port = owner.keys, free_port() if on_pg else owner.port
    standby.spawn()
    try:
        await said(standby, "taking over when",
                   timeout=max(30.0, EVENTS / 10_000))
        async with owner.client() as mc:
            drawn = await draw_to_claim(mc)
            last = await mc.send("register_member", MEMBER, command_id="just-before-the-kill")
            assert last["ok"], last
        if on_pg:
            assert standby.url  # serving screens and pages while it stands by
        else:
            assert standby.url == ""  # it never listened beside the controller
        owner.kill()
        killed = time.monotonic()
        if on_pg:
            await said(standby, "leading the show's log", 30.0)
            url = standby.url
        else:
            url = await asyncio.to_thread(standby.listening, 30.0)
            assert url == owner.url  # the same address: screens and pages reconnect as to a restart
        listening_s = time.monotonic() - killed
        screen = Client(url, "display", owner.keys["display"])
        await screen.connect()
        try:
            doc = await screen.wait_view("draw:wildcard", lambda d: d["phase"] == "claim",
                                         timeout=30)
        finally:
            await screen.close()
        back_s = time.monotonic() - killed
        print(f"\n{EVENTS} events: the standby listened {listening_s:.2f} s and the claim was "
              f"back on a screen {back_s:.2f} s after the SIGKILL")
        assert doc["claim_deadline"] == drawn["claim_deadline_ms"]
        assert wall_clock_ms() < doc["claim_deadline"]
        async with standby.client() as mc:
            again = await mc.send("register_member", MEMBER, command_id="just-before-the-kill")
            assert again["seq"] == last["seq"]  # acknowledged by the killed one: it is there
            ack = await mc.send("register_member", {"card": "7000002",
                                                    "display_name": "Sipho Dube"})
            assert ack["ok"] and ack["seq"] > last["seq"], ack
        assert ("leading the show's log" if on_pg else "standby: taking over the show at event"
                ) in "".join(standby.output)
    finally:
        standby.stop()
        owner.stop()

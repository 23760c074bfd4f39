"""Rehearsals started over HTTP from the console: who may, refusals in words, the live log
untouched, and the rehearsal's own controller on its own port and log."""

from __future__ import annotations

import asyncio
import datetime as dt
from zoneinfo import ZoneInfo

import aiohttp

from controller.rehearsal.log import REHEARSAL, log_kind
from controller.store.target import files_of, open_log
from tests.integration.test_rehearsal import footprint
from tests.support.live import live_controller
from tests.support.people import add_person, log_in

AT = "2024-01-18 17:55"
AT_MS = int(dt.datetime(2024, 1, 18, 17, 55, tzinfo=ZoneInfo("Africa/Johannesburg"))
            .timestamp() * 1000)


def browser() -> aiohttp.ClientSession:
    """A client that keeps the login cookie of a controller on an IP address."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def test_an_operator_starts_and_stops_a_rehearsal_and_the_live_log_is_untouched(log_at):
    rehearsals = files_of(log_at).parent / "rehearsals"  # files beside the live log
    async with live_controller(log_at) as ctl:
        add_person(ctl.db_path, "Mpho", "operator")
        add_person(ctl.db_path, "Zanele", "announcer")
        add_person(ctl.db_path, "Thabo", "technician")
        async with browser() as mc, browser() as announcer, browser() as nobody, \
                browser() as technician:
            for session, name in ((mc, "Mpho"), (announcer, "Zanele"), (technician, "Thabo")):
                assert (await log_in(session, ctl.url, name))[0] == 200
            before = footprint(ctl.db_path)
            async with nobody.get(f"{ctl.url}/rehearsal") as r:
                assert r.status == 401
            async with announcer.get(f"{ctl.url}/rehearsal") as r:
                assert r.status == 403
            async with nobody.get(f"{ctl.url}/rehearsal",
                                  headers={"X-Showrunner-Key": ctl.keys["technician"]}) as r:
                assert r.status == 401  # people only: a key does not start a rehearsal
            async with technician.get(f"{ctl.url}/rehearsal") as r:
                assert r.status == 200
            async with mc.get(f"{ctl.url}/rehearsal") as r:
                offer = await r.json()
            assert offer["running"] is False
            assert {"promotion": "wildcard", "at": AT, "label": "Wild Card draw: the bins "
                    "close at 18:00 on 18 January 2024"} in offer["moments"]

            async def start(body, session=mc):
                async with session.post(f"{ctl.url}/rehearsal/start", json=body) as r:
                    return r.status, await r.json()

            async with mc.post(f"{ctl.url}/rehearsal/start", data="promotion=wildcard") as r:
                assert r.status == 415  # JSON only: no other site's form starts one
            for body, words in (
                ({"promotion": "wildcard", "at": "18 Jan"}, "is not a date and time like"),
                ({"promotion": "darts", "at": AT}, "There is no promotion 'darts'"),
                ({"promotion": "wildcard", "at": AT, "speed": 0}, "The speed must be a whole"),
                ({"promotion": "wildcard", "at": AT, "speed": 2.5}, "The speed is a whole"),
            ):
                status, answer = await start(body)
                assert (status, answer["ok"]) == (400, False)
                assert words in answer["error"]["message"]
            assert not rehearsals.exists()  # refusals start nothing

            status, answer = await start({"promotion": "wildcard", "at": AT, "speed": 4})
            assert status == 200 and answer["running"] and answer["by"] == "Mpho", answer
            rehearsal = f"http://127.0.0.1:{answer['port']}"
            async with mc.get(f"{rehearsal}/clock") as r:
                clock = await r.json()
            assert clock["rate"] == 4 and AT_MS <= clock["server_ms"] < AT_MS + 60_000
            status, again = await start({"promotion": "slots", "at": AT})
            assert status == 400 and "already running" in again["error"]["message"]
            async with mc.post(f"{ctl.url}/rehearsal/stop", json={}) as r:
                assert (await r.json()) == {"ok": True, "running": False}
            try:
                async with mc.get(f"{rehearsal}/clock") as r:
                    raise AssertionError(f"the rehearsal still answers: {r.status}")
            except aiohttp.ClientConnectionError:
                pass
            assert footprint(ctl.db_path)[0] == before[0]  # the live chain head is unchanged
    [db] = rehearsals.glob("*.db")
    with open_log(db, create=False) as log:
        assert log_kind(log) == REHEARSAL and log.first_broken_link() is None
        assert [u.name for u in log.users()] == ["Mpho", "Thabo", "Zanele"]  # they log in there too


async def test_a_rehearsal_does_not_outlive_a_killed_controller(log_at):
    async with live_controller(log_at) as ctl:
        add_person(ctl.db_path, "Mpho", "operator")
        async with browser() as mc:
            assert (await log_in(mc, ctl.url, "Mpho"))[0] == 200
            async with mc.post(f"{ctl.url}/rehearsal/start",
                               json={"promotion": "wildcard", "at": AT}) as r:
                answer = await r.json()
            assert answer["running"], answer
            rehearsal = f"http://127.0.0.1:{answer['port']}"
            async with mc.get(f"{rehearsal}/clock") as r:
                assert r.status == 200
            ctl.kill()  # SIGKILL: no shutdown hook runs to stop the rehearsal
            deadline = asyncio.get_running_loop().time() + 10
            while asyncio.get_running_loop().time() < deadline:
                try:
                    async with mc.get(f"{rehearsal}/clock") as r:
                        await asyncio.sleep(0.2)
                except aiohttp.ClientConnectionError:
                    break
            else:
                raise AssertionError("the rehearsal outlived its killed controller")

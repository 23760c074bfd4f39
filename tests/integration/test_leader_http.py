"""`GET /leader` and the login handoff over HTTP (issue 28): what a page asks to find the
leader of the show's log, and how a person's session goes on at another controller of it.
Real controllers on real logs: an SQLite file (one controller, it leads) and PostgreSQL (a
leader and a standby, as two PCs)."""

from __future__ import annotations

import aiohttp

from controller.access.people import disable_user
from controller.store.target import open_log
from tests.integration.test_postgres_failover import MC_NAME, MC_PASSWORD, two_pcs
from tests.support.live import live_controller

JSON = {"Content-Type": "application/json"}


async def test_a_controller_on_an_sqlite_log_leads_and_names_no_other(tmp_path) -> None:
    async with live_controller(tmp_path / "show.db") as ctl, aiohttp.ClientSession() as http, \
            http.get(f"{ctl.url}/leader") as answer:
        assert answer.status == 200
        assert await answer.json() == {"leading": True, "leader": "", "controllers": []}


async def test_each_controller_of_a_postgres_log_says_who_leads_and_lists_both(
        tmp_path, postgres_url) -> None:
    async with two_pcs(postgres_url, tmp_path) as (leader, standby), \
            aiohttp.ClientSession() as http:
        a, b = f"http://127.0.0.1:{leader.port}", f"http://127.0.0.1:{standby.port}"
        async with http.get(f"{leader.url}/leader") as answer:
            assert await answer.json() == {"leading": True, "leader": a,
                                           "controllers": [a, b]}
        async with http.get(f"{standby.url}/leader") as answer:
            assert await answer.json() == {"leading": False, "leader": a,
                                           "controllers": [b, a]}


async def test_a_controller_on_a_port_the_system_chose_is_listed_at_that_port(
        tmp_path, postgres_url) -> None:
    # started without --advertise on --port 0: the lease said "127.0.0.1:0" before it was bound,
    # and a page that lost it for 5 s went there (Chromium: ERR_UNSAFE_PORT)
    async with live_controller(postgres_url) as ctl, aiohttp.ClientSession() as http, \
            http.get(f"{ctl.url}/leader") as answer:
        assert await answer.json() == {"leading": True, "leader": ctl.url,
                                       "controllers": [ctl.url]}


async def test_a_session_opened_at_one_controller_resumes_at_the_other_with_its_handoff(
        tmp_path, postgres_url) -> None:
    async with two_pcs(postgres_url, tmp_path) as (leader, standby):
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as at_a:
            async with at_a.post(f"{leader.url}/login/handoff", json={}) as refused:
                assert refused.status == 401  # not logged in: nothing to hand off
            async with at_a.post(f"{leader.url}/login", json={
                    "name": MC_NAME, "password": MC_PASSWORD}) as logged_in:
                assert logged_in.status == 200
            async with at_a.post(f"{leader.url}/login/handoff", json={}) as handed:
                token = (await handed.json())["token"]
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as at_b:
            async with at_b.post(f"{standby.url}/login/resume", json={"token": "guess"}) as no:
                assert no.status == 401
                assert (await no.json())["error"]["message"] == "Log in again: your session ended."
            async with at_b.post(f"{standby.url}/login/resume", json={"token": token}) as yes:
                assert yes.status == 200
                assert (await yes.json())["home"] == "/tablet"
            async with at_b.get(f"{standby.url}/whoami") as me:
                assert (await me.json())["name"] == MC_NAME
            with open_log(postgres_url) as log:
                disable_user(log, MC_NAME, 1)
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as later, \
                later.post(f"{standby.url}/login/resume", json={"token": token}) as gone:
            assert gone.status == 401  # a disabled person's handoff is worth nothing

"""Two controllers on one PostgreSQL log (issue 28), as two PCs: each its own folder and port,
one leading, the other `--standby`. The leader SIGKILLed: the standby takes the lead and serves
the show, with every acknowledged command there once, a screen given both addresses follows
it, and a person logged in at the leader is still logged in there. The leader frozen (SIGSTOP)
past its lease, then resumed: it writes nothing, says it stepped down and ends, and the log
holds one history (`audit verify`)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import psycopg
import socketio
from yarl import URL

from controller.access.people import add_user
from controller.application.child_process import ROOT
from controller.application.service import wall_clock_ms
from controller.application.settings import CONFIG_DIR_ENV
from controller.store.lease import LEASE_S, RENEW_S
from controller.store.target import open_log
from showrunner.engine.display import Display, DisplayOptions
from showrunner.engine.link import Link, LinkTimings, LogJoined
from tests.integration.test_link_comes_back import Screen
from tests.support.live import LiveController, said
from tests.support.ports import free_port
from tests.support.wildcard import draw_to_claim, write_wildcard_config

SHORT = LinkTimings(connect_s=1.5, call_s=1.5, ping_every_s=1.0, backoff_first_s=0.2,
                    backoff_max_s=1.0)
THANDI = {"card": "1234567", "display_name": "Thandi Mokoena"}
MC_NAME, MC_PASSWORD = "Lindiwe MC", "correct horse battery staple"



def top_score(board: dict) -> int | None:
    return board["rows"][0]["score"] if board["rows"] else None


def controller(url: str, folder: Path, standby: bool = False) -> LiveController:
    """A controller on its own "PC": a folder of its own, a port fixed in advance (so it can
    say where it is), the standby flag."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = LiveController(url, extra_args=("--advertise", f"http://127.0.0.1:{port}",
                                              *(("--standby",) if standby else ())), cwd=folder)
    process.port = port
    return process


@asynccontextmanager
async def two_pcs(url: str, tmp_path: Path) -> AsyncIterator[tuple[LiveController,
                                                                   LiveController]]:
    leader, standby = controller(url, tmp_path / "pc-a"), controller(url, tmp_path / "pc-b",
                                                                     standby=True)
    leader.issue_keys()
    standby.keys = leader.keys
    with open_log(url) as log:
        add_user(log, MC_NAME, "operator", MC_PASSWORD, 0)
    await leader.start()
    standby.spawn()
    try:
        await asyncio.to_thread(standby.listening, 30.0)  # it serves while it stands by
        await said(standby, "taking over when the controller at", 30)
        yield leader, standby
    finally:
        for process in (standby, leader):
            if process.process is not None and process.process.poll() is None:
                os.kill(process.process.pid, signal.SIGCONT)
            process.stop()


def audit_verify(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "audit", "verify", "--db", url],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


async def test_the_standby_takes_the_lead_when_the_leader_is_killed_and_nothing_is_lost(
        tmp_path, postgres_url):
    async with two_pcs(postgres_url, tmp_path) as (leader, standby):
        async with leader.client() as mc:
            acked = await mc.send("register_member", THANDI, command_id="before-the-kill")
            assert acked["ok"], acked
            assert (await mc.send("slots.enter", {"card": THANDI["card"]}))["ok"]
            scored = await mc.send("slots.record_score", {"entry": "S1", "score": 40})
            assert scored["ok"], scored
        screen = Screen(leader.url, leader.keys["display"], tmp_path / "screen", SHORT)
        screen.display = Display(DisplayOptions(controller=(leader.url, f"http://127.0.0.1:"
                                                            f"{standby.port}"),
                                                screen="screen-1", state_dir=tmp_path / "s"))
        screen.link = Link((leader.url, f"http://127.0.0.1:{standby.port}"), "screen-1",
                           leader.keys["display"], timings=SHORT)
        screen.link.start()
        browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        try:
            async with browser.post(f"{leader.url}/login", json={
                    "name": MC_NAME, "password": MC_PASSWORD}) as answer:
                assert answer.status == 200, await answer.text()
            await screen.until(lambda: (screen.doc() or {}).get("rows"), 10)
            url = standby.url
            async with standby.client() as refused:
                answer = await refused.send("slots.record_score", {"entry": "S1", "score": 99})
                assert answer["error"]["code"] == "not_leader", answer
                assert leader.url in answer["error"]["message"]  # where to go instead
            async with standby.client("display") as watching:  # a screen on the standby
                await watching.wait_view("leaderboard:slots", lambda d: top_score(d) == 40)
                leader.kill()
                killed = time.monotonic()
                await said(standby, "leading the show's log (lease epoch 2)", 30)
                took_over_s = time.monotonic() - killed
                async with standby.client() as mc:
                    again = await mc.send("register_member", THANDI,
                                          command_id="before-the-kill")
                    assert again["seq"] == acked["seq"]  # acknowledged by the dead one: once
                    rescored = await mc.send("slots.record_score", {"entry": "S1", "score": 55})
                    assert rescored["ok"] and rescored["seq"] > scored["seq"], rescored
                # still connected across the takeover, it sees the new leader's score
                await watching.wait_view("leaderboard:slots",
                                         lambda d: top_score(d) == 55)
            back_s = await screen.until(lambda: screen.doc()["rows"][0]["score"] == 55, 15)
            assert any(isinstance(m, LogJoined) and m.url == url for m in screen.seen)
            cookies = browser.cookie_jar.filter_cookies(URL(leader.url))
            async with aiohttp.ClientSession(cookies={k: v.value for k, v in cookies.items()}
                                             ) as moved, moved.get(f"{url}/whoami") as me:
                assert me.status == 200, await me.text()  # still logged in at the new leader
                assert (await me.json())["name"] == MC_NAME
            assert not any(isinstance(m, LogJoined) and m.reset for m in screen.seen)
            print(f"\nthe standby led {took_over_s:.2f} s after the SIGKILL; the screen showed "
                  f"its new score {back_s:.2f} s after that")
        finally:
            await browser.close()
            screen.link.stop()
        assert "leading the show's log (lease epoch 2)" in "".join(standby.output)
    verified = audit_verify(postgres_url)
    assert verified.returncode == 0, verified.stdout + verified.stderr


async def test_a_leader_frozen_past_its_lease_writes_nothing_and_steps_down(
        tmp_path, postgres_url):
    async with two_pcs(postgres_url, tmp_path) as (leader, standby):
        assert leader.process is not None
        async with leader.client() as frozen_mc:
            assert (await frozen_mc.send("register_member", THANDI))["ok"]
            os.kill(leader.process.pid, signal.SIGSTOP)
            await said(standby, "leading the show's log (lease epoch 2)", 30)
            async with standby.client() as mc:
                led = await mc.send("register_member", {"card": "7654321",
                                                        "display_name": "Sipho Dube"})
                assert led["ok"], led
            os.kill(leader.process.pid, signal.SIGCONT)
            try:  # the old leader, woken: its session may still take a command, never write it
                late = await asyncio.wait_for(frozen_mc.send(
                    "register_member", {"card": "5550001", "display_name": "Late Caller"}), 5)
            except (TimeoutError, socketio.exceptions.SocketIOError):
                late = None  # it stepped down first: the session was closed
            if late is not None:
                assert not late["ok"] and late["error"]["code"] == "not_leader", late
                assert "Nothing was done" in late["error"]["message"]
                print(f"\nthe woken leader answered: {late['error']['message']}")
        await said(leader, "stepped down", 15)
        assert leader.process.wait(15) == 0
        with open_log(postgres_url, create=False) as log:
            cards = [e.data.get("card") for e in log.read() if e.type == "MemberRegistered"]
            assert cards == [THANDI["card"], "7654321"]  # nothing from the woken leader
            assert log.first_broken_link() is None
    verified = audit_verify(postgres_url)
    assert verified.returncode == 0, verified.stdout + verified.stderr


async def test_a_claim_runs_out_on_schedule_at_the_standby_that_took_the_lead(
        tmp_path, postgres_url, monkeypatch) -> None:
    # wild card rules 39-40: the claim window runs from its absolute deadline; the clock that
    # expires it is the new leader's, started in-process at the takeover
    write_wildcard_config(tmp_path / "config", close_in_ms=12_000, claim_seconds=10,
                          reminder_seconds=(5,))
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with two_pcs(postgres_url, tmp_path) as (leader, standby):
        async with leader.client() as mc:
            for card in ("9000001", "9000002"):
                assert (await mc.send("register_member", {"card": card,
                                                          "display_name": f"Guest {card}"}))["ok"]
                activated = await mc.send("wildcard.activate", {"card": card})
                assert activated["ok"], activated
            drawn = await draw_to_claim(mc)
        leader.kill()
        await said(standby, "leading the show's log (lease epoch 2)", 30)
        assert wall_clock_ms() < drawn["claim_deadline_ms"]  # taken over inside the claim
        with open_log(postgres_url, create=False) as log:
            deadline = time.monotonic() + 30
            while not (expired := [e for e in log.read() if e.type == "WildcardClaimExpired"]):
                assert time.monotonic() < deadline, "the claim never ran out"
                await asyncio.sleep(0.2)
        assert expired[0].data["deadline_ms"] == drawn["claim_deadline_ms"]
        assert expired[0].at_ms >= drawn["claim_deadline_ms"]


async def test_both_controllers_outlive_the_database_ending_every_connection(
        tmp_path, postgres_url) -> None:
    # what PostgreSQL's own restart or failover does to its clients: every connection ended
    async with two_pcs(postgres_url, tmp_path) as (leader, standby):
        async with leader.client() as mc, standby.client("display") as watching:
            assert (await mc.send("register_member", THANDI))["ok"]
            assert (await mc.send("slots.enter", {"card": THANDI["card"]}))["ok"]
            assert (await mc.send("slots.record_score", {"entry": "S1", "score": 40}))["ok"]
            await watching.wait_view("leaderboard:slots", lambda d: top_score(d) == 40)
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                ended = admin.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
                    "datname = current_database() AND pid <> pg_backend_pid()").fetchone()
            assert ended is not None and ended[0] >= 4  # each controller's log and lease
            rescored = await mc.send("slots.record_score", {"entry": "S1", "score": 55})
            assert rescored["ok"], rescored  # its log's connection made again, the lease kept
            await watching.wait_view("leaderboard:slots", lambda d: top_score(d) == 55)
            await asyncio.sleep(LEASE_S + RENEW_S)  # past a lease: it was renewed meanwhile
            again = await mc.send("slots.record_score", {"entry": "S1", "score": 60})
            assert again["ok"], again
        assert not any("stepped down" in line for line in leader.output)
        assert not any("leading" in line for line in standby.output)

"""The slot machines' feed through real HTTP (aiohttp) to a real controller: a heat from the
feed's start to the director's accepted scores, live credits on a display, a silent machine,
and every refusal in words with nothing changed (docs/slots-feed.md)."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from controller.access.keys import issue_key
from controller.store.sqlite import EventLog
from tests.support.live import LiveController, live_controller

API = "/api/v1/slots/banks"
MACHINES = ["101", "102", "103", "104"]


def bank_key(ctl: LiveController, bank: str) -> str:
    """A device key whose holder name is the bank (issued at the shell, as a technician)."""
    log = EventLog.open(ctl.db_path)
    try:
        return issue_key(log, "device", bank, 0)
    finally:
        log.close()


@asynccontextmanager
async def floor(tmp_path, players: int = 4):
    """A controller with `players` seated in Heat 1 of qualifying, an MC and bank-1's key."""
    async with live_controller(tmp_path / "show.db") as ctl, ctl.client() as mc:
        for i in range(players):
            ack = await mc.send("register_member", {"card": str(1_000_000 + i),
                                                    "display_name": f"Player{i} Surname{i}"})
            assert ack["ok"], ack
            ack = await mc.send("slots.enter", {"card": str(1_000_000 + i)})
            assert ack["ok"], ack
        async with aiohttp.ClientSession(ctl.url) as http:
            yield ctl, mc, http, bank_key(ctl, "bank-1")


async def post(http: aiohttp.ClientSession, path: str, key: str | None, body: Any,
               raw: bytes | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["X-Showrunner-Key"] = key
    data = raw if raw is not None else json.dumps(body).encode()
    async with http.post(path, data=data, headers=headers) as answer:
        return answer.status, await answer.json()


async def seq(http: aiohttp.ClientSession) -> int:
    async with http.get("/healthz") as answer:
        return int((await answer.json())["seq"])


START = {"feed_heat": "F-0042", "machines": MACHINES, "start_credits": 1000, "duration_s": 300}


async def test_a_heat_from_the_feed_to_accepted_scores(tmp_path):
    async with floor(tmp_path) as (_ctl, mc, http, key):
        status, started = await post(http, f"{API}/bank-1/heats", key, START)
        assert status == 200, started
        assert started["stage"] == "qualifying" and started["heat"] == "Heat 1"
        status, applied = await post(http, f"{API}/bank-1/heats/F-0042/credits", key,
                                     {"readings": [{"machine": "101", "credits": 1234}]})
        assert (status, applied) == (200, {"ok": True, "applied": 1})
        status, ended = await post(http, f"{API}/bank-1/heats/F-0042/end", key, {"finals": [
            {"machine": m, "credits": 1000 + 100 * i} for i, m in enumerate(MACHINES)]})
        assert status == 200, ended
        doc = await mc.wait_view("live_heat:slots", lambda d: d["status"] == "ended")
        assert [r["credits"] for r in doc["rows"]] == [1300, 1200, 1100, 1000]
        ack = await mc.send("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"})
        assert ack["ok"], ack
        board = await mc.wait_view("leaderboard:slots", lambda d: d["entries"] == 4)
        assert [r["score"] for r in board["rows"]] == [1300, 1200, 1100, 1000]

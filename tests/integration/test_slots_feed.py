"""The slot machines' feed through real HTTP (aiohttp) to a real controller: a heat from the
feed's start to the director's accepted scores, live credits on a display, a silent machine,
and every refusal in words with nothing changed (docs/slots-feed.md)."""

from __future__ import annotations

import asyncio
import json
import re
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from controller.access.attempts import SLOWED
from controller.access.keys import issue_key
from controller.store.target import open_log
from tests.support.live import LiveController, live_controller
from tests.support.slots import venue_slots_config

API = "/api/v1/slots/banks"
MACHINES = ["101", "102", "103", "104"]


async def bank_key(ctl: LiveController, http: aiohttp.ClientSession, bank: str) -> str:
    """A device key whose holder name is the bank, issued at the shell as a technician, once
    the controller has folded it: it reads what the shell appends a moment later (later
    still on a loaded machine), and a test that counts the log's events must not count it."""
    log = open_log(ctl.db_path)
    try:
        key, issued = issue_key(log, "device", bank, 0), log.last_seq
    finally:
        log.close()
    while await seq(http) < issued:
        await asyncio.sleep(0.05)
    return key


@asynccontextmanager
async def floor(log_at, players: int = 4):
    """A controller with `players` seated in Heat 1 of qualifying, an MC and bank-1's key."""
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        for i in range(players):
            ack = await mc.send("register_member", {"card": str(1_000_000 + i),
                                                    "display_name": f"Player{i} Surname{i}"})
            assert ack["ok"], ack
            ack = await mc.send("slots.enter", {"card": str(1_000_000 + i)})
            assert ack["ok"], ack
        async with aiohttp.ClientSession(ctl.url) as http:
            yield ctl, mc, http, await bank_key(ctl, http, "bank-1")


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


CREDITS = f"{API}/bank-1/heats/F-0042/credits"


def reading(machine: str, credits: Any) -> dict[str, Any]:
    return {"readings": [{"machine": machine, "credits": credits}]}


async def test_a_heat_from_the_feed_to_accepted_scores(log_at):
    async with floor(log_at) as (ctl, mc, http, key), ctl.client("display") as screen:
        status, started = await post(http, f"{API}/bank-1/heats", key, START)
        # slots rule 11: the machines in the bank's order are Heat 1's seats 1..4
        assert status == 200, started
        assert (started["stage"], started["heat"]) == ("qualifying", "Heat 1")
        assert started["seq"] == await seq(http)
        again = await post(http, f"{API}/bank-1/heats", key, START)  # its answer was lost
        assert again == (200, started) and await seq(http) == started["seq"]
        status, applied = await post(http, CREDITS, key, {"readings": [
            {"machine": "101", "credits": 1234}, {"machine": "103", "credits": 1500}]})
        assert (status, applied) == (200, {"ok": True, "applied": 2})
        # slots rule 14: the floor sees the live heat, names as the leaderboard shows them
        live = await screen.wait_view("live_heat:slots", lambda d: d["status"] == "live"
                                      and d["rows"][0]["credits"] == 1500)
        assert [(r["machine"], r["name"], r["rank"]) for r in live["rows"][:2]] == \
            [("103", "Player2 S.", 1), ("101", "Player0 S.", 2)]
        assert live["ends_at_ms"] == started["ends_at_ms"]
        status, ended = await post(http, f"{API}/bank-1/heats/F-0042/end", key, {"finals": [
            {"machine": m, "credits": 1000 + 100 * i} for i, m in enumerate(MACHINES)]})
        assert status == 200, ended
        doc = await mc.wait_view("live_heat:slots", lambda d: d["status"] == "ended")
        assert [r["credits"] for r in doc["rows"]] == [1300, 1200, 1100, 1000]
        bank = (await mc.wait_view("ops:feed", lambda d: d["banks"][0]["status"] == "ended"))
        assert bank["banks"][0]["heat"] == "Heat 1"
        ack = await mc.send("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"})
        assert ack["ok"], ack
        board = await screen.wait_view("leaderboard:slots", lambda d: d["entries"] == 4)
        assert [r["score"] for r in board["rows"]] == [1300, 1200, 1100, 1000]
        assert (await screen.wait_view("live_heat:slots",
                                       lambda d: d["status"] == "accepted"))["rows"]
        # the feed's raw last readings are in the log with the final credits
        log = open_log(ctl.db_path)
        try:
            ended_event = next(e for e in log.read() if e.type == "SlotsFeedHeatEnded")
        finally:
            log.close()
        last = ended_event.data["last_readings"]
        assert [(r["machine"], r["credits"]) for r in last] == [("101", 1234), ("103", 1500)]
        assert ended_event.actor == "bank-1"  # the device that reported it


async def test_a_silent_machine_is_flagged_to_the_director_and_on_the_floor(tmp_path, log_at,
                                                                            monkeypatch):
    venue_slots_config(tmp_path, monkeypatch, feed_silence_s=2)  # not the shipped 10 s
    async with floor(log_at) as (_ctl, mc, http, key):
        assert (await post(http, f"{API}/bank-1/heats", key, START))[0] == 200
        # slots rule 27: a machine that stops reporting is a possible malfunction
        for _ in range(30):
            await post(http, CREDITS, key, {"readings": [
                {"machine": m, "credits": 1000} for m in MACHINES[:3]]})
            doc = mc.views.get("ops:feed")
            if doc and doc["banks"] and doc["banks"][0]["silent"]:
                break
            await asyncio.sleep(0.5)
        doc = await mc.wait_view("ops:feed", lambda d: d["banks"] and d["banks"][0]["silent"])
        silent = doc["banks"][0]["silent"]
        assert [(s["machine"], s["name"], s["seat"]) for s in silent] == \
            [("104", "Player3 S.", 4)]
        assert silent[0]["entry"] and silent[0]["since_ms"] == doc["banks"][0]["ends_at_ms"] - \
            START["duration_s"] * 1000
        live = mc.views["live_heat:slots"]
        assert [r["machine"] for r in live["rows"] if r["silent"]] == ["104"]


async def refused_in_words(http: aiohttp.ClientSession, path: str, key: str | None, body: Any,
                           status: int, code: str, raw: bytes | None = None) -> str:
    before = await seq(http)
    got, answer = await post(http, path, key, body, raw)
    assert (got, answer["ok"], answer["error"]["code"]) == (status, False, code), answer
    assert await seq(http) == before  # nothing changed in the log
    return str(answer["error"]["message"])


async def test_each_refusal_is_in_words_and_changes_nothing(log_at):
    async with floor(log_at) as (ctl, _mc, http, key), ctl.client("display") as screen:
        other = await bank_key(ctl, http, "bank-2")
        heats = f"{API}/bank-1/heats"
        assert "Unknown or revoked key" in await refused_in_words(
            http, heats, "not-a-key", START, 401, "bad_key")
        assert "reports for bank-2, not bank-1" in await refused_in_words(
            http, heats, other, START, 403, "wrong_bank")
        assert "device key" in await refused_in_words(
            http, heats, ctl.keys["operator"], START, 403, "not_allowed")
        assert "has 4 players seated" in await refused_in_words(
            http, heats, key, {**START, "machines": MACHINES[:3]}, 400, "seats_mismatch")
        assert (await post(http, heats, key, START))[0] == 200
        assert "still playing" in await refused_in_words(
            http, heats, key, {**START, "feed_heat": "F-0043"}, 409, "heat_live")
        assert "Machine 999 is not in heat F-0042" in await refused_in_words(
            http, CREDITS, key, reading("999", 5), 400, "unknown_machine")
        assert "NaN" in await refused_in_words(
            http, CREDITS, key, None, 400, "bad_json",
            raw=b'{"readings": [{"machine": "101", "credits": NaN}]}')
        assert "at least 0" in await refused_in_words(
            http, CREDITS, key, reading("101", -5), 400, "bad_payload")
        assert "whole number" in await refused_in_words(
            http, CREDITS, key, reading("101", 12.5), 400, "bad_payload")
        assert "no heat 'F-9'" in await refused_in_words(
            http, f"{API}/bank-1/heats/F-9/credits", key, reading("101", 5), 404,
            "unknown_feed_heat")
        big = b'{"readings": [' + b" " * (10 * 1024 * 1024) + b"]}"
        assert "too large" in await refused_in_words(
            http, CREDITS, key, None, 413, "too_large", raw=big)
        # none of the refused readings reached the floor; the next good one does
        assert (await post(http, CREDITS, key, reading("102", 777)))[0] == 200
        doc = await screen.wait_view("live_heat:slots",
                                     lambda d: any(r["credits"] == 777 for r in d["rows"]))
        assert [r["credits"] for r in doc["rows"] if r["machine"] != "102"] == [None] * 3
        assert "Machine 999" in await refused_in_words(
            http, f"{API}/bank-1/heats/F-0042/end", key, {"finals": [
                {"machine": "999", "credits": 1}]}, 400, "unknown_machine")


async def test_wrong_keys_are_slowed_per_address_and_a_right_key_never_is(log_at):
    async with live_controller(log_at,
                               ("--key-failures", "3")) as ctl, \
            aiohttp.ClientSession(ctl.url) as http:
        key = await bank_key(ctl, http, "bank-1")
        for _ in range(3):
            assert await refused_in_words(http, f"{API}/bank-1/heats", "wrong", START, 401,
                                          "bad_key") == "Unknown or revoked key."
        slowed = await refused_in_words(http, f"{API}/bank-1/heats", "wrong", START, 401,
                                        "bad_key")
        assert slowed == "Unknown or revoked key." + SLOWED
        # the right key is checked first: the address's wrong keys are no concern of it
        status, answer = await post(http, f"{API}/bank-1/heats", key, START)
        assert status not in (401, 429), answer


async def test_the_openapi_document_names_every_route_and_its_models(log_at):
    async with live_controller(log_at) as ctl, \
            aiohttp.ClientSession(ctl.url) as http, \
            http.get("/api/v1/openapi.json") as answer:  # no key needed
        assert answer.status == 200
        doc = json.loads(await answer.text())
    assert doc["openapi"] == "3.1.0"
    assert {"/api/v1/slots/banks/{bank}/heats",
            "/api/v1/slots/banks/{bank}/heats/{feed_heat}/credits",
            "/api/v1/slots/banks/{bank}/heats/{feed_heat}/end",
            "/api/v1/openapi.json"} <= set(doc["paths"])
    schemas = doc["components"]["schemas"]
    assert {"StartHeat", "HeatStarted", "Credits", "CreditsApplied", "EndHeat", "HeatEnded",
            "ErrorBody"} <= set(schemas)
    start = doc["paths"]["/api/v1/slots/banks/{bank}/heats"]["post"]
    assert start["requestBody"]["content"]["application/json"]["schema"] == \
        {"$ref": "#/components/schemas/StartHeat"}
    assert start["security"] == [{"deviceKey": []}]
    assert doc["components"]["securitySchemes"]["deviceKey"].items() >= \
        {"type": "apiKey", "in": "header", "name": "X-Showrunner-Key"}.items()
    assert schemas["MachineCredits"]["properties"]["credits"]["minimum"] == 0
    refs = set(re.findall(r'"#/components/schemas/(\w+)"', json.dumps(doc)))
    assert refs <= set(schemas)  # every reference resolves

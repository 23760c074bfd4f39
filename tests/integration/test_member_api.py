"""The member-app API through real HTTP (aiohttp) to a real controller (docs/member-api.md): a
member's Wild Card entry read and activated (slots rules 18.3, 33.3, within the bins' hours,
rule 36), their place on a public leaderboard, their Super 9 numbers called; every refusal in
words with the log unchanged; one answer, in the same time, for an unknown and an excluded
card; every call recorded; and the OpenAPI document valid and generated from the models."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import yaml
from openapi_spec_validator import validate

from controller.access.keys import revoke_key
from controller.domain.keys import key_hash
from controller.http.api import ROUTES, VERSION
from controller.http.api.framework import PREFIX
from controller.http.api.openapi import openapi_document
from controller.store.target import LogAt, open_log
from tests.support.live import Client, LiveController, live_controller
from tests.support.super9 import TICKET, play_game, session_soon
from tests.support.wildcard import write_wildcard_config

KEY = "X-Showrunner-Key"
THANDI, SIPHO, FLAGGED, UNKNOWN = "1000001", "1000002", "1000003", "1999999"
HOUR_MS = 3_600_000
MEMBERS = [(THANDI, "Thandi Mokoena", []), (SIPHO, "Sipho Ndlovu", []),
           (FLAGGED, "Lerato Dlamini", ["self_excluded"])]


def members_path(card: str, what: str) -> str:
    return f"{PREFIX}/members/{card}/{what}"


@asynccontextmanager
async def venue(tmp_path: Path, log_at: LogAt, monkeypatch: Any, bins_open_in_ms: int = 0
                ) -> AsyncIterator[tuple[LiveController, Client, aiohttp.ClientSession]]:
    """A controller on a Wild Card draw day (bins open now, or in `bins_open_in_ms`), three
    members (one self-excluded, rule 2), Sipho played a qualifying heat (1200); an MC and an
    HTTP client."""
    config = tmp_path / "config"
    write_wildcard_config(config, close_in_ms=bins_open_in_ms + HOUR_MS)
    if bins_open_in_ms:
        doc = yaml.safe_load((config / "wildcard.yaml").read_text())
        close = dt.datetime.strptime(doc["bins_close"], "%H:%M:%S")
        doc["bins_open"] = (close - dt.timedelta(hours=1)).strftime("%H:%M:%S")
        (config / "wildcard.yaml").write_text(yaml.safe_dump(doc))
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(config))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        for card, name, flags in MEMBERS:
            ack = await mc.send("register_member", {"card": card, "display_name": name,
                                                    "flags": flags})
            assert ack["ok"], ack
        for command, payload in (("slots.enter", {"card": SIPHO}),
                                 ("slots.record_score", {"entry": "S1", "score": 1200})):
            ack = await mc.send(command, payload)
            assert ack["ok"], ack
        async with aiohttp.ClientSession(ctl.url) as http:
            yield ctl, mc, http


async def call(http: aiohttp.ClientSession, method: str, path: str, key: str | None,
               **kwargs: Any) -> tuple[int, dict[str, Any]]:
    headers = {KEY: key} if key is not None else {}
    async with http.request(method, path, headers=headers, **kwargs) as answer:
        return answer.status, await answer.json()


async def seq(http: aiohttp.ClientSession) -> int:
    async with http.get("/healthz") as answer:
        return int((await answer.json())["seq"])


def calls_for(ctl: LiveController, card: str) -> list[tuple[str, str, str, str]]:
    log = open_log(ctl.db_path)
    try:
        return [(c.name, c.role, c.action, c.outcome) for c in log.calls_for(card)]
    finally:
        log.close()


async def test_a_member_reads_and_activates_their_wildcard_tickets(tmp_path, log_at, monkeypatch):
    async with venue(tmp_path, log_at, monkeypatch) as (ctl, mc, http):
        app = ctl.keys["app"]
        status, entry = await call(http, "GET", members_path(SIPHO, "wildcard"), app)
        assert status == 200, entry
        # rules 18.1-18.2: 1 ticket as a cardholder, 5 more for taking part
        assert (entry["name"], entry["cardholder_tickets"], entry["participant_tickets"],
                entry["tickets"]) == ("Sipho N.", 1, 5, 6)
        assert (entry["state"], entry["activated"], entry["can_activate"]) == \
            ("open", False, True)
        before = await seq(http)
        path = members_path(SIPHO, "wildcard/activate")
        status, receipt = await call(http, "POST", path, app)  # no body at all
        assert status == 200, receipt
        assert receipt["ok"] is True and receipt["seq"] == before + 1 == await seq(http)
        assert receipt["entry"]["activated"] and not receipt["entry"]["can_activate"]
        assert receipt["entry"]["activated_at"]
        status, other = await call(http, "POST", members_path(THANDI, "wildcard/activate"),
                                   app, json={})  # an empty object is no body too
        assert status == 200 and other["entry"]["tickets"] == 1  # rule 18.1 alone
        # a retry (the answer was lost) gets the first receipt and appends nothing
        again = await call(http, "POST", path, app)
        assert again == (200, receipt) and await seq(http) == other["seq"] == receipt["seq"] + 1
        status, read = await call(http, "GET", members_path(SIPHO, "wildcard"), app)
        assert (status, read) == (200, receipt["entry"])
        # the log has the command, its actor the app key's holder name
        log = open_log(ctl.db_path)
        try:
            event = next(e for e in log.read() if e.type == "WildcardActivated")
        finally:
            log.close()
        assert (event.actor, event.data["card"]) == ("test app", SIPHO)
        # the desk activating him again is refused: the app's activation counts
        ack = await mc.send("wildcard.activate", {"card": SIPHO})
        assert not ack["ok"] and ack["error"]["code"] == "duplicate"
        assert calls_for(ctl, SIPHO) == [("test app", "app", "entries", "ok"),
                                         ("test app", "app", "activate", "ok"),
                                         ("test app", "app", "activate", "ok"),
                                         ("test app", "app", "entries", "ok")]


async def test_outside_the_bins_activation_is_refused_with_the_opening_time(tmp_path, log_at,
                                                                             monkeypatch):
    async with venue(tmp_path, log_at, monkeypatch, bins_open_in_ms=HOUR_MS) as (ctl, _mc, http):
        app = ctl.keys["app"]
        status, entry = await call(http, "GET", members_path(THANDI, "wildcard"), app)
        assert (status, entry["state"], entry["can_activate"]) == (200, "bins_not_open", False)
        before = await seq(http)
        status, body = await call(http, "POST", members_path(THANDI, "wildcard/activate"), app)
        # rule 36: only while the bins are open; the answer says when they open
        assert status == 409 and body["error"]["code"] == "bins_not_open"
        assert entry["bins_open"] in body["error"]["message"]
        assert await seq(http) == before
        assert calls_for(ctl, THANDI)[-1] == ("test app", "app", "activate", "bins_not_open")


async def test_a_member_sees_their_place_on_a_public_leaderboard(tmp_path, log_at, monkeypatch):
    async with venue(tmp_path, log_at, monkeypatch) as (ctl, mc, http):
        ack = await mc.send("slots.enter", {"card": THANDI})
        assert ack["ok"], ack
        ack = await mc.send("slots.record_score", {"entry": "S2", "score": 1500})
        assert ack["ok"], ack
        app = ctl.keys["app"]
        status, body = await call(http, "GET", members_path(SIPHO, "leaderboards"), app)
        assert status == 200, body
        assert [(p["stage"], p["place"], p["score"], p["ranked"]) for p in body["places"]] == \
            [("Qualifying", 2, 1200, 2)]
        assert "Thandi" not in json.dumps(body) and THANDI not in json.dumps(body)
        # a card on no board, an unknown one and an excluded one: the same answer
        for card in (UNKNOWN, FLAGGED):
            assert await call(http, "GET", members_path(card, "leaderboards"), app) == \
                (200, {"ok": True, "places": []})
        assert calls_for(ctl, SIPHO) == [("test app", "app", "leaderboards", "ok")]


async def test_a_member_sees_their_super9_numbers_called(tmp_path, log_at, monkeypatch):
    (tmp_path / "config").mkdir()
    session_soon(tmp_path / "config", monkeypatch, lead_s=8)
    async with live_controller(log_at) as ctl, ctl.client() as mc, \
            aiohttp.ClientSession(ctl.url) as http:
        for card, name, flags in MEMBERS:
            ack = await mc.send("register_member", {"card": card, "display_name": name,
                                                    "flags": flags})
            assert ack["ok"], ack
        ack = await mc.send("super9.sell_ticket", {"ticket": "0777", "card": THANDI})
        assert ack["ok"], ack
        ack = await mc.send("super9.enter_ticket", {"ticket": "0777", "original": TICKET,
                                                    "duplicate": TICKET})
        assert ack["ok"], ack
        await play_game(mc)  # ticket 0421, nobody's card, and the session started
        for number in (3, 30, 7):
            ack = await mc.send("super9.spin", {"number": number})
            assert ack["ok"], ack
        status, body = await call(http, "GET", members_path(THANDI, "super9"), ctl.keys["app"])
        assert status == 200, body
        assert body["called"] == [3, 30, 7] and body["session"]
        assert body["tickets"] == [{"ticket": "0777", "numbers": TICKET, "called": [3, 7]}]
        for card in (UNKNOWN, FLAGGED, SIPHO):  # never another member's ticket
            assert await call(http, "GET", members_path(card, "super9"), ctl.keys["app"]) == \
                (200, {**body, "tickets": []})


async def refused(http: aiohttp.ClientSession, method: str, path: str, key: str | None,
                  status: int, code: str, **kwargs: Any) -> str:
    """The call is refused with `status` and `code` in a sentence, and the log is unchanged."""
    before = await seq(http)
    got, body = await call(http, method, path, key, **kwargs)
    assert (got, body["ok"], body["error"]["code"]) == (status, False, code), body
    assert body["error"]["message"].endswith(".") and await seq(http) == before
    return str(body["error"]["message"])


async def test_only_the_app_key_may_call_and_every_refusal_is_in_words(tmp_path, log_at,
                                                                       monkeypatch):
    async with venue(tmp_path, log_at, monkeypatch) as (ctl, mc, http):
        activate = members_path(THANDI, "wildcard/activate")
        await refused(http, "POST", activate, None, 401, "no_key")
        # a browser's session cookie is no key
        await refused(http, "POST", activate, None, 401, "no_key",
                      cookies={"showrunner_session": "x"})
        await refused(http, "POST", activate, "not-a-key", 401, "bad_key")
        screen_key = "secret-of-lobby-1"  # an enrolled screen's key is no principal
        async with ctl.client("technician") as tech:
            ack = await tech.send("screens.enrol", {"screen": "lobby-1", "group": "lobby",
                                                    "key_hash": key_hash(screen_key)})
            assert ack["ok"], ack
        await refused(http, "POST", activate, screen_key, 401, "bad_key")
        for role in ("operator", "display", "device", "kiosk", "technician"):
            words = await refused(http, "POST", activate, ctl.keys[role], 403, "not_allowed")
            assert "member-app key" in words
        words = await refused(http, "POST", members_path("12ab", "wildcard/activate"),
                              ctl.keys["app"], 400, "bad_payload")
        assert "6 to 20 digits" in words
        await refused(http, "POST", activate, ctl.keys["app"], 400, "bad_json", data=b"{")
        await refused(http, "POST", activate, ctl.keys["app"], 400, "bad_payload",
                      json={"card": SIPHO})
        async with http.get(members_path(THANDI, "wildcard"), headers={
                KEY: ctl.keys["app"], "Origin": "https://evil.example"}) as answer:
            assert answer.status == 200
            assert not [h for h in answer.headers if h.lower().startswith("access-control")]
        # nothing of the refused calls reached the member's record; the read did
        assert calls_for(ctl, THANDI) == [("test app", "app", "entries", "ok")]
        assert (await mc.send("wildcard.activate", {"card": THANDI}))["ok"]  # the desk can
        log = open_log(ctl.db_path)
        try:
            revoke_key(log, 0, name="test app", reason="the app backend was replaced")
            revoked_at = log.last_seq
        finally:
            log.close()
        # the revocation was written at the shell: the controller reads it in as it watches
        # the log, and only then is the refusal's "log unchanged" measured from it
        deadline = time.monotonic() + 10
        while await seq(http) < revoked_at:
            assert time.monotonic() < deadline, "the controller never read the revocation in"
            await asyncio.sleep(0.05)
        await refused(http, "GET", members_path(THANDI, "wildcard"), ctl.keys["app"], 401,
                      "bad_key")


async def test_a_storm_from_one_key_is_slowed_in_words_and_changes_nothing(tmp_path, log_at,
                                                                         monkeypatch):
    async with venue(tmp_path, log_at, monkeypatch) as (ctl, _mc, http):
        before = await seq(http)
        path = members_path(THANDI, "wildcard")
        answers = await asyncio.gather(*(call(http, "GET", path, ctl.keys["app"])
                                         for _ in range(100)))
        statuses = [status for status, _ in answers]
        assert statuses.count(200) >= 40 and 429 in statuses  # 40 at once, 20 a second
        slowed = next(body for status, body in answers if status == 429)
        assert slowed["error"]["code"] == "rate_limited"
        assert "at most 40 at once and 20 a second" in slowed["error"]["message"]
        assert await seq(http) == before
        # the slowed calls were refused before the card was looked at: only answers are kept
        assert len(calls_for(ctl, THANDI)) == statuses.count(200)


async def test_an_unknown_and_an_excluded_card_get_one_answer_in_one_time(tmp_path, log_at,
                                                                         monkeypatch):
    async with venue(tmp_path, log_at, monkeypatch) as (ctl, _mc, http):
        app, times = ctl.keys["app"], {UNKNOWN: [], FLAGGED: []}
        answers = {}
        for round_ in range(40):  # interleaved, each first in turn, within the key's rate
            for card in (UNKNOWN, FLAGGED)[::1 if round_ % 2 else -1]:
                start = time.perf_counter()
                answers[card] = await call(http, "GET", members_path(card, "wildcard"), app)
                times[card].append(time.perf_counter() - start)
            await asyncio.sleep(0.1)
        assert answers[UNKNOWN] == answers[FLAGGED]
        status, body = answers[UNKNOWN]
        assert (status, body["error"]["code"]) == (404, "no_entries")
        assert "Lerato" not in body["error"]["message"]
        medians = [statistics.median(t) for t in times.values()]
        spreads = [statistics.quantiles(t, n=4)[2] - statistics.quantiles(t, n=4)[0]
                   for t in times.values()]
        assert abs(medians[0] - medians[1]) < min(spreads), (medians, spreads)
        assert calls_for(ctl, UNKNOWN)[-1] == calls_for(ctl, FLAGGED)[-1] == \
            ("test app", "app", "entries", "no_entries")


def test_the_openapi_document_validates_and_matches_the_models():
    doc = openapi_document(ROUTES, VERSION)
    validate(doc)
    assert {(path, method) for path, ops in doc["paths"].items() for method in ops} == \
        {(PREFIX + r.path, r.method.lower()) for r in ROUTES}
    schemas = doc["components"]["schemas"]
    ref = "#/components/schemas/{model}"
    for route in ROUTES:
        operation = doc["paths"][PREFIX + route.path][route.method.lower()]
        models = [(route.response, operation["responses"]["200"])]
        if route.body is not None:
            models.append((route.body, operation["requestBody"]))
        for model, part in models:
            assert part["content"]["application/json"]["schema"] == \
                {"$ref": ref.format(model=model.__name__)}
            own = model.model_json_schema(ref_template=ref)
            for name, schema in own.pop("$defs", {}).items():
                assert schemas[name] == schema
            assert schemas[model.__name__] == own
        assert operation["security"] == ([{route.security: []}] if route.auth else [])
        for status in route.errors:
            assert operation["responses"][str(status)]["description"]
    card = doc["paths"][f"{PREFIX}/members/{{card}}/wildcard"]["get"]["parameters"][0]
    assert (card["schema"]["pattern"], card["schema"]["maxLength"]) == ("^[0-9]{6,20}$", 20)


async def test_the_served_document_is_the_generated_one(log_at):
    async with live_controller(log_at) as ctl, \
            aiohttp.ClientSession(ctl.url) as http, \
            http.get("/api/v1/openapi.json") as answer:
        assert answer.status == 200
        assert json.loads(await answer.text()) == openapi_document(ROUTES, VERSION)

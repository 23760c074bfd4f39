"""The API's edges over real HTTP to a real controller (docs/slots-feed.md, docs/member-api.md):
a body nested deeper than 32 levels, a field named twice, a key header that is not plain text,
an unknown field inside a reading, a feed heat started or ended again with other content or
after the director restarted it. Each is refused in words, in the API's error shape, with the
log's last seq and the show's state unchanged."""

from __future__ import annotations

import json
from typing import Any

from tests.integration.test_member_api import SIPHO, members_path, refused, venue
from tests.integration.test_slots_feed import (
    API,
    CREDITS,
    MACHINES,
    START,
    floor,
    post,
    reading,
    refused_in_words,
    seq,
)
from tests.support.raw_http import exchange
from tests.support.raw_http import post as raw_post

#: 1,100 levels, 2.2 KB, under a right key: what the standard parser met with RecursionError
DEEP = b'{"readings": ' + b"[" * 1100 + b"]" * 1100 + b"}"
NESTED_TOO_DEEP = "The body is nested deeper than 32 levels of objects and lists."
NOT_PLAIN = "A key is plain letters and digits; this one is not."
END = f"{API}/bank-1/heats/F-0042/end"
FINALS = {"finals": [{"machine": m, "credits": 1000 + 100 * i} for i, m in enumerate(MACHINES)]}


async def test_malformed_bodies_and_keys_are_refused_in_words_on_the_feed(log_at):
    async with floor(log_at) as (ctl, _mc, http, key), ctl.client("display") as screen:
        heats = f"{API}/bank-1/heats"
        assert await refused_in_words(http, heats, key, None, 400, "bad_json", raw=DEEP) == \
            f"{NESTED_TOO_DEEP} Nothing was done."
        twice = b'{"feed_heat": "F-0042", "feed_heat": "F-0043", "machines": ["101"], ' \
                b'"start_credits": 1000, "duration_s": 300}'
        assert await refused_in_words(http, heats, key, None, 400, "bad_json", raw=twice) == \
            'The body names the field "feed_heat" twice in one object; give each field ' \
            "once. Nothing was done."
        assert (await post(http, heats, key, START))[0] == 200
        assert NESTED_TOO_DEEP in await refused_in_words(http, CREDITS, key, None, 400,
                                                         "bad_json", raw=DEEP)
        credits_twice = b'{"readings": [{"machine": "101", "credits": 5, "credits": 9999}]}'
        assert '"credits" twice' in await refused_in_words(
            http, CREDITS, key, None, 400, "bad_json", raw=credits_twice)
        colour = {"readings": [{"machine": "101", "credits": 5},
                               {"machine": "102", "credits": 6, "colour": "red"}]}
        assert await refused_in_words(http, CREDITS, key, colour, 400, "bad_payload") == \
            "Unknown field(s): readings[1].colour."
        assert await refused_in_words(http, CREDITS, key, reading("101", -5), 400,
                                      "bad_payload") == "readings[0].credits must be at least 0."
        # a key header that is not plain text: the API's shape, not a plain-text 400
        before = await seq(http)
        body = json.dumps(reading("101", 5)).encode()
        for bad_key in (b"k" * 300, "clé".encode(), b"\xff\xfe", b"\xed\xa0\x80"):
            answer = await exchange(ctl.port, raw_post(CREDITS, body,
                                                       {"X-Showrunner-Key": bad_key}))
            assert answer.status == 400 and "application/json" in answer.headers["content-type"]
            assert answer.json() == {"ok": False, "error": {"code": "key_not_plain",
                                                            "message": NOT_PLAIN}}, bad_key
        # what the HTTP layer cannot read at all (a line over 8 KiB, a control character) is
        # answered by it before any door, in the same shape
        for bad_key in (b"k" * 10_000, b"ab\x7fcd", b"ab\x00cd"):
            answer = await exchange(ctl.port, raw_post(CREDITS, body,
                                                       {"X-Showrunner-Key": bad_key}))
            assert (answer.status, answer.json()["ok"], answer.json()["error"]["code"]) == \
                (400, False, "bad_request"), bad_key
            assert "could not be read as HTTP" in answer.json()["error"]["message"]
        assert await seq(http) == before
        # none of it reached the floor: the next good reading does, alone
        assert (await post(http, CREDITS, key, reading("103", 777)))[0] == 200
        doc = await screen.wait_view("live_heat:slots",
                                     lambda d: any(r["credits"] == 777 for r in d["rows"]))
        assert [r["credits"] for r in doc["rows"] if r["machine"] != "103"] == [None] * 3
    assert "Traceback" not in "".join(ctl.output)


async def test_a_feed_heat_sent_again_is_answered_as_before_or_refused_saying_what_differs(
        log_at):
    async with floor(log_at) as (_ctl, mc, http, key):
        heats = f"{API}/bank-1/heats"
        status, started = await post(http, heats, key, START)
        assert status == 200, started
        assert await post(http, heats, key, START) == (200, started)  # a retry: as before
        other = {**START, "machines": ["101", "102", "103", "105"], "duration_s": 600}
        message = await refused_in_words(http, heats, key, other, 409, "feed_heat_conflict")
        assert message.startswith("Heat F-0042 was already started on bank bank-1 at ")
        assert "with machines 101, 102, 103, 104, 1000 start credits and 300 s; this call " \
               "says machines 101, 102, 103, 105 and 600 s, so it was not applied" in message
        assert message.endswith("A feed heat is started once: start another heat under a new "
                                "feed_heat.")
        assert "command" not in message  # never "send it again as a new command"
        status, ended = await post(http, END, key, FINALS)
        assert status == 200, ended
        assert await post(http, END, key, FINALS) == (200, ended)
        changed = json.loads(json.dumps(FINALS))
        changed["finals"][2]["credits"] = 1250
        message = await refused_in_words(http, END, key, changed, 409, "feed_heat_conflict")
        assert "already ended with other final credits: machine 103 1200 (this call: 1250)" \
            in message and "corrected by the director on the console" in message
        # the director restarts the heat (slots rule 27): its feed heat is void
        ack = await mc.send("slots.restart_heat", {"stage": "qualifying", "heat": "Heat 1",
                                                   "reason": "tournament system froze"})
        assert ack["ok"], ack
        for path, body in ((heats, START), (END, FINALS)):
            message = await refused_in_words(http, path, key, body, 409, "feed_heat_void")
            assert "restarted by the director (slots rule 27) and is void" in message
        status, again = await post(http, heats, key, {**START, "feed_heat": "F-0042-2"})
        assert (status, again["heat"]) == (200, "Heat 1")


async def test_malformed_bodies_and_keys_are_refused_in_words_on_the_member_api(
        tmp_path, log_at, monkeypatch):
    async with venue(tmp_path, log_at, monkeypatch) as (ctl, _mc, http):
        app = ctl.keys["app"]
        activate = members_path(SIPHO, "wildcard/activate")
        deep = b'{"card": ' + b"[" * 1100 + b"]" * 1100 + b"}"
        message = await refused(http, "POST", activate, app, 400, "bad_json", data=deep)
        assert message == f"{NESTED_TOO_DEEP} Nothing was done."
        message = await refused(http, "POST", activate, app, 400, "bad_json",
                                data=b'{"card": 1, "card": 2}')
        assert '"card" twice' in message
        assert await refused(http, "POST", activate, app, 400, "bad_payload",
                             json={"card": SIPHO}) == "Unknown field(s): card."
        before = await seq(http)
        answer = await exchange(ctl.port, raw_post(activate, b"{}",
                                                   {"X-Showrunner-Key": "é".encode()}))
        assert (answer.status, answer.json()["error"]["code"]) == (400, "key_not_plain")
        assert await seq(http) == before
        # nothing was activated by any of it
        status, entry = await _get(http, members_path(SIPHO, "wildcard"), app)
        assert (status, entry["activated"], entry["can_activate"]) == (200, False, True)


async def _get(http: Any, path: str, key: str) -> tuple[int, dict[str, Any]]:
    async with http.get(path, headers={"X-Showrunner-Key": key}) as answer:
        return answer.status, await answer.json()

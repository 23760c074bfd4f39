"""Any body at all, to every API route that takes one, over real HTTP to a real controller: any
JSON shape and depth (to thousands of levels), keys named twice, any bytes. Each gets a 4xx in
the API's error shape with a sentence, never a 500, and nothing reaches the log."""

from __future__ import annotations

import http.client
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.access.keys import issue_key
from controller.application.child_process import ControllerProcess
from controller.store.target import open_log

ROUTES = ["/api/v1/slots/banks/bank-1/heats",  # nobody is seated: a start is refused
          "/api/v1/slots/banks/bank-1/heats/F-NONE/credits",  # no such heat
          "/api/v1/slots/banks/bank-1/heats/F-NONE/end",
          "/api/v1/members/1999999/wildcard/activate"]  # no tickets on this card
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                   st.floats(allow_nan=False, allow_infinity=False),
                   st.sampled_from(["readings", "machine", "credits", "finals", "feed_heat"]))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["readings", "machine", "credits", "finals", "card", "x"]),
                    inner, max_size=3)), max_leaves=12)


def nested(levels: int, seed: int, core: str) -> str:
    """`core` inside `levels` lists and objects, mixed as `seed` says."""
    kinds = random.Random(seed).choices([True, False], k=levels)
    for is_list in kinds:
        core = f"[{core}]" if is_list else f'{{"readings": {core}}}'
    return core


def with_a_key_twice(value: Any) -> str:
    text = json.dumps({"readings": value})
    return text[:-1] + ', "readings": []}'


BODIES = st.one_of(
    VALUES.map(json.dumps),
    st.builds(nested, st.integers(1, 4000), st.integers(0, 2**32), VALUES.map(json.dumps)),
    VALUES.map(with_a_key_twice),
    st.text(alphabet='[]{}":,1a\\ ', max_size=2000),
).map(str.encode) | st.binary(max_size=300)


@contextmanager
def controller(tmp_path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    db = tmp_path / "show.db"
    log = open_log(db)
    try:
        keys = {"bank": issue_key(log, "device", "bank-1", 0),
                "app": issue_key(log, "app", "Member app", 0)}
    finally:
        log.close()
    process = ControllerProcess(db)
    process.start()
    try:
        yield process.port, keys
    finally:
        process.stop()
        assert "Traceback" not in "".join(process.output), "".join(process.output)


def last_seq(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/healthz")
        return int(json.loads(connection.getresponse().read())["seq"])
    finally:
        connection.close()


def test_any_body_gets_a_4xx_in_words_never_a_500(tmp_path):
    with controller(tmp_path) as (port, keys):
        before = last_seq(port)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

        @settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow,
                                                         HealthCheck.data_too_large])
        @given(BODIES, st.sampled_from(ROUTES))
        def answered_in_words(body: bytes, path: str) -> None:
            key = keys["app"] if "/members/" in path else keys["bank"]
            connection.request("POST", path, body=body, headers={
                "X-Showrunner-Key": key, "Content-Type": "application/json"})
            answer = connection.getresponse()
            doc = json.loads(answer.read())
            assert 400 <= answer.status < 500, (answer.status, doc)
            assert doc["ok"] is False and isinstance(doc["error"]["code"], str)
            message = doc["error"]["message"]
            assert isinstance(message, str) and message.endswith(".") and len(message) > 10

        try:
            answered_in_words()
        finally:
            connection.close()
        assert last_seq(port) == before

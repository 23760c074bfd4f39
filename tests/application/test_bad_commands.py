"""Values no screen or page can show are refused at the door, through the real service on a real
log (each store): one sentence naming the field, and the log, the views and the state unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from controller.store.target import LogAt
from tests.support.busy import Busy

NAN, INF = float("nan"), float("inf")


@pytest.fixture
def busy(log_at: LogAt) -> Busy:
    return Busy(log_at)


def refused(busy: Busy, command_type: str, payload: Any) -> dict[str, Any]:
    before = busy.fingerprint()
    ack, views = busy.send(command_type, payload)
    assert not ack["ok"] and views == []
    assert busy.fingerprint() == before  # log rows, last hash, views and state unchanged
    return ack["error"]


@pytest.mark.parametrize(("name", "unprintable"), [
    ("Nul\x00Byte", "U+0000"),         # pygame: "A null character was found"
    ("Esc\x1b[2J", "U+001B"),          # a terminal escape
    ("Bell\x07", "U+0007"),
    ("\u202eevil", "U+202E"),          # category Cf: right-to-left override flips the row
    ("Line\u2028Break", "U+2028"),     # a line separator breaks a one-line row
])
def test_a_display_name_with_a_control_character_is_refused(busy, name, unprintable):
    error = refused(busy, "register_member", {"card": "1000009", "display_name": name})
    assert error == {"code": "bad_payload", "message":
                     f"Display name contains an unprintable character ({unprintable})."}


@pytest.mark.parametrize("score", [10**99, 2**63, 2**63 - 1, 1_000_000_000])
def test_a_score_above_the_maximum_is_refused(busy, score):
    error = refused(busy, "slots.record_score", {"entry": "S2", "score": score})
    assert error == {"code": "bad_payload", "message": "Score must be at most 999 999 999."}


def test_the_maximum_score_itself_is_recorded(busy):
    ack, _ = busy.send("slots.record_score", {"entry": "S2", "score": 999_999_999})
    assert ack["ok"]


@pytest.mark.parametrize(("payload", "message"), [
    ({"entry": "S2", "score": True}, "Score must be a whole number."),     # bool is not an int
    ({"entry": "S2", "score": "1200"}, "Score must be a whole number."),   # no str -> int
    ({"entry": "S2", "score": 1200.0}, "Score must be a whole number."),
    ({"entry": 2, "score": 1200}, "Entry must be text."),
    ({"entry": "S2", "score": 1200, "bonus": 5}, "Unknown field(s): bonus."),
])
def test_a_value_of_the_wrong_type_is_not_coerced(busy, payload, message):
    assert refused(busy, "slots.record_score", payload) == {"code": "bad_payload",
                                                            "message": message}


@pytest.mark.parametrize("value", [NAN, INF, -INF])
@pytest.mark.parametrize(("command_type", "payload"), [
    ("slots.record_score", lambda v: {"entry": "S2", "score": v}),
    ("register_member", lambda v: {"card": "1000009", "display_name": "A", "flags": [v]}),
    ("takeover.start", lambda v: {"group": "lobby", "scene": "leaderboard",
                                  "params": {"seconds": v}}),
])
def test_nan_and_infinity_in_a_payload_are_refused(busy, command_type, payload, value):
    error = refused(busy, command_type, payload(value))
    assert error["code"] == "bad_envelope" and "no NaN or Infinity" in error["message"]


@pytest.mark.parametrize("value", [NAN, INF])
def test_nan_and_infinity_anywhere_in_the_envelope_are_refused(busy, value):
    before = busy.fingerprint()
    ack, _ = busy.execute({"type": "slots.record_score", "command_id": value,
                           "payload": {"entry": "S2", "score": 5}}, "operator")
    assert ack["error"]["code"] == "bad_envelope" and "no NaN" in ack["error"]["message"]
    assert busy.fingerprint() == before

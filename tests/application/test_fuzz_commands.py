"""Every command type with generated payloads through the real service on a real log (each store):
values shaped by the command's own JSON Schema (often valid, naming real cards, entries, heats)
and junk (NaN, Infinity, huge numbers, control characters, nesting, wrong types).

Whatever arrives: `execute` returns an ack and never raises; a refused command leaves the log
(rows and last hash), every view and the state as they were; every view an accepted command
publishes, and its ack, are strict JSON."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.application.features import build_features
from controller.application.show import Show
from controller.store.target import LogAt
from tests.support.busy import SETUP, Busy

CATALOGUE = {c["type"]: c["payload"] for c in Show(build_features()).catalogue()}
#: the strings the busy show knows (cards, entries, stages, heats, screens, groups, tickets)
KNOWN = sorted({v for _, body in SETUP for v in body.values() if isinstance(v, str)}
               | {"S1", "S2", "S3", "R1", "P1", "qualifying", "semi", "final", "Heat 1",
                  "Semi 1", "Final", "lobby", "leaderboard", "2025-06-04T19:00"})

NASTY_TEXT = st.sampled_from(["", " ", "\x00", "A\x1b[2J", "\u202e", "\ud800", "\n", "x" * 600,
                              "💥", "S1\x00", "NaN", "Infinity", "-1", "1e308"])
SCALARS = st.one_of(
    st.sampled_from([float("nan"), float("inf"), float("-inf"), 10**99, 2**63, -(2**63) - 1,
                     2**31, -1, 0, 1.5, 1e308, True, False, None]),
    st.integers(), st.floats(), NASTY_TEXT, st.text(max_size=20),
)
JUNK = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=8)


def shaped(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A value of the schema's shape, inside or just outside its bounds."""
    if "anyOf" in schema:
        return st.one_of(*(shaped(option) for option in schema["anyOf"]))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum", -(2**63)), schema.get("maximum", 2**63)
        return st.one_of(st.integers(low, high), st.sampled_from([low, high, low - 1, high + 1]))
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        if "pattern" in schema:
            fits = [k for k in KNOWN if re.fullmatch(schema["pattern"], k)]
            own = st.from_regex(schema["pattern"], fullmatch=True)
        else:
            fits = [k for k in KNOWN if len(k) <= schema.get("maxLength", 50)]
            own = st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 50))
        return st.one_of(st.sampled_from(fits), own) if fits else own
    if kind == "array":
        return st.lists(shaped(schema.get("items", {})), max_size=schema.get("maxItems", 10) + 1)
    if kind == "null":
        return st.none()
    return JUNK


@st.composite
def payloads(draw: st.DrawFn, schema: dict[str, Any]) -> Any:
    """An object of the schema's fields: half the time all shaped (so some pass every check),
    otherwise with fields junk, missing or unknown; now and then junk instead of an object."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JUNK)
    clean = draw(st.booleans())
    body = {}
    required = set(schema.get("required", ()))
    for name, field in schema.get("properties", {}).items():
        how = draw(st.sampled_from(["shaped"] if clean and name in required else
                                   ["shaped", "shaped", "missing"] if clean else
                                   ["shaped"] * 4 + ["junk", "missing"]))
        if how == "shaped":
            body[name] = draw(shaped(field))
        elif how == "junk":
            body[name] = draw(JUNK)
    if not clean and draw(st.integers(0, 4)) == 0:
        body[draw(st.text(min_size=1, max_size=8))] = draw(JUNK)
    return body


@pytest.mark.parametrize("command_type", sorted(CATALOGUE))
def test_generated_payloads_never_escape_and_refusals_change_nothing(command_type: str,
                                                                     log_at: LogAt) -> None:
    busy = Busy(log_at)

    @settings(max_examples=40, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(payloads(CATALOGUE[command_type]))
    def check(payload: Any) -> None:
        before = busy.fingerprint()
        ack, views = busy.send(command_type, payload)  # raises nothing: that is the first check
        assert isinstance(ack.get("ok"), bool)
        json.dumps(ack, allow_nan=False)
        if ack["ok"]:
            assert busy.log.last_seq > before[0]
            for view in views:
                json.dumps(view.message(), allow_nan=False)
        else:
            error = ack["error"]
            assert {"code", "message"} <= set(error) <= {"code", "message", "next"}
            assert error["message"]
            if "next" in error:  # a missing step offered beside the refusal: a command
                assert error["next"]["type"] in CATALOGUE, error["next"]
            assert busy.fingerprint() == before

    check()

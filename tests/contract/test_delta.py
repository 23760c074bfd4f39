"""Deltas: applying the delta of two documents to the old one gives the new one, exactly."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from showrunner.contract.delta import diff, patch, same
from showrunner.contract.playlist.schedule import program_views

scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8) | \
    st.floats(allow_nan=False, allow_infinity=False)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=12)
rows = st.lists(st.dictionaries(st.sampled_from(["rank", "name", "score"]), scalars),
                max_size=12)
keys = st.sampled_from(["title", "rows", "status", "totals", "updated", "x"])
docs = st.dictionaries(keys, values | rows, max_size=6)


@settings(max_examples=300, deadline=None,  # the machine is shared: time is no signal
          suppress_health_check=[HealthCheck.too_slow])
@given(docs, docs)
def test_patching_the_delta_onto_the_old_view_gives_the_new_view_exactly(old, new):
    delta = diff(old, new)
    before = json.dumps(old, sort_keys=True)
    patched = patch(old, json.loads(json.dumps(delta)))  # the delta crosses the wire as JSON
    assert same(patched, new)
    assert json.dumps(patched, sort_keys=True) == json.dumps(new, sort_keys=True)
    assert json.dumps(old, sort_keys=True) == before  # the old view is not changed


def test_a_score_change_sends_one_row_of_a_long_board():
    board = [{"rank": i, "name": f"Player {i}", "score": 1000 - i} for i in range(1, 46)]
    old = {"title": "Slots", "rows": board, "updated": 1}
    new = {**old, "rows": [*board[:9], {**board[9], "score": 5000}, *board[10:]],
           "updated": 2}
    delta = diff(old, new)
    assert delta == {"set": {"updated": 2},
                     "rows": {"rows": {"length": 45, "at": [[9, new["rows"][9]]]}}}
    assert len(json.dumps(delta)) * 10 < len(json.dumps(new))
    shorter = {**new, "rows": new["rows"][:3]}
    assert patch(old, diff(old, shorter)) == shorter


def test_strict_equality_tells_one_from_true_and_one_point_oh():
    assert diff({"a": 1}, {"a": True}) == {"set": {"a": True}}
    assert diff({"a": [1]}, {"a": [1.0]}) == {"rows": {"a": {"length": 1, "at": [[0, 1.0]]}}}


def test_a_delta_that_does_not_fit_is_refused_in_words():
    try:
        patch({"title": "x"}, {"rows": {"rows": {"length": 1, "at": [[0, {}]]}}})
    except ValueError as exc:
        assert "does not fit" in str(exc)
    else:
        raise AssertionError("a delta for rows the view does not have was applied")


def test_a_program_needs_its_scenes_views_its_takeover_and_the_overlays():
    program = {"playlists": [{"items": [
        {"scene": "leaderboard", "params": {"view": "leaderboard:poker"}},
        {"scene": "announcement", "params": {"view": None, "title": "Hi"}},
        {"scene": "prize_table", "params": {}}],
        "fallback": {"scene": "next_event", "params": {}}}],
        "takeover": {"scene": "super9_board", "params": {}, "end_ms": None}}
    assert program_views(program) == {"leaderboard:poker", "prizes:slots", "schedule:super9",
                                      "board:super9", "attract", "rehearsal", "venue"}
    ended = {**program, "takeover": {**program["takeover"], "end_ms": 5}}
    assert "board:super9" not in program_views(ended)
    assert program_views({"playlists": [], "takeover": None}) == {"attract", "rehearsal", "venue"}

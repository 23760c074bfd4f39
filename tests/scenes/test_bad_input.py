"""Scenes draw something sensible from bad views: missing fields, absurd values, wrong types."""

from __future__ import annotations

import logging

import pytest

from showrunner.contract.scenes import default_view
from showrunner.engine import logonce
from showrunner.engine.render import render_scene
from showrunner.scenes import REGISTRY
from showrunner.scenes.samples import BASE_MS

HUGE = 10**15
BAD_DOCS = {
    "missing": {},
    "wrong_types": {"title": ["x"], "rows": "no", "pools": 5, "called": {"a": 1},
                    "pool": "none", "events": [1, 2], "stages": None, "places": [None],
                    "heats": "no", "phase": 3, "status": ["live"], "ends_at_ms": "soon",
                    "started_at_ms": {"at": 1}},
    "absurd": {
        "title": "T" * 200, "subtitle": "S" * 200, "entries": HUGE * 10,
        "rows": [{"position": i, "name": "N" * 200, "score": HUGE, "movement": 999,
                  "new": True, "seat": i % 3, "machine": "M" * 200, "credits": HUGE * 10,
                  "rank": -i, "place": HUGE, "silent": i % 2 == 0} for i in range(500)],
        "status": "live", "ends_at_ms": BASE_MS + 10**12, "started_at_ms": -HUGE,
        "pools": [{"name": "J" * 200, "title": "J" * 200, "amount": HUGE, "previous": -HUGE,
                   "target": 1, "progress_percent": HUGE}] * 9,
        "called": [-5, 99, 7, 7, True], "jackpot_cents": HUGE,
        "reveal_at": BASE_MS, "spin_started_at": BASE_MS + 10**9, "claim_deadline": -1,
        "winner": {"name": "W" * 200}, "pool": {"tickets": HUGE * 100, "digest": "z" * 500},
        "heats": [{"heat": "H" * 200, "betting_closes_at": BASE_MS + 10**12, "number": 99,
                   "colour": "purple", "bets_closed": "yes"}] * 3,
        "places": [{"place": HUGE, "amount": HUGE, "percent": HUGE}] * 30,
        "stages": [{"stage": "final", "title": "S" * 99, "heats": [
            {"heat": "G" * 99, "seats": [{"seat": i, "name": "X" * 200} for i in range(40)]}] * 9}],
        "events": [{"name": "E" * 200, "starts_at": BASE_MS + 10**12}],
        "body": "word " * 2000},
}


@pytest.mark.parametrize("scene", sorted(REGISTRY))
@pytest.mark.parametrize("case", sorted(BAD_DOCS))
def test_scene_draws_bad_views_without_raising(scene, case, caplog):
    logonce.forget()
    view = default_view(scene)
    views = {view: BAD_DOCS[case]} if view else {}
    with caplog.at_level(logging.WARNING):
        frame = render_scene(scene, views, 2.0, (960, 540), {"bogus": "1"}, BASE_MS)
    assert frame.get_size() == (960, 540)
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == len(set(messages)), "a problem was logged more than once"
    assert any("bogus" in m for m in messages)

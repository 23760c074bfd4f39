"""A view change redraws only what changed: a score update must not rebuild the whole board."""

from __future__ import annotations

import copy

from showrunner.engine.host import SceneHost
from showrunner.engine.render import SteppedClock, advance, init_headless
from showrunner.engine.scene import SceneContext
from showrunner.engine.theme import Theme
from showrunner.scenes import REGISTRY
from showrunner.scenes.samples import leaderboard, wildcard

SIZE = (640, 360)


def entered(scene: str, views: dict) -> SceneHost:
    init_headless(SIZE)
    clock = SteppedClock(0)
    host = SceneHost(SceneContext.create(SIZE, Theme.load(), views, clock.now_ms), REGISTRY)
    host.switch(scene)
    host.update(0)
    advance(host, clock, 1.0)
    return host


def test_a_score_update_redraws_only_the_rows_that_changed():
    views = {"leaderboard:slots": leaderboard(45, False)}
    host = entered("leaderboard", views)
    before = [row.surface for row in host.current.rows]
    board = copy.deepcopy(views["leaderboard:slots"])
    board["rows"][4]["score"] += 100  # 5th place scores, keeps the place
    views["leaderboard:slots"] = board
    host.update(1 / 60)
    after = [row.surface for row in host.current.rows]
    assert [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a is not b] == [4]


def test_a_new_draw_view_keeps_the_reel_cards_it_already_drew():
    views = {"draw:wildcard": wildcard("drawing")}
    host = entered("wildcard_draw", views)
    before = list(host.current.cards)
    views["draw:wildcard"] = {**wildcard("drawing"), "round": 2}
    host.update(1 / 60)
    assert all(a is b for a, b in zip(before, host.current.cards, strict=True))

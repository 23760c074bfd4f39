"""A view change redraws only what changed: a score update must not rebuild the whole board."""

from __future__ import annotations

import copy
import gc
import weakref

import pygame
import pytest

from showrunner.engine import render
from showrunner.engine.host import SceneHost
from showrunner.scenes.samples import CASES, leaderboard, wildcard

SIZE = (640, 360)


def entered(scene: str, views: dict, params: dict | None = None) -> SceneHost:
    return render.entered(scene, views, SIZE, params, at=1.0)[0]


def test_a_score_update_redraws_only_the_rows_that_changed():
    views = {"leaderboard:slots": leaderboard(45, False)}
    host = entered("leaderboard", views)
    board_scene = host.current
    before = [board_scene.drawings.get(row, board_scene._draw_row) for row in board_scene.rows]
    board = copy.deepcopy(views["leaderboard:slots"])
    board["rows"][4]["score"] += 100  # 5th place scores, keeps the place
    views["leaderboard:slots"] = board
    host.update(1 / 60)
    after = [board_scene.drawings.get(row, board_scene._draw_row) for row in board_scene.rows]
    assert [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a is not b] == [4]


def test_a_new_draw_view_keeps_the_reel_cards_it_already_drew():
    views = {"draw:wildcard": wildcard("drawing")}
    host = entered("wildcard_draw", views)
    before = list(host.current.cards)
    views["draw:wildcard"] = {**wildcard("drawing"), "round": 2}
    host.update(1 / 60)
    assert all(a is b for a, b in zip(before, host.current.cards, strict=True))


@pytest.mark.parametrize("case", [c for c in CASES if c.busy], ids=lambda c: c.scene)
def test_a_scene_that_has_left_is_freed_at_once(case):
    """No reference cycles: a departed scene's surfaces (160 MB of leaderboard rows at 4K)
    must not wait for the garbage collector."""
    host = entered(case.scene, copy.deepcopy(case.views), case.params)
    host.draw(pygame.Surface(SIZE))
    gone = weakref.ref(host.current)
    gc.disable()
    try:
        host.switch("announcement", {"title": "Next"})
        host.update(1 / 60)
        assert gone() is None
    finally:
        gc.enable()

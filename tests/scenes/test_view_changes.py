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


def climbed(board: dict, frm: int, to: int) -> dict:
    """`board` after the player at index `frm` scored past the one at `to`: they climb, the
    rows between slip one place."""
    after = copy.deepcopy(board)
    rows = after["rows"]
    for row in rows:
        row["movement"] = 0
    climber = rows.pop(frm)
    climber.update(score=rows[to]["score"] + 10, movement=frm - to)
    rows.insert(to, climber)
    for i, row in enumerate(rows):
        row["position"] = i + 1
        if to < i <= frm:
            row["movement"] = -1
    return after


def rows_changed(before: bytes, after: bytes, board) -> set[int]:
    """The board's row places (0 the top) whose middle line of pixels differs between two RGB
    frames."""
    width, lay = SIZE[0] * 3, board.ctx.layout
    middles = {place: lay.y(board.top + (place + 0.5) * board.row_h)
               for place in range(board.per_page)}
    return {place for place, y in middles.items()
            if before[y * width:(y + 1) * width] != after[y * width:(y + 1) * width]}

def test_a_rank_change_draws_its_rows_in_the_frames_before_the_ranks_move(monkeypatch):
    # drawn all at once, the changed rows took a 4K frame 20 to 28 ms on every score change;
    # the ranks wait MOVE_DELAY in their old places, and there each shows its old drawing
    # until its new one is made, a row a frame
    from showrunner.scenes.leaderboard import MOVE_DELAY, MOVE_TIME
    views = {"leaderboard:slots": leaderboard(12, False)}
    params = {"view": "leaderboard:slots", "rows_per_page": 12}
    host = entered("leaderboard", views, params)
    board = host.current
    screen = pygame.Surface(SIZE)
    host.draw(screen)
    shown = pygame.image.tobytes(screen, "RGB")
    drawn: list[str] = []
    draw_row = board._draw_row
    monkeypatch.setattr(board, "_draw_row", lambda row: drawn.append(row.name) or draw_row(row))
    views["leaderboard:slots"] = climbed(views["leaderboard:slots"], 8, 2)  # 9th to 3rd
    changed: set[int] = set()
    while not drawn or board.elapsed - board.changed_at < MOVE_DELAY - 1 / 60:
        host.update(1 / 60)
        host.draw(screen)
        now = pygame.image.tobytes(screen, "RGB")
        places = rows_changed(shown, now, board)
        assert len(places) <= 1 and len(drawn) == len(changed | places)  # a row a frame
        changed |= places
        shown = now
    # the climber and the six it passed, each drawn once, in their old places 2 to 8
    assert len(drawn) == 7 and changed == set(range(2, 9))
    for _ in range(round(MOVE_TIME * 60) + 2):  # the ranks move to their new places
        host.update(1 / 60)
        host.draw(screen)
    assert len(drawn) == 7
    # the new board drawn from scratch, its ranks moved
    fresh, _ = render.entered("leaderboard", views, SIZE, params, at=MOVE_DELAY + MOVE_TIME + 1)
    again = pygame.Surface(SIZE)
    fresh.draw(again)
    assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(again, "RGB")

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

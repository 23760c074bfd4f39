"""Contract: every public view the controller publishes for a screen renders in its scene.

Pure shows are driven through realistic flows of each promotion; at each step every public view
is taken as published and rendered headless by the real scene code, with the parameters the
playlists and takeovers use (no `view` parameter where the scene's default is meant). A view-data
problem (a field missing, mistyped or unknown; a view absent) is logged by the scenes
(`showrunner/engine/viewdata.py`), so the test fails on any shape mismatch; a frame whose content
area is bare backdrop fails too. `NOT_ON_SCREENS` lists the public views no scene shows.
"""

from __future__ import annotations

import fnmatch
import logging
from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from PIL import Image, ImageChops

from controller.domain.commands import Context
from controller.screens.audience import is_public
from showrunner.engine import logonce
from showrunner.engine.host import SceneHost
from showrunner.engine.render import SteppedClock, advance, init_headless
from showrunner.engine.scene import SceneContext
from showrunner.engine.theme import Theme
from showrunner.scenes import REGISTRY, samples
from tests.promotions.helpers import Driver
from tests.promotions.super9_floor import SESSION, WEDNESDAY, Floor, ms
from tests.promotions.test_poker import driver
from tests.promotions.wildcard_show import CLOSE, DECLINE_PAYLOAD, ScriptedRng, activated_show

SIZE = (960, 540)

#: view name (pattern) -> the scenes that show it, with the parameters screens use
SHOWN_BY: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "leaderboard:*": [("leaderboard", {"view": "{name}"})],
    "live_heat:*": [("live_heat", {"view": "{name}"})],
    "pools:*": [("jackpot_ticker", {"view": "{name}"})],
    "jackpot:super9": [("jackpot_ticker", {})],
    "prizes:*": [("prize_table", {"view": "{name}"})],
    "seating:*": [("seating_chart", {"view": "{name}"})],
    "spins:roulette": [("roulette_countdown", {})],
    "draw:wildcard": [("wildcard_draw", {}), ("claim_countdown", {})],
    "board:super9": [("super9_board", {})],
    "schedule:super9": [("next_event", {})],
}
#: public views that are for the tablet, the cue page or a screen's own program, not a scene
NOT_ON_SCREENS = ("qualifiers:*", "paytable:poker", "cues", "cues:super9", "screen:*")


def scenes_for(name: str) -> list[tuple[str, dict[str, Any]]]:
    for pattern, scenes in SHOWN_BY.items():
        if fnmatch.fnmatchcase(name, pattern):
            return [(scene, {k: v.format(name=name) for k, v in params.items()})
                    for scene, params in scenes]
    assert any(fnmatch.fnmatchcase(name, p) for p in NOT_ON_SCREENS), (
        f"public view {name!r} is neither shown by a scene nor listed in NOT_ON_SCREENS")
    return []


# -- rendering ----------------------------------------------------------------------------------
def frames(scene: str, params: dict[str, Any], views: dict[str, dict[str, Any]], start_ms: int,
           times: tuple[float, ...]) -> Iterator[tuple[float, pygame.Surface]]:
    """The scene's frames at `times` seconds after it enters at show-clock `start_ms`."""
    init_headless(SIZE)
    clock = SteppedClock(start_ms)
    ctx = SceneContext.create(SIZE, Theme.load(), views, clock.now_ms)
    host = SceneHost(ctx, REGISTRY)
    assert host.switch(scene, params)
    host.update(0.0)
    done = 0.0
    for t in times:
        advance(host, clock, t - done)
        done = t
        frame = pygame.Surface(SIZE).convert()
        host.draw(frame)
        yield t, frame


def bare_fraction(frame: pygame.Surface) -> float:
    """Share of the content area (under the header) that differs from the plain backdrop.

    The backdrop is a vertical gradient and the left edge is margin, so the backdrop of each
    row is that row's first pixel.
    """
    w, h = SIZE
    image = Image.frombytes("RGB", SIZE, pygame.image.tobytes(frame, "RGB"))
    content = image.crop((0, h // 4, w, h))
    backdrop = content.crop((0, 0, 1, content.height)).resize(content.size)
    diff = ImageChops.difference(content, backdrop).convert("L")
    changed = diff.point(lambda v: 255 if v > 24 else 0).histogram()[255]
    return changed / (content.width * content.height)


def check_renders(views: dict[str, dict[str, Any]], now_ms: int, caplog: pytest.LogCaptureFixture,
                  times: tuple[float, ...] = (0.1, 1.6), only: str = "") -> int:
    """Render every shown view; returns how many frames were checked."""
    checked = 0
    for name in sorted(views):
        if only and not fnmatch.fnmatchcase(name, only):
            continue
        for scene, params in scenes_for(name):
            logonce.forget()
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="showrunner"):
                rendered = list(frames(scene, params, views, now_ms, times))
            problems = [r.getMessage() for r in caplog.records]
            assert not problems, f"{scene} showing {name}: {problems}"
            for t, frame in rendered:
                assert bare_fraction(frame) > 0.005, f"{scene} showing {name} is blank at {t} s"
                checked += 1
    return checked


def public(show: Any) -> dict[str, dict[str, Any]]:
    """Every public view the show publishes now, as the displays receive it."""
    return {name: feature.view(name) for feature in show.features
            for name in feature.view_names() if is_public(name)}


# -- flows --------------------------------------------------------------------------------------
def test_wild_card_draw_views_render_through_a_redraw_and_a_claim(caplog):
    s = activated_show()
    s.send("wildcard.register_decline", DECLINE_PAYLOAD, at=CLOSE - 60_000)
    checked = check_renders(public(s.show), CLOSE - 30_000, caplog)
    s.send("wildcard.freeze", at=CLOSE + 1_000)
    checked += check_renders(public(s.show), CLOSE + 1_000, caplog)
    # round 1: Sipho (tickets 7-12 of 14) is drawn and does not claim
    drawn = s.send("wildcard.draw", at=CLOSE + 60_000, rng=ScriptedRng(8))[0]
    reel = s.view()["reel"]  # the whole frozen pool, winner included: it gives no one away
    assert s.view()["spin_started_at"] == drawn.drawn_at_ms
    assert {r["name"] for r in reel} == {"Thandi M.", "Sipho N.", "Lerato D.", "Pieter W."}
    checked += check_renders(public(s.show), CLOSE + 60_000, caplog, (0.1, 2.0, 4.0))
    s.tick(drawn.reveal_at_ms - 1_500)
    # the winner arrives 1.5 s early: the reel still lands at reveal_at, then the winner card
    checked += check_renders(public(s.show), drawn.reveal_at_ms - 1_500, caplog, (0.1, 1.6, 3.0))
    checked += check_renders(public(s.show), drawn.claim_deadline_ms - 20_000, caplog)
    checked += check_renders(public(s.show), drawn.claim_deadline_ms + 1_000, caplog)
    s.send("wildcard.redraw", at=drawn.claim_deadline_ms + 5_000)
    checked += check_renders(public(s.show), drawn.claim_deadline_ms + 5_000, caplog)
    # round 2: Lerato, in the decline-to-attend register, is the finalist in her absence
    again = s.send("wildcard.draw", at=drawn.claim_deadline_ms + 60_000, rng=ScriptedRng(6))[0]
    s.tick(again.reveal_at_ms - 1_500)
    checked += check_renders(public(s.show), again.reveal_at_ms, caplog)
    s.send("wildcard.accept_registered", at=again.reveal_at_ms + 10_000)
    checked += check_renders(public(s.show), again.reveal_at_ms + 10_000, caplog)
    assert s.view()["phase"] == "finalist"
    assert checked >= 36


def test_wild_card_winner_claims_in_person(caplog):
    s = activated_show()
    s.send("wildcard.freeze", at=CLOSE + 1_000)
    drawn = s.send("wildcard.draw", at=CLOSE + 60_000, rng=ScriptedRng(0))[0]
    s.tick(drawn.reveal_at_ms - 1_500)
    s.send("wildcard.claim", {"card_checked": True, "id_checked": True},
           at=drawn.reveal_at_ms + 30_000)
    assert check_renders(public(s.show), drawn.reveal_at_ms + 30_000, caplog) == 4


def test_super9_views_render_from_sales_to_a_confirmed_win(caplog):
    f = Floor()
    for i, card in enumerate(("1000001", "1000002")):
        f.do("register_member", {"card": card, "display_name": f"Player{i} Surname{i}"})
    f.now = ms(f"{WEDNESDAY} 12:00")
    numbers = [[1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18]]
    for serial, card, nine in (("0001", "1000001", numbers[0]), ("0002", "1000002", numbers[1])):
        f.do("super9.sell_ticket", {"ticket": serial, "card": card})
        f.do("super9.enter_ticket", {"ticket": serial, "original": nine, "duplicate": nine})
    checked = check_renders(public(f.show), f.now, caplog)
    f.now = ms(f"{WEDNESDAY} 19:00")
    f.do("super9.start_session", {"session": SESSION})
    checked += check_renders(public(f.show), f.now, caplog)
    for n in (1, 2, 3, 3, 0):
        f.do("super9.spin", {"number": n})
    f.do("super9.no_spin", {"reason": "ball left the wheel"})
    checked += check_renders(public(f.show), f.now, caplog)
    for n in (4, 5, 6, 7, 8, 9):
        f.do("super9.spin", {"number": n})
    checked += check_renders(public(f.show), f.now, caplog)  # a ticket has all 9: SUPER 9
    f.do("super9.confirm_win")
    checked += check_renders(public(f.show), f.now, caplog)
    assert checked >= 30


def super9_live_board() -> dict[str, dict[str, Any]]:
    """The public views of a Super 9 session with 0 and a red and a black number called."""
    f = Floor()
    f.do("register_member", {"card": "1000001", "display_name": "Player0 Surname0"})
    f.now = ms(f"{WEDNESDAY} 12:00")
    nine = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    f.do("super9.sell_ticket", {"ticket": "0001", "card": "1000001"})
    f.do("super9.enter_ticket", {"ticket": "0001", "original": nine, "duplicate": nine})
    f.now = ms(f"{WEDNESDAY} 19:00")
    f.do("super9.start_session", {"session": SESSION})
    for n in (0, 1, 2):
        f.do("super9.spin", {"number": n})
    return public(f.show)


def test_the_samples_colour_the_super9_pockets_as_the_controllers_board_does():
    """The golden images' board (showrunner/scenes/samples.py) is the controller's shape."""
    board = super9_live_board()["board:super9"]
    colours = [(cell["number"], cell["colour"]) for cell in board["numbers"]]
    assert colours == [(cell["number"], cell["colour"]) for cell in samples.SUPER9["numbers"]]
    assert board["last"] == {"number": 2, "colour": "black", "repeat": False}


def test_a_super9_board_without_its_colours_fails_the_contract(caplog):
    """The board draws each called pocket in the colour the view gives it, none of its own."""
    views = super9_live_board()
    board = views["board:super9"]
    numbers = [{k: v for k, v in cell.items() if k != "colour"} for cell in board["numbers"]]
    views["board:super9"] = {**board, "numbers": numbers}
    with pytest.raises(AssertionError, match="colour"):
        check_renders(views, ms(f"{WEDNESDAY} 19:00"), caplog, only="board:super9")


def tournament_views(d: Driver) -> dict[str, dict[str, Any]]:
    return public(d.show)


def test_slots_payoff_views_render_from_qualifying_to_the_final(caplog):
    d = Driver()
    cards = d.members(40)
    entries = [d.entry("slots.enter", {"card": c}) for c in cards]
    checked = check_renders(tournament_views(d), d.now, caplog)
    for i, e in enumerate(entries):
        d.do("slots.record_score", {"entry": e, "score": 10_000 - 10 * i})
    d.do("slots.record_score", {"entry": entries[30], "score": 9_995})  # climbs to 2nd
    checked += check_renders(tournament_views(d), d.now, caplog)
    d.do("slots.close_stage", {"stage": "qualifying"})
    d.do("slots.draw_seats", {"stage": "semi"})
    checked += check_renders(tournament_views(d), d.now, caplog)
    slots = d.feature("slots")
    for i, entry in enumerate(map(slots.entries.id_of, slots.stages["semi"].rows)):
        d.do("slots.record_score", {"entry": entry, "score": 5_000 - i})
    d.do("slots.close_stage", {"stage": "semi"})
    checked += check_renders(tournament_views(d), d.now, caplog)
    assert checked >= 40


def spins(d: Driver, heat: str, n: int) -> None:
    for _ in range(n):
        d.do("roulette.open_betting", {"stage": "qualifying", "heat": heat})
        d.do("roulette.spin", {"stage": "qualifying", "heat": heat})


def test_roulette_spin_off_views_render_through_betting_a_no_spin_and_the_final(caplog):
    d = Driver()
    cards = d.members(12)
    entries = [d.entry("roulette.enter", {"card": c, "heat": f"Heat {i // 6 + 1}"})
               for i, c in enumerate(cards)]
    d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
    checked = check_renders(tournament_views(d), d.now, caplog, (0.1, 30.0))
    d.now += 100_000
    d.do("roulette.no_spin", {"stage": "qualifying", "heat": "Heat 1"})
    checked += check_renders(tournament_views(d), d.now, caplog, (0.1, 35.0), only="spins:*")
    d.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1"})
    spins(d, "Heat 1", 2)
    spins(d, "Heat 2", 3)
    for i, e in enumerate(entries):
        d.do("roulette.record_score", {"entry": e, "score": 2_000 + 37 * i})
    checked += check_renders(tournament_views(d), d.now, caplog)
    d.do("roulette.close_stage", {"stage": "qualifying"})
    d.do("roulette.open_betting", {"stage": "final", "heat": "Group 1"})
    checked += check_renders(tournament_views(d), d.now, caplog)
    assert checked >= 30


def test_poker_showdown_views_render_from_qualifying_to_the_semi(caplog):
    d = driver()  # a qualifying day, in the heats' hours
    cards = d.members(14)
    entries = [d.entry("poker.enter", {"card": c}) for c in cards]
    for i, e in enumerate(entries):
        d.do("poker.record_score", {"entry": e, "score": 3_000 + 50 * i, "hands": 10})
    checked = check_renders(tournament_views(d), d.now, caplog)
    d.do("poker.close_stage", {"stage": "qualifying"})
    poker = d.feature("poker")
    for i, entry in enumerate(map(poker.entries.id_of, poker.stages["semi"].rows)):
        d.do("poker.choose_seat", {"entry": entry, "heat": f"Semi {i % 2 + 1}",
                                   "seat": i // 2 + 1})
    checked += check_renders(tournament_views(d), d.now, caplog)
    assert checked >= 20


def test_takeover_announcement_renders_from_its_parameters(caplog):
    """Takeovers (controller/screens/feature.py) pass the announcement's text as scene
    parameters."""
    d = Driver()
    tech = Context("tech", "technician", d.now)
    for type_, payload in (("screens.enrol", {"screen": "stage-1", "group": "stage",
                                              "key_hash": "a" * 64}),
                           ("screens.authorise", {"screen": "stage-1"})):
        for event in d.show.decide(type_, payload, tech):
            d.apply(event)
    d.do("takeover.start", {"group": "stage", "scene": "announcement",
                            "params": {"title": "Final tonight", "body": "Doors at 19h00."}})
    takeover = d.view("screen:stage-1")["takeover"]
    logonce.forget()
    with caplog.at_level(logging.WARNING, logger="showrunner"):
        (_, frame), = frames(takeover["scene"], takeover["params"], public(d.show), d.now, (1.0,))
    assert not [r.getMessage() for r in caplog.records]
    assert bare_fraction(frame) > 0.005


def test_a_shape_mismatch_fails_the_contract(caplog):
    """The check itself: a renamed field in a published view is caught."""
    s = activated_show()
    s.send("wildcard.freeze", at=CLOSE + 1_000)
    views = public(s.show)
    pool = dict(views["draw:wildcard"]["pool"])
    pool["entrants"] = pool.pop("members")
    views["draw:wildcard"] = {**views["draw:wildcard"], "pool": pool}
    with pytest.raises(AssertionError, match="members"):
        check_renders(views, CLOSE + 1_000, caplog, only="draw:wildcard")


def test_every_scene_that_reads_a_controller_view_is_covered():
    shown = {scene for scenes in SHOWN_BY.values() for scene, _ in scenes}
    assert shown | {"announcement", "attract", "video"} == set(REGISTRY)

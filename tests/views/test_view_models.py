"""Every view the controller publishes validates against its model and is strict JSON.

Pure shows are driven through whole promotions (the flows of tests/promotions and
tests/integration/test_views_render.py); `watch` checks every view each event makes dirty, as
`Show.publish` renders it, against `view_model(name)` and `json.dumps(allow_nan=False)`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from controller.application.show import Show
from controller.domain.commands import Context
from showrunner.contract.views import view_model
from tests.promotions.helpers import Driver
from tests.promotions.super9_floor import SESSION, WEDNESDAY, Floor, ms
from tests.promotions.test_poker import driver, play_semi, to_semi
from tests.promotions.test_slots import stage_entries, to_final
from tests.promotions.wildcard_show import CLOSE, DECLINE_PAYLOAD, ScriptedRng, activated_show
from tests.screens.test_screens import LOOP
from tests.screens.test_screens import Floor as ScreensFloor


class Watch:
    """Checks each view a show publishes; remembers which names it checked."""

    def __init__(self, show: Show) -> None:
        self.show = show
        self.checked: dict[str, int] = {}
        self.revision = 0
        apply = show.apply

        def checked_apply(event: Any) -> set[str]:
            names = apply(event)
            self.publish(names)
            return names

        show.apply = checked_apply  # type: ignore[method-assign]
        self.publish(show.published_view_names())

    def publish(self, names: set[str]) -> None:
        self.revision += 1
        for view in self.show.publish(names, self.revision):
            check(view.name, view.doc)
            self.checked[view.name] = self.checked.get(view.name, 0) + 1


def check(name: str, doc: dict[str, Any]) -> None:
    wire = json.dumps(doc, allow_nan=False)  # what a screen or page receives
    try:
        view_model(name).model_validate_json(wire)
    except ValidationError as exc:
        pytest.fail(f"view {name!r} does not fit its model:\n{exc}")


def kinds(names: dict[str, int]) -> set[str]:
    return {n.split(":")[0] for n in names}


def test_slots_payoff_from_qualifying_to_a_settled_final():
    d = Driver()
    watch = Watch(d.show)
    to_final(d, present=False)
    d.do("slots.draw_seats", {"stage": "final"})
    for i, e in enumerate(stage_entries(d, "final")):
        d.do("slots.record_score", {"entry": e.id, "score": 7_000 - 13 * i})
    d.do("slots.close_stage", {"stage": "final"})
    assert d.view("prizes:slots")["places"][0]["name"]  # the prize table has its winners
    assert {"leaderboard:slots:final", "seating:slots", "prizes:slots"} <= set(watch.checked)


def test_roulette_spin_off_through_betting_a_no_spin_a_rebuy_and_the_final():
    d = Driver()
    watch = Watch(d.show)
    cards = d.members(12)
    entries = [d.entry("roulette.enter", {"card": c, "heat": f"Heat {i // 6 + 1}"})
               for i, c in enumerate(cards)]
    d.do("roulette.rebuy", {"entry": entries[0]})
    d.do("roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
    d.now += 100_000
    d.do("roulette.no_spin", {"stage": "qualifying", "heat": "Heat 1"})
    d.do("roulette.spin", {"stage": "qualifying", "heat": "Heat 1"})
    for heat, n in (("Heat 1", 2), ("Heat 2", 3)):
        for _ in range(n):
            d.do("roulette.open_betting", {"stage": "qualifying", "heat": heat})
            d.do("roulette.spin", {"stage": "qualifying", "heat": heat})
    for i, e in enumerate(entries):
        d.do("roulette.record_score", {"entry": e, "score": 2_000 + 37 * i})
    d.do("roulette.close_stage", {"stage": "qualifying"})
    d.do("roulette.open_betting", {"stage": "final", "heat": "Group 1"})
    assert d.view("spins:roulette")["heats"][0]["betting"]
    assert {"spins:roulette", "pools:roulette", "leaderboard:roulette:final"} <= set(
        watch.checked)


def test_poker_showdown_with_weekly_prizes_to_a_settled_final():
    d = driver()
    watch = Watch(d.show)
    to_semi(d)
    play_semi(d)
    d.do("poker.draw_seats", {})
    for i, e in enumerate(stage_entries_of(d, "poker", "final")):
        d.do("poker.record_score", {"entry": e.id, "score": 2_000 + 100 * i, "hands": 12,
                                    "markers_unused": 3 if i == 0 else 0})
    d.do("poker.close_stage", {"stage": "final"})
    assert d.view("prizes:poker")["places"][0]["name"] and d.view("prizes:poker")["weekly"]
    assert {"prizes:poker", "paytable:poker", "qualifiers:poker"} <= set(watch.checked)


def stage_entries_of(d: Driver, promotion: str, stage: str) -> list:
    feature = d.feature(promotion)
    return [feature.entries.at(row) for row in feature.stages[stage].rows]


def test_wild_card_draw_through_a_redraw_a_stand_in_and_a_finalist_in_their_absence():
    s = activated_show()
    watch = Watch(s.show)
    s.send("wildcard.register_decline", DECLINE_PAYLOAD, at=CLOSE - 60_000)
    s.send("wildcard.freeze", at=CLOSE + 1_000)
    drawn = s.send("wildcard.draw", at=CLOSE + 60_000, rng=ScriptedRng(8))[0]
    s.tick(drawn.reveal_at_ms - 1_500)
    s.send("wildcard.redraw", at=drawn.claim_deadline_ms + 5_000)
    again = s.send("wildcard.draw", at=drawn.claim_deadline_ms + 60_000, rng=ScriptedRng(6))[0]
    s.tick(again.reveal_at_ms - 1_500)
    s.send("wildcard.accept_registered", at=again.reveal_at_ms + 10_000)
    s.send("wildcard.stand_in", {"name": "Kabelo Radebe", "acknowledged_not_entitled": True},
           at=again.reveal_at_ms + 20_000)
    doc = s.view()
    assert doc["phase"] == "finalist" and doc["redraws"] and doc["finalist"]["stand_in"]
    assert watch.checked["draw:wildcard"] >= 6 and "cues" in watch.checked


def test_wild_card_winner_claims_in_person():
    s = activated_show()
    watch = Watch(s.show)
    s.send("wildcard.freeze", at=CLOSE + 1_000)
    drawn = s.send("wildcard.draw", at=CLOSE + 60_000, rng=ScriptedRng(0))[0]
    s.tick(drawn.reveal_at_ms - 1_500)
    s.send("wildcard.claim", {"card_checked": True, "id_checked": True},
           at=drawn.reveal_at_ms + 30_000)
    assert s.view()["finalist"]["present"] and watch.checked["draw:wildcard"] >= 4


def test_super9_from_sales_to_a_confirmed_win_and_the_next_session():
    f = Floor()
    watch = Watch(f.show)
    for i, card in enumerate(("1000001", "1000002")):
        f.do("register_member", {"card": card, "display_name": f"Player{i} Surname{i}"})
    f.now = ms(f"{WEDNESDAY} 12:00")
    for serial, card, nine in (("0001", "1000001", [1, 2, 3, 4, 5, 6, 7, 8, 9]),
                               ("0002", "1000002", [10, 11, 12, 13, 14, 15, 16, 17, 18])):
        f.do("super9.sell_ticket", {"ticket": serial, "card": card})
        f.do("super9.enter_ticket", {"ticket": serial, "original": nine, "duplicate": nine})
    f.start(SESSION)
    for n in (1, 2, 3, 3, 0):
        f.do("super9.spin", {"number": n})
    f.do("super9.no_spin", {"reason": "ball left the wheel"})
    f.spins(4, 5, 6, 7, 8, 9)
    assert f.board()["status"] == "super9"
    f.do("super9.confirm_win")
    assert f.board()["status"] == "won"
    assert {"board:super9", "jackpot:super9", "schedule:super9", "cues:super9"} <= set(
        watch.checked)


def test_screens_with_a_playlist_and_a_takeover():
    floor = ScreensFloor()
    watch = Watch(floor.show)
    floor.enrol("stage-1")
    floor.enrol("bar-1", group="bar", authorise=False)
    floor.send("playlists.assign", {"file": "loop.yaml", "yaml": LOOP, "groups": ["stage"]})
    floor.send("takeover.start", {"group": "stage", "scene": "announcement",
                                  "params": {"title": "Final tonight", "body": "Doors 19h00"}},
               role="operator")
    floor.send("takeover.end", {"group": "stage"}, at=60_000, role="operator")
    floor.send("screens.revoke", {"screen": "bar-1", "reason": "stolen"})
    assert floor.view("stage-1")["playlists"] and floor.view("stage-1")["takeover"]
    assert watch.checked["screen:stage-1"] >= 4 and "ops:screens" in watch.checked


def test_every_view_the_controller_can_publish_has_a_model():
    """No gaps: the full show (every feature, a screen enrolled) names every view kind."""
    d = Driver()
    for event in d.show.decide("screens.enrol", {"screen": "s1", "group": "g",
                                                 "key_hash": "a" * 64},
                               Context("tech", "technician", d.now)):
        d.apply(event)
    names = d.show.published_view_names()
    missing = []
    for name in sorted(names):
        try:
            view_model(name)
        except KeyError:
            missing.append(name)
    assert not missing, f"views with no model: {missing}"
    assert kinds(dict.fromkeys(names, 0)) >= {
        "leaderboard", "pools", "seating", "qualifiers", "prizes", "paytable", "spins",
        "jackpot", "board", "schedule", "cues", "draw", "screen", "ops"}


def test_an_unknown_view_has_no_model():
    with pytest.raises(KeyError):
        view_model("scoreboard:darts")


@pytest.mark.parametrize("name, change, field", [
    ("leaderboard:slots", lambda doc: doc["rows"][0].update(score=float("nan")), "score"),
    ("leaderboard:slots", lambda doc: doc["rows"][0].update(name="Thandi\x00"), "name"),
    ("leaderboard:slots", lambda doc: doc["rows"][0].update(score=10**99), "score"),
    ("prizes:slots", lambda doc: doc.update(pool=-1), "pool"),
    ("draw:wildcard", lambda doc: doc.update(reveal_at=1.5), "reveal_at"),
    ("draw:wildcard", lambda doc: doc.update(phase="spinning"), "phase"),
    ("spins:roulette", lambda doc: doc.update(extra=1), "extra"),
])
def test_a_view_a_scene_cannot_draw_fails_its_model(name, change, field):
    d = Driver()
    cards = d.members(3)
    for c in cards:
        e = d.entry("slots.enter", {"card": c})
        d.do("slots.record_score", {"entry": e, "score": 100})
    doc = json.loads(json.dumps(d.view(name)))
    view_model(name).model_validate(doc)
    change(doc)
    with pytest.raises(ValidationError, match=field):
        view_model(name).model_validate(doc)


def test_the_slots_final_carries_the_wild_card_finalist():
    """A WildcardFinalist handed over from the draw shows in the slots views (names fit)."""
    d = Driver()
    watch = Watch(d.show)
    to_final(d, present=True)  # applies WildcardFinalist, as the draw hands it over
    assert any(r["via"] == "Wild Card" for s in d.view("qualifiers:slots")["stages"]
               for r in s["qualifiers"])
    assert "qualifiers:slots" in watch.checked

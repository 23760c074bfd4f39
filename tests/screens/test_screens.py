"""The screens feature on a pure Show: enrolment, groups, assignment, takeovers."""

import pytest

from controller.application.features import build_features
from controller.application.show import Show
from controller.domain.commands import Context
from controller.domain.errors import Rejected
from controller.domain.keys import key_hash
from controller.screens.feature import SWITCH_LEAD_MS, Screens
from showrunner.contract.playlist.schedule import screen_slot

TECH = "technician"
LOOP = """\
name: loop
scenes:
  - {scene: leaderboard, duration: 10}
  - {scene: jackpot_ticker, duration: 5}
"""


class Floor:
    def __init__(self) -> None:
        self.show = Show(build_features())
        self.screens: Screens = self.show.feature(Screens)  # type: ignore[assignment]

    def send(self, type_: str, payload: dict, at: int = 0, role: str = TECH) -> list:
        events = self.show.decide(type_, payload, Context("tech", role, at))
        for event in events:
            self.show.apply(event)
        return events

    def refusal(self, type_: str, payload: dict, at: int = 0, role: str = TECH) -> Rejected:
        with pytest.raises(Rejected) as caught:
            self.show.decide(type_, payload, Context("tech", role, at))
        return caught.value

    def enrol(self, screen: str, group: str = "stage", authorise: bool = True) -> str:
        key = f"key-of-{screen}"
        self.send("screens.enrol", {"screen": screen, "group": group, "key_hash": key_hash(key)})
        if authorise:
            self.send("screens.authorise", {"screen": screen})
        return key

    def view(self, screen: str) -> dict:
        return self.screens.view(f"screen:{screen}")


def test_enrol_authorise_and_revoke_decide_who_may_connect():
    floor = Floor()
    key = floor.enrol("stage-1", authorise=False)
    record, _ = floor.screens.authenticate("stage-1", key)
    assert record.status == "pending" and floor.view("stage-1")["playlists"] == []
    assert floor.screens.authenticate("stage-1", "guess")[0] is None
    assert floor.screens.authenticate("stage-2", key)[1] == (
        "Unknown or revoked key for screen 'stage-2'.")
    floor.send("screens.authorise", {"screen": "stage-1"})
    assert floor.view("stage-1")["status"] == "authorised"
    floor.send("screens.revoke", {"screen": "stage-1", "reason": "stolen"})
    refused, why = floor.screens.authenticate("stage-1", key)
    assert refused is None and "was revoked" in why
    assert floor.refusal("screens.authorise", {"screen": "stage-1"}).code == "revoked"
    floor.send("screens.enrol", {"screen": "stage-1", "group": "bar",
                                 "key_hash": key_hash("new key")})  # a revoked screen re-enrols
    assert floor.screens.authenticate("stage-1", "new key")[0].group == "bar"


def test_enrolment_refusals_change_nothing():
    floor = Floor()
    floor.enrol("stage-1")
    assert floor.refusal("screens.enrol", {"screen": "stage-1", "group": "stage",
                                           "key_hash": key_hash("x")}).code == "already_enrolled"
    assert floor.refusal("screens.enrol", {"screen": "Stage 1", "group": "stage",
                                           "key_hash": key_hash("x")}).code == "bad_name"
    assert floor.refusal("screens.enrol", {"screen": "s2", "group": "stage",
                                           "key_hash": "abc"}).code == "bad_key_hash"
    assert floor.refusal("screens.move", {"screen": "nope", "group": "bar"}).code == \
        "unknown_screen"
    assert floor.refusal("screens.enrol", {"screen": "s2", "group": "stage",
                                           "key_hash": key_hash("x")}, role="operator"
                         ).code == "forbidden"


def test_a_bad_playlist_is_refused_with_every_problem_and_screens_keep_theirs():
    floor = Floor()
    floor.enrol("stage-1")
    floor.send("playlists.assign", {"file": "loop.yaml", "yaml": LOOP, "groups": ["stage"]})
    before = floor.view("stage-1")
    broken = "name: loop\nscenes:\n  - {scene: nope, duration: 0}\n"
    refused = floor.refusal("playlists.assign", {"file": "loop.yaml", "yaml": broken,
                                                 "groups": ["stage"]})
    assert refused.code == "bad_playlist"
    assert "loop.yaml:3:13: unknown scene 'nope'" in refused.message
    assert "loop.yaml:3:29: bad duration 0" in refused.message
    assert floor.view("stage-1") == before


def test_assignment_reaches_the_group_and_starts_at_the_next_boundary():
    floor = Floor()
    floor.enrol("stage-1")
    floor.enrol("stage-2")
    floor.enrol("bar-1", group="bar")
    assert floor.refusal("playlists.assign", {"file": "l.yaml", "yaml": LOOP,
                                              "groups": ["stgae"]}).code == "unknown_group"
    [first, second] = [floor.send("playlists.assign", {"file": "l.yaml", "yaml": LOOP,
                                                       "groups": ["stage"]}, at=t)[0]
                       for t in (1_000, 4_000)]
    assert first.anchor_ms == 1_000 + SWITCH_LEAD_MS  # nothing played: starts at once
    assert second.anchor_ms == first.anchor_ms + 10_000  # after the leaderboard in progress
    one, two = floor.view("stage-1"), floor.view("stage-2")
    assert one["playlists"] == two["playlists"] and floor.view("bar-1")["playlists"] == []
    assert screen_slot(one, second.anchor_ms - 1).start_ms == first.anchor_ms
    assert screen_slot(one, second.anchor_ms).start_ms == second.anchor_ms


def test_a_screens_own_playlist_outranks_its_groups_at_equal_priority():
    floor = Floor()
    floor.enrol("stage-1")
    floor.send("playlists.assign", {"file": "l.yaml", "yaml": LOOP, "groups": ["stage"]})
    own = LOOP.replace("name: loop", "name: own")
    floor.send("playlists.assign", {"file": "o.yaml", "yaml": own, "screens": ["stage-1"]})
    assert [p["name"] for p in floor.view("stage-1")["playlists"]] == ["own", "loop"]
    floor.send("playlists.unassign", {"name": "own", "screens": ["stage-1"]}, at=100_000)
    assert floor.screens.view("ops:screens")["screens"][0]["playlists"] == ["loop"]


def test_takeover_is_for_operators_and_checks_its_scene():
    floor = Floor()
    floor.enrol("stage-1")
    assert floor.refusal("takeover.start", {"group": "stage", "scene": "wildcard_draw"}
                         ).code == "forbidden"
    bad = floor.refusal("takeover.start", {"group": "stage", "scene": "super9_board",
                                           "params": {"recent": "x"}}, role="operator")
    assert bad.code == "bad_scene" and "must be a whole number" in bad.message
    [started] = floor.send("takeover.start", {"group": "stage", "scene": "wildcard_draw"},
                           at=5_000, role="operator")
    assert started.start_ms == 5_000 + SWITCH_LEAD_MS
    assert screen_slot(floor.view("stage-1"), started.start_ms).scene == "wildcard_draw"
    [ended] = floor.send("takeover.end", {"group": "stage"}, at=9_000, role="operator")
    assert screen_slot(floor.view("stage-1"), ended.end_ms).source == "default"
    assert floor.refusal("takeover.end", {"group": "stage"}, role="operator").code == \
        "no_takeover"


@pytest.mark.parametrize("params", [{}, {"title": "Final tonight"}, {"body": "  \n "}])
def test_an_announcement_without_text_is_refused_and_changes_nothing(params):
    floor = Floor()
    floor.enrol("stage-1")
    before = floor.view("stage-1")
    refused = floor.refusal("takeover.start", {"group": "stage", "scene": "announcement",
                                               "params": params}, role="operator")
    assert refused.code == "no_text" and "needs its text" in refused.message
    assert floor.view("stage-1") == before and floor.screens.takeovers == {}


def test_pending_screens_get_no_program():
    floor = Floor()
    floor.enrol("stage-1")
    floor.enrol("stage-2", authorise=False)
    floor.send("playlists.assign", {"file": "l.yaml", "yaml": LOOP, "groups": ["stage"]})
    assert floor.view("stage-1")["playlists"] and floor.view("stage-2")["playlists"] == []


def test_ending_a_takeover_publishes_a_changed_view():
    floor = Floor()
    floor.enrol("stage-1")
    floor.send("takeover.start", {"group": "stage", "scene": "wildcard_draw"}, role="operator")
    floor.show.publish(floor.show.published_view_names(), 1)
    events = floor.send("takeover.end", {"group": "stage"}, at=9_000, role="operator")
    [changed] = floor.show.publish({"screen:stage-1"}, 2)
    assert changed.doc["takeover"]["end_ms"] == events[0].end_ms


@pytest.mark.parametrize("scene,params,words", [
    ("attract", {"seconds": float("nan")}, "'seconds' of scene 'attract' must be a number from "
                                           "1 to 86400, not NaN"),
    ("attract", {"seconds": float("inf")}, "not Infinity"),
    ("attract", {"seconds": 1e308}, "not 1e+308"),
    ("leaderboard", {"rows_per_page": 0}, "'rows_per_page' of scene 'leaderboard' must be a "
                                          "whole number from 1 to 50, or null, not 0"),
    ("leaderboard", {"rows": 3}, "scene 'leaderboard' has no parameter 'rows' (did you mean "
                                 "'max_rows'?)"),
    ("announcement", {"title": "Final\x00"}, "'title' of scene 'announcement' contains an "
                                             "unprintable character (U+0000)"),
    ("announcement", {"body": "x" * 2001}, "must be text of at most 2000 characters"),
])
def test_a_takeover_a_screen_could_not_draw_is_refused_and_changes_nothing(scene, params, words):
    floor = Floor()
    floor.enrol("stage-1")
    before = floor.view("stage-1")
    refused = floor.refusal("takeover.start", {"group": "stage", "scene": scene,
                                               "params": params}, role="operator")
    assert refused.code == "bad_scene"
    assert refused.message.startswith("The takeover cannot be shown: ") and words in \
        refused.message
    assert floor.view("stage-1") == before and floor.screens.takeovers == {}


@pytest.mark.parametrize("line,words", [
    ("rows_per_page: .nan", "l.yaml:6:22: parameter 'rows_per_page' of scene 'leaderboard' "
                            "must be a whole number from 1 to 50, or null, not NaN"),
    ("page_seconds: .inf", "l.yaml:6:21: parameter 'page_seconds' of scene 'leaderboard' "
                           "must be a number from 1 to 3600, not Infinity"),
    ("rows_per_page: 0", "not 0"),
    ('score_label: "Chips\\x1b"', "contains an unprintable character (U+001B)"),
])
def test_a_playlist_a_screen_could_not_draw_is_refused_and_changes_nothing(line, words):
    floor = Floor()
    floor.enrol("stage-1")
    before = floor.view("stage-1")
    text = ("name: l\nscenes:\n  - scene: leaderboard\n    duration: 10\n    params:\n"
            f"      {line}\n")
    refused = floor.refusal("playlists.assign", {"file": "l.yaml", "yaml": text,
                                                 "groups": ["stage"]})
    assert refused.code == "bad_playlist" and words in refused.message
    assert floor.view("stage-1") == before


def test_the_playlist_is_one_bounded_printable_text():
    floor = Floor()
    floor.enrol("stage-1")
    too_big = LOOP + "#" * (64 * 1024)
    refused = floor.refusal("playlists.assign", {"file": "l.yaml", "yaml": too_big,
                                                 "groups": ["stage"]})
    assert refused.code == "bad_payload" and "65 536 characters" in refused.message
    refused = floor.refusal("playlists.assign", {"file": "l.yaml", "yaml": LOOP + "\x00",
                                                 "groups": ["stage"]})
    assert "unprintable character (U+0000)" in refused.message
    refused = floor.refusal("playlists.assign", {"file": "l.yaml", "lines": LOOP.split("\n"),
                                                 "groups": ["stage"]})
    assert refused.code == "bad_payload"  # the old list-of-lines form is gone
    assert floor.view("stage-1")["playlists"] == []
    windows = LOOP.replace("\n", "\r\n")  # saved on Windows: line breaks are fine
    [assigned] = floor.send("playlists.assign", {"file": "l.yaml", "yaml": windows,
                                                 "groups": ["stage"]})
    assert assigned.playlist["name"] == "loop"


@pytest.mark.parametrize("view", ["ops:slots", "screen:stage-2"])
def test_a_takeover_of_a_view_no_screen_receives_is_refused_and_changes_nothing(view):
    floor = Floor()
    floor.enrol("stage-1")
    floor.enrol("stage-2")
    before = floor.view("stage-1")
    refused = floor.refusal("takeover.start", {"group": "stage", "scene": "leaderboard",
                                               "params": {"view": view}}, role="operator")
    assert refused.code == "not_on_the_floor"
    assert refused.message == (
        f"The takeover cannot be shown: scene 'leaderboard' reads view {view!r}, which is not "
        "a view the floor's screens receive (the 'ops:' views are the operators' own, a "
        "'screen:' view its screen's); leave view out to show 'leaderboard:slots'.")
    assert floor.view("stage-1") == before and floor.screens.takeovers == {}
    [started] = floor.send("takeover.start", {"group": "stage", "scene": "leaderboard",
                                              "params": {"view": "leaderboard:roulette"}},
                           role="operator")  # another public view: shown
    assert started.params["view"] == "leaderboard:roulette"


@pytest.mark.parametrize("where,text", [
    ("l.yaml:6:13: scene 'leaderboard'", "name: l\nscenes:\n  - scene: leaderboard\n"
     "    duration: 10\n    params:\n      view: ops:slots\n"),
    ("l.yaml:5:39: scene 'leaderboard'", "name: l\nscenes:\n  - {scene: attract, duration: 10}\n"
     "fallback:\n  {scene: leaderboard, params: {view: ops:slots}}\n"),
])
def test_a_playlist_showing_a_view_no_screen_receives_is_refused_and_changes_nothing(
        where, text):
    floor = Floor()
    floor.enrol("stage-1")
    before = floor.view("stage-1")
    refused = floor.refusal("playlists.assign", {"file": "l.yaml", "yaml": text,
                                                 "groups": ["stage"]})
    assert refused.code == "bad_playlist"
    assert f"{where} reads view 'ops:slots', which is not a view the floor's screens " \
           "receive" in refused.message
    assert floor.view("stage-1") == before and floor.screens.assignments == {}
    [assigned] = floor.send("playlists.assign", {
        "file": "l.yaml", "yaml": text.replace("ops:slots", "leaderboard:slots"),
        "groups": ["stage"]})
    assert assigned.target == "group:stage"


def test_a_selection_moves_to_a_group_all_at_once_or_not_at_all():
    floor = Floor()
    for n in range(4):
        floor.enrol(f"floor-{n}")
    floor.enrol("bar-1", group="bar")
    before = {s: r.group for s, r in floor.screens.screens.items()}
    refused = floor.refusal("screens.move_many", {"screens": ["floor-0", "nope", "floor-1"],
                                                  "group": "bar"})
    assert refused.code == "unknown_screen" and refused.message == (
        "No screen was moved: there is no screen 'nope'.")
    assert floor.refusal("screens.move_many", {"screens": ["floor-0"], "group": "Bar 2"}
                         ).code == "bad_name"
    assert floor.refusal("screens.move_many", {"screens": [], "group": "bar"}).code == \
        "bad_payload"
    assert {s: r.group for s, r in floor.screens.screens.items()} == before  # nothing moved
    events = floor.send("screens.move_many", {"screens": ["floor-0", "floor-1", "bar-1",
                                                          "floor-0"], "group": "bar"})
    assert [(e.screen, e.group) for e in events] == [("floor-0", "bar"), ("floor-1", "bar")]
    assert floor.view("floor-1")["group"] == "bar" and floor.view("floor-2")["group"] == "stage"
    assert floor.refusal("screens.move_many", {"screens": ["bar-1"], "group": "bar"}
                         ).code == "no_change"


def test_views_changed_together_are_each_screens_own_and_do_not_move_afterwards():
    """A group's program is rendered once for all its screens (`ScreensViews.views`): each
    screen still gets its own program, and what was published stays as it was when the state
    changes in place (the older assignment's until_ms)."""
    floor = Floor()
    for screen in ("stage-1", "stage-2", "stage-3"):
        floor.enrol(screen)
    floor.enrol("bar-1", group="bar")
    own = LOOP.replace("name: loop", "name: own")
    floor.send("playlists.assign", {"file": "o.yaml", "yaml": own, "screens": ["stage-2"]})
    floor.send("playlists.assign", {"file": "l.yaml", "yaml": LOOP, "groups": ["stage"]})
    names = ["screen:bar-1", "screen:stage-1", "screen:stage-2", "screen:stage-3", "ops:screens"]
    together = floor.screens.views(names)
    assert together == [floor.screens.view(n) for n in names]
    bar, one, two, three, ops = together
    assert [p["name"] for p in two["playlists"]] == ["own", "loop"]
    assert [p["name"] for p in one["playlists"]] == [p["name"] for p in three["playlists"]] == [
        "loop"]
    assert bar["playlists"] == [] and [s["playlists"] for s in ops["screens"]] == [
        [], ["loop"], ["own", "loop"], ["loop"]]
    floor.send("playlists.assign", {"file": "l.yaml", "yaml": LOOP, "groups": ["stage"]},
               at=50_000)  # the first loop entry now ends (its until_ms is set in place)
    assert [p["until_ms"] for p in one["playlists"]] == [None]
    assert [p["until_ms"] for p in floor.view("stage-1")["playlists"]][-1] is not None

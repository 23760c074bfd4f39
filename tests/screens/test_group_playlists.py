"""Each group's playlists as /screens shows them (`group_report`), on a pure Show: what plays
now, each playlist's hours and text to edit, an edit in place, a playlist taken off, and who
did each (issue 48, "The technician's page")."""

import datetime as dt
from zoneinfo import ZoneInfo

from controller.screens.events import PlaylistAssigned, PlaylistUnassigned
from controller.screens.groups import group_report
from tests.screens.test_screens import LOOP, Floor

VENUE = ZoneInfo("Africa/Johannesburg")
FRIDAY_21H = int(dt.datetime(2026, 12, 4, 21, 0, tzinfo=VENUE).timestamp() * 1000)
HOUSE = """\
# between promotions: always on
name: house
scenes:
  - {scene: attract, duration: 1m}
"""
LATE = """\
name: late
priority: 5
windows:
  - {days: [fri, sat], from: "20:00", to: "26:00"}
scenes:
  - {scene: leaderboard, duration: 30s, params: {view: leaderboard:slots, rows_per_page: 12}}
  - {scene: jackpot_ticker, duration: 10s}
fallback: {scene: attract}
"""


def stage(floor: Floor, at: int) -> dict:
    [group] = [g for g in group_report(floor.screens, at)["groups"] if g["group"] == "stage"]
    return group


def test_a_group_shows_its_playlists_what_plays_now_and_who_put_them_on():
    floor = Floor()
    floor.enrol("stage-1")
    floor.enrol("stage-2")
    floor.enrol("bar-1", group="bar")
    floor.send("playlists.assign", {"file": "house.yaml", "yaml": HOUSE, "groups": ["stage"]},
               at=FRIDAY_21H - 3_600_000)
    floor.send("playlists.assign", {"file": "late.yaml", "yaml": LATE, "groups": ["stage"]},
               at=FRIDAY_21H - 1_800_000)
    group = stage(floor, FRIDAY_21H)
    assert group["screens"] == 2 and group["now"] == {"kind": "playlist", "name": "late",
                                                      "scene": group["now"]["scene"]}
    assert group["changes_at_ms"] == FRIDAY_21H + 5 * 3_600_000  # late's window closes
    late, house = group["playlists"]  # in the order the group's screens rank them
    assert (late["name"], late["state"], late["next_ms"]) == ("late", "playing", None)
    assert (house["name"], house["state"]) == ("house", "outranked")
    assert late["text"] == LATE and house["text"] == HOUSE  # as written, comments and all
    assert late["windows"] == [{"days": [4, 5], "from_min": 1200, "to_min": 1560}]
    assert [item["reads"] for item in late["items"]] == ["leaderboard:slots", "jackpot:super9"]
    assert late["fallback"]["reads"] == "attract"
    assert late["then"] == {"kind": "playlist", "name": "house", "scene": "attract"}
    assert house["then"]["kind"] == "playlist" and house["then"]["name"] == "late"
    assert late["last"] == {"what": "on", "name": "late", "by": "tech",
                            "at_ms": FRIDAY_21H - 1_800_000}
    assert [c["what"] for c in group["changes"]] == ["on", "on"]  # newest first
    assert group["changes"][0]["name"] == "late"
    # out of its hours: waiting, with when it may start next (Saturday 20:00)
    saturday_noon = FRIDAY_21H + 15 * 3_600_000
    later = stage(floor, saturday_noon)["playlists"][0]
    assert (later["state"], later["next_ms"]) == ("waiting", saturday_noon + 8 * 3_600_000)


def test_a_takeover_is_shown_as_its_scene_never_its_id():
    floor = Floor()
    floor.enrol("stage-1")
    floor.send("takeover.start", {"group": "stage", "scene": "announcement",
                                  "params": {"body": "Doors open"}}, role="operator")
    assert stage(floor, 10_000)["now"] == {"kind": "takeover", "name": "",
                                            "scene": "announcement"}


def test_an_edit_replaces_its_playlist_on_that_group_only_and_keeps_who_and_when():
    floor = Floor()
    floor.enrol("stage-1")
    floor.enrol("bar-1", group="bar")
    floor.send("playlists.assign", {"file": "loop.yaml", "yaml": LOOP,
                                    "groups": ["stage", "bar"]}, at=1_000)
    edited = LOOP.replace("duration: 5", "duration: 8")
    events = floor.send("playlists.assign", {"file": "loop.yaml", "yaml": edited,
                                             "groups": ["stage"], "replaces": "loop"},
                        at=20_000)
    assert [type(e) for e in events] == [PlaylistAssigned]  # same name: no separate stop
    assert events[0].by == "tech" and events[0].yaml == edited
    [loop] = stage(floor, 40_000)["playlists"]
    assert loop["text"] == edited and loop["items"][1]["duration_ms"] == 8_000
    assert [c["what"] for c in stage(floor, 40_000)["changes"]] == ["edited", "on"]
    assert (loop["last"]["what"], loop["last"]["at_ms"]) == ("edited", 20_000)
    bar = [g for g in group_report(floor.screens, 40_000)["groups"] if g["group"] == "bar"]
    assert bar[0]["playlists"][0]["text"] == LOOP  # the other group keeps its version


def test_what_a_take_off_leaves_is_said_as_of_when_it_would_stop():
    floor = Floor()
    floor.enrol("stage-1")
    floor.send("playlists.assign", {"file": "loop.yaml", "yaml": LOOP, "groups": ["stage"]},
               at=1_000)
    floor.send("playlists.assign", {"file": "late.yaml", "yaml": LATE, "groups": ["stage"]},
               at=FRIDAY_21H - 60_000)
    edited = LOOP.replace("duration: 5", "duration: 8")  # waits for the end of a scene
    floor.send("playlists.assign", {"file": "loop.yaml", "yaml": edited, "groups": ["stage"],
                                    "replaces": "loop"}, at=FRIDAY_21H)
    late, loop = stage(floor, FRIDAY_21H + 100)["playlists"]
    # late plays now (priority 5); taken off, the group goes on with the edit, not with the
    # version it replaces
    assert late["state"] == "playing" and loop["state"] == "outranked"
    assert late["then"]["name"] == "loop"


def test_an_edit_that_renames_its_playlist_stops_the_old_name_at_the_same_boundary():
    floor = Floor()
    floor.enrol("stage-1")
    floor.send("playlists.assign", {"file": "loop.yaml", "yaml": LOOP, "groups": ["stage"]},
               at=1_000)
    renamed = LOOP.replace("name: loop", "name: loop-2")
    added, stopped = floor.send("playlists.assign", {
        "file": "loop.yaml", "yaml": renamed, "groups": ["stage"], "replaces": "loop"},
        at=4_000)
    assert isinstance(stopped, PlaylistUnassigned) and stopped.name == "loop"
    assert stopped.until_ms == added.anchor_ms and stopped.by == "tech"
    assert [p["name"] for p in stage(floor, 60_000)["playlists"]] == ["loop-2"]


def test_a_playlist_taken_off_leaves_the_group_to_its_default_and_is_recorded():
    floor = Floor()
    floor.enrol("stage-1")
    floor.send("playlists.assign", {"file": "house.yaml", "yaml": HOUSE, "groups": ["stage"]},
               at=1_000)
    assert stage(floor, 2_000)["playlists"][0]["then"] == {"kind": "default", "name": "",
                                                          "scene": "attract"}
    [off] = floor.send("playlists.unassign", {"name": "house", "groups": ["stage"]},
                       at=30_000)
    assert (off.by, off.at_ms, off.until_ms) == ("tech", 30_000, 61_300)  # its scene's end
    group = stage(floor, 70_000)
    assert group["playlists"] == [] and group["now"]["kind"] == "default"
    assert [(c["what"], c["by"], c["at_ms"]) for c in group["changes"]] == [
        ("off", "tech", 30_000), ("on", "tech", 1_000)]
    assert floor.refusal("playlists.unassign", {"name": "house", "groups": ["stage"]}).code \
        == "not_assigned"


def test_a_playlist_assigned_before_texts_were_kept_is_edited_as_its_document_written_out():
    floor = Floor()
    floor.enrol("stage-1")
    [event] = floor.send("playlists.assign", {"file": "late.yaml", "yaml": LATE,
                                              "groups": ["stage"]}, at=1_000)
    floor.screens.texts.clear()  # as a log written before the text was in the event
    text = stage(floor, 2_000)["playlists"][0]["text"]
    assert "name: late" in text and "from: '20:00'" in text and "#" not in text
    floor.send("playlists.assign", {"file": "late.yaml", "yaml": text, "groups": ["stage"]},
               at=3_000)
    assert floor.screens.assignments["group:stage"][-1]["items"] == event.playlist["items"]


def test_a_screens_own_playlist_is_listed_under_its_group_with_what_it_leaves():
    floor = Floor()
    floor.enrol("stage-1")
    floor.enrol("stage-2")
    floor.send("playlists.assign", {"file": "loop.yaml", "yaml": LOOP, "groups": ["stage"]},
               at=1_000)
    own = LOOP.replace("name: loop", "name: own")
    floor.send("playlists.assign", {"file": "own.yaml", "yaml": own, "screens": ["stage-2"]},
               at=2_000)
    group = stage(floor, 3_000)
    assert [p["name"] for p in group["playlists"]] == ["loop"]
    [mine] = group["own"]
    assert mine["screens"] == ["stage-2"] and mine["now"]["name"] == "loop"
    [playlist] = mine["playlists"]
    assert (playlist["name"], playlist["state"]) == ("own", "starting")  # at the scene's end
    # without it, from when it would stop (the end of the leaderboard playing now)
    assert playlist["then"] == {"kind": "playlist", "name": "loop", "scene": "jackpot_ticker"}
    assert stage(floor, 20_000)["own"][0]["playlists"][0]["state"] == "playing"
    floor.send("playlists.unassign", {"name": "own", "screens": ["stage-2"]}, at=30_000)
    group = stage(floor, 60_000)
    assert group["own"] == []
    assert [(c["what"], c["name"], c["screens"]) for c in group["changes"]] == [
        ("off", "own", ["stage-2"]), ("on", "own", ["stage-2"]), ("on", "loop", [])]


def test_screens_given_the_same_playlist_at_once_are_one_card_and_one_change():
    floor = Floor()
    for screen in ("lobby-1", "lobby-2", "lobby-3"):
        floor.enrol(screen, group="lobby")
    floor.send("playlists.assign", {"file": "loop.yaml", "yaml": LOOP,
                                    "screens": ["lobby-1", "lobby-3"]}, at=1_000)
    [lobby] = group_report(floor.screens, 2_000)["groups"]
    [alike] = lobby["own"]
    assert alike["screens"] == ["lobby-1", "lobby-3"] and len(alike["playlists"]) == 1
    [change] = lobby["changes"]
    assert (change["what"], change["screens"]) == ("on", ["lobby-1", "lobby-3"])

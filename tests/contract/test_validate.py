"""The playlist validator: every error class named with file, line and column."""

from pathlib import Path

import pytest

from showrunner.contract.playlist.files import check_file
from showrunner.contract.playlist.validate import (
    PlaylistError,
    check,
    check_scene,
    validate,
)

ROOT = Path(__file__).resolve().parents[2]

GOOD = """\
name: night
scenes:
  - scene: leaderboard
    duration: 30s
    params:
      rows_per_page: 10
"""


def problems(text: str) -> list[str]:
    return [str(p) for p in check(text, "p.yaml")[1]]


@pytest.mark.parametrize("path", sorted((ROOT / "playlists").glob("*.yaml")),
                         ids=lambda p: p.name)
def test_every_shipped_playlist_is_valid(path):
    doc, found = check_file(path)
    assert found == [] and doc["items"]


def test_a_good_playlist_becomes_a_document():
    doc = validate(GOOD, "p.yaml")
    assert doc["items"] == [{"scene": "leaderboard", "duration_ms": 30_000,
                             "params": {"rows_per_page": 10}, "transition": "crossfade"}]
    assert doc["priority"] == 0 and doc["loop"] is True and doc["windows"] == []


def test_unknown_scene_is_named_with_its_position():
    text = GOOD.replace("scene: leaderboard", "scene: leaderbord")
    [line] = problems(text)
    assert line.startswith("p.yaml:3:12: unknown scene 'leaderbord' (did you mean 'leaderboard'?)")


def test_unknown_parameter_and_mistyped_parameter():
    text = GOOD.replace("rows_per_page: 10", "rows_per_page: ten\n      rows: 3")
    assert problems(text) == [
        "p.yaml:6:22: parameter 'rows_per_page' of scene 'leaderboard' must be a whole "
        "number from 1 to 50, or null, not 'ten'",
        "p.yaml:7:7: scene 'leaderboard' has no parameter 'rows' (did you mean "
        "'max_rows'?); its parameters: empty_text, max_rows, page_seconds, rows_per_page, "
        "score_label, view",
    ]


@pytest.mark.parametrize("value,shown", [
    (".nan", "NaN"), (".inf", "Infinity"), ("-.inf", "-Infinity"), ("1.0e+308", "1e+308"),
    ("0", "0"), ("-3", "-3"), ("51", "51"), ("2.5", "2.5"), ("true", "true"), ("[1]", "a list")])
def test_parameters_out_of_their_bounds_are_named(value, shown):
    [line] = problems(GOOD.replace("rows_per_page: 10", f"rows_per_page: {value}"))
    assert line == ("p.yaml:6:22: parameter 'rows_per_page' of scene 'leaderboard' must be a "
                    f"whole number from 1 to 50, or null, not {shown}")


def test_text_parameters_must_be_printable_and_short():
    text = ('name: x\nscenes:\n  - scene: announcement\n    duration: 5\n    params:\n'
            '      title: "Draw\\x07"\n      body: "' + "b" * 2001 + '"\n')
    assert problems(text) == [
        "p.yaml:6:14: parameter 'title' of scene 'announcement' contains an unprintable "
        "character (U+0007)",
        "p.yaml:7:13: parameter 'body' of scene 'announcement' must be text of at most 2000 "
        f"characters, not '{'b' * 40}…'"]


@pytest.mark.parametrize("duration", ["0", '"ten"', "0s", "-5", "25h", "true"])
def test_bad_durations(duration):
    [line] = problems(GOOD.replace("30s", duration))
    assert line.startswith("p.yaml:4:15: bad duration")


@pytest.mark.parametrize("duration,ms", [("45", 45_000), ("2.5", 2_500), ("1m30s", 90_000),
                                         ("2m", 120_000), ("1h", 3_600_000)])
def test_good_durations(duration, ms):
    assert validate(GOOD.replace("30s", duration), "p.yaml")["items"][0]["duration_ms"] == ms


def test_a_window_ending_before_it_starts_is_refused_with_the_overnight_spelling():
    text = GOOD + 'windows:\n  - days: [fri]\n    from: "20:00"\n    to: "02:00"\n'
    assert problems(text) == [
        'p.yaml:10:9: bad window: it ends (02:00) before it starts (20:00); a window past '
        'midnight is written with hours past 24, e.g. to: "26:00"']


def test_overnight_window_and_unquoted_times():
    text = GOOD + "windows:\n  - days: weekend\n    from: 20:00\n    to: 26:00\n"
    assert validate(text, "p.yaml")["windows"] == [
        {"days": [5, 6], "from_min": 1200, "to_min": 1560}]


@pytest.mark.parametrize("window,where", [
    ('{days: [funday], from: "10:00", to: "11:00"}', "p.yaml:8:12: bad window: 'days'"),
    ('{from: "25:00", to: "26:00"}', "p.yaml:8:12: bad window: 'from' must be a time"),
    ('{from: "10:00", to: "31:00"}', "p.yaml:8:25: bad window: 'to' must be a time"),
    ('{from: "10:00"}', "p.yaml:8:5: window 1 needs 'to'"),
])
def test_bad_windows(window, where):
    [line] = problems(GOOD + f"windows:\n  - {window}\n")
    assert line.startswith(where)


def test_tabs_are_named_on_every_line():
    text = "scenes:\n\t- scene: attract\n\t  duration: 5\n"
    assert problems(text) == [
        "p.yaml:2:1: a tab in the indentation; YAML indents with spaces only",
        "p.yaml:3:1: a tab in the indentation; YAML indents with spaces only"]


def test_bad_yaml_syntax_is_named():
    [line] = problems("scenes: [\n  {scene: attract, duration: 5\n")
    assert line.startswith("p.yaml:3:1: not valid YAML:")


def test_structure_errors_are_all_reported():
    text = "name: x\nname: y\ncolour: red\nscenes: []\npriority: high\nloop: 3\n"
    assert problems(text) == [
        "p.yaml:2:1: field 'name' is given twice in the playlist",
        "p.yaml:3:1: unknown field 'colour' in the playlist; expected one of: name, priority, "
        "timezone, windows, loop, transition, scenes, fallback",
        "p.yaml:4:9: 'scenes' must be a list with at least one scene",
        "p.yaml:5:11: 'priority' must be a whole number, not 'high'",
        "p.yaml:6:7: 'loop' must be true or false, not 3",
    ]


def test_missing_pieces_and_bad_extras():
    text = ("timezone: Mars/Olympus\ntransition: wipe\nscenes:\n  - scene: attract\n"
            "  - duration: 5\nfallback:\n  scene: nothing\n")
    assert problems(text) == [
        "p.yaml:1:11: unknown timezone 'Mars/Olympus' (e.g. Africa/Johannesburg)",
        "p.yaml:2:13: unknown transition 'wipe'; use one of: cut, crossfade, slide",
        "p.yaml:4:5: scene 1 has no 'duration'",
        "p.yaml:5:5: scene 2 has no 'scene'",
        "p.yaml:7:10: unknown scene 'nothing'; known scenes: announcement, attract, "
        "claim_countdown, jackpot_ticker, leaderboard, live_heat, next_event, prize_table, "
        "roulette_countdown, seating_chart, super9_board, video, wildcard_draw",
    ]


def test_empty_file():
    assert problems("") == ["p.yaml:1:1: the file is empty; a playlist needs 'scenes'"]


def test_a_scene_given_as_data_is_checked_the_same_way():
    assert check_scene("announcement", {"title": "Draw at 21:00"}) == {
        "scene": "announcement", "params": {"title": "Draw at 21:00"}}
    with pytest.raises(PlaylistError) as caught:
        check_scene("super9_board", {"recent": "lots"})
    assert "parameter 'recent' of scene 'super9_board' must be a whole number" in str(caught.value)


@pytest.mark.parametrize("params,words", [
    ({"seconds": float("nan")}, "'seconds' of scene 'attract' must be a number from 1 to 86400, "
                                "not NaN"),
    ({"seconds": float("inf")}, "not Infinity"),
    ({"seconds": 1e308}, "not 1e+308"),
    ({"seconds": 0}, "not 0"),
    ({"images": ["a.png"] * 51}, "must be a list of at most 50 texts"),
    ({"view": "x\u0000"}, "contains an unprintable character (U+0000)"),
    ({"colour": "red"}, "scene 'attract' has no parameter 'colour'"),
])
def test_a_takeover_scene_with_values_a_screen_cannot_draw_is_refused(params, words):
    with pytest.raises(PlaylistError) as caught:
        check_scene("attract", params, "takeover")
    assert words in str(caught.value)

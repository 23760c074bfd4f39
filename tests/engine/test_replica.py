"""The screen's replica of views and its saved copy."""

import json

from showrunner.engine.replica import Replica


def test_newer_revisions_win_and_older_are_ignored():
    replica = Replica()
    assert replica.apply("jackpot", 5, {"amount": 100})
    assert not replica.apply("jackpot", 4, {"amount": 50})
    assert not replica.apply("jackpot", 5, {"amount": 100})
    assert replica.apply("jackpot", 7, {"amount": 200})
    assert replica.views["jackpot"] == {"amount": 200} and replica.revisions["jackpot"] == 7


def test_saved_state_round_trips(tmp_path):
    replica = Replica()
    replica.apply("leaderboard:slots", 3, {"rows": [{"name": "Thandi M."}]})
    replica.save(tmp_path / "screen.json")
    loaded = Replica.load(tmp_path / "screen.json")
    assert loaded.views == replica.views and loaded.revisions == replica.revisions
    assert loaded.saved_at_ms is not None


def test_the_log_id_is_saved_with_the_views_and_clear_forgets_them(tmp_path):
    replica = Replica()
    replica.apply("jackpot", 5, {"amount": 100})
    replica.log_id = "a" * 32
    replica.save(tmp_path / "screen.json")
    loaded = Replica.load(tmp_path / "screen.json")
    assert loaded.log_id == "a" * 32 and loaded.revisions == {"jackpot": 5}
    views = loaded.views
    loaded.clear()
    assert views == {} and loaded.views is views and loaded.revisions == {}  # scenes hold it


def test_a_file_from_before_log_ids_loads_with_no_log(tmp_path):
    path = tmp_path / "screen.json"
    path.write_text(json.dumps({"views": {"jackpot": {"revision": 3, "doc": {}}}}))
    assert Replica.load(path).log_id is None


def test_corrupt_saved_state_is_set_aside(tmp_path, caplog):
    path = tmp_path / "screen.json"
    path.write_text('{"views": {"x": ')
    loaded = Replica.load(path)
    assert loaded.views == {}
    assert not path.exists()
    assert [p.name.startswith("screen.json.corrupt-") for p in tmp_path.iterdir()] == [True]
    assert "unreadable" in caplog.text


def test_render_state_file_may_be_a_plain_map(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"jackpot": {"amount": 5}}))
    assert Replica.from_state_file(path).views == {"jackpot": {"amount": 5}}


def test_a_delta_applies_only_onto_its_base_revision():
    replica = Replica()
    replica.apply("leaderboard:slots", 3, {"rows": [{"score": 1}, {"score": 2}], "n": 2})
    delta = {"set": {"n": 3}, "rows": {"rows": {"length": 3, "at": [[2, {"score": 9}]]}}}
    assert not replica.patch("leaderboard:slots", 5, 4, delta)  # a gap: fetch it whole
    assert not replica.patch("other", 5, 3, delta)
    assert replica.revisions["leaderboard:slots"] == 3
    assert replica.patch("leaderboard:slots", 5, 3, delta)
    assert replica.views["leaderboard:slots"] == {
        "rows": [{"score": 1}, {"score": 2}, {"score": 9}], "n": 3}
    assert replica.revisions["leaderboard:slots"] == 5
    assert not replica.patch("leaderboard:slots", 6, 5, {"rows": {"n": {"length": 1, "at": []}}})

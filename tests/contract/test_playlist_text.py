"""A checked playlist written back as YAML checks to the same document: the text /screens
edits when the controller holds only a playlist's document (assigned before it kept texts)."""

from pathlib import Path

import pytest

from showrunner.contract.playlist.text import duration_text, playlist_text
from showrunner.contract.playlist.validate import validate

PLAYLISTS = sorted((Path(__file__).parents[2] / "playlists").glob("*.yaml"))
EVERYTHING = """\
name: late
priority: 7
timezone: Europe/London
windows:
  - {days: [fri, sat], from: "20:00", to: "26:30"}
  - {days: weekdays, from: "10:00", to: "12:00"}
loop: false
transition: slide
scenes:
  - {scene: announcement, duration: 2.5, params: {title: "Tonight", body: "Two\\nlines"}}
  - {scene: attract, duration: 1m30s, transition: cut, params: {images: [a.png], seconds: 4}}
  - {scene: leaderboard, duration: 1h, params: {view: null, rows_per_page: null}}
fallback: {scene: video, params: {media: lobby.mp4, start: clock}}
"""


@pytest.mark.parametrize("path", PLAYLISTS, ids=lambda p: p.name)
def test_every_shipped_playlist_round_trips(path: Path) -> None:
    doc = validate(path.read_text(), path.name)
    assert validate(playlist_text(doc), path.name) == doc


def test_every_field_round_trips() -> None:
    doc = validate(EVERYTHING, "late.yaml")
    text = playlist_text(doc)
    assert validate(text, "late.yaml") == doc
    assert "days: weekdays" in text and "to: '26:30'" in text and "duration: 1m30s" in text


def test_durations_are_written_as_people_write_them() -> None:
    assert [duration_text(ms) for ms in (1000, 2500, 60_000, 90_000, 3_600_000, 3_661_000)] \
        == ["1s", "2.5s", "1m", "1m30s", "1h", "1h1m1s"]

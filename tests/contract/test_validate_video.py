"""Playlists with videos: `showrunner validate` opens each one (container, codec, a decoded
frame, size, rate, length); a missing file and an unplayable codec are errors, a video larger
than the screens a warning, each at the file, line and column of the video's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from showrunner.cli import main
from showrunner.contract.playlist.validate import PlaylistError, check, validate
from showrunner.video.clips import make_clip
from showrunner.video.probe import Unplayable, probe

PLAYLIST = """\
name: lobby
scenes:
  - scene: video
    duration: 30s
    params:
      media: {media}
      fit: contain
  - scene: attract
    duration: 10s
"""


@pytest.fixture(scope="module")
def clips(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("media")
    make_clip(folder / "small.mp4", (320, 180), 30, 45)
    make_clip(folder / "large.mp4", (640, 360), 25, 10)
    data = (folder / "small.mp4").read_bytes()
    (folder / "codec.mp4").write_bytes(data.replace(b"avc1", b"zzzz"))  # an unknown codec
    (folder / "noise.mp4").write_bytes(bytes(range(256)) * 64)
    return folder


def run(tmp_path: Path, clips: Path, media: str, capsys, *extra: str) -> tuple[int, list[str]]:
    path = tmp_path / "lobby.yaml"
    path.write_text(PLAYLIST.format(media=media))
    code = main(["validate", str(path), "--media-dir", str(clips), *extra])
    return code, capsys.readouterr().err.splitlines()


def test_a_playable_video_passes_and_its_facts_are_read(tmp_path, clips, capsys):
    code, err = run(tmp_path, clips, "small.mp4", capsys, "--screen-size", "320x180")
    assert (code, err) == (0, [])
    info = probe(clips / "small.mp4")
    assert (info.width, info.height, info.fps, info.seconds, info.codec) == \
        (320, 180, 30.0, 1.5, "h264")


@pytest.mark.parametrize("media,words", [
    ("gone.mp4", "a screen cannot play it: there is no file"),
    ("codec.mp4", "holds video in a format no decoder on the screens reads"),
    ("noise.mp4", "cannot be decoded (Invalid data found when processing input)"),
])
def test_a_video_a_screen_cannot_play_is_an_error_at_its_name(tmp_path, clips, capsys, media,
                                                               words):
    code, err = run(tmp_path, clips, media, capsys)
    assert code == 1
    assert err[0].startswith(f"{tmp_path / 'lobby.yaml'}:6:14: video {media!r}: ")
    assert words in err[0]
    assert err[-1] == "1 of 1 playlist(s) have errors"


def test_a_video_larger_than_its_screens_is_a_warning_and_passes(tmp_path, clips, capsys):
    code, err = run(tmp_path, clips, "large.mp4", capsys, "--screen-size", "320x180")
    assert code == 0
    assert err[0].startswith(f"{tmp_path / 'lobby.yaml'}:6:14: warning: video 'large.mp4': "
                             "the video is 640x360, larger than the 320x180 screens")
    assert "4.0 times the pixels" in err[0]


def test_a_video_scene_must_name_its_file(tmp_path):
    text = PLAYLIST.replace("      media: {media}\n", "")
    [problem] = check(text, "p.yaml")[1]
    assert str(problem) == "p.yaml:3:12: scene 'video' needs 'media': the video file to play"


def test_sound_is_refused_in_words_until_it_is_supported():
    text = PLAYLIST.format(media="small.mp4").replace("fit: contain", "audio: true")
    with pytest.raises(PlaylistError) as caught:
        validate(text, "p.yaml")
    assert [str(p) for p in caught.value.problems] == [
        "p.yaml:7:14: parameter 'audio' of scene 'video' cannot be true: sound on the floor's "
        "screens is not supported yet (they are muted); leave audio out"]


def test_fit_and_start_take_their_words_only():
    text = PLAYLIST.format(media="small.mp4").replace("fit: contain", "fit: stretch")
    [problem] = check(text, "p.yaml")[1]
    assert str(problem) == ("p.yaml:7:12: parameter 'fit' of scene 'video' must be one of: "
                            "cover, contain, not 'stretch'")


def test_probe_refuses_in_words(clips):
    with pytest.raises(Unplayable, match="there is no file"):
        probe(clips / "nothing.mp4")

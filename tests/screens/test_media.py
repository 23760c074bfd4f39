"""The media catalogue on a pure Show: names added, refused in words, and resolved into the
playlists assigned (issue 27, "Media that travel")."""

from controller.screens.media import MEDIA_VIEW
from showrunner.contract.views import view_model
from tests.screens.test_screens import Floor

PNG = "a" * 64
MP4 = "b" * 64
PNG2 = "c" * 64
ATTRACT = """\
name: lobby
scenes:
  - scene: attract
    duration: 1m
    params: {images: [promo.png, local/poster.jpg]}
fallback: {scene: attract, params: {images: [promo.png]}}
"""


def add(floor: Floor, name: str, sha: str, kind: str = "picture", size: int = 10) -> list:
    return floor.send("media.add", {"name": name,
                                    "upload": {"sha256": sha, "size": size, "kind": kind}})


def test_a_name_means_the_file_last_added_under_it():
    floor = Floor()
    add(floor, "promo.png", PNG)
    assert add(floor, "promo.png", PNG2, size=20)[0].sha256 == PNG2  # its new version
    add(floor, "bar.png", PNG2, size=20)  # the same file, a second name
    listed = floor.screens.view(MEDIA_VIEW)["media"]
    assert [(m["name"], m["sha256"], m["added_by"]) for m in listed] == [
        ("bar.png", PNG2, "tech"), ("promo.png", PNG2, "tech")]
    assert floor.screens.media_files == {PNG: "picture", PNG2: "picture"}
    assert floor.refusal("media.add", {"name": "bar.png", "upload": {
        "sha256": PNG2, "size": 20, "kind": "picture"}}).code == "no_change"


def test_bad_names_and_kinds_are_refused_in_words():
    floor = Floor()
    cases = {
        "intro.mp4": ("wrong_kind", "'intro.mp4' is named as a video but the file is a picture"),
        "notes.txt": ("unknown_kind", "'notes.txt' is neither a picture"),
        "a/b.png": ("bad_media_name", "without folders"),
        ".hidden.png": ("bad_media_name", "a leading dot"),
    }
    for name, (code, words) in cases.items():
        refused = floor.refusal("media.add", {"name": name, "upload": {
            "sha256": PNG, "size": 10, "kind": "picture"}})
        assert refused.code == code and words in refused.message, name
    assert floor.screens.view(MEDIA_VIEW) == {"media": []}


def test_an_assigned_playlist_carries_the_files_its_names_meant_then():
    floor = Floor()
    floor.enrol("lobby-1", group="lobby")
    add(floor, "promo.png", PNG, size=11)
    floor.send("playlists.assign", {"file": "lobby.yaml", "yaml": ATTRACT, "groups": ["lobby"]},
               at=1000)
    add(floor, "promo.png", PNG2, size=22)  # a new version changes no playlist assigned
    entry = floor.view("lobby-1")["playlists"][0]
    # a name the controller does not hold (local/poster.jpg) is left to the screen's disk
    assert entry["media"] == {"promo.png": {"sha256": PNG, "size": 11, "kind": "picture"}}
    floor.send("playlists.assign", {"file": "lobby.yaml", "yaml": ATTRACT, "groups": ["lobby"]},
               at=2000)
    newest = floor.view("lobby-1")["playlists"][0]  # the newest assignment comes first
    assert newest["media"]["promo.png"]["sha256"] == PNG2
    for name in ("screen:lobby-1", MEDIA_VIEW):  # both fit the views' contract
        view_model(name).model_validate(floor.screens.view(name))


def test_a_video_named_as_an_attract_picture_is_refused():
    floor = Floor()
    floor.enrol("lobby-1", group="lobby")
    add(floor, "promo.png", PNG)
    add(floor, "intro.mp4", MP4, kind="video")
    refused = floor.refusal("playlists.assign", {"file": "lobby.yaml", "groups": ["lobby"],
                                                 "yaml": ATTRACT.replace("promo.png",
                                                                         "intro.mp4")})
    assert refused.code == "wrong_kind"
    assert "'intro.mp4' is a video, and `images` takes pictures" in refused.message
    assert floor.view("lobby-1")["playlists"] == []

"""A playlist waits for its media (showrunner.engine.media_gate): held back while a file is
missing, the version it replaces going on, then starting at the next scene boundary."""

from pathlib import Path

from showrunner.contract.playlist.schedule import screen_slot
from showrunner.contract.playlist.validate import validate
from showrunner.engine.media_gate import MediaGate

SHA = "a" * 64
V1 = ("name: stage\nscenes:\n  - {scene: leaderboard, duration: 10s}\n"
      "  - {scene: prize_table, duration: 10s}\n")
V2 = "name: stage\nscenes:\n  - {scene: attract, duration: 30s, params: {images: [promo.png]}}\n"


class Here:
    """The files a cache holds, as the gate asks about them."""

    def __init__(self) -> None:
        self.held: set[str] = set()
        self.uses: list[str] = []

    def has(self, sha256: str) -> bool:
        return sha256 in self.held

    def path(self, sha256: str) -> Path:
        return Path("/cache") / sha256

    def used(self, sha256: str) -> None:
        self.uses.append(sha256)


def view(v2_anchor: int = 20_000) -> dict:
    """v1 from 0, replaced by v2 (naming promo.png) at `v2_anchor`, as the controller sends."""
    v1 = {**validate(V1, "stage.yaml"), "file": "stage.yaml", "sha256": "1", "anchor_ms": 0,
          "until_ms": v2_anchor, "media": {}}
    v2 = {**validate(V2, "stage.yaml"), "file": "stage.yaml", "sha256": "2",
          "anchor_ms": v2_anchor, "until_ms": None,
          "media": {"promo.png": {"sha256": SHA, "size": 5, "kind": "picture"}}}
    return {"status": "authorised", "playlists": [v2, v1], "takeover": None}


def shown(gate: MediaGate, doc: dict, t: int) -> tuple[str, int, int]:
    slot = screen_slot(gate.view(doc, t), t)
    return slot.scene, slot.start_ms, slot.end_ms


def test_the_old_version_goes_on_while_the_new_one_waits_for_its_media():
    files = Here()
    gate, doc = MediaGate(files), view()
    assert shown(gate, doc, 25_000) == ("leaderboard", 20_000, 30_000)  # v1 past v2's start
    assert shown(gate, doc, 95_000) == ("prize_table", 90_000, 100_000)
    assert files.uses == []


def test_media_that_arrive_start_the_new_version_at_the_next_boundary():
    files = Here()
    gate, doc = MediaGate(files), view()
    assert shown(gate, doc, 95_000)[0] == "prize_table"
    files.held.add(SHA)  # arrived mid-scene: that scene plays to its end
    assert shown(gate, doc, 96_000) == ("prize_table", 90_000, 100_000)
    scene, start, _ = shown(gate, doc, 100_000)
    # then v2, on its own timeline (what its group shows): its 30 s item began at 80 000
    assert (scene, start) == ("attract", 80_000)
    assert files.uses == [SHA]


def test_media_here_from_the_first_look_play_as_the_schedule_says():
    files = Here()
    files.held.add(SHA)
    gate = MediaGate(files)
    assert shown(gate, view(), 25_000)[0] == "attract"


def test_the_scene_opens_the_checked_file_not_the_name():
    files = Here()
    files.held.add(SHA)
    slot = screen_slot(MediaGate(files).view(view(), 25_000), 25_000)
    assert slot.params["images"] == [f"/cache/{SHA}"]


def test_a_program_without_resolved_media_passes_as_it_is():
    doc = view()
    for entry in doc["playlists"]:
        entry["media"] = {}
    assert MediaGate(Here()).view(doc, 25_000) is doc

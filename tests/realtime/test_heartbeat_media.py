"""A heartbeat's `media` (what a screen waits for) reaches the screens report only in its
shape: names a page can show, whole byte counts; anything else is dropped, never shown."""

from controller.realtime.telemetry import heartbeat_fields

WAITING = {"missing": ["intro.mp4", "promo.png"], "done_bytes": 1200, "total_bytes": 5000}


def test_a_screen_waiting_for_media_is_reported_as_it_said():
    assert heartbeat_fields({"scene": "attract", "media": WAITING}) == {
        "scene": "attract", "media": WAITING}
    assert heartbeat_fields({"scene": "attract"}) == {"scene": "attract"}  # all there


def test_a_media_field_of_another_shape_is_dropped():
    for bad in ({"missing": "intro.mp4", "done_bytes": 0, "total_bytes": 1},
                {"missing": ["intro.mp4"], "done_bytes": -1, "total_bytes": 1},
                {"missing": ["intro.mp4"], "done_bytes": True, "total_bytes": 1},
                {"missing": ["\x1b[2J"], "done_bytes": 0, "total_bytes": 1},
                {"missing": [], "done_bytes": 0, "total_bytes": 1}, "intro.mp4", None):
        assert "media" not in heartbeat_fields({"media": bad}), bad

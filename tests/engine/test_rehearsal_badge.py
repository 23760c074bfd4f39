"""A rehearsal log's views carry the `rehearsal` view: every scene shows a small corner mark."""

from __future__ import annotations

import pygame
import pytest
from PIL import Image, ImageChops

from showrunner.engine.render import render_scene
from showrunner.engine.text import TextRecorder
from showrunner.scenes.samples import BASE_MS, CASES

MARK = {"rehearsal": True, "started_at": BASE_MS, "started_local": "2024-01-18 17:55",
        "timezone": "Africa/Johannesburg", "promotion": "wildcard", "speed": 1}
SIZE = (1920, 1080)
CORNER = (0, 900, 320, 1080)  # the badge's corner: bottom-left, above the venue badge


def shot(case, extra: dict) -> tuple[Image.Image, list[str]]:
    recorder = TextRecorder()
    surface = render_scene(case.scene, {**case.views, **extra}, case.at, SIZE, case.params,
                           BASE_MS, recorder=recorder)
    return Image.frombytes("RGB", SIZE, pygame.image.tobytes(surface, "RGB")), recorder.lines()


@pytest.mark.parametrize("case", [c for c in CASES if c.name in ("page1", "amber", "body")],
                         ids=lambda c: f"{c.scene}__{c.name}")
def test_the_badge_marks_a_rehearsal_in_a_corner_and_nowhere_else(case):
    plain, plain_text = shot(case, {})
    marked, marked_text = shot(case, {"rehearsal": MARK})
    assert "REHEARSAL" in marked_text and "REHEARSAL" not in plain_text
    changed = ImageChops.difference(plain, marked).getbbox()
    assert changed is not None, "no badge drawn"
    left, top, right, bottom = changed
    assert left >= CORNER[0] and top >= CORNER[1] and right <= CORNER[2] and bottom <= CORNER[3]

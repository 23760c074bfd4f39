"""Golden images: every scene case in showrunner.scenes.samples, compared with a tolerance.

A failure writes expected | actual | diff side by side to tests/golden/_failures/. Goldens are
(re)written only with SHOWRUNNER_UPDATE_GOLDENS=1, and each one is looked at before commit.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest
from PIL import Image, ImageChops

from showrunner.engine.render import render_scene
from showrunner.scenes import REGISTRY
from showrunner.scenes.samples import BASE_MS, CASES, Case

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FAILURES = GOLDEN / "_failures"
CHANNEL_TOLERANCE = 24  # antialiasing differences between FreeType builds
MAX_BAD_FRACTION = 0.002  # of pixels beyond the channel tolerance


def frame(case: Case) -> Image.Image:
    size = (1080, 1920) if case.portrait else (1920, 1080)
    surface = render_scene(case.scene, case.views, case.at, size, case.params, BASE_MS)
    return Image.frombytes("RGB", size, pygame.image.tobytes(surface, "RGB"))


def compare(expected: Image.Image, actual: Image.Image) -> tuple[float, Image.Image]:
    diff = ImageChops.difference(expected, actual)
    bad = diff.convert("L").point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    fraction = bad.histogram()[255] / (expected.width * expected.height)
    return fraction, bad


def test_every_scene_has_a_golden_case():
    assert {c.scene for c in CASES} == set(REGISTRY)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.scene}__{c.name}")
def test_golden(case: Case):
    path = GOLDEN / f"{case.scene}__{case.name}.png"
    actual = frame(case)
    if os.environ.get("SHOWRUNNER_UPDATE_GOLDENS") == "1":
        GOLDEN.mkdir(exist_ok=True)
        actual.save(path)
        return
    assert path.exists(), f"no golden {path.name}; run with SHOWRUNNER_UPDATE_GOLDENS=1"
    expected = Image.open(path).convert("RGB")
    assert expected.size == actual.size
    fraction, bad = compare(expected, actual)
    if fraction > MAX_BAD_FRACTION:
        FAILURES.mkdir(parents=True, exist_ok=True)
        w, h = expected.size
        sheet = Image.new("RGB", (w * 3, h))
        sheet.paste(expected, (0, 0))
        sheet.paste(actual, (w, 0))
        sheet.paste(bad.convert("RGB"), (w * 2, 0))
        out = FAILURES / path.name
        sheet.save(out)
        pytest.fail(f"{fraction:.2%} of pixels differ; expected | actual | diff in {out}")


def test_compare_catches_a_changed_frame():
    case = CASES[0]
    image = frame(case)
    changed = image.copy()
    changed.paste((255, 0, 0), (0, 0, 400, 400))
    assert compare(image, image)[0] == 0
    assert compare(image, changed)[0] > MAX_BAD_FRACTION

"""Golden images: every scene case in showrunner.scenes.samples, compared with a tolerance,
and beside each its text snapshot: the exact strings the scene drew, compared exactly.

The pixel tolerance lets antialiasing differ between FreeType builds, and so also a one-digit
change in an amount; the text snapshot (`<scene>__<case>.txt`, one string per line in the order
the scene first drew them) catches that. A failure writes expected | actual | diff side by side
to tests/golden/_failures/. Goldens and snapshots are (re)written only with
SHOWRUNNER_UPDATE_GOLDENS=1, and each one is looked at before commit.
"""

from __future__ import annotations

import copy
import dataclasses
import os
from pathlib import Path

import pygame
import pytest
from PIL import Image, ImageChops

from showrunner.engine.render import render_scene
from showrunner.engine.text import TextRecorder
from showrunner.scenes import REGISTRY
from showrunner.scenes.samples import BASE_MS, CASES, Case

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FAILURES = GOLDEN / "_failures"
CHANNEL_TOLERANCE = 24  # antialiasing differences between FreeType builds
MAX_BAD_FRACTION = 0.002  # of pixels beyond the channel tolerance


def frame(case: Case) -> Image.Image:
    return shot(case)[0]


def shot(case: Case) -> tuple[Image.Image, str]:
    """The case's frame and its text snapshot (the strings drawn, one a line)."""
    size = case.frame_size
    recorder = TextRecorder()
    surface = render_scene(case.scene, case.views, case.at, size, case.params, BASE_MS,
                           recorder=recorder)
    image = Image.frombytes("RGB", size, pygame.image.tobytes(surface, "RGB"))
    return image, "".join(f"{line}\n" for line in recorder.lines())


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
    snapshot = path.with_suffix(".txt")
    actual, strings = shot(case)
    if os.environ.get("SHOWRUNNER_UPDATE_GOLDENS") == "1":
        GOLDEN.mkdir(exist_ok=True)
        actual.save(path)
        snapshot.write_text(strings, encoding="utf-8")
        return
    assert path.exists(), f"no golden {path.name}; run with SHOWRUNNER_UPDATE_GOLDENS=1"
    assert snapshot.exists(), f"no snapshot {snapshot.name}; run with SHOWRUNNER_UPDATE_GOLDENS=1"
    assert strings == snapshot.read_text(encoding="utf-8"), (
        f"the scene drew other text than {snapshot.name} holds")
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


def test_text_snapshot_catches_one_digit_the_pixels_miss():
    """R1 more for one prize differs by under the pixel tolerance; the text snapshot fails."""
    case = next(c for c in CASES if (c.scene, c.name) == ("prize_table", "spin_off"))
    views = copy.deepcopy(case.views)
    view = case.params.get("view", "prizes:slots")
    views[view]["places"][0]["amount"] += 100  # R75 000 -> R75 001
    changed = dataclasses.replace(case, views=views)
    image, strings = shot(case)
    changed_image, changed_strings = shot(changed)
    assert compare(image, changed_image)[0] <= MAX_BAD_FRACTION  # the pixels pass...
    assert changed_strings != strings  # ...the text does not
    assert "R75\u00a0001" in changed_strings.splitlines()


def test_text_snapshot_catches_one_digit_of_a_masked_card():
    case = next(c for c in CASES if (c.scene, c.name) == ("wildcard_draw", "claimed"))
    views = copy.deepcopy(case.views)
    views["draw:wildcard"]["winner"]["masked_card"] = "\u2022\u2022\u2022\u2022 4827"
    changed = dataclasses.replace(case, views=views)
    image, strings = shot(case)
    changed_image, changed_strings = shot(changed)
    assert compare(image, changed_image)[0] <= MAX_BAD_FRACTION
    assert changed_strings != strings

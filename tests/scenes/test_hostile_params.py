"""Scenes clamp the parameters they draw: a value out of bounds (an old log, a replica on disk)
is drawn safely, never a crash or a blank frame."""

from __future__ import annotations

import math

import pygame
import pytest
from PIL import Image

from showrunner.contract.params import drawable
from showrunner.contract.scenes import CATALOGUE
from showrunner.engine import logonce
from showrunner.engine.render import render_scene
from showrunner.scenes import REGISTRY
from showrunner.scenes.samples import BASE_MS, CASES

SIZE = (480, 270)
HOSTILE = {
    "nan": math.nan, "inf": math.inf, "minus_inf": -math.inf, "huge": 1e308,
    "huge_int": 10**400, "zero": 0, "negative": -7, "wrong_type": {"a": 1},
    "control_chars": "A\x00B\x07\u202e\n", "long_text": "W" * 100_000,
    "list": ["x\x00"] * 1000, "none": None, "true": True,
}


def _case(scene: str):
    return next(c for c in CASES if c.scene == scene and not c.portrait)


def _is_blank(frame: pygame.Surface) -> bool:
    """One flat colour, or black: what a screen must never show."""
    image = Image.frombytes("RGB", frame.get_size(), pygame.image.tobytes(frame, "RGB"))
    return image.getcolors(maxcolors=1) is not None or max(
        high for _, high in image.getextrema()) < 8


def test_the_registry_draws_exactly_the_catalogue():
    assert sorted(REGISTRY) == sorted(CATALOGUE)


@pytest.mark.parametrize("scene", sorted(CATALOGUE))
@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_scene_given_hostile_params_draws_a_frame(scene, kind):
    logonce.forget()
    case = _case(scene)
    params = {name: HOSTILE[kind] for name in CATALOGUE[scene].model_fields}
    frame = render_scene(scene, case.views, case.at, SIZE, params, BASE_MS)
    assert frame.get_size() == SIZE
    assert not _is_blank(frame)


@pytest.mark.parametrize("scene", sorted(CATALOGUE))
def test_every_parameter_is_clamped_to_something_its_model_accepts(scene):
    model = CATALOGUE[scene]
    for value in HOSTILE.values():
        given = {name: value for name in model.model_fields}
        params, _ = drawable(scene, given)
        assert model.model_validate(params).model_dump() == params


def test_out_of_range_numbers_are_clamped_to_the_nearest_bound():
    params, notes = drawable("leaderboard", {"rows_per_page": 0, "page_seconds": 1e308,
                                             "max_rows": -3})
    assert (params["rows_per_page"], params["page_seconds"], params["max_rows"]) == (1, 3600, 1)
    assert len(notes) == 3
    assert drawable("attract", {"seconds": math.nan})[0]["seconds"] == 8.0  # NaN: the default
    assert drawable("announcement", {"title": "Draw\x00 at 9"})[0]["title"] == "Draw at 9"

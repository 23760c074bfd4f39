"""Full-screen pictures load in the background, in the display's own pixel format."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pygame
import pytest
from PIL import Image

from showrunner.engine import logonce
from showrunner.engine.assets import PLACEHOLDER_BG, AssetManager, placeholder_image
from showrunner.engine.pictures import KEEP, Pictures
from showrunner.engine.render import init_headless

SIZE = (96, 54)


@pytest.fixture
def assets() -> AssetManager:
    init_headless((160, 90))
    return AssetManager()


def solid(path, colour: tuple[int, int, int]) -> str:
    image = pygame.Surface((40, 30))
    image.fill(colour)
    pygame.image.save(image, path)
    return str(path)


def test_asking_for_a_picture_never_waits_for_it_to_load(tmp_path):
    init_headless((160, 90))
    loading = threading.Event()

    def slow_placeholder(size: tuple[int, int]) -> Image.Image:
        loading.wait(10)
        return placeholder_image(size)

    pictures = Pictures(Path, slow_placeholder)
    assert pictures.get(tmp_path / "missing.png", SIZE) is None  # the worker is still at it
    loading.set()
    pictures.wait()
    assert pictures.get(tmp_path / "missing.png", SIZE).get_size() == SIZE


def test_a_picture_is_loaded_with_its_colours_intact(assets, tmp_path):
    name = solid(tmp_path / "orange.png", (230, 120, 20))
    assets.pictures.get(name, SIZE)
    assets.pictures.wait()
    picture = assets.pictures.get(name, SIZE)
    assert picture is not None and picture.get_size() == SIZE
    display = pygame.display.get_surface()
    assert picture.get_masks()[:3] == display.get_masks()[:3]
    # scaled into a display surface (as the attract loop does), red stays red and blue blue
    target = pygame.Surface((48, 27), 0, display)
    pygame.transform.scale(picture, (48, 27), target)
    assert tuple(target.get_at((10, 10)))[:3] == (230, 120, 20)


def test_an_unusable_image_is_a_placeholder_with_one_warning(assets, tmp_path, caplog):
    logonce.forget()
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg")
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            assets.pictures.get(tmp_path / "broken.jpg", SIZE)
            assets.pictures.wait()
    picture = assets.pictures.get(tmp_path / "broken.jpg", SIZE)
    assert tuple(picture.get_at((0, SIZE[1] - 1)))[:3] == PLACEHOLDER_BG
    assert [r.getMessage() for r in caplog.records if "broken.jpg" in r.getMessage()] == [
        f"image {tmp_path / 'broken.jpg'} unusable (cannot identify image file "
        f"'{tmp_path / 'broken.jpg'}'); showing a placeholder"]


def test_only_the_pictures_asked_for_lately_are_kept(tmp_path):
    init_headless((160, 90))
    names = [solid(tmp_path / f"{i}.png", (i * 20, 0, 0)) for i in range(KEEP + 2)]
    gate = threading.Event()

    def gated_placeholder(size: tuple[int, int]) -> Image.Image:
        gate.wait(10)
        return placeholder_image(size)

    pictures = Pictures(Path, gated_placeholder)
    for name in names:
        pictures.get(name, SIZE)
        pictures.wait()
    assert all(pictures.get(name, SIZE) is not None for name in names[-KEEP:])
    pictures.get(tmp_path / "missing.png", SIZE)  # keeps the worker busy at the gate
    assert pictures.get(names[0], SIZE) is None  # let go long ago: queued to load again
    gate.set()
    pictures.wait()


def malformed_files(tmp_path) -> list[Path]:
    image = Image.effect_mandelbrot((120, 90), (-2, -1, 1, 1), 50).convert("RGB")
    image.save(tmp_path / "good.jpg")
    image.save(tmp_path / "good.png")
    jpeg, png = (tmp_path / "good.jpg").read_bytes(), (tmp_path / "good.png").read_bytes()
    broken = {"truncated.jpg": jpeg[: len(jpeg) // 2],
              "truncated.png": png[: len(png) // 2],
              "short-header.png": png[:16] + b"\x00\x00\x00\x05IHDR\x00\x00\x00\x00\x00",
              "empty.png": b""}
    for name, data in broken.items():
        (tmp_path / name).write_bytes(data)
    return [tmp_path / name for name in broken]


def test_a_malformed_image_is_a_placeholder_in_both_loaders(assets, tmp_path):
    for path in malformed_files(tmp_path):
        assets.pictures.get(path, SIZE)
        assets.pictures.wait()
        picture = assets.pictures.get(path, SIZE)
        image = assets.image(path, SIZE)
        for surface in (picture, image):
            assert surface.get_size() == SIZE
            assert tuple(surface.get_at((0, SIZE[1] - 1)))[:3] == PLACEHOLDER_BG, path.name

"""The attract loop moves from one image to the next without a black frame."""

import pygame

from showrunner.engine.render import render_scene
from showrunner.scenes.attract import DIP_FLOOR, FADE

SIZE = (320, 180)


def brightness(frame: pygame.Surface) -> float:
    r, g, b, _ = pygame.transform.average_color(frame)
    return (r + g + b) / 3


def test_the_change_of_image_dips_but_never_goes_black(tmp_path):
    for i, colour in enumerate([(220, 180, 60), (60, 160, 220)]):
        image = pygame.Surface((64, 36))
        image.fill(colour)
        pygame.image.save(image, tmp_path / f"{i}.png")
    params = {"images": f"{tmp_path / '0.png'},{tmp_path / '1.png'}", "seconds": 4.0}
    steady = brightness(render_scene("attract", {}, 2.0, SIZE, params))
    times = [4.0 + k * FADE / 10 for k in range(11)]
    levels = [brightness(render_scene("attract", {}, t, SIZE, params)) for t in times]
    assert min(levels) >= steady * DIP_FLOOR * 0.8  # dims, never black
    assert min(levels) < steady * 0.6  # and it does dip between the images

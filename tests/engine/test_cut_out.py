"""A picture whose pixels are each see-through or opaque, cut out with a colour key
(showrunner.engine.draw.cut_out), blits the same pixels onto any backdrop as the picture with
its alpha does; one with a blended edge is left as it is."""

from __future__ import annotations

import pygame
import pytest

from showrunner.engine.draw import KEYS, cut_out, panel
from showrunner.engine.render import init_headless


@pytest.fixture(autouse=True)
def display() -> None:
    init_headless((64, 64))
    pygame.font.init()


def shown(picture: pygame.Surface, backdrop: tuple[int, int, int]) -> bytes:
    under = pygame.Surface(picture.get_size())
    under.fill(backdrop)
    under.blit(picture, (0, 0))
    return pygame.image.tobytes(under, "RGB")


def card(colour: tuple[int, int, int]) -> pygame.Surface:
    """A reel card: a rounded panel with text drawn on it."""
    picture = pygame.Surface((220, 70), pygame.SRCALPHA)
    panel(picture, picture.get_rect(), colour, 16)
    picture.blit(pygame.font.Font(None, 40).render("Thandi M.", True, (240, 240, 250)), (18, 20))
    return picture


@pytest.mark.parametrize("colour", [(30, 40, 90), KEYS[0], KEYS[1]])
def test_a_cut_out_shows_what_the_picture_shows_on_any_backdrop(colour):
    picture = card(colour)  # (a panel of a key's own colour takes the next key)
    out = cut_out(picture)
    assert out is not picture and out.get_colorkey() is not None
    assert out.get_colorkey()[:3] != colour and not out.get_masks()[3]
    for backdrop in ((0, 0, 0), (200, 30, 120), (255, 0, 255)):
        assert shown(out, backdrop) == shown(picture, backdrop)


def test_a_picture_with_a_blended_edge_keeps_its_alpha():
    picture = card((30, 40, 90))
    picture.fill((10, 20, 30, 128), (0, 0, 4, 4))  # half see-through
    assert cut_out(picture) is picture


def test_a_picture_using_every_key_colour_keeps_its_alpha():
    picture = pygame.Surface((len(KEYS) + 1, 1), pygame.SRCALPHA)
    for x, key in enumerate(KEYS):
        picture.set_at((x, 0), (*key, 255))
    assert cut_out(picture) is picture

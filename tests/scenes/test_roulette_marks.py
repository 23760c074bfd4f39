"""The wheel's marks on the roulette countdown: its "no more bets" stops the countdown, and
between spins the number landed is shown on its pocket's colour."""

from __future__ import annotations

import pygame

from showrunner.engine import render
from showrunner.engine.text import TextRecorder
from showrunner.scenes.samples import BASE_MS, betting_heat

SIZE = (960, 540)


def shown(doc: dict, at: float) -> tuple[list[str], pygame.Surface, int | None]:
    """The strings drawn `at` seconds in, the frame, and when the picture next changes."""
    lines, frame, next_change, _ = shown_with_disc(doc, at)
    return lines, frame, next_change


def shown_with_disc(doc: dict, at: float
                    ) -> tuple[list[str], pygame.Surface, int | None, tuple[int, int]]:
    """As `shown`, with a point on the number's disc beside the digits (screen pixels)."""
    recorder = TextRecorder()
    host, clock = render.entered("roulette_countdown", {"spins:roulette": doc}, SIZE, None, at,
                                 BASE_MS, recorder=recorder)
    frame = pygame.Surface(SIZE).convert()
    host.draw(frame)
    scene = host.current
    assert scene is not None
    (cx, cy), radius = scene._ring()  # the disc sits where the ring does
    beside = host.ctx.layout.point(cx - radius * 0.6, cy - radius * 0.12)
    return recorder.lines(), frame, host.next_change_ms(clock.now_ms()), beside


def test_no_more_bets_from_the_wheel_stops_the_countdown_with_time_left():
    # roulette rule 7: at most 120 seconds a spin to place bets; the wheel's "no more bets"
    # ends them early, and the screens stop counting at once
    lines, _, next_change = shown(betting_heat(bets_closed=True), 25.0)
    assert "NO MORE BETS" in lines
    assert "1:35" not in lines  # 95 s were left: no digits
    assert next_change is None  # stopped: nothing more to count
    open_lines, _, open_next = shown(betting_heat(), 25.0)
    assert "1:35" in open_lines and "NO MORE BETS" not in open_lines
    assert open_next is not None


def test_between_spins_the_last_number_is_shown_on_its_pockets_colour():
    # roulette rule 7: three spins a heat, each with its betting time; between them the screen
    # shows the number the last one landed on (0 on green)
    lines, frame, _, disc = shown_with_disc(betting_heat(number=0, colour="green"), 2.0)
    assert "0" in lines and "Place your bets" not in lines
    assert frame.get_at(disc)[:3] == (0x3D, 0xDC, 0x84)  # the theme's "ok": the pockets' green
    red_lines, red_frame, _, disc = shown_with_disc(betting_heat(number=32, colour="red"), 2.0)
    assert "32" in red_lines
    assert red_frame.get_at(disc)[:3] == (0xFF, 0x3B, 0x3B)  # the theme's red

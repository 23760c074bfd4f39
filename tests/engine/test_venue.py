"""The venue's look: the shipped attract pictures by default, and the logo-and-time badge."""

from __future__ import annotations

import datetime as dt
import time
from zoneinfo import ZoneInfo

import pygame

from showrunner.engine.display import Display, DisplayOptions
from showrunner.engine.render import entered, init_headless, render_scene
from showrunner.engine.venue import VENUE_ENV, attract_pictures, venue_file
from showrunner.engine.venue_badge import Badge, venue_time
from showrunner.scenes.common import backdrop_layer

SIZE = (640, 360)


def test_the_shipped_venue_has_a_logo_theme_and_attract_pictures():
    assert venue_file("logo.png") and venue_file("theme.yaml") and venue_file("LICENSE.md")
    assert len(attract_pictures()) >= 3


def test_the_attract_loop_shows_the_venue_pictures_when_given_none():
    host, _ = entered("attract", {}, SIZE, {}, 3.0)
    assert host.current.names == attract_pictures()
    frame = render_scene("attract", {}, 3.0, SIZE, {})
    plain = backdrop_layer(host.ctx)
    assert pygame.image.tobytes(frame, "RGB") != pygame.image.tobytes(plain, "RGB")


def test_with_no_venue_pictures_the_loop_is_the_backdrop(tmp_path, monkeypatch):
    monkeypatch.setenv(VENUE_ENV, str(tmp_path))
    host, _ = entered("attract", {}, SIZE, {}, 3.0)
    assert host.current.names == []


def badge_corner(logo) -> tuple[pygame.Surface, pygame.Surface]:
    init_headless(SIZE)
    host, _ = entered("announcement", {}, SIZE, {"title": "x"})
    screen = pygame.Surface(SIZE).convert()
    host.draw(screen)
    before = screen.copy()
    Badge(logo).draw(host.ctx, screen, now_s=time.mktime((2026, 1, 18, 18, 5, 0, 0, 0, -1)))
    return before, screen


def test_the_badge_draws_the_logo_and_the_time_in_the_bottom_left_corner():
    before, after = badge_corner(venue_file("logo.png"))
    corner = pygame.Rect(0, SIZE[1] - 60, 220, 60)
    assert (pygame.image.tobytes(before.subsurface(corner), "RGB")
            != pygame.image.tobytes(after.subsurface(corner), "RGB"))
    far = pygame.Rect(SIZE[0] - 200, 0, 200, 100)  # the rest of the scene is untouched
    assert (pygame.image.tobytes(before.subsurface(far), "RGB")
            == pygame.image.tobytes(after.subsurface(far), "RGB"))
    _, time_only = badge_corner(None)  # no logo: the time alone, a narrower badge
    assert (pygame.image.tobytes(time_only.subsurface(corner), "RGB")
            != pygame.image.tobytes(after.subsurface(corner), "RGB"))


def test_the_badge_shows_the_venues_time_not_the_pcs(monkeypatch):
    monkeypatch.setenv("TZ", "America/New_York")  # the PC's zone, 7 hours behind the venue's
    time.tzset()
    try:
        venue = dt.datetime(2026, 1, 18, 18, 5, tzinfo=ZoneInfo("Africa/Johannesburg"))
        instant = venue.timestamp()
        assert venue_time(instant, "Africa/Johannesburg") == "18:05"
        assert venue_time(instant, None) == "11:05"  # no venue zone told: the PC's
        assert venue_time(instant, "Not/AZone") == "11:05"
        init_headless(SIZE)
        host, _ = entered("announcement", {}, SIZE, {"title": "x"})
        in_zone, local = pygame.Surface(SIZE).convert(), pygame.Surface(SIZE).convert()
        Badge(None).draw(host.ctx, in_zone, instant, "Africa/Johannesburg")
        pc_at_18_05 = dt.datetime(2026, 1, 18, 18, 5, tzinfo=ZoneInfo("America/New_York"))
        Badge(None).draw(host.ctx, local, pc_at_18_05.timestamp())
        assert pygame.image.tobytes(in_zone, "RGB") == pygame.image.tobytes(local, "RGB")
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_the_offline_mark_says_the_venues_time_too(monkeypatch, tmp_path):
    monkeypatch.setenv("TZ", "America/New_York")  # the PC's zone, 7 hours behind the venue's
    time.tzset()
    try:
        init_headless(SIZE)
        host, _ = entered("announcement", {}, SIZE, {"title": "x"})
        lost = dt.datetime(2026, 1, 18, 18, 5, tzinfo=ZoneInfo("Africa/Johannesburg"))
        pc_at_18_05 = dt.datetime(2026, 1, 18, 18, 5, tzinfo=ZoneInfo("America/New_York"))

        def mark(since: dt.datetime, venue: dict) -> bytes:
            display = Display(DisplayOptions(controller="http://127.0.0.1:9", screen="s1",
                                             size=SIZE, state_dir=tmp_path))
            display.replica.views.update(venue)
            display.offline_since = int(since.timestamp() * 1000)
            display.started_ms = display.offline_since - 60_000  # past the mark's grace
            surface = pygame.Surface(SIZE).convert()
            display.draw_offline_mark(host.ctx, surface)
            return pygame.image.tobytes(surface, "RGB")

        in_zone = mark(lost, {"venue": {"timezone": "Africa/Johannesburg"}})
        assert in_zone == mark(pc_at_18_05, {})  # "offline since 18:05" either way
        assert in_zone != mark(lost, {})  # the PC's zone would say 11:05
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()

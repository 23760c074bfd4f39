"""The start-up check (showrunner.engine.framepaths): numkong's way is taken for a whole-frame
operation only where it measured faster than pygame's by the margin; with numkong left its
serial kernels (as on a CPU without AVX2) every operation takes pygame's; the frame code takes
the way chosen, and draws the same picture either way; a display makes the check as it starts,
logs it and says it in its heartbeat."""

from __future__ import annotations

import logging

import numkong
import pygame
import pytest

from controller.realtime.telemetry import heartbeat_fields
from showrunner.engine import framepaths, wholeframe
from showrunner.engine.display import Display, DisplayOptions
from showrunner.engine.framepaths import MARGIN, Timing, choose, decide, measure
from showrunner.engine.render import entered, init_headless
from showrunner.engine.wholeframe import OPERATIONS, ways
from showrunner.scenes.samples import CASES
from tests.support.heartbeat import heartbeat_of

SIZE = (320, 180)


@pytest.fixture(autouse=True)
def ways_given_back():
    """Each test's choice undone after it: the process's other tests take pygame's way."""
    before = ways()
    yield
    wholeframe.use(before)


@pytest.fixture
def serial_kernels():
    """numkong left its serial kernels (framepaths.serial_kernels), its others given back
    after the test."""
    enabled = framepaths.kernels()
    framepaths.serial_kernels()
    yield
    for name in enabled:
        if name != "serial":
            numkong.enable_capability(name)
    assert framepaths.kernels() == enabled


def timings(way: str) -> dict[str, Timing]:
    """A check's figures (injected: no timing here) in which `way` won every operation."""
    numkong_ms, pygame_ms = (1.0, 3.0) if way == "numkong" else (30.0, 3.0)
    return {operation: Timing(numkong_ms, pygame_ms, decide(numkong_ms, pygame_ms))
            for operation in OPERATIONS}


def test_numkong_is_taken_only_where_it_wins_by_the_margin():
    assert decide(1.0, 3.0) == "numkong"
    assert decide(1.0, MARGIN * 1.01) == "numkong"
    assert decide(1.0, MARGIN * 0.99) == "pygame"  # faster, but within the margin
    assert decide(1.0, 1.0) == "pygame"
    assert decide(87.0, 4.9) == "pygame"  # a 4K copy on a CPU without AVX2


@pytest.mark.parametrize("way", ["numkong", "pygame"])
def test_the_check_takes_the_way_it_measured_and_logs_its_figures(way, caplog):
    screen = init_headless(SIZE)
    with caplog.at_level(logging.INFO, "showrunner.engine.framepaths"):
        chosen = choose(screen, timings(way))
    assert ways() == dict.fromkeys(OPERATIONS, way)
    assert {operation: t.way for operation, t in chosen.items()} == ways()
    (line,) = [r.getMessage() for r in caplog.records]
    cpu = framepaths.host()
    assert line.startswith(f"whole frames at 320x180 on {cpu['cpu']} ")
    for operation in OPERATIONS:
        assert f"{operation} {way} (numkong " in line
    assert "pygame 3.00 ms a frame" in line


def test_with_numkongs_serial_kernels_the_check_chooses_pygame_for_every_operation(
        serial_kernels):
    # the stand-in for a CPU without AVX2: its kernels 50 to 100 times slower than pygame's
    measured = measure(init_headless((1920, 1080)))
    assert set(measured) == set(OPERATIONS)
    assert {operation: t.way for operation, t in measured.items()} == \
        dict.fromkeys(OPERATIONS, "pygame"), measured


def test_a_screen_not_laid_out_for_numkong_takes_pygames_way_without_measuring(caplog):
    init_headless(SIZE)
    wholeframe.use(dict.fromkeys(OPERATIONS, "pygame"))
    with caplog.at_level(logging.INFO, "showrunner.engine.framepaths"):
        assert choose(pygame.Surface(SIZE, 0, 24)) == {}
    assert ways() == dict.fromkeys(OPERATIONS, "pygame")
    assert "pygame's way for all: the screen (24 bits a pixel)" in caplog.records[0].getMessage()


@pytest.mark.parametrize("kind", ["crossfade", "slide"])
def test_the_frame_code_takes_the_way_chosen_and_draws_the_same_picture(kind, monkeypatch):
    # a leaderboard's frames (its layer copied), then a transition to a jackpot ticker and
    # back (the still frame kept, blended or slid): numkong's kernels are called on its way
    # only, and both ways give the same picture
    calls: list[str] = []
    for name in ("scale", "blend"):
        real = getattr(numkong, name)
        monkeypatch.setattr(numkong, name, lambda *args, _real=real, _name=name, **kwargs:
                            calls.append(_name) or _real(*args, **kwargs))
    busy = {case.scene: case for case in CASES if case.busy}
    frames = {}
    for way in ("pygame", "numkong"):
        calls.clear()
        choose(init_headless(SIZE), timings(way))
        frames[way] = transition_frames(busy, kind)
        if way == "pygame":
            assert calls == []
        else:  # the layer's copy and the still frame kept; a crossfade's blend
            assert "scale" in calls and ("blend" in calls) == (kind == "crossfade")
    assert len(frames["pygame"]) == len(frames["numkong"]) > 10
    assert [differs(a, b) for a, b in zip(*frames.values(), strict=True)] == \
        [0] * len(frames["pygame"])


def transition_frames(busy: dict, kind: str) -> list[bytes]:
    """Every frame (RGB) of a leaderboard drawing, then going by `kind` to a jackpot ticker."""
    views = {**busy["leaderboard"].views, **busy["jackpot_ticker"].views}
    host, clock = entered("leaderboard", views, SIZE, busy["leaderboard"].params, 1.0)
    screen = init_headless(SIZE)
    shots = []
    for step in range(24):
        if step == 4:
            host.switch("jackpot_ticker", busy["jackpot_ticker"].params, transition=kind,
                        duration=0.25)
        clock.seconds += 1 / 60
        host.update(1 / 60)
        host.draw(screen)
        shots.append(pygame.image.tobytes(screen, "RGB"))
    host.reset()
    return shots


def differs(a: bytes, b: bytes) -> int:
    """How many bytes of two pictures differ by more than 2 (of 255: unseen)."""
    return sum(abs(x - y) > 2 for x, y in zip(a, b, strict=True))


def test_a_display_makes_the_check_as_it_starts_logs_it_and_says_it_in_its_heartbeat(
        tmp_path, caplog):
    display = Display(DisplayOptions(controller="http://127.0.0.1:9", screen="s1", key="k",
                                     size=SIZE, state_dir=tmp_path))
    with caplog.at_level(logging.INFO, "showrunner.engine.framepaths"):
        display.open()
    assert set(display.frame_paths) == set(OPERATIONS)
    assert [r.getMessage() for r in caplog.records if "whole frames at 320x180" in
            r.getMessage()]
    beat = heartbeat_of(display)
    said = " ".join(f"{op}={display.frame_paths[op].way}" for op in OPERATIONS)
    assert beat["frame_paths"] == said
    assert heartbeat_fields(beat)["frame_paths"] == said  # what the controller keeps

"""Engine building blocks: easing, tweens, layout, text fitting, params, assets."""

from __future__ import annotations

import logging

import pygame
import pytest

from showrunner.engine import logonce
from showrunner.engine.assets import AssetManager
from showrunner.engine.draw import clock_text
from showrunner.engine.easing import EASINGS
from showrunner.engine.host import SceneHost
from showrunner.engine.layout import Layout, parse_size
from showrunner.engine.render import SteppedClock, advance, init_headless
from showrunner.engine.scene import SceneContext, drawable_params
from showrunner.engine.still import Still
from showrunner.engine.text import ELLIPSIS
from showrunner.engine.theme import Theme
from showrunner.engine.transitions import Transition
from showrunner.engine.tween import Tween
from showrunner.scenes import REGISTRY


@pytest.fixture(scope="module")
def ctx() -> SceneContext:
    init_headless((1920, 1080))
    return SceneContext.create((1920, 1080), Theme.load(), {}, lambda: 0)


@pytest.mark.parametrize("name", sorted(EASINGS))
def test_easings_start_at_zero_and_end_at_one(name):
    f = EASINGS[name]
    assert f(0.0) == pytest.approx(0.0, abs=1e-9)
    assert f(1.0) == pytest.approx(1.0, abs=1e-9)


def test_tween_is_stepped_by_dt_and_lands_exactly():
    t = Tween(10, 20, 1.0, "linear", delay=0.5)
    t.update(0.5)
    assert t.value == 10
    t.update(0.5)
    assert t.value == pytest.approx(15)
    t.update(5)
    assert t.value == 20 and t.done


def test_layout_scales_logical_space_to_4k_and_portrait():
    assert Layout((3840, 2160)).px(100) == 200
    assert Layout((3840, 2160)).rect(64, 64, 100, 50).size == (200, 100)
    assert Layout((1080, 1920)).logical == (1080, 1920)
    letterboxed = Layout((1920, 1200))  # 16:10: centred, never stretched
    assert letterboxed.scale == 1 and letterboxed.offset == (0, 60)
    with pytest.raises(ValueError):
        parse_size("big")


def test_clock_text_rounds_up_whole_seconds():
    assert clock_text(90) == "1:30"
    assert clock_text(4.2) == "0:05"
    assert clock_text(-3) == "0:00"
    assert clock_text(754) == "12:34"


def test_fit_shrinks_then_truncates_with_an_ellipsis(ctx):
    name = "A" * 200
    img = ctx.text.fit(name, "bold", 50, (255, 255, 255), 400)
    assert img.get_width() <= 400
    short = ctx.text.fit("Thandi M.", "bold", 50, (255, 255, 255), 400)
    assert short.get_height() == ctx.text.render("Thandi M.", "bold", 50,
                                                 (255, 255, 255)).get_height()


def test_text_cache_reuses_and_keeps_within_its_memory_budget(ctx):
    from showrunner.engine.text import TextCache
    one = ctx.text.render("one", "body", 20, (1, 2, 3))
    cache = TextCache(ctx.text.fonts, budget_bytes=one.get_pitch() * one.get_height() * 3)
    first = cache.render("one", "body", 20, (1, 2, 3))
    assert cache.render("one", "body", 20, (1, 2, 3)) is first
    for word in ("two", "three", "four", "five", "six"):
        cache.render(word, "body", 20, (1, 2, 3))
    assert 1 <= len(cache) < 6 and cache.bytes <= cache.budget_bytes
    assert cache.render("six", "body", 20, (1, 2, 3)) is cache.render("six", "body", 20,
                                                                      (1, 2, 3))


def test_a_jackpot_ticker_entering_again_finds_its_digits_made(ctx):
    # its columns of digits are kept with the screen's text, within its budget (they took
    # 5 ms of a 4K first frame)
    from showrunner.scenes.samples import POKER_POOLS
    c = SceneContext.create((640, 360), ctx.theme, {"pools:poker": POKER_POOLS}, lambda: 0)
    init_headless((640, 360))
    screen, columns = pygame.Surface((640, 360)), []
    for _ in range(2):
        scene = REGISTRY["jackpot_ticker"](c)
        scene.enter({"view": "pools:poker"})
        scene.draw(screen)
        columns.append(scene._strip(scene._digit_size(scene._boxes()[0][3]))[0])
        scene.exit()
    assert columns[0] is columns[1]
    assert c.text.bytes <= c.text.budget_bytes


def test_a_countdown_left_running_keeps_its_text_within_budget():
    """A new clock string every second must not grow memory (1024 of them at 4K took 6 GB)."""
    from showrunner.scenes.samples import CASES
    case = next(c for c in CASES if c.scene == "next_event")
    clock = SteppedClock(0)
    init_headless((640, 360))
    c = SceneContext.create((640, 360), Theme.load(), case.views, clock.now_ms)
    host = SceneHost(c, REGISTRY)
    host.switch(case.scene, case.params)
    host.update(0)
    frame = pygame.Surface((640, 360))
    for _ in range(2000):  # over half an hour, one frame a second
        clock.seconds += 1
        host.update(1)
        host.draw(frame)
    assert c.text.misses > 1000  # a new string every second...
    assert c.text.bytes <= c.text.budget_bytes  # ...in bounded memory


def test_truncate_keeps_the_longest_prefix():
    from showrunner.engine.text import truncate
    init_headless((1920, 1080))
    font = pygame.font.Font(None, 30)
    cut = truncate(font, "Johan van der Merwe", font.size("Johan van")[0] + font.size(ELLIPSIS)[0])
    assert cut == "Johan van" + ELLIPSIS


def test_unknown_and_bad_params_are_logged_once_and_ignored(caplog):
    logonce.forget()
    with caplog.at_level(logging.WARNING):
        p = drawable_params("super9_board", {"recent": "abc", "colour": "red"})
        drawable_params("super9_board", {"recent": "abc", "colour": "red"})
    assert p == {"view": "board:super9", "recent": 8}
    assert len(caplog.records) == 2


def test_missing_image_is_a_placeholder_with_one_warning(caplog, tmp_path):
    logonce.forget()
    init_headless((1920, 1080))
    corrupt = tmp_path / "bad.png"
    corrupt.write_bytes(b"not a png")
    assets = AssetManager()
    with caplog.at_level(logging.WARNING):
        a = assets.image(tmp_path / "nope.png", (64, 36))
        b = assets.image(corrupt, (64, 36))
        assets.image(corrupt, (64, 36))
    assert a.get_size() == b.get_size() == (64, 36)
    assert len(caplog.records) == 2


def test_missing_font_falls_back_to_pygames(tmp_path, caplog):
    logonce.forget()
    init_headless((1920, 1080))
    theme_file = tmp_path / "theme.yaml"
    theme_file.write_text("fonts:\n  bold: missing.otf\ncolours:\n  text: nonsense\n")
    with caplog.at_level(logging.WARNING):
        theme = Theme.load(theme_file)
        c = SceneContext.create((1920, 1080), theme, {}, lambda: 0)
        img = c.text.render("Hello", "bold", 40, theme.colour("text"))
    assert img.get_width() > 0
    assert theme.colour("text") == (255, 255, 255)  # bad entry kept the default
    assert any("missing.otf" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("kind", ["cut", "crossfade", "slide"])
def test_switching_scenes_never_shows_a_black_frame(ctx, kind):
    clock = SteppedClock(0)
    c = SceneContext.create((640, 360), ctx.theme, {}, clock.now_ms)
    init_headless((640, 360))
    host = SceneHost(c, REGISTRY)
    host.switch("announcement", {"title": "One"})
    host.update(0)
    host.switch("next_event", transition=kind, duration=0.5)
    frame = pygame.Surface((640, 360))
    for _ in range(40):
        advance(host, clock, 1 / 60)
        frame.fill((0, 0, 0))
        host.draw(frame)
        assert pygame.transform.average_color(frame)[:3] != (0, 0, 0)
    assert host.transition is None and host.current.name == "next_event"


def announcing(ctx: SceneContext) -> tuple[SteppedClock, SceneHost, pygame.Surface]:
    """A 640x360 screen half a second into an announcement: (clock, host, its last frame)."""
    clock = SteppedClock(0)
    c = SceneContext.create((640, 360), ctx.theme, {}, clock.now_ms)
    init_headless((640, 360))
    host = SceneHost(c, REGISTRY)
    host.switch("announcement", {"title": "One"})
    advance(host, clock, 0.5)
    last = pygame.Surface((640, 360))
    host.draw(last)
    return clock, host, last


@pytest.mark.parametrize("kind", ["crossfade", "slide"])
def test_a_transitions_first_frame_is_the_outgoing_scenes_last_held_still(ctx, kind):
    clock, host, last = announcing(ctx)
    held = pygame.Surface((640, 360))
    host.switch("next_event", transition=kind, duration=0.5)
    advance(host, clock, 1 / 60)
    host.draw(held)
    assert host.current is None  # the incoming scene enters on the next frame
    assert pygame.image.tobytes(held, "RGB") == pygame.image.tobytes(last, "RGB")
    advance(host, clock, 1 / 60)
    assert host.current.name == "next_event" and host.transition is not None


def test_a_switch_whose_frame_is_never_drawn_still_holds_the_outgoing_scene(ctx):
    clock, host, last = announcing(ctx)
    held = pygame.Surface((640, 360))
    host.switch("next_event", transition="crossfade", duration=0.5)
    advance(host, clock, 1 / 60)  # the switch's frame, not drawn
    advance(host, clock, 1 / 60)  # the incoming scene enters
    host.draw(held)  # the crossfade's first frame: the outgoing scene's alone
    assert host.current.name == "next_event" and host.transition is not None
    assert pygame.image.tobytes(held, "RGB") == pygame.image.tobytes(last, "RGB")
    host.switch("attract", transition="crossfade", duration=0.5)
    host.switch("announcement", transition="cut")
    advance(host, clock, 1 / 60)  # two switches in one frame: the last one cuts in
    assert host.current.name == "announcement" and host.transition is None


def test_only_a_scene_at_rest_is_asked_to_draw_ahead(ctx, monkeypatch):
    asked: list[str] = []
    for name in ("announcement", "next_event"):
        monkeypatch.setattr(REGISTRY[name], "draw_ahead",
                            lambda self: asked.append(self.name))
    clock, host, _ = announcing(ctx)
    host.draw_ahead()
    host.switch("next_event", transition="crossfade", duration=0.5)
    advance(host, clock, 1 / 60)
    host.draw_ahead()  # the switch's frame: the incoming scene enters on the next
    advance(host, clock, 1 / 60)
    host.draw_ahead()  # the crossfade runs
    for _ in range(40):
        advance(host, clock, 1 / 60)
    host.draw_ahead()
    assert asked == ["announcement", "next_event"]


def test_switch_waits_for_its_show_clock_time(ctx):
    clock = SteppedClock(1_000)
    c = SceneContext.create((640, 360), ctx.theme, {}, clock.now_ms)
    host = SceneHost(c, REGISTRY)
    host.switch("announcement")
    host.update(0)
    host.switch("attract", at_ms=2_000)
    advance(host, clock, 0.5)
    assert host.current.name == "announcement"
    advance(host, clock, 0.6)
    assert host.current.name == "attract"
    assert not host.switch("no_such_scene")


@pytest.mark.parametrize("elapsed", [0.0, 0.15, 0.3, 0.6])
def test_a_crossfade_shows_the_old_frame_then_a_blend_then_exactly_the_new(elapsed):
    init_headless((64, 36))
    target, still = pygame.Surface((64, 36)), Still().take((64, 36))
    still.fill((200, 40, 40))  # the outgoing scene's last frame; the incoming one draws
    fade = Transition("crossfade", 0.6, ease="linear", elapsed=elapsed)
    fade.draw(target, still, lambda s: s.fill((40, 40, 200)))
    red, _, blue, _ = target.get_at((10, 10))
    assert red == pytest.approx(200 - 160 * elapsed / 0.6, abs=2)
    assert blue == pytest.approx(40 + 160 * elapsed / 0.6, abs=2)


@pytest.mark.parametrize("elapsed", [0.0, 0.15, 0.3, 0.6])
def test_a_slide_moves_the_old_frame_left_and_the_new_one_in_after_it(elapsed):
    init_headless((64, 36))
    target, still = pygame.Surface((64, 36)), Still().take((64, 36))

    def stripes(base: int):  # a scene whose every column differs: column x is (base, x, 0)
        def draw(surface: pygame.Surface) -> None:
            for x in range(64):
                surface.fill((base, x, 0), (x, 0, 1, 36))
        return draw

    slide = Transition("slide", 0.6, ease="linear", elapsed=elapsed)
    stripes(200)(still)  # the outgoing scene's last frame
    slide.draw(target, still, stripes(40))
    shift = round(64 * elapsed / 0.6)
    assert [tuple(target.get_at((x, 5)))[:2] for x in range(64)] == \
        [(200, x + shift) for x in range(64 - shift)] + [(40, x) for x in range(shift)]


def test_unknown_transition_is_refused():
    with pytest.raises(ValueError):
        Transition("wipe")

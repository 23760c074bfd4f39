"""A display's memory is a handful of full screens, however long it plays: the demo playlist
played through the real display loop (its scenes, transitions and presents) on a simulated
clock, counting the full-screen surfaces alive (at 4K each is 32 MiB of the process's memory).
"""

from __future__ import annotations

import gc
import json
import queue
import time
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

from controller.demo.run import PLAYLIST
from showrunner.contract.playlist.validate import validate
from showrunner.engine.display import Display, DisplayOptions
from showrunner.engine.link import ViewChanged
from showrunner.engine.memory import return_freed_surfaces
from showrunner.engine.present import Presenter
from showrunner.scenes import samples
from tests.engine.test_display_rest import BASE_MS, NOBODY, SimTime

SIZE = (1920, 1080)
CONTAINERS = (dict, list, tuple, set, frozenset)


def surfaces_alive() -> list[pygame.Surface]:
    """Every pygame surface Python holds that owns its pixels (not a subsurface). Surfaces are
    not tracked by the garbage collector, nor are containers holding only such, so this walks
    down from every tracked object through the untracked containers."""
    gc.collect()  # what is left of a screen a test before used
    found: dict[int, pygame.Surface] = {}
    seen: set[int] = set()
    stack = gc.get_objects()
    while stack:
        for ref in gc.get_referents(stack.pop()):
            if isinstance(ref, pygame.Surface):
                if ref.get_parent() is None:
                    found[id(ref)] = ref
            elif isinstance(ref, CONTAINERS) and not gc.is_tracked(ref) and id(ref) not in seen:
                seen.add(id(ref))
                stack.append(ref)
    window = pygame.display.get_surface()
    if window is not None:
        found[id(window)] = window
    return list(found.values())


def full_screens(alive: list[pygame.Surface]) -> list[pygame.Surface]:
    """Those of the screen's size (or larger): 8 MiB each here, 32 MiB at 4K."""
    return [s for s in alive if s.get_width() >= SIZE[0] and s.get_height() >= SIZE[1]]


@dataclass
class Census:
    at_s: float
    scene: str
    transition: bool
    full_screens: int
    mib: float  # all the surfaces' pixels
    rest: bool = False  # taken at the first rest after a switch


class Counting(Presenter):
    """The display's presenter, taking a census after the first frame of each slot and after
    the frame each transition ends (and, told by `rested`, at the first rest after a switch);
    `seen` holds the full-screen surfaces of the last one."""

    def __init__(self, sim: SimTime) -> None:
        self.sim = sim
        self.host = None
        self.censuses: list[Census] = []
        self.seen: list[pygame.Surface] = []
        self._key: object = None
        self._blending = False

    def present(self, rects):  # type: ignore[no-untyped-def]
        super().present(rects)
        display = self.sim.display
        key = display.playing.key if display.playing else None
        blending = self.host.transition is not None
        if key != self._key or (self._blending and not blending):
            self.census(blending)
        self._key, self._blending = key, blending

    def census(self, blending: bool, rest: bool = False) -> None:
        display = self.sim.display
        self.seen = []  # (or they would be counted, the census's own)
        alive = surfaces_alive()
        self.seen = full_screens(alive)
        self.censuses.append(Census(
            self.sim.now, display.playing.scene if display.playing else "", blending,
            len(self.seen), round(sum(s.get_pitch() * s.get_height() for s in alive) / 2**20, 1),
            rest))

    def rested(self, release):  # type: ignore[no-untyped-def]
        """The display's `release`, taking a census when it frees what a switch left."""
        def counted(host):  # type: ignore[no-untyped-def]
            after_switch = host.left and not self.sim.display.moving
            release(host)
            if after_switch:
                self.census(blending=False, rest=True)
        return counted


def demo_program() -> dict:
    """The screen view of a screen playing playlists/demo.yaml from BASE_MS."""
    entry = {**validate(PLAYLIST.read_text(), PLAYLIST.name), "anchor_ms": BASE_MS,
             "until_ms": None}
    return {"screen": "s1", "name": "s1", "group": "floor", "status": "authorised",
            "takeover": None, "playlists": [entry]}


class DemoScreen:
    """A display playing the demo playlist (leaderboard 20 s, jackpot ticker 8 s with a
    crossfade, prize table 8 s with a slide, crossfade back) on a simulated clock."""

    def __init__(self, tmp_path) -> None:
        self.sim = SimTime()
        self.display = Display(DisplayOptions(controller=NOBODY, screen="s1", size=SIZE,
                                              state_dir=tmp_path), timebase=self.sim)
        self.sim.display = self.display
        self.display.presenter = self.counting = Counting(self.sim)
        self.screen, self.ctx, self.host = self.display.open()
        self.counting.host = self.host
        self.display.release = self.counting.rested(self.display.release)  # type: ignore[method-assign]
        self.inbox: queue.Queue = queue.Queue()
        for name, doc in (("screen:s1", demo_program()),
                          ("leaderboard:slots", samples.leaderboard(12, True)),
                          ("pools:slots", samples.POKER_POOLS), ("prizes:slots", samples.PRIZES)):
            self.inbox.put(ViewChanged(name, 1, doc))

    def play_until(self, seconds: float) -> list[Census]:
        self.display.loop(self.ctx, self.host, self.screen, self.inbox,
                          seconds=seconds - self.sim.now)
        return self.counting.censuses

    def full_screens_now(self) -> list[pygame.Surface]:
        self.counting.seen = []  # (or they would be counted, the census's own)
        return full_screens(surfaces_alive())


def test_the_demo_show_keeps_two_full_screens_at_rest_and_four_during_a_switch(tmp_path):
    censuses = DemoScreen(tmp_path).play_until(2 * 36 + 2)  # the playlist twice round, at rest
    assert {c.scene for c in censuses} == {"leaderboard", "jackpot_ticker", "prize_table"}
    assert sum(c.transition for c in censuses) == 6  # crossfade, slide, crossfade, twice
    # at rest: the window and the scene's layer (the backdrop, the header, its panels)
    assert [c.full_screens for c in censuses if c.rest] == [2] * 6
    # during a transition: the outgoing scene's layer, the incoming one's, and its buffer;
    # when it ends, the two the switch freed are kept (for a switch before the next rest)
    assert max(c.full_screens for c in censuses) == 4
    ended = [c.full_screens for c in censuses if not c.transition and not c.rest]
    assert ended == [2] + [4] * 6  # the first frame, then each transition's end


@pytest.mark.parametrize(("switch_s", "kind"), [(20, "crossfade"), (28, "slide")])
def test_at_rest_before_a_switch_the_screen_makes_the_layers_the_switch_needs(
        tmp_path, switch_s, kind):
    screen = DemoScreen(tmp_path)
    screen.play_until(switch_s - 0.1)  # the scene at rest, its end near
    ready = screen.full_screens_now()
    assert len(ready) == 4  # the window, the scene's layer, and two made for the switch
    censuses = screen.play_until(switch_s + 0.1)
    assert censuses[-1].transition and screen.host.transition.kind == kind
    # nothing full-screen was made on the switch's frame (about 30 ms at 4K)
    assert all(any(s is r for r in ready) for s in screen.counting.seen)
    ready.clear()  # (the test's own references)
    screen.play_until(switch_s + 7)
    rested = [c for c in screen.counting.censuses if c.rest]
    assert rested and rested[-1].at_s > switch_s  # the screen has rested since
    assert len(screen.full_screens_now()) == 2  # freed when the screen rested


def test_at_rest_after_a_scene_has_left_the_heap_is_trimmed_once(tmp_path, monkeypatch):
    screen = DemoScreen(tmp_path)
    trims: list[tuple[float, bool]] = []
    monkeypatch.setattr("showrunner.engine.display.upkeep.trim",
                        lambda: trims.append((screen.sim.now, screen.display.moving)))
    screen.play_until(19.9)
    assert trims == []  # no scene has left yet
    screen.play_until(27.9)  # the crossfade to the jackpots ends at 20.6 s, the amounts roll
    assert len(trims) == 1 and 20.6 < trims[0][0] < 27.9
    assert not trims[0][1]  # at rest, not on a moving frame


def resident_mib() -> float:
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_a_freed_full_screen_leaves_the_process():
    return_freed_surfaces()
    before = resident_mib()
    for _ in range(3):  # glibc raised its threshold at the first free, and kept the next
        layer = pygame.Surface((3840, 2160))
        layer.fill((1, 2, 3))
        del layer
    assert resident_mib() - before < 16  # a 4K layer is 31.6 MiB


if __name__ == "__main__":  # a census of each scene change, to see where the memory goes
    import sys
    from tempfile import TemporaryDirectory

    began = time.monotonic()
    with TemporaryDirectory() as tmp:
        for c in DemoScreen(Path(tmp)).play_until(float(sys.argv[1]) if len(sys.argv) > 1
                                                  else 73):
            print(json.dumps(c.__dict__))
    print(f"{time.monotonic() - began:.1f} s", file=sys.stderr)

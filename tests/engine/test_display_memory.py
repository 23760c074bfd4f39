"""A display's memory is a handful of full screens, however long it plays: the demo playlist
played through the real display loop (its scenes, transitions and presents) on a simulated
clock, counting the full-screen surfaces alive (at 4K each is 32 MiB of the process's memory).
"""

from __future__ import annotations

import ctypes
import gc
import json
import mmap
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
from showrunner.engine.scene import drop_spare_layers
from showrunner.engine.still import BANDS, Still
from showrunner.scenes import samples
from tests.engine.test_display_rest import BASE_MS, NOBODY, SimTime

SIZE = (1920, 1080)
CONTAINERS = (dict, list, tuple, set, frozenset)


def surfaces_alive() -> list[pygame.Surface]:
    """Every pygame surface Python holds that owns its pixels (not a subsurface). Surfaces are
    not tracked by the garbage collector, nor are containers holding only such, so this walks
    down from every tracked object through the untracked containers."""
    gc.unfreeze()  # (a display never freezes; frozen objects are not in gc.get_objects)
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
    """Those of the screen's size held in memory (most of their pages resident: a still
    frame handed back to the system between switches is kept as a surface, its pages not):
    8 MiB each here, 32 MiB at 4K. (Not the attract scene's scale buffers, a little larger: a
    budget of their own, kept in the process for its next visit, which another test may have
    left here.)"""
    return [s for s in alive if s.get_size() == SIZE and resident_share(s) > 0.5]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.mincore.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)


def resident_share(surface: pygame.Surface) -> float:
    """The share of the surface's whole pages in memory (mincore)."""
    start = surface._pixels_address
    end = start + surface.get_pitch() * surface.get_height()
    first, last = -(-start // mmap.PAGESIZE) * mmap.PAGESIZE, end - end % mmap.PAGESIZE
    pages = (last - first) // mmap.PAGESIZE
    if pages <= 0:
        return 1.0
    held = (ctypes.c_ubyte * pages)()
    if _libc.mincore(first, last - first, held) != 0:
        raise OSError(ctypes.get_errno(), "mincore")
    return sum(b & 1 for b in held) / pages


@dataclass
class Census:
    at_s: float
    scene: str
    transition: bool
    full_screens: int
    mib: float  # all the surfaces' pixels


class Counting(Presenter):
    """The display's presenter, taking a census after the first frame of each slot and after
    the frame each transition ends; `seen` holds the full-screen surfaces of the last one."""

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
            self.seen = []  # (or they would be counted, the census's own)
            alive = surfaces_alive()
            self.seen = full_screens(alive)
            self.censuses.append(Census(
                self.sim.now, display.playing.scene if display.playing else "", blending,
                len(self.seen), round(sum(s.get_pitch() * s.get_height() for s in alive) / 2**20,
                                      1)))
        self._key, self._blending = key, blending


def demo_program() -> dict:
    """The screen view of a screen playing playlists/demo.yaml from BASE_MS."""
    entry = {**validate(PLAYLIST.read_text(), PLAYLIST.name), "anchor_ms": BASE_MS,
             "until_ms": None}
    # without its video: a clip's decoded frames are its own budget (AHEAD frames,
    # showrunner/engine/video.py), not the drawn scenes' full-screen layers counted here
    entry["items"] = [item for item in entry["items"] if item["scene"] != "video"]
    return {"screen": "s1", "name": "s1", "group": "floor", "status": "authorised",
            "takeover": None, "playlists": [entry]}


class DemoScreen:
    """A display playing the demo playlist (leaderboard 20 s, jackpot ticker 8 s with a
    crossfade, prize table 8 s with a slide, crossfade back) on a simulated clock."""

    def __init__(self, tmp_path) -> None:
        drop_spare_layers()  # (a layer another test's switch left, this display would take)
        self.sim = SimTime()
        self.display = Display(DisplayOptions(controller=NOBODY, screen="s1", size=SIZE,
                                              state_dir=tmp_path), timebase=self.sim)
        self.sim.display = self.display
        self.display.presenter = self.counting = Counting(self.sim)
        self.screen, self.ctx, self.host = self.display.open()
        self.counting.host = self.host
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


def test_the_demo_show_keeps_two_full_screens_at_rest_and_three_during_a_switch(tmp_path):
    screen = DemoScreen(tmp_path)
    censuses = screen.play_until(2 * 36 + 1)  # the playlist twice round
    assert {c.scene for c in censuses} == {"leaderboard", "jackpot_ticker", "prize_table"}
    assert sum(c.transition for c in censuses) == 6  # crossfade, slide, crossfade, twice
    # during a transition: the window, the outgoing scene's last frame held still and the
    # incoming one's layer (the outgoing one's, taken over); at its end the still frame is
    # handed back a band a pass
    assert [c.full_screens for c in censuses if c.transition] == [3] * 6
    assert [c.full_screens for c in censuses if not c.transition] == [2] + [3] * 6
    # at rest: the window and the scene's layer (the backdrop, the header, its panels)
    assert len(screen.full_screens_now()) == 2


@pytest.mark.parametrize(("switch_s", "kind"), [(20, "crossfade"), (28, "slide")])
def test_before_a_switch_the_screen_makes_the_full_screen_the_switch_needs(
        tmp_path, switch_s, kind):
    screen = DemoScreen(tmp_path)
    screen.play_until(switch_s - 0.1)  # the scene at rest, its end near
    ready = screen.full_screens_now()
    assert len(ready) == 3  # the window, the scene's layer, and the switch's still frame
    censuses = screen.play_until(switch_s + 0.1)
    assert censuses[-1].transition and screen.host.transition.kind == kind
    # nothing full-screen was made on the switch's frame (about 25 ms at 4K)
    assert all(any(s is r for r in ready) for s in screen.counting.seen)
    ready.clear()  # (the test's own references)
    screen.play_until(switch_s + 1)
    assert len(screen.full_screens_now()) == 2  # freed when the transition ended


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


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_a_transitions_still_frame_is_made_and_handed_back_a_band_at_a_time():
    still = Still()
    before = resident_mib()
    assert still.prepare((3840, 2160))  # made once: SDL zeroes it, so all of it is resident
    frame = still.take((3840, 2160))
    assert frame.get_size() == (3840, 2160) and frame.get_at((0, 2159)) == (0, 0, 0, 255)
    assert resident_mib() - before > 24 and resident_share(frame) == 1.0  # 31.6 MiB at 4K
    assert still.release()  # lent to a transition: nothing to hand back yet
    still.give_back()
    shares = []
    for _ in range(BANDS):
        still.release()
        shares.append(round(resident_share(frame) * BANDS))
    assert shares == list(range(BANDS - 1, -1, -1))  # a band handed back each pass
    assert resident_mib() - before < 8
    # the next switch touches it again a band a pass, the same surface, black
    assert [still.prepare((3840, 2160)) for _ in range(BANDS)] == [False] * (BANDS - 1) + [True]
    assert still.take((3840, 2160)) is frame and resident_share(frame) == 1.0
    assert frame.get_at((1919, 1079)) == (0, 0, 0, 255)


if __name__ == "__main__":  # a census of each scene change, to see where the memory goes
    import sys
    from tempfile import TemporaryDirectory

    began = time.monotonic()
    with TemporaryDirectory() as tmp:
        for c in DemoScreen(Path(tmp)).play_until(float(sys.argv[1]) if len(sys.argv) > 1
                                                  else 73):
            print(json.dumps(c.__dict__))
    print(f"{time.monotonic() - began:.1f} s", file=sys.stderr)

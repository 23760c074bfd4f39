"""A floor of hundreds of enrolled screens as real Socket.IO clients, for tests of /screens.

Each screen connects to /display with its own key as `showrunner display` does, syncs once,
sends its picture, then heartbeats on a shared rhythm; it draws nothing and keeps no views, so
one test process can be 300 screens at once.
"""

from __future__ import annotations

import asyncio
import base64
import io
import itertools
from collections.abc import Awaitable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import pygame
import socketio

from controller.domain.keys import key_hash
from tests.support.live import Client

AT_ONCE = 20  # screens connecting together: the controller shares 2 cores with the test
SCENES = ("leaderboard", "jackpot_ticker", "attract")
T = TypeVar("T")


@dataclass(frozen=True)
class Planned:
    """One screen of the floor: its group, where it hangs, and what it will do in the test."""

    screen: str
    group: str
    name: str = ""
    authorised: bool = True
    connects: bool = True


async def in_batches(calls: Iterable[Awaitable[T]], at_once: int = AT_ONCE) -> list[T]:
    pending, done = list(calls), []
    for start in range(0, len(pending), at_once):
        done += await asyncio.gather(*pending[start:start + at_once])
    return done


async def enrol(tech: Client, plan: Sequence[Planned]) -> dict[str, str]:
    """Enrol (and authorise) every planned screen through the technician's commands; each
    screen's key."""
    keys = {p.screen: f"secret-of-{p.screen}" for p in plan}

    async def one(p: Planned) -> None:
        ack = await tech.send("screens.enrol", {"screen": p.screen, "group": p.group,
                                                "name": p.name,
                                                "key_hash": key_hash(keys[p.screen])})
        assert ack["ok"], ack
        if p.authorised:
            ack = await tech.send("screens.authorise", {"screen": p.screen})
            assert ack["ok"], ack

    await in_batches(one(p) for p in plan)
    return keys


def picture(text: str, colour: tuple[int, int, int]) -> bytes:
    """A 320x180 JPEG like a screen's screenshot: its group's colour, a title and some rows."""
    pygame.font.init()
    surface = pygame.Surface((320, 180))
    surface.fill((12, 14, 22))
    pygame.draw.rect(surface, colour, (0, 0, 320, 44))
    font = pygame.font.Font(None, 34)
    surface.blit(font.render(text, True, (255, 255, 255)), (12, 10))
    for row in range(4):
        width = 260 - row * 40
        pygame.draw.rect(surface, (48, 56, 78), (12, 58 + row * 30, 296, 22), border_radius=4)
        pygame.draw.rect(surface, colour, (12, 58 + row * 30, width, 22), border_radius=4)
    out = io.BytesIO()
    pygame.image.save(surface, out, "shot.jpg")
    return out.getvalue()


class ReportingScreen:
    """One floor screen: connects with its id and key, then reports like a display."""

    def __init__(self, url: str, screen: str, key: str) -> None:
        self.url, self.screen, self.key = url, screen, key
        self.sio = socketio.AsyncClient(reconnection=False)
        self.beats = itertools.count()

    async def connect(self, jpeg: bytes) -> None:
        await self.sio.connect(self.url, namespaces=["/display"], transports=["websocket"],
                               auth={"key": self.key, "screen": self.screen}, wait_timeout=20)
        await self.sio.call("sync", {"revisions": {}}, namespace="/display", timeout=20)
        await self.sio.call("screenshot", {"jpeg": base64.b64encode(jpeg).decode()},
                            namespace="/display", timeout=20)
        await self.heartbeat()

    async def heartbeat(self) -> None:
        """A heartbeat whose scene and frame rate move on, so each one changes its row."""
        n = next(self.beats)
        reply = await self.sio.call("heartbeat", {
            "version": "9.9", "fps": round(2 + (n % 7) * 0.5, 1), "dropped_frames": 0,
            "scene": SCENES[n % len(SCENES)], "uptime_s": float(n * 3),
            "clock_offset_ms": n % 5 - 2}, namespace="/display", timeout=20)
        assert reply == {"ok": True}, reply

    async def close(self) -> None:
        await self.sio.disconnect()


async def keep_reporting(screens: Sequence[ReportingScreen], every_s: float) -> None:
    """Every screen's heartbeat once every `every_s`, spread evenly (as a floor's clocks are);
    runs until cancelled."""
    slots = 20
    for tick in itertools.count():
        due = [s for i, s in enumerate(screens) if i % slots == tick % slots]
        await asyncio.gather(*(s.heartbeat() for s in due if s.sio.connected))
        await asyncio.sleep(every_s / slots)

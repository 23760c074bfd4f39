"""The demo show on a real controller, for the benchmarks: its Slots leaderboard, screens
enrolled as a technician would, and a real 4K display process playing the demo's playlist."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from controller.application.child_process import ROOT
from controller.demo.night import MC, PLAYERS
from controller.demo.run import PLAYLIST
from controller.http.client import assign_payload, enrol_payload

GROUP = "floor"
DISPLAY = "fanout-4k"  # the real display process's screen


class Board:
    """The demo's Slots leaderboard on the controller; each change lifts the lowest to the top."""

    def __init__(self, mc: MC) -> None:
        self.mc = mc
        self.scores: dict[str, int] = {}

    async def seed(self) -> None:
        for i, name in enumerate(PLAYERS):
            card = f"8{i:06d}"
            await self.mc.send("register_member", {"card": card, "display_name": name})
            data = await self.mc.send("slots.enter", {"card": card})
            assert data, "slots.enter was refused"
            self.scores[data["entry"]] = 9_000 + 731 * i
            await self.mc.send("slots.record_score",
                               {"entry": data["entry"], "score": self.scores[data["entry"]]})

    async def change(self, _: int = 0) -> float:
        """Lift the lowest to the top; when (time.time() in ms) the MC's client read the ack.

        The ack alone is timed (the MC's console does not wait for the views to come back), and
        timed as the client reads it off its socket (its callback), not when this coroutine runs
        again: a bench's MC shares a core with the screens' clients, which the same command
        wakes, and a tablet does not."""
        low = min(self.scores, key=self.scores.__getitem__)
        self.scores[low] = max(self.scores.values()) + 10
        read: asyncio.Future[tuple[float, dict[str, Any]]] = \
            asyncio.get_running_loop().create_future()
        envelope = {"type": "slots.record_score", "command_id": uuid.uuid4().hex,
                    "payload": {"entry": low, "score": self.scores[low]}}
        await self.mc.sio.emit("command", envelope, namespace="/control",
                               callback=lambda ack: read.set_result((time.time() * 1000, ack)))
        at, ack = await asyncio.wait_for(read, 10)
        if not ack["ok"]:
            raise RuntimeError(f"a score change was refused: {ack['error']['message']}")
        return at


async def enrol(url: str, technician_key: str, screens: list[str]) -> list[dict[str, str]]:
    """`screens` enrolled and authorised in one group playing the demo's playlist, as a
    technician would; their auths. Sent 50 at a time: the round trips overlap."""
    technician = MC(lambda _: None)
    await technician.connect(url, technician_key)
    auths: list[dict[str, str]] = []
    try:
        for start in range(0, len(screens), 50):
            batch = [(name, *enrol_payload(name, GROUP)) for name in screens[start:start + 50]]
            await asyncio.gather(*(technician.send("screens.enrol", payload)
                                   for _, _, payload in batch))
            await asyncio.gather(*(technician.send("screens.authorise", {"screen": screen})
                                   for screen, _, _ in batch))
            auths += [{"key": key, "screen": screen} for screen, key, _ in batch]
        await technician.send("playlists.assign", assign_payload(PLAYLIST, [], [GROUP]))
    finally:
        await technician.close()
    return auths


def start_display(url: str, key: str, work: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "SHOWRUNNER_DISPLAY_KEY": key}
    return subprocess.Popen(
        [sys.executable, "-m", "showrunner.cli", "display", "--controller", url,
         "--screen", DISPLAY, "--size", "3840x2160", "--state-dir", str(work / "screens")],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def has_views(replica: Path, display: subprocess.Popen[bytes]) -> None:
    """Until the display has saved the views it was sent: it is connected and settled."""
    deadline = time.monotonic() + 60
    while not replica.exists():
        if display.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the display process did not get its views")
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)

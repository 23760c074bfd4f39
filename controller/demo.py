"""The Quick-start demo: a controller on SQLite, one display, the tablet, live score changes.

The display is enrolled and authorised as a screen, as a technician would, and plays
`playlists/demo.yaml`. Everything the demo starts is a child process; Ctrl-C stops them all.
Without a screen (no DISPLAY or WAYLAND_DISPLAY) the display runs headless and writes its frame
to a PNG every few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import socketio

from controller.auth import issue_key
from controller.process import ROOT, ControllerProcess
from controller.remote import assign_payload, enrol_payload
from controller.service import wall_clock_ms
from controller.store.sqlite import EventLog

PLAYERS = [
    ("Thandi Mokoena", 18450), ("Sipho Dlamini", 17200), ("Lerato Khumalo", 16980),
    ("Johan van Wyk", 15120), ("Ayesha Patel", 14400), ("Themba Nkosi", 13750),
    ("Marietjie Botha", 12900), ("Kagiso Molefe", 12010), ("Nomvula Zulu", 11340),
    ("Pieter Steyn", 10200), ("Zanele Mthembu", 9800), ("Rajesh Naidoo", 9150),
]
SNAPSHOT_EVERY_S = 3
SCREEN, GROUP = "demo-1", "demo"
PLAYLIST = ROOT / "playlists" / "demo.yaml"


def run_demo(directory: Path, port: int) -> int:
    directory = directory.resolve()
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    db = directory / "show.db"
    log = EventLog.open(db)
    keys = {role: issue_key(log, role, f"demo {role}", wall_clock_ms())
            for role in ("operator", "technician", "announcer")}
    log.close()

    controller = ControllerProcess(db, port=port)
    url = controller.start()
    try:
        asyncio.run(run_show(url, keys, directory))
    finally:
        controller.stop()
    return 0


async def run_show(url: str, keys: dict[str, str], directory: Path) -> None:
    """Seed the tournament, start the display, feed scores until Ctrl-C or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    mc, technician = Operator(), Operator()
    await mc.connect(url, keys["operator"])
    await technician.connect(url, keys["technician"])
    display: subprocess.Popen[bytes] | None = None
    try:
        scores = await seed(mc)
        screen_key = await set_up_screen(technician)
        display, where = start_display(url, screen_key, directory)
        print(f"\nShowrunner demo is running (files in {directory})")
        print(f"  controller  {url}/healthz")
        print(f"  tablet (MC) {url}/tablet?key={keys['operator']}")
        print(f"  cues        {url}/cue?key={keys['announcer']}")
        print(f"  display     screen {SCREEN} plays {PLAYLIST.relative_to(ROOT)}; {where}")
        print(f"  screens     SHOWRUNNER_URL={url} SHOWRUNNER_KEY={keys['technician']} "
              f"showrunner-controller screens")
        print("Feeding live scores every 2 s. Ctrl-C stops everything.\n", flush=True)
        await feed_scores(mc, scores, stop)
        print("\nstopping…", flush=True)
    finally:
        await mc.sio.disconnect()
        await technician.sio.disconnect()
        if display and display.poll() is None:
            display.terminate()
            display.wait(10)


def start_display(url: str, key: str, directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    command = [sys.executable, "-m", "showrunner.cli", "display", "--controller", url,
               "--screen", SCREEN, "--state-dir", str(directory / "screens"),
               "--size", "1280x720"]
    env = {**os.environ, "SHOWRUNNER_DISPLAY_KEY": key}  # never in argv (ps shows argv)
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        where = "a window on this screen"
    else:
        snapshot = directory / "screen.png"
        command += ["--snapshot", str(snapshot), "--snapshot-every", str(SNAPSHOT_EVERY_S)]
        env["SDL_VIDEODRIVER"] = "dummy"
        env["SDL_AUDIODRIVER"] = "dummy"
        where = f"headless: frame written to {snapshot} every {SNAPSHOT_EVERY_S} s"
    return subprocess.Popen(command, cwd=ROOT, env=env), where


class Operator:
    """A real /control client sending commands: the demo's MC, or its technician."""

    def __init__(self) -> None:
        # the demo handles Ctrl-C itself; the client's own handler would cancel every task
        self.sio = socketio.AsyncClient(handle_sigint=False)

    async def connect(self, url: str, key: str) -> None:
        await self.sio.connect(url, namespaces=["/control"], auth={"key": key},
                               transports=["websocket"])

    async def send(self, type_: str, payload: dict) -> dict:
        envelope = {"type": type_, "payload": payload, "command_id": uuid.uuid4().hex}
        ack = await self.sio.call("command", envelope, namespace="/control")
        if not ack["ok"]:
            raise RuntimeError(f"{type_}: {ack['error']['message']}")
        return ack


async def seed(mc: Operator) -> dict[str, int]:
    """Register and enter the players with their opening scores; entry id -> score."""
    scores = {}
    for i, (name, score) in enumerate(PLAYERS):
        card = f"{8_000_100 + i}"
        await mc.send("register_member", {"card": card, "display_name": name})
        ack = await mc.send("slots.enter", {"card": card})
        entry = ack["events"][0]["data"]["entry"]
        await mc.send("slots.record_score", {"entry": entry, "score": score})
        scores[entry] = score
    return scores


async def set_up_screen(technician: Operator) -> str:
    """Enrol, authorise and program the demo's screen, as a technician would; its key."""
    screen_key, enrolment = enrol_payload(SCREEN, GROUP, "Demo screen")
    await technician.send("screens.enrol", enrolment)
    await technician.send("screens.authorise", {"screen": SCREEN})
    await technician.send("playlists.assign", assign_payload(PLAYLIST, [], [GROUP]))
    return screen_key


async def feed_scores(mc: Operator, scores: dict[str, int], stop: asyncio.Event) -> None:
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 2)
        if stop.is_set():
            return
        entry = secrets.choice(list(scores))
        scores[entry] += 500 + 10 * secrets.randbelow(350)  # 500 to 3990, in tens
        await mc.send("slots.record_score", {"entry": entry, "score": scores[entry]})

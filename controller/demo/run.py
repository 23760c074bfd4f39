"""The Quick-start demo: a controller on SQLite, one display, the tablet and a scripted night.

The display is enrolled and authorised as a screen, as a technician would, and plays
`playlists/demo.yaml` (its short video, `demo-reel.mp4`, beside it: controller/demo/reel.py);
the night (controller/demo/night.py) takes it over for each live moment. The people the demo
prints (the MC, the announcer, the auditor and the technician) log in with one password.
Each cycle runs on a fresh log (the Wild Card draw and a Super 9 session happen once a log)
with the same keys and port, so the screen, tablet and cue page reconnect on their own.
Everything the demo starts is a child process; Ctrl-C stops them all within 2 s. The demo
deletes only files it created: it refuses a non-empty directory that is not its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from controller.access.keys import issue_key
from controller.access.people import add_user
from controller.application.child_process import ROOT, ControllerProcess
from controller.application.service import wall_clock_ms
from controller.application.settings import CONFIG_DIR_ENV
from controller.demo.devices import BANK, TABLE, Devices
from controller.demo.devices import FILES as DEVICE_FILES
from controller.demo.kiosk import NAME as KIOSK
from controller.demo.kiosk import Kiosk
from controller.demo.night import GROUP, MC, Night
from controller.demo.reel import PLAYLIST, REEL, make_reel
from controller.demo.venue import FAST, REAL, write_configs
from controller.domain.keys import key_hash, new_key
from controller.http.client import assign_payload
from controller.store.sqlite import EventLog

SNAPSHOT_EVERY_S = 3
SCREEN = "demo-1"
MARKER = ".showrunner-demo"  # the demo made this directory; it may clear what it wrote there
OWN = (MARKER, "config", "cycle", "screens", "screen.png", "technician.key", *DEVICE_FILES)
STOP_WITHIN_S = 1.0
LEAVE_WITHIN_S = 0.5  # for the script's MC to disconnect before the children are stopped


#: who logs in to the pages: the MC's console, the cue page, the auditor's console, the
#: technician's /screens
PEOPLE = (("MC", "operator"), ("Announcer", "announcer"), ("Auditor", "auditor"),
          ("Technician", "technician"))


class DemoError(Exception):
    """A sentence for the user; nothing was deleted."""


def claim_directory(directory: Path) -> None:
    """Make `directory` the demo's, or clear what an earlier demo wrote there. A non-empty
    directory the demo did not create is refused: the demo deletes only its own files."""
    if directory.exists() and any(directory.iterdir()):
        if not (directory / MARKER).is_file():
            raise DemoError(f"{directory} is not empty and was not made by the demo; nothing was "
                            "deleted. Pass --dir with a new or empty directory.")
        for name in OWN:
            path = directory / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / MARKER).write_text("made by showrunner-controller demo\n", encoding="utf-8")


def run_demo(directory: Path, port: int, fast: bool = False, cycles: int = 0) -> int:
    directory = directory.resolve()
    try:
        claim_directory(directory)
    except DemoError as exc:
        print(exc, file=sys.stderr)
        return 2
    os.environ[CONFIG_DIR_ENV] = str(directory / "config")  # the controller inherits it
    make_reel()  # scripts/setup made it; a checkout set up otherwise may not have
    return asyncio.run(Show(directory, port, fast, cycles).run())


class Show:
    """The demo's processes and its cycles of the night."""

    def __init__(self, directory: Path, port: int, fast: bool, cycles: int) -> None:
        self.directory, self.pace, self.cycles = directory, FAST if fast else REAL, cycles
        self.keys = {role: new_key() for role in ("operator", "technician", "announcer")}
        self.screen_key = new_key()
        self.password = secrets.token_hex(6)  # the demo people's, printed at the start
        self.controller = ControllerProcess(directory / "cycle" / "show.db", port=port)
        self.display: subprocess.Popen[bytes] | None = None
        self.devices = Devices(directory, self.pace.wheel_interval_s)
        self.kiosk = Kiosk()

    async def run(self) -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        show = asyncio.create_task(self.cycles_of_the_night())
        halt = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait({show, halt}, return_when=asyncio.FIRST_COMPLETED)
            if show.done():
                show.result()  # a crash of the script is shown, not swallowed
        finally:
            with contextlib.suppress(OSError):  # a closed stdout (`| head`) stops no child
                print("\nstopping…", flush=True)
            for task in (show, halt):
                task.cancel()
            # the script's MC leaves first, while the controller still answers its goodbye
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.gather(show, halt, return_exceptions=True),
                                       LEAVE_WITHIN_S)
            self.reap(self.signal_children())
        return 0

    async def cycles_of_the_night(self) -> None:
        cycle = 1
        while True:
            super9_at = await asyncio.to_thread(self.new_log, cycle)
            mc = MC(lambda line: print(line, flush=True))
            await mc.connect(self.controller.url, self.keys["operator"])
            try:
                if cycle == 1:
                    self.start_display()
                    self.devices.start_reader(self.controller.url)
                    self.print_welcome()
                print(f"\n-- cycle {cycle}: a night of the show --", flush=True)
                await Night(mc, self.pace, cycle, super9_at, self.devices, self.kiosk).run()
            finally:
                await mc.close()
            if cycle == self.cycles:
                print("the demo's cycles are done; the screen keeps playing. Ctrl-C stops "
                      "everything.", flush=True)
                await asyncio.Event().wait()
            cycle += 1

    def new_log(self, cycle: int) -> dt.datetime:
        """Stop the controller, start it on a fresh log with the same keys, screen and port,
        and today's configs; the Super 9 session's start."""
        self.controller.stop()
        logs = self.directory / "cycle"
        if logs.exists():
            shutil.rmtree(logs)  # the previous cycle's log: the demo wrote it
        logs.mkdir()
        super9_at = write_configs(self.directory / "config", self.pace, dt.datetime.now(dt.UTC))
        log = EventLog.open(self.controller.db_path)
        try:
            for role, key in self.keys.items():
                issue_key(log, role, f"demo {role}", wall_clock_ms(), key)
            for name, key in self.devices.keys.items():  # a device key names its table or bank
                issue_key(log, "device", name, wall_clock_ms(), key)
            issue_key(log, "kiosk", KIOSK, wall_clock_ms(), self.kiosk.key)
            for name, role in PEOPLE:
                add_user(log, name, role, self.password, wall_clock_ms())
        finally:
            log.close()
        self.controller.start()
        asyncio.run(self.set_up_screen())
        return super9_at

    async def set_up_screen(self) -> None:
        """Enrol, authorise and program the demo's screen, as a technician would."""
        technician = MC(lambda line: print(line, flush=True))
        await technician.connect(self.controller.url, self.keys["technician"])
        try:
            await technician.send("screens.enrol", {
                "screen": SCREEN, "group": GROUP, "name": "Demo screen",
                "key_hash": key_hash(self.screen_key)})
            await technician.send("screens.authorise", {"screen": SCREEN})
            await technician.send("playlists.assign", assign_payload(PLAYLIST, [], [GROUP]))
        finally:
            await technician.close()

    def start_display(self) -> None:
        command = [sys.executable, "-m", "showrunner.cli", "display", "--controller",
                   self.controller.url, "--screen", SCREEN, "--state-dir",
                   str(self.directory / "screens"), "--size", "1280x720"]
        env = {**os.environ, "SHOWRUNNER_DISPLAY_KEY": self.screen_key}  # never in argv
        if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
            self.where = "a window on this screen"
        else:
            snapshot = self.directory / "screen.png"
            command += ["--snapshot", str(snapshot), "--snapshot-every", str(SNAPSHOT_EVERY_S)]
            env["SDL_VIDEODRIVER"] = "dummy"
            env["SDL_AUDIODRIVER"] = "dummy"
            self.where = f"headless: frame written to {snapshot} every {SNAPSHOT_EVERY_S} s"
        # the screen finds the playlist's video by its name in its working folder
        self.display = subprocess.Popen(command, cwd=REEL.parent, env=env)

    def print_welcome(self) -> None:
        url, keys = self.controller.url, self.keys
        key_file = self.directory / "technician.key"
        key_file.write_text(keys["technician"] + "\n", encoding="utf-8")
        key_file.chmod(0o600)
        tool = Path(sys.executable).parent / "showrunner-controller"
        print(f"\nShowrunner demo is running (files in {self.directory})")
        print(f"  controller  {url}/healthz")
        print(f"  tablet (MC) {url}/tablet  log in as {PEOPLE[0][0]}, password {self.password}")
        print(f"  cues        {url}/cue     log in as {PEOPLE[1][0]}, password {self.password}")
        print(f"  auditor     {url}/tablet  log in as {PEOPLE[2][0]}, password {self.password} "
              "(the prize register, the chain, the night's PDF)")
        print(f"  technician  {url}/screens log in as {PEOPLE[3][0]}, password {self.password} "
              "(the floor's screens and their playlists)")
        print(f"  display     screen {SCREEN} plays {PLAYLIST.relative_to(ROOT)}; {self.where}")
        print(f"  devices     the wheel's reader at table {TABLE} on the simulated wheel's pty "
              f"{self.devices.pty}, the slot bank {BANK}'s simulator; their output in "
              f"{self.directory / 'devices.log'}")
        print(f"  screens     {tool} screens --url {url} --key-file {key_file}")
        print(f"  ehost kiosk {self.kiosk.page(url)}  ({KIOSK}: type a player's card, e.g. "
              f"{Night.card_of(1, 0)}, and Enter, as its card reader does)")
        print("A scripted night runs and loops; use the tablet to take over at any point. "
              "Ctrl-C stops everything.", flush=True)

    def signal_children(self) -> list[subprocess.Popen]:
        """SIGTERM to every child still running; them."""
        self.devices.stop_simulators()
        children = [p for p in (self.display, *self.devices.children(), self.controller.process)
                    if p is not None]
        for child in children:
            if child.poll() is None:
                child.terminate()
        return children

    @staticmethod
    def reap(children: list[subprocess.Popen]) -> None:
        """Wait for them, and SIGKILL any still there after STOP_WITHIN_S."""
        deadline = time.monotonic() + STOP_WITHIN_S
        for child in children:
            try:
                child.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()

"""What the live tests of the wheel's reader share: a Cammegh game's lines, a controller with a
Super 9 game or a roulette heat playing at table AR14 and AR14's device key, what the log
holds, and the network cable between the reader's PC and the controller."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from controller.access.keys import issue_key
from controller.application.settings import CONFIG_DIR_ENV
from controller.store.target import LogAt, open_log
from tests.support.live import Client, LiveController, live_controller
from tests.support.stores import by_hand
from tests.support.super9 import play_game, session_soon
from tests.support.tables import write_tables_config
from tests.wheel.processes import key_file

#: the session starts this long after the controller is asked to start: its start-up and the
#: ticket's entry come first. A start-up too slow for it (a busy machine) is tried again on a
#: fresh log with twice the lead, rather than every test waiting for the slowest start-up.
LEAD_S = 5
ENTRY_S = 1.5  # what selling and entering the ticket take at most, before the session starts
HEAT = {"stage": "qualifying", "heat": "Heat 1"}
#: how long a ball rolls in these tests before it drops: an MC types its number only after
#: it lands, and a reading's way to the controller may take a few ms more than the MC's
#: command (a real ball rolls for 15-30 s)
ROLL_S = 1.0


def game(n: int, number: int | None, last: int | None = None, repeats: int = 3,
         states: tuple[int, ...] = (1, 2, 3, 4, 5)) -> list[str]:
    """A Cammegh game's status lines, each state repeated as the wheel does every ~500 ms."""
    lines = []
    for state in states:
        shown = number if state == 5 else last
        lines += [f"*X;{state};{n};{'' if shown is None else shown};0;700;1"] * repeats
    return lines


def games(numbers: list[int], first: int, last: int | None = None,
          repeats: int = 2) -> list[str]:
    """Consecutive games from game `first`, one a number, each showing the one before."""
    lines = []
    for i, number in enumerate(numbers):
        lines += game(first + i, number, last, repeats)
        last = number
    return lines


def events(db: LogAt) -> int:
    with by_hand(db) as connection:
        return connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def logged(db: LogAt, kind: str) -> list[tuple[str, dict[str, Any]]]:
    """Every event of type `kind` in the log: (its command id, its data)."""
    with by_hand(db) as connection:
        rows = connection.execute("SELECT command_id, data FROM events WHERE type = ? "
                                  "ORDER BY seq", (kind,)).fetchall()
    return [(command_id, json.loads(data)) for command_id, data in rows]


def spins_logged(db: LogAt) -> list[tuple[str, dict[str, Any]]]:
    """Every Super 9 spin in the log: (its command id, its reading)."""
    return [(command_id, data["reading"]) for command_id, data in
            logged(db, "Super9SpinEntered")]


def state_of(doc: dict[str, Any], name: str = "AR14") -> str | None:
    return next((d["state"] for d in doc["devices"] if d["name"] == name), None)


def reading(doc: dict[str, Any]) -> bool:
    """The ops:devices view says AR14's reader reads its wheel."""
    return state_of(doc) == "reading"


def table_row(doc: dict[str, Any], name: str = "AR14") -> dict[str, Any]:
    return next(t for t in doc["tables"] if t["table"] == name)


async def ok(mc: Client, command: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    ack = await mc.send(command, payload or {})
    assert ack["ok"], ack
    return ack


def device_key(db: LogAt, directory: Path) -> Path:
    """AR14's device key, issued at the shell as a technician does, in a file of its own."""
    log = open_log(db)
    try:
        return key_file(directory, issue_key(log, "device", "AR14", 0))
    finally:
        log.close()


@asynccontextmanager
async def super9_session(tmp_path: Path, monkeypatch: Any, new_log_at: Callable[[], LogAt]
                         ) -> AsyncIterator[tuple[LiveController, Client, Path]]:
    """A controller with a Super 9 session playing at table AR14 and AR14's device key file
    (a fresh log for each try at a later session)."""
    lead_s = LEAD_S
    while True:
        starts = time.time() + lead_s - 1  # at the latest: the config's time drops its fraction
        session_soon(tmp_path, monkeypatch, lead_s)
        db = new_log_at()
        async with live_controller(db) as ctl, ctl.client() as mc:
            if starts - time.time() >= ENTRY_S or lead_s >= 4 * LEAD_S:
                key = device_key(db, tmp_path)
                await play_game(mc)
                yield ctl, mc, key
                return
        lead_s *= 2


def sqlite_logs(tmp_path: Path) -> Callable[[], LogAt]:
    """Fresh SQLite logs: the tests of the night's edges are about the reader and the rules,
    not the store (tests/wheel/test_reader_live.py runs on both)."""
    made = iter(range(1, 100))
    return lambda: tmp_path / f"show-{next(made)}.db"


@asynccontextmanager
async def roulette_heat(tmp_path: Path, monkeypatch: Any
                        ) -> AsyncIterator[tuple[LiveController, Client, Path]]:
    """A controller with roulette Heat 1 of qualifying seated (one player) and its first spin
    taking bets at table AR14, and AR14's device key file."""
    write_tables_config(tmp_path)  # roulette qualifying today, the table open now
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    db = tmp_path / "show.db"
    async with live_controller(db) as ctl, ctl.client() as mc:
        key = device_key(db, tmp_path)
        await ok(mc, "register_member", {"card": "1234567", "display_name": "Thandi Mokoena"})
        await ok(mc, "roulette.enter", {"card": "1234567", "heat": "Heat 1"})
        await ok(mc, "roulette.open_betting", HEAT)
        yield ctl, mc, key


def heat(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["heats"][0]


class Cable:
    """The network between the reader's PC and the controller: a TCP forwarder the reader
    connects through, which the test cuts (every connection closed, new ones refused) and
    mends (on the same port), as a pulled and replugged cable."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def mend(self) -> None:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in list(self.writers):
            writer.transport.abort()
        await self.server.wait_closed()
        self.writers.clear()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self.writers |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.transport.abort()
        self.writers.discard(writer)

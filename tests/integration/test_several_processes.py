"""Issue 16: one owner and two fan-out processes on one show, through a real redis-server.

Real subprocesses on one real SQLite file, or (issue 28) on one database of a real PostgreSQL,
each process in a folder of its own as on a PC of its own, its follower woken by the appends'
NOTIFY; screens are python-socketio clients connected to different processes, as enrolled floor
screens.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import psycopg
import pytest
import socketio

from controller.application.child_process import ROOT, ControllerProcess
from controller.domain.keys import key_hash
from controller.http.media import SCREEN_HEADER
from controller.http.middleware import KEY_HEADER
from controller.store.postgres import APPENDED_CHANNEL
from controller.store.target import LogAt, is_database, open_log
from tests.support.live import Client, LiveController
from tests.support.media import picture, upload
from tests.support.redis import redis_url  # noqa: F401  (the fixture)
from tests.support.stores import run_dir

LEADERBOARD = "leaderboard:slots"
PLAYLIST = """\
name: floor-loop
scenes:
  - {scene: leaderboard, duration: 1h, params: {view: leaderboard:slots}}
"""


class Fanout(ControllerProcess):
    command = "fanout"


class ScreenClient(Client):
    """An enrolled floor screen: connects with its id and key, resyncs from what it holds."""

    def __init__(self, screen: str, key: str) -> None:
        super().__init__("", "display", key)
        self.screen = screen

    async def connect_to(self, url: str) -> None:
        self.url, self.sio = url, socketio.AsyncClient(reconnection=False)
        self.sio.on("views", self._on_views, namespace=self.namespace)
        await self.sio.connect(url, namespaces=[self.namespace], transports=["websocket"],
                               auth={"key": self.key, "screen": self.screen}, wait_timeout=10)
        reply = await self.call("sync", {"revisions": self.revisions})
        await self._on_views(reply)


def top_score(score: int):
    return lambda doc: bool(doc["rows"]) and doc["rows"][0]["score"] == score


@asynccontextmanager
async def show(tmp_path, queue: str, db: LogAt | None = None
               ) -> AsyncIterator[tuple[LiveController, list[Fanout]]]:
    """An owner and two fan-out processes on the log at `db` (by default an SQLite file),
    each run in a folder of its own."""
    db = db or tmp_path / "show.db"
    pcs = [tmp_path / f"pc-{n}" for n in range(3)]
    for pc in pcs:
        pc.mkdir()
    owner = LiveController(db, extra_args=("--message-queue", queue), cwd=pcs[0])
    owner.issue_keys()
    await owner.start()
    fanouts = [Fanout(db, extra_args=("--message-queue", queue), cwd=pc) for pc in pcs[1:]]
    try:
        for fanout in fanouts:
            await asyncio.to_thread(fanout.start)
        yield owner, fanouts
    finally:
        for process in (*fanouts, owner):
            process.stop()


async def enrol(tech: Client, screen: str) -> str:
    """Enrol and authorise `screen` in group floor, which plays the leaderboard (a screen is
    sent only the views its program shows)."""
    key = f"secret-of-{screen}"
    for type_, payload in (("screens.enrol", {"screen": screen, "group": "floor",
                                              "key_hash": key_hash(key)}),
                           ("screens.authorise", {"screen": screen}),
                           ("playlists.assign", {"file": "floor.yaml", "yaml": PLAYLIST,
                                                 "groups": ["floor"]})):
        ack = await tech.send(type_, payload)
        assert ack["ok"], ack
    return key


def screens_json(url: str, technician_key: str) -> dict[str, dict[str, Any]]:
    out = subprocess.run(
        [sys.executable, "-m", "controller.cli", "screens", "--json", "--url", url],
        cwd=ROOT, capture_output=True, text=True, timeout=20,
        env={"PATH": "/usr/bin:/bin", "SHOWRUNNER_KEY": technician_key})
    assert out.returncode == 0, out.stderr
    return {row["screen"]: row for row in json.loads(out.stdout)["screens"]}


async def test_every_screen_on_every_process_gets_each_change_and_fails_over(
        tmp_path, redis_url, log_at):  # noqa: F811
    async with show(tmp_path, redis_url, log_at) as (owner, (first, second)), \
            owner.client("technician") as tech, owner.client("operator") as mc:
        screens = {name: ScreenClient(name, await enrol(tech, name))
                   for name in ("bar-1", "bar-2", "stage-1")}
        await screens["bar-1"].connect_to(first.url)
        await screens["bar-2"].connect_to(second.url)
        await screens["stage-1"].connect_to(owner.url)
        try:
            assert (await mc.send("register_member", {"card": "1234567",
                                                      "display_name": "Thandi Mokoena"}))["ok"]
            ack = await mc.send("slots.enter", {"card": "1234567"})
            entry = ack["events"][0]["data"]["entry"]
            assert (await mc.send("slots.record_score", {"entry": entry, "score": 1200}))["ok"]
            for screen in screens.values():  # on the owner and on both fan-out processes
                await screen.wait_view(LEADERBOARD, top_score(1200))

            reply = await screens["bar-1"].call("heartbeat", {"version": "9.9", "fps": 59.5,
                                                              "scene": "leaderboard"})
            assert reply == {"ok": True}
            seen = screens_json(owner.url, owner.keys["technician"])
            assert seen["bar-1"]["online"] and seen["bar-1"]["fps"] == 59.5
            assert seen["bar-1"]["scene"] == "leaderboard" and seen["bar-2"]["online"]

            first.kill()  # bar-1's process dies; a change is made while it has no process
            assert (await mc.send("slots.record_score", {"entry": entry, "score": 3400}))["ok"]
            await screens["bar-2"].wait_view(LEADERBOARD, top_score(3400))
            assert screens["bar-1"].views[LEADERBOARD]["rows"][0]["score"] == 1200
            await screens["bar-1"].connect_to(second.url)  # fails over, resyncs what it holds
            await screens["bar-1"].wait_view(LEADERBOARD, top_score(3400), timeout=2)
            assert (await mc.send("slots.record_score", {"entry": entry, "score": 5600}))["ok"]
            for screen in screens.values():
                await screen.wait_view(LEADERBOARD, top_score(5600))
        finally:
            for screen in screens.values():
                if screen.sio.connected:
                    await screen.close()


async def test_the_console_is_told_to_use_the_owner(tmp_path, log_at, redis_url):  # noqa: F811
    async with show(tmp_path, redis_url, log_at) as (owner, (fanout, _)):
        console = Client(fanout.url, "operator", owner.keys["operator"])
        refused: list[Any] = []
        console.sio.on("connect_error", refused.append, namespace="/control")
        with pytest.raises(socketio.exceptions.ConnectionError):
            await console.connect()
        assert "the controller that owns the show" in refused[0]["message"]


async def test_a_command_sent_to_a_fanout_process_runs_on_the_owner(
        tmp_path, log_at, redis_url):  # noqa: F811
    async with show(tmp_path, redis_url, log_at) as (owner, (fanout, _)), \
            owner.client("operator") as mc:
        cue_page = Client(fanout.url, "announcer", owner.keys["operator"])  # an operator on /cue
        await cue_page.connect()
        try:
            member = {"card": "1234567", "display_name": "Thandi Mokoena"}
            ack = await cue_page.send("register_member", member, command_id="relayed-1")
            assert ack["ok"], ack
            again = await cue_page.send("register_member", member, command_id="relayed-1")
            assert again["seq"] == ack["seq"]  # relayed twice, applied once
            entry = (await mc.send("slots.enter", {"card": "1234567"}))["events"][0]["data"]
            assert entry["entry"]
            owner.stop()  # no owner: the fan-out process must not run it itself
            refused = await cue_page.send("register_member", {"card": "7654321",
                                                              "display_name": "Sipho Dube"})
            assert refused["error"]["code"] == "owner_unavailable", "".join(fanout.output)
            assert "nothing was done" in refused["error"]["message"]
            await owner.start()  # and it is not run later behind the page's back
            await asyncio.sleep(2)
            with open_log(owner.db_path, create=False) as log:
                assert not [e for e in log.read() if "7654321" in json.dumps(e.data)]
        finally:
            await cue_page.close()


async def listening_fanouts(url: str, count: int, timeout: float = 10.0) -> None:
    """Until `count` connections LISTEN for the log's appends (the fan-out processes' wake-ups,
    made once each has started following)."""
    deadline = time.monotonic() + timeout
    while True:
        with psycopg.connect(url, autocommit=True) as conn:
            (found,) = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND query = %s", (f"LISTEN {APPENDED_CHANNEL}",)).fetchone() or (0,)
        if found == count:
            return
        assert time.monotonic() < deadline, f"{found} fan-out processes listen, not {count}"
        await asyncio.sleep(0.1)


async def test_a_revoked_screen_is_cut_on_a_fanout_process(
        tmp_path, redis_url, log_at):  # noqa: F811
    """The cut is made by the fan-out process's follower (on PostgreSQL woken by the
    revocation's NOTIFY): the screen's connection and sync came before it."""
    async with show(tmp_path, redis_url, log_at) as (owner, (fanout, _)), \
            owner.client("technician") as tech:
        if is_database(log_at):
            await listening_fanouts(log_at, 2)
        screen = ScreenClient("bar-1", await enrol(tech, "bar-1"))
        refused = asyncio.get_running_loop().create_future()
        await screen.connect_to(fanout.url)
        screen.sio.on("refused", lambda data: refused.set_result(data["message"]),
                      namespace=screen.namespace)
        assert (await tech.send("screens.revoke", {"screen": "bar-1", "reason": "stolen"}))["ok"]
        assert "was revoked" in await asyncio.wait_for(refused, 10)
        await asyncio.sleep(0.5)
        assert not screen.sio.connected


def test_a_message_queue_that_does_not_answer_stops_serve_with_a_sentence(log_at):
    for url, sentence in (("http://127.0.0.1:1/0", "must be a redis:// URL"),
                          ("redis://127.0.0.1:1/0", "does not answer")):
        out = subprocess.run(
            [sys.executable, "-m", "controller.cli", "serve", "--db", str(log_at),
             "--port", "0", "--message-queue", url],
            cwd=run_dir(log_at), capture_output=True, text=True, timeout=30)
        assert out.returncode == 2 and sentence in out.stderr, out.stderr


async def test_a_screen_on_a_fanout_process_fetches_media_with_its_own_key(
        tmp_path, log_at, redis_url):  # noqa: F811
    """Issue 27: a floor screen served by a fan-out process fetches what its playlist needs
    from that process (the owner's media folder, read there), resumes by range, and is refused
    without its key: the enrolment and the medium, made on the owner a moment before, are
    known there at the first fetch."""
    async with show(tmp_path, redis_url, log_at) as (owner, (fanout, _)), \
            owner.client("technician") as tech:
        key = await enrol(tech, "bar-1")
        body = picture(noise=100)
        status, added = await upload(owner.url, owner.keys["technician"], body, "promo.png")
        assert status == 200, added
        sha = hashlib.sha256(body).hexdigest()
        screen = {KEY_HEADER: key, SCREEN_HEADER: "bar-1"}
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{fanout.url}/media/{sha}", headers=screen) as got:
                assert (got.status, await got.read()) == (200, body)
            async with session.get(f"{fanout.url}/media/{sha}",
                                   headers={**screen, "Range": "bytes=10-19"}) as got:
                assert (got.status, await got.read()) == (206, body[10:20])
            async with session.get(f"{fanout.url}/media/{sha}",
                                   headers={**screen, KEY_HEADER: "not its key"}) as got:
                assert got.status == 403

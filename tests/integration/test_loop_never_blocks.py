"""Issue 22, "Nothing blocks the loop": no coroutine on a controller's event loop makes a
blocking network call while a show is served by an owner and a fan-out process through a real
redis-server, with 100 screens on the two sending heartbeats and screenshots, and a technician
reading `/screens` over HTTP and over /control again and again.

Each controller process runs the hook of tests/support/loop_watch, which writes down any
blocking socket call made on the thread running its event loop, however short: a blocking
Redis round trip here lasts a tenth of a millisecond, which no slow-callback threshold catches
without also catching honest work.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Awaitable, Iterable
from typing import Any, TypeVar

import aiohttp

from controller.domain.keys import key_hash
from controller.http.app import KEY_HEADER
from tests.integration.test_several_processes import (
    LEADERBOARD,
    PLAYLIST,
    Fanout,
    ScreenClient,
    top_score,
)
from tests.support.live import Client, LiveController
from tests.support.loop_watch import Watch, describe, watch_children
from tests.support.redis import redis_url  # noqa: F401  (the fixture)
from tests.support.stores import run_dir

SCREENS = 100
ROUNDS = 3
AT_ONCE = 20  # screens connecting together: the two processes share 2 cores with the test
SCREENSHOT = base64.b64encode(b"\xff\xd8\xff\xe0" + bytes(6000) + b"\xff\xd9").decode()
T = TypeVar("T")


async def in_batches(calls: Iterable[Awaitable[T]]) -> list[T]:
    pending, done = list(calls), []
    for start in range(0, len(pending), AT_ONCE):
        done += await asyncio.gather(*pending[start:start + AT_ONCE])
    return done


async def enrol_floor(tech: Client, names: list[str]) -> dict[str, str]:
    """Each screen enrolled and authorised in group floor, which plays the leaderboard; its
    key."""
    keys = {}
    for name in names:
        keys[name] = f"secret-of-{name}"
        for type_, payload in (("screens.enrol", {"screen": name, "group": "floor",
                                                  "key_hash": key_hash(keys[name])}),
                               ("screens.authorise", {"screen": name})):
            ack = await tech.send(type_, payload)
            assert ack["ok"], ack
    ack = await tech.send("playlists.assign", {"file": "floor.yaml", "yaml": PLAYLIST,
                                               "groups": ["floor"]})
    assert ack["ok"], ack
    return keys


async def report_over_http(http: aiohttp.ClientSession, owner: LiveController
                           ) -> dict[str, dict[str, Any]]:
    async with http.get(f"{owner.url}/screens",
                        headers={KEY_HEADER: owner.keys["technician"]}) as response:
        assert response.status == 200, await response.text()
        return {row["screen"]: row for row in (await response.json())["screens"]}


async def report_over_control(tech: Client) -> dict[str, dict[str, Any]]:
    reply = await tech.call("screens", {})
    assert reply["ok"], reply
    return {row["screen"]: row for row in reply["screens"]}


async def all_offline(http: aiohttp.ClientSession, owner: LiveController,
                      names: list[str]) -> None:
    for _ in range(50):
        seen = await report_over_http(http, owner)
        online = [name for name in names if seen[name]["online"]]
        if not online:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"still online after they disconnected: {online}")


async def test_no_coroutine_on_a_controller_loop_makes_a_blocking_network_call(
        tmp_path, log_at, redis_url, monkeypatch):  # noqa: F811
    watched = tmp_path / "loop-watch"
    watched.mkdir()
    watch_children(monkeypatch, watched)
    owner = LiveController(log_at, extra_args=("--message-queue", redis_url))
    owner.issue_keys()
    await owner.start()
    fanout = Fanout(owner.db_path, extra_args=("--message-queue", redis_url),
                    cwd=run_dir(owner.db_path))
    pids = set()
    try:
        await asyncio.to_thread(fanout.start)
        pids = {process.process.pid for process in (owner, fanout) if process.process}
        async with owner.client("technician") as tech, owner.client("operator") as mc, \
                aiohttp.ClientSession() as http:
            names = [f"floor-{n:03}" for n in range(SCREENS)]
            keys = await enrol_floor(tech, names)
            screens = [ScreenClient(name, keys[name]) for name in names]
            await in_batches(screen.connect_to((owner, fanout)[n % 2].url)
                             for n, screen in enumerate(screens))
            try:
                await play_the_floor(owner, tech, mc, http, screens)
            finally:
                await in_batches(screen.close() for screen in screens if screen.sio.connected)
            await all_offline(http, owner, names)  # every disconnect counted while watched
    finally:
        for process in (fanout, owner):
            process.stop()
    watch = Watch.read(watched)
    assert watch.armed == pids, f"the hook ran in {set(watch.armed)}, not in {pids}"
    assert not watch.blocked, ("blocking network calls on a controller's event loop:\n\n"
                               + describe(watch.blocked))


async def play_the_floor(owner: LiveController, tech: Client, mc: Client,
                         http: aiohttp.ClientSession, screens: list[ScreenClient]) -> None:
    """A score reaches every screen; then rounds of heartbeats and screenshots from all of them,
    each round read back by the technician over HTTP and over /control."""
    assert (await mc.send("register_member", {"card": "1234567",
                                              "display_name": "Thandi Mokoena"}))["ok"]
    entry = (await mc.send("slots.enter", {"card": "1234567"}))["events"][0]["data"]["entry"]
    assert (await mc.send("slots.record_score", {"entry": entry, "score": 1200}))["ok"]
    await in_batches(screen.wait_view(LEADERBOARD, top_score(1200)) for screen in screens)
    for round_ in range(ROUNDS):
        fps = 50.0 + round_
        replies = await in_batches(
            screen.call(event, data) for screen in screens
            for event, data in (("heartbeat", {"version": "9.9", "fps": fps,
                                               "scene": "leaderboard"}),
                                ("screenshot", {"jpeg": SCREENSHOT})))
        assert all(reply == {"ok": True} for reply in replies), replies
        for seen in (await report_over_http(http, owner), await report_over_control(tech)):
            late = [s.screen for s in screens
                    if not (seen[s.screen]["online"] and seen[s.screen]["fps"] == fps)]
            assert not late, f"round {round_}: not online at {fps} fps: {late}"
        on_fanout = screens[1 + 2 * round_].screen  # asked for a fresh one through the owner
        assert (await tech.call("screenshot_request", {"screen": on_fanout}))["ok"]
        async with http.get(f"{owner.url}/screens/{on_fanout}/screenshot.jpg",
                            headers={KEY_HEADER: owner.keys["technician"]}) as response:
            assert response.status == 200 and (await response.read()).startswith(b"\xff\xd8")

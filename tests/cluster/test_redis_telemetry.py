"""Telemetry in a real Redis (controller/cluster/redis_telemetry.py): what a screen reported to
one process is what every process reports, and a dead process's screens stop counting as
online."""

from __future__ import annotations

import base64

from controller.cluster.queue import message_queue
from controller.cluster.redis_telemetry import RedisTelemetry
from tests.support.redis import redis_url  # noqa: F401  (the fixture)

JPEG = b"\xff\xd8" + b"\0" * 64


async def test_a_report_to_one_process_is_read_by_another(redis_url):  # noqa: F811
    fanout = RedisTelemetry(message_queue(redis_url, "log-a"))
    owner = RedisTelemetry(message_queue(redis_url, "log-a"))
    await fanout.alive()
    await fanout.connected("bar-1", 1000)
    assert await fanout.heartbeat("bar-1", {"fps": 60, "scene": "leaderboard", "nan": "x"}, 2000)
    assert await fanout.screenshot("bar-1", {"jpeg": base64.b64encode(JPEG).decode()}, 3000)
    assert await owner.reports(["bar-1"]) == {"bar-1": {
        "online": True, "last_seen_ms": 2000, "since_ms": 1000, "fps": 60,
        "scene": "leaderboard", "screenshot_ms": 3000}}
    assert await owner.screenshot_of("bar-1") == JPEG
    assert not await fanout.heartbeat("bar-1", ["not", "an", "object"], 4000)
    assert not await fanout.screenshot("bar-1", {"jpeg": "not base64!"}, 4000)


async def test_a_dead_process_no_longer_holds_its_screens(redis_url):  # noqa: F811
    dead, alive = (RedisTelemetry(message_queue(redis_url, "log-a")) for _ in range(2))
    for process in (dead, alive):
        await process.alive()
    await dead.connected("bar-1", 1000)
    await alive.connected("bar-2", 1000)
    await dead.redis.delete(dead._alive(dead.queue.process))  # its alive mark expired
    online = {s: r["online"] for s, r in (await alive.reports(["bar-1", "bar-2"])).items()}
    assert online == {"bar-1": False, "bar-2": True}
    await alive.disconnected("bar-2", 2000)
    assert not (await alive.reports(["bar-2"]))["bar-2"]["online"]


async def test_two_shows_on_one_redis_do_not_mix(redis_url):  # noqa: F811
    one, other = (RedisTelemetry(message_queue(redis_url, log)) for log in ("log-a", "log-b"))
    await one.alive()
    await one.connected("bar-1", 1000)
    assert await other.reports(["bar-1"]) == {"bar-1": {
        "online": False, "last_seen_ms": None, "since_ms": None, "screenshot_ms": None}}

"""Telemetry in Redis: what a screen reports to any process, the owner's `/screens` shows.

Per screen, a hash of its latest report and a hash of live connections per process. A process
says it is alive every few seconds (`keep_alive`); connections held by a process that stopped
saying so (killed, lost) no longer count, so its screens are not shown online for ever.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from controller.cluster.queue import ALIVE_S, MessageQueue
from controller.telemetry import heartbeat_fields, screenshot_jpeg


class RedisTelemetry:
    """The same questions as controller.telemetry.Telemetry, answered from Redis."""

    def __init__(self, queue: MessageQueue) -> None:
        self.queue = queue
        self.redis = queue.client()

    def _report(self, screen: str) -> str:
        return f"{self.queue.prefix}screen:{screen}"

    def _online(self, screen: str) -> str:
        return f"{self.queue.prefix}online:{screen}"

    def _alive(self, process: str) -> str:
        return f"{self.queue.prefix}process:{process}"

    def alive(self) -> None:
        self.redis.set(self._alive(self.queue.process), 1, ex=ALIVE_S)

    async def keep_alive(self) -> None:
        while True:
            await asyncio.to_thread(self.alive)
            await asyncio.sleep(ALIVE_S / 3)

    def connected(self, screen: str, now_ms: int) -> None:
        was_online = self.online(screen)
        with self.redis.pipeline() as pipe:
            pipe.hincrby(self._online(screen), self.queue.process, 1)
            pipe.hset(self._report(screen), "last_seen_ms", now_ms)
            if not was_online:
                pipe.hset(self._report(screen), "since_ms", now_ms)
            pipe.execute()

    def disconnected(self, screen: str, now_ms: int) -> None:
        with self.redis.pipeline() as pipe:
            pipe.hincrby(self._online(screen), self.queue.process, -1)
            pipe.hset(self._report(screen), "last_seen_ms", now_ms)
            pipe.execute()
        if not self.online(screen):
            self.redis.hset(self._report(screen), "since_ms", now_ms)

    def heartbeat(self, screen: str, data: Any, now_ms: int) -> bool:
        fields = heartbeat_fields(data)
        if fields is None:
            return False
        self.redis.hset(self._report(screen),
                        mapping={"heartbeat": json.dumps(fields), "last_seen_ms": now_ms})
        return True

    def screenshot(self, screen: str, data: Any, now_ms: int) -> bool:
        image = screenshot_jpeg(data)
        if image is None:
            return False
        self.redis.hset(self._report(screen),
                        mapping={"screenshot": image, "screenshot_ms": now_ms})
        return True

    def screenshot_of(self, screen: str) -> bytes | None:
        return self.redis.hget(self._report(screen), "screenshot")

    def online(self, screen: str) -> bool:
        held = {p.decode(): int(n) for p, n in self.redis.hgetall(self._online(screen)).items()}
        live = [p for p, n in held.items() if n > 0]
        return any(self.redis.exists(self._alive(p)) for p in live)

    def report(self, screen: str) -> dict[str, Any]:
        stored = self.redis.hmget(self._report(screen),
                                  ["last_seen_ms", "since_ms", "heartbeat", "screenshot_ms"])
        last_seen, since, heartbeat, shot = stored
        return {"online": self.online(screen),
                "last_seen_ms": None if last_seen is None else int(last_seen),
                "since_ms": None if since is None else int(since),
                **(json.loads(heartbeat) if heartbeat else {}),
                "screenshot_ms": None if shot is None else int(shot)}


def keep_in_redis(hub: Any, queue: MessageQueue) -> RedisTelemetry:
    """Make `hub` (controller.hub.Hub) keep telemetry in Redis; run its `keep_alive` beside."""
    telemetry = RedisTelemetry(queue)
    telemetry.alive()
    hub.telemetry = telemetry
    return telemetry

"""Telemetry in Redis: what a screen reports to any process, the owner's `/screens` shows.

Per screen, a hash of its latest report and a hash of live connections per process. A process
says it is alive every few seconds (`keep_alive`); connections held by a process that stopped
saying so (killed, lost) no longer count, so its screens are not shown online for ever.

Every call goes through `redis.asyncio`, so a slow or far Redis never holds the event loop that
fans views out; a `/screens` report reads all screens in two round trips, not three per screen.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import redis.asyncio

from controller.application.background import forever
from controller.cluster.queue import ALIVE_S, MessageQueue
from controller.realtime.telemetry import heartbeat_fields, screenshot_jpeg

log = logging.getLogger(__name__)


class RedisTelemetry:
    """controller.realtime.telemetry.Telemetry, answered from Redis for every process."""

    def __init__(self, queue: MessageQueue) -> None:
        self.queue = queue
        self.redis = redis.asyncio.Redis.from_url(queue.url)

    def _report(self, screen: str) -> str:
        return f"{self.queue.prefix}screen:{screen}"

    def _online(self, screen: str) -> str:
        return f"{self.queue.prefix}online:{screen}"

    def _alive(self, process: str) -> str:
        return f"{self.queue.prefix}process:{process}"

    async def alive(self) -> None:
        await self.redis.set(self._alive(self.queue.process), 1, ex=ALIVE_S)

    async def keep_alive(self) -> None:
        """Say this process is alive every third of `ALIVE_S`, Redis away or not (a failure
        is logged and tried again), until the process stops."""
        try:
            await forever("Telling Redis this process is alive", self.alive, log,
                          every_s=ALIVE_S / 3, retry_s=ALIVE_S / 6, retry_max_s=ALIVE_S / 3)
        finally:
            await self.redis.aclose()

    async def connected(self, screen: str, now_ms: int) -> None:
        was_online = (await self._online_of([screen]))[screen]
        async with self.redis.pipeline() as pipe:
            pipe.hincrby(self._online(screen), self.queue.process, 1)
            pipe.hset(self._report(screen), "last_seen_ms", now_ms)
            if not was_online:
                pipe.hset(self._report(screen), "since_ms", now_ms)
            await pipe.execute()

    async def disconnected(self, screen: str, now_ms: int) -> None:
        async with self.redis.pipeline() as pipe:
            pipe.hincrby(self._online(screen), self.queue.process, -1)
            pipe.hset(self._report(screen), "last_seen_ms", now_ms)
            await pipe.execute()
        if not (await self._online_of([screen]))[screen]:
            await self.redis.hset(self._report(screen), "since_ms", now_ms)

    async def heartbeat(self, screen: str, data: Any, now_ms: int) -> bool:
        fields = heartbeat_fields(data)
        if fields is None:
            return False
        await self.redis.hset(self._report(screen),
                              mapping={"heartbeat": json.dumps(fields), "last_seen_ms": now_ms})
        return True

    async def screenshot(self, screen: str, data: Any, now_ms: int) -> bool:
        image = screenshot_jpeg(data)
        if image is None:
            return False
        await self.redis.hset(self._report(screen),
                              mapping={"screenshot": image, "screenshot_ms": now_ms})
        return True

    async def screenshot_of(self, screen: str) -> bytes | None:
        # redis-py types a reply bytes | str whatever the client; this one (no
        # decode_responses) gets bytes
        return await self.redis.hget(self._report(screen), "screenshot")  # type: ignore[return-value]

    async def _online_of(self, screens: list[str]) -> dict[str, bool]:
        """Whether each screen has a connection held by a process that is still alive."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for screen in screens:
                pipe.hgetall(self._online(screen))
            held = await pipe.execute()
        live = [{p.decode() for p, n in h.items() if int(n) > 0} for h in held]
        processes = sorted(set().union(*live)) if live else []
        alive: set[str] = set()
        if processes:
            async with self.redis.pipeline(transaction=False) as pipe:
                for process in processes:
                    pipe.exists(self._alive(process))
                alive = {p for p, n in zip(processes, await pipe.execute(), strict=True) if n}
        return {screen: bool(procs & alive) for screen, procs in zip(screens, live, strict=True)}

    async def reports(self, screens: list[str]) -> dict[str, dict[str, Any]]:
        online = await self._online_of(screens)
        async with self.redis.pipeline(transaction=False) as pipe:
            for screen in screens:
                pipe.hmget(self._report(screen),
                           ["last_seen_ms", "since_ms", "heartbeat", "screenshot_ms"])
            stored = await pipe.execute()
        out = {}
        for screen, (last_seen, since, heartbeat, shot) in zip(screens, stored, strict=True):
            out[screen] = {"online": online[screen],
                           "last_seen_ms": None if last_seen is None else int(last_seen),
                           "since_ms": None if since is None else int(since),
                           **(json.loads(heartbeat) if heartbeat else {}),
                           "screenshot_ms": None if shot is None else int(shot)}
        return out

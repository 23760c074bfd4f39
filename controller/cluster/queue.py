"""The message queue: one Redis database, named by URL, shared by every process of one show."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import redis

from controller.realtime.direct import DirectRedisManager
from controller.store.sqlite import StoreError

ALIVE_S = 15  # a process that has not said it is alive for this long is gone (its screens too)


@dataclass(frozen=True)
class MessageQueue:
    """`url`: redis://HOST:PORT/N; `log_id`: the show's log, so that two shows sharing a Redis
    never hear each other (pub/sub channels ignore the database number)."""

    url: str
    log_id: str
    process: str = field(default_factory=lambda: uuid.uuid4().hex[:12])

    @property
    def prefix(self) -> str:
        return f"showrunner:{self.log_id}:"

    def manager(self) -> DirectRedisManager:
        return DirectRedisManager(self.url, channel=f"{self.prefix}socketio")

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)


def message_queue(url: str, log_id: str) -> MessageQueue:
    """The queue at `url`, checked now: a wrong URL or a Redis that does not answer stops the
    process at start-up with a sentence, not at the first change on the floor."""
    if urlsplit(url).scheme not in ("redis", "rediss"):
        raise StoreError(f"--message-queue must be a redis:// URL (e.g. redis://127.0.0.1:6379/0), "
                         f"not {url!r}.")
    queue = MessageQueue(url, log_id)
    try:
        queue.client().ping()
    except (redis.RedisError, ValueError) as exc:
        raise StoreError(f"The message queue at {url} does not answer ({exc}); start Redis or "
                         "fix --message-queue.") from None
    return queue

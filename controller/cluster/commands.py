"""A command sent to a fan-out process runs on the owner: a request/response over Redis.

The fan-out process pushes {envelope, principal, reply_to} on one list; the owner pops them in
order, runs each like its own clients' commands (the same idempotency by principal and command
id), and pushes the ack to the reply list. A page on a fan-out process so gets the owner's ack.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import uuid
from typing import Any

import redis.asyncio

from controller.access.keys import Principal
from controller.application.background import forever
from controller.cluster.queue import MessageQueue
from controller.domain.errors import refusal
from controller.realtime.hub import Hub

ANSWER_S = 5
REPLY_KEPT_S = 60
REDIS_RETRY_MAX_S = 2.0  # Redis away for a while: tried again this often
log = logging.getLogger(__name__)
NOT_RUN = refusal(
    "owner_unavailable", "The controller that owns the show did not answer, so nothing was "
    "done; send it again when it is back.")
NO_ANSWER = refusal(
    "owner_unavailable", "The controller that owns the show did not answer in time; send it "
    "again (a command is applied once, however often it is sent).")


def _requests(queue: MessageQueue) -> str:
    return f"{queue.prefix}commands"


class CommandRelay:
    """The fan-out side: send a page's command to the owner and wait for its ack."""

    def __init__(self, queue: MessageQueue) -> None:
        self.queue = queue
        # reads wait longer than a blocking pop (redis-py's default would cut it short)
        self.redis = redis.asyncio.Redis.from_url(queue.url, socket_timeout=2 * ANSWER_S)

    async def execute(self, envelope: Any, principal: Principal) -> dict[str, Any]:
        reply_to = f"{self.queue.prefix}reply:{uuid.uuid4().hex}"
        request = {"reply_to": reply_to, "envelope": envelope,
                   "principal": dataclasses.asdict(principal)}
        sent = json.dumps(request)
        await self.redis.rpush(_requests(self.queue), sent)
        answer = await self.redis.blpop([reply_to], timeout=ANSWER_S)
        if answer is None and await self.redis.lrem(_requests(self.queue), 1, sent):
            return NOT_RUN  # taken back unread: it can never run later, behind the page's back
        if answer is None:  # the owner took it: its ack is on its way
            answer = await self.redis.blpop([reply_to], timeout=ANSWER_S)
        return NO_ANSWER if answer is None else json.loads(answer[1])


async def serve_commands(hub: Hub, queue: MessageQueue) -> None:
    """The owner's side: run the commands fan-out processes relay, one at a time, in order."""
    client = redis.asyncio.Redis.from_url(queue.url, socket_timeout=2 * ANSWER_S)

    async def turn() -> None:
        """The next relayed command, run and answered. Redis away raises (`forever` logs it
        and tries again within `REDIS_RETRY_MAX_S`; the owner's own pages go on)."""
        popped = await client.blpop([_requests(queue)], timeout=1)
        if popped is None:
            return
        try:
            request = json.loads(popped[1])
            ack = await hub.execute(request["envelope"], Principal(**request["principal"]))
        except Exception:  # a relayed command must not stop the owner from serving the next
            log.exception("a command relayed by a fan-out process failed")
            return
        async with client.pipeline() as pipe:
            await pipe.rpush(request["reply_to"], json.dumps(ack))
            await pipe.expire(request["reply_to"], REPLY_KEPT_S)
            await pipe.execute()

    await forever("Commands relayed by fan-out processes (Redis)", turn, log, retry_s=0.5,
                  retry_max_s=REDIS_RETRY_MAX_S)

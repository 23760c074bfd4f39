"""The three calls of the slots feed API (docs/slots-feed.md) as a small aiohttp client.

A POST that got no answer (the controller restarting, a dropped connection) is sent again,
with the same body, until `retry_for_s` has passed: the controller binds a heat by its
`feed_heat`, so a repeated heat start or end is refused as `already_started` /
`already_ended`, which this client takes as done. Every other refusal is raised as `Refused`,
carrying the controller's own sentence.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable
from types import TracebackType
from typing import Any
from urllib.parse import quote

import aiohttp

KEY_HEADER = "X-Showrunner-Key"  # the device key of the bank (controller/http/middleware.py)
#: refusals that mean a repeated POST already happened: the first one was applied
DONE_ALREADY = frozenset({"already_started", "already_ended"})
REQUEST_TIMEOUT_S = 10.0
RETRY_FOR_S = 30.0
RETRY_DELAY_S = 0.5


class FeedError(Exception):
    """The feed call failed; str() is one sentence for the technician."""


class Refused(FeedError):
    """The controller answered and refused: its code and sentence."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class NotLeading(Exception):
    """The controller reached does not lead the show's log: nothing was done; try another."""


Reading = tuple[str, int]  # (machine, credits)


class BankClient:
    """One bank's feed client: `urls` the controller (or each controller of one PostgreSQL
    log: a POST unanswered, or answered `not_leader`, goes to the next), `key` the bank's
    device key."""

    def __init__(self, urls: tuple[str, ...], key: str, bank: str, *,
                 retry_for_s: float = RETRY_FOR_S, retry_delay_s: float = RETRY_DELAY_S) -> None:
        self.urls = urls
        self.at = 0
        self.path = f"/api/v1/slots/banks/{quote(bank, safe='')}"
        self.bank = bank
        self.retry_for_s = retry_for_s
        self.retry_delay_s = retry_delay_s
        self.session = aiohttp.ClientSession(
            headers={KEY_HEADER: key}, timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S))

    async def __aenter__(self) -> BankClient:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        await self.session.close()

    async def start_heat(self, feed_heat: str, machines: list[str], start_credits: int,
                         duration_s: int) -> dict[str, Any]:
        """Heat started on `machines` (the bank's sequential order: seats 1..n, slots rule 11);
        the answer names the stage, heat and `ends_at_ms` (empty of them when a repeat)."""
        return await self.post("/heats", {"feed_heat": feed_heat, "machines": machines,
                                          "start_credits": start_credits,
                                          "duration_s": duration_s})

    async def credits(self, feed_heat: str, readings: Iterable[Reading]) -> dict[str, Any]:
        """Live credits of some machines (not recorded: the live view only)."""
        return await self.post(f"/heats/{quote(feed_heat, safe='')}/credits",
                               {"readings": [{"machine": m, "credits": c} for m, c in readings]})

    async def end_heat(self, feed_heat: str, finals: Iterable[Reading]) -> dict[str, Any]:
        """Heat ended with every machine's final credits: recorded, for the director to accept."""
        return await self.post(f"/heats/{quote(feed_heat, safe='')}/end",
                               {"finals": [{"machine": m, "credits": c} for m, c in finals]})

    @property
    def url(self) -> str:
        return self.urls[self.at]

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST `body`, again while unanswered or sent to a controller that does not lead (a
        repeat of a done POST is answered as done); the `{"ok": true, ...}` answer."""
        data = json.dumps(body).encode()
        give_up = time.monotonic() + self.retry_for_s
        while True:
            try:
                async with self.session.post(self.url + self.path + path, data=data, headers={
                        "Content-Type": "application/json"}) as response:
                    return answer(response.status, await response.read())
            except (aiohttp.ClientConnectionError, TimeoutError, NotLeading) as exc:
                if time.monotonic() >= give_up:
                    reason = str(exc) or type(exc).__name__
                    raise FeedError(f"No controller at {', '.join(self.urls)} took it for "
                                    f"{self.retry_for_s:g} s ({reason}).") from None
                self.at = (self.at + 1) % len(self.urls)
                await asyncio.sleep(self.retry_delay_s)


def answer(status: int, raw: bytes) -> dict[str, Any]:
    """The success body; a refusal as `Refused` (a repeat of a done POST counts as done)."""
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        text = raw[:200].decode("utf-8", "replace").strip() or "no body"
        raise FeedError(f"The controller answered HTTP {status} without a feed answer: {text}.")
    if body.get("ok") is True:
        return body
    error = body.get("error")
    if not isinstance(error, dict):
        raise FeedError(f"The controller answered HTTP {status} with an answer this client "
                        "cannot read.")
    code, message = str(error.get("code", "")), str(error.get("message", ""))
    if code in DONE_ALREADY:
        return {"ok": True, "already": code}
    if code == "not_leader":
        raise NotLeading(message)
    raise Refused(code, message or f"Refused ({code}).", status)

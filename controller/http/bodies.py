"""Reading a request's body at the HTTP doors: capped in size, bounded in time, and JSON read
strictly (controller/domain/strict_json.py).

A body that stops arriving (a chunked body that never ends, a client that stalls) is refused
after `HttpLimits.body_s` with 408 and the connection is closed, so it cannot hold the
controller's sockets; each door answers it in its own shape (`too_slow`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from controller.domain import strict_json
from controller.domain.errors import refusal
from controller.http.limits import limits_of

READ_CHUNK = 16 * 1024
JSON_BODY_BYTES = 64 * 1024  # a page's JSON (a login, a rehearsal's start)


class SlowBody(Exception):
    """The body did not arrive in time: str() is the sentence to answer with."""


def slow_sentence(seconds: float) -> str:
    return (f"The request's body did not arrive within {seconds:g} s of its headers, so "
            "nothing was done; send it again in one go.")


async def read_capped(request: web.Request, cap: int) -> bytes | None:
    """The whole body, or None once it passes `cap` bytes (by its declared length before a
    byte of it is read; the rest is never read); `SlowBody` when it has not all arrived within
    the app's `body_s` of this call."""
    if request.content_length is not None and request.content_length > cap:
        return None
    seconds = limits_of(request.app).body_s
    body = bytearray()
    try:
        async with asyncio.timeout(seconds):
            while chunk := await request.content.read(READ_CHUNK):
                body += chunk
                if len(body) > cap:
                    return None
    except TimeoutError:
        raise SlowBody(slow_sentence(seconds)) from None
    return bytes(body)


async def read_json(request: web.Request, cap: int = JSON_BODY_BYTES) -> Any:
    """The body as strict JSON; None when it is too large or not such JSON (the door says
    what it wanted); `SlowBody` as `read_capped`."""
    raw = await read_capped(request, cap)
    if raw is None:
        return None
    try:
        return strict_json.loads(raw)
    except strict_json.JsonRefused:
        return None


def too_slow(doc: dict[str, Any]) -> web.Response:
    """A 408 with `doc`, closing the connection (what is left of the body is never read)."""
    response = web.json_response(doc, status=408)
    response.force_close()
    return response


def too_slow_refusal(exc: SlowBody) -> web.Response:
    """`too_slow` in the shape of a refused command (the API's, a login's, a signature's)."""
    return too_slow(refusal("too_slow", str(exc)))

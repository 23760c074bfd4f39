"""Media for tests: pictures made with Pillow, uploads over real HTTP, and a proxy between a
screen and the controller that can cut, spoil or hold a download (a real aiohttp server on an
ephemeral port: what it forwards comes from the real controller)."""

from __future__ import annotations

import asyncio
import io
import os
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from PIL import Image

from controller.http.middleware import KEY_HEADER


def picture(colour: tuple[int, int, int] = (200, 40, 40), size: tuple[int, int] = (64, 36),
            noise: int = 0) -> bytes:
    """A PNG of one colour; `noise` > 0 makes it that many KiB larger (random rows), so a
    download takes several chunks."""
    image = Image.new("RGB", size, colour)
    if noise:  # random pixels, stored uncompressed: about `noise` KiB
        side = int((noise * 1024 / 3) ** 0.5) + 1
        image = Image.frombytes("RGB", (side, side), os.urandom(side * side * 3))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=0)
    return out.getvalue()


async def upload(url: str, key: str | None, body: bytes, filename: str,
                 name: str | None = None) -> tuple[int, dict[str, Any]]:
    """`POST /media` as a technician's page or the CLI sends it: (status, answer)."""
    form = aiohttp.FormData()
    if name is not None:
        form.add_field("name", name)
    form.add_field("file", body, filename=filename, content_type="application/octet-stream")
    headers = {KEY_HEADER: key} if key else {}
    async with aiohttp.ClientSession() as session, session.post(
            f"{url}/media", data=form, headers=headers) as response:
        return response.status, await response.json(content_type=None)


@dataclass
class Asked:
    """One request the proxy forwarded: its Range header and how it was answered."""

    range: str | None
    mode: str


@dataclass
class MediaProxy:
    """Forwards `GET /media/<sha>` to the controller. `modes` is a queue, one per request
    (then "pass"): "cut:N" sends N bytes of the answer and closes the connection, "spoil"
    flips a byte, "hold" waits until `release` is set."""

    upstream: str
    modes: list[str] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    asked: list[Asked] = field(default_factory=list)
    url: str = ""

    async def __aenter__(self) -> MediaProxy:
        app = web.Application()
        app.router.add_get("/media/{sha}", self._forward)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release.set()
        await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        mode = self.modes.pop(0) if self.modes else "pass"
        self.asked.append(Asked(request.headers.get("Range"), mode))
        if mode == "hold":
            await self.release.wait()
        wanted = ("Range", KEY_HEADER, "X-Showrunner-Screen")
        headers = {k: request.headers[k] for k in wanted if k in request.headers}
        async with aiohttp.ClientSession() as session, session.get(
                f"{self.upstream}{request.path}", headers=headers) as answer:
            body = await answer.read()
            status = answer.status
            passed = {k: answer.headers[k] for k in ("Content-Range", "Content-Type")
                      if k in answer.headers}
        if mode == "spoil" and body:
            body = bytes([body[0] ^ 0xFF]) + body[1:]
        response = web.StreamResponse(status=status, headers=passed)
        response.content_length = len(body)
        await response.prepare(request)
        if mode.startswith("cut:"):
            await response.write(body[:int(mode.removeprefix("cut:"))])
            assert request.transport is not None
            request.transport.close()  # mid-answer: the screen sees a broken download
            return response
        await response.write(body)
        await response.write_eof()
        return response

"""What the controller takes from aiohttp's server beyond its documented API, pinned, so a
release that moves it fails here rather than on the floor (controller/http/connections.py,
controller/cli/serve.py; docs/operations.md, "Slow and broken clients").

aiohttp has no timeout of its own for reading a request's headers. Since 3.14 its
`keepalive_timeout` is armed when a connection opens and after each answer, and closes the
connection at that moment if the next request's head has not all arrived, whatever bytes of
it came meanwhile; a request whose head arrived is never cut by it. `serve` relies on that as
its header timeout. `lingering_time` bounds how long a body nobody reads is drained after the
answer. `JsonErrors` replaces the class of aiohttp's live RequestHandler and overrides the
method aiohttp answers an unreadable request and a handler's exception with.

Each test runs a real server on a real socket with timeouts of a fraction of a second.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from controller.access.addresses import TrustedProxies
from controller.http.connections import JsonErrors, listen
from controller.http.limits import HttpLimits
from tests.support.raw_http import connect, exchange, read_answer

TIMEOUT_S = 0.3
GET = b"GET /fast HTTP/1.1\r\nHost: x\r\n\r\n"


async def fast(request: web.Request) -> web.Response:
    return web.Response(text="fast")


async def slow(request: web.Request) -> web.Response:
    await asyncio.sleep(TIMEOUT_S * 4)  # longer than the header timeout
    return web.Response(text="slow")


async def deaf(request: web.Request) -> web.Response:
    return web.Response(text="not read")  # never reads the body


async def fails(request: web.Request) -> web.Response:
    raise RuntimeError("a bug")


async def echo(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    async for message in ws:
        await ws.send_str(message.data)
    return ws


@asynccontextmanager
async def server() -> AsyncIterator[int]:
    """The app served as `serve` serves it, with short limits; its port."""
    app = web.Application()
    app.router.add_get("/fast", fast)
    app.router.add_get("/slow", slow)
    app.router.add_post("/deaf", deaf)
    app.router.add_get("/fails", fails)
    app.router.add_get("/ws", echo)
    limits = HttpLimits(header_s=TIMEOUT_S, body_s=TIMEOUT_S, per_address=50, connections=100)
    runner = web.AppRunner(app, keepalive_timeout=limits.header_s,
                           lingering_time=limits.body_s, access_log=None)
    await runner.setup()
    listening = await listen(runner, "127.0.0.1", 0, limits, TrustedProxies())
    try:
        yield listening.sockets[0].getsockname()[1]
    finally:
        listening.close()
        await runner.cleanup()


async def closed_without_answer(reader: asyncio.StreamReader) -> bool:
    """The server closed the connection and sent nothing: an end of stream, or a reset (a
    server that closes with bytes of ours unread in its socket resets it)."""
    try:
        return await asyncio.wait_for(reader.read(1), 10) == b""
    except ConnectionResetError:
        return True


async def test_a_connection_that_sends_nothing_is_closed_at_the_timeout():
    async with server() as port:
        reader, writer = await connect(port)
        assert await closed_without_answer(reader)
        writer.close()


async def test_a_head_a_byte_at_a_time_is_cut_however_its_bytes_keep_coming():
    async with server() as port:
        reader, writer = await connect(port)
        head = b"GET /fast HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"a" * 400
        sent = 0
        try:
            for byte in head:  # 400+ bytes, 20 ms apart: 8 s if never cut
                if reader.at_eof():
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                sent += 1
                await asyncio.sleep(0.02)
        except ConnectionError:
            pass
        assert sent < len(head)
        assert await closed_without_answer(reader)
        writer.close()


async def test_after_an_answer_the_next_head_has_the_same_time_and_an_idle_one_is_closed():
    async with server() as port:
        reader, writer = await connect(port)
        writer.write(GET)
        assert b"200 OK" in await read_answer(reader)
        assert await closed_without_answer(reader)
        writer.close()


async def test_a_request_whose_head_arrived_is_never_cut_by_it():
    async with server() as port:
        answer = await exchange(port, b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (answer.status, answer.body) == (200, b"slow")
        async with aiohttp.ClientSession() as http, \
                http.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
            await asyncio.sleep(TIMEOUT_S * 4)  # a socket stays open past the header timeout
            await ws.send_str("still here")
            assert await ws.receive_str() == "still here"


async def test_a_body_nobody_reads_is_drained_no_longer_than_the_lingering_time():
    async with server() as port:
        reader, writer = await connect(port)
        writer.write(b"POST /deaf HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                     b"5\r\nhello\r\n")  # and never the last chunk
        assert b"not read" in await read_answer(reader)
        assert await closed_without_answer(reader)
        writer.close()


async def test_aiohttps_own_answers_are_in_the_doors_shape():
    assert RequestHandler.__slots__ and JsonErrors.__slots__ == ()  # the same layout
    assert list(inspect.signature(RequestHandler.handle_error).parameters) == \
        ["self", "request", "status", "exc", "message"]
    async with server() as port:
        unreadable = await exchange(port, b"GET /fast HTTP/1.1\r\nHost: x\r\nX-Key: a\x00b\r\n\r\n")
        assert unreadable.status == 400
        assert unreadable.json()["error"]["code"] == "bad_request"
        too_long = await exchange(port, b"GET /fast HTTP/1.1\r\nHost: x\r\nX-Key: " +
                                  b"k" * 10_000 + b"\r\n\r\n")
        assert (too_long.status, too_long.json()["error"]["code"]) == (400, "bad_request")
        failed = await exchange(port, b"GET /fails HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (failed.status, failed.json()["error"]["code"]) == (500, "server_error")

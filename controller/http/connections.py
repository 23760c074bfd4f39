"""The controller's listening socket, with a cap on the connections a client may hold open.

aiohttp serves whatever connects, for as long as it stays: hundreds of half-sent requests from
one address would each hold a file descriptor until the process runs out (and then the log,
its snapshots and its media cannot open a file either). Here every connection is counted by
its client address as it is accepted, before a byte of it is read: past
`HttpLimits.per_address` from one address, or `HttpLimits.total()` in all, it is answered 503 in
words and closed. A trusted proxy's connections (`--trusted-proxy`) carry many clients and
are counted in all only.

The time a client may take is aiohttp's to enforce, as `serve` sets it
(`AppRunner(keepalive_timeout=header_s, lingering_time=body_s)`: tests/http/
test_aiohttp_contract.py pins what that does) and the doors' own (controller/http/bodies.py).

What aiohttp answers itself, before any door sees the request (a header line over 8 KiB or
with a control character, a request line that is not HTTP) or when a handler fails, it answers
in the doors' JSON shape (`JsonErrors`), with one log line for the client's fault.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

from controller.access.addresses import TrustedProxies, parse_address
from controller.domain.errors import refusal
from controller.http.limits import HttpLimits

log = logging.getLogger(__name__)
ALL = "all"  # the key of the cap on every connection, beside the addresses'


class Connections:
    """The connections open now, per client address and in all."""

    def __init__(self, limits: HttpLimits, proxies: TrustedProxies) -> None:
        self.per_address, self.total = limits.per_address, limits.total()
        self.proxies = proxies
        self.open: dict[str, int] = {}
        self.count = 0
        self.refusing: set[str] = set()  # addresses (or ALL) refused since last admitted

    def admit(self, address: str) -> str | None:
        """Count a new connection from `address`; or the sentence it is refused with."""
        counted = not self.proxies.trusts(parse_address(address))
        if self.count >= self.total:
            return self._refuse(ALL, f"The controller holds {self.total} connections, its "
                                     "most; try again in a moment.")
        if counted and self.open.get(address, 0) >= self.per_address:
            return self._refuse(address, f"Your address holds {self.per_address} connections "
                                         "to the controller, the most one address may; close "
                                         "some and try again.")
        self.count += 1
        if counted:
            self.open[address] = self.open.get(address, 0) + 1
        for key in (address, ALL):
            if key in self.refusing:
                self.refusing.discard(key)
                log.warning("connections %s admitted again", "from " + key if key != ALL
                            else "to the controller")
        return None

    def release(self, address: str) -> None:
        self.count -= 1
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)

    def _refuse(self, key: str, sentence: str) -> str:
        if key not in self.refusing:  # once per storm, not once per connection
            self.refusing.add(key)
            log.warning("connections %s refused: %s", "from " + key if key != ALL
                        else "to the controller", sentence)
        return sentence


def refused_answer(sentence: str) -> bytes:
    """A whole HTTP answer for a connection refused before its request was read."""
    body = json.dumps(refusal("too_many_connections", sentence)).encode()
    head = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n")
    return head.encode() + body


class JsonErrors(RequestHandler):
    """aiohttp's protocol, its own answers in the doors' shape: `{"ok": false, "error": {code,
    message}}`. A live RequestHandler becomes one in `Counted` (no new slots: the same layout,
    so its class may be set), and aiohttp calls `handle_error` for a request it could not
    parse and for a handler's exception (tests/http/test_aiohttp_contract.py)."""

    __slots__ = ()

    def handle_error(self, request: BaseRequest, status: int = 500,
                     exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if request.writer.output_size > 0:  # as aiohttp: an answer begun cannot be replaced
            raise ConnectionError("an answer was sent already; the connection is cut")
        if status >= 500:
            self.log_exception("Error handling request from %s", request.remote, exc_info=exc)
            doc = refusal("server_error", "The controller failed to answer this request (its "
                                          "error is logged for the technician).")
        else:
            detail = (message or str(exc) or "").split("\n")[0][:120]
            log.warning("unreadable HTTP request from %s: %r", request.remote, detail)
            doc = refusal("bad_request", f"The request could not be read as HTTP (error "
                                         f"{status}: a header line over 8 KiB or not text, or "
                                         "a malformed request line), so nothing was done.")
        response = web.json_response(doc, status=status)
        response.force_close()
        return response


class Counted(asyncio.Protocol):
    """One accepted connection: counted, then handed to aiohttp's protocol (a `web.Server` is
    the protocol factory `loop.create_server` takes), or answered and closed."""

    def __init__(self, connections: Connections, factory: Callable[[], asyncio.Protocol]):
        self.connections, self.factory = connections, factory
        self.inner: asyncio.Protocol | None = None
        self.address = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
        refused = self.connections.admit(address)
        if refused is not None:
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(refused_answer(refused))
            transport.close()
            return
        self.address, self.inner = address, self.factory()
        if type(self.inner) is RequestHandler:
            self.inner.__class__ = JsonErrors
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.connections.release(self.address)
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


async def listen(runner: web.AppRunner, host: str, port: int, limits: HttpLimits,
                 proxies: TrustedProxies) -> asyncio.Server:
    """Serve `runner`'s app on `host`:`port` (0: a free port), its connections counted. Close
    the server before the runner's cleanup, so none is accepted while it shuts down."""
    server = runner.server
    assert server is not None, "runner.setup() first"
    connections = Connections(limits, proxies)
    return await asyncio.get_running_loop().create_server(
        lambda: Counted(connections, server), host, port)

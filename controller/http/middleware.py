"""What every controller process does to each HTTP request and answer, the owner's and a
fan-out process's alike: a key that is not plain text is a 400 before any handler sees it (in
the API's error shape under `/api/`), and every answer carries the security headers."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable

from aiohttp import web

from controller.access.attempts import NOT_PLAIN, plain_key
from controller.domain.errors import refusal

KEY_HEADER = "X-Showrunner-Key"
API_PATHS = "/api/"  # the API's doors answer every refusal as JSON (controller/http/api/)
HOST = re.compile(r"[A-Za-z0-9.:\[\]-]{1,255}")
keys_log = logging.getLogger("controller.keys")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def content_security_policy(host: str) -> str:
    """Scripts, styles and images from this controller only (the socket.io client is served
    from /vendor); sockets back to it; never inside a frame."""
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"font-src 'self'; connect-src 'self' ws://{host} wss://{host}; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """CSP, frame, sniffing and referrer headers on every answer (pages, files, errors, the
    socket upgrade): set as each response is prepared, so none can miss them."""
    response.headers.update(SECURITY_HEADERS)
    host = request.host if HOST.fullmatch(request.host) else "localhost"
    response.headers["Content-Security-Policy"] = content_security_policy(host)


@web.middleware
async def plain_keys(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A key that is not plain text (invalid UTF-8, a lone surrogate, not ASCII, over 200
    characters) is a 400, logged once: `key_not_plain` in the API's shape on its paths."""
    keys = [request.headers.get(KEY_HEADER), *request.query.getall("key", [])]
    if any(key is not None and not plain_key(key) for key in keys):
        keys_log.warning("bad key encoding from %s on %s", request.remote, request.path)
        if request.path.startswith(API_PATHS):
            return web.json_response(refusal("key_not_plain", NOT_PLAIN), status=400)
        raise web.HTTPBadRequest(text=NOT_PLAIN)
    return await handler(request)

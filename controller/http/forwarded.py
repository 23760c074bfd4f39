"""The client's address on every request, the sockets' upgrades included: behind a trusted
proxy, the one it forwarded (controller/access/addresses.py), set as the request's `remote`
so that every door and log line downstream counts and names the client, not the proxy."""

from __future__ import annotations

from aiohttp import web
from aiohttp.typedefs import Middleware

from controller.access.addresses import FORWARDED_FOR, TrustedProxies
from controller.http.middleware import Handler


def client_addresses(proxies: TrustedProxies) -> Middleware:
    """The first middleware of an app: `request.remote` becomes the client's address."""

    @web.middleware
    async def forwarded(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not proxies.networks:
            return await handler(request)
        client = proxies.client(request.remote, request.headers.getall(FORWARDED_FOR, []))
        if client == request.remote:
            return await handler(request)
        return await handler(request.clone(remote=client))

    return forwarded

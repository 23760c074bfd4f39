"""Who is asking a route that people's pages and machines share: a person logged in (the
session cookie) or a machine's key in the key header. The key is always checked first; a
wrong one is counted and slowed as on the sockets (`wrong_key`, the one helper every HTTP door
uses: controller/access/attempts.py). Used by the screens' report and thumbnails, by the
signatures and by the API's auth."""

from __future__ import annotations

from collections.abc import Collection

from aiohttp import web

from controller.access.attempts import plain_key
from controller.access.keys import Principal, authenticate
from controller.access.logins import live_session
from controller.access.people import user_principal
from controller.domain.errors import Rejected
from controller.http.logins import logins_key
from controller.http.middleware import KEY_HEADER
from controller.http.shared import attempts_key
from controller.store.log import StoredLog

HTTP_DOOR = "http"  # the wrong-key counter's name for HTTP, beside the sockets' namespaces
WRONG_KEY = "Unknown or revoked key."


async def wrong_key(request: web.Request, reason: str = WRONG_KEY) -> str:
    """Count the request's key as wrong, pause if its address or key is past the allowance,
    and return the sentence to refuse it with."""
    key = request.headers.get(KEY_HEADER)
    return await request.app[attempts_key].refuse(
        request.remote or "unknown", HTTP_DOOR, reason, key if plain_key(key) else None)


async def caller(request: web.Request, log: StoredLog, roles: Collection[str], log_in: str,
                 not_allowed: str) -> str:
    """The name of the person or key asking, when its role is one of `roles`; else `Rejected`
    with `not_logged_in` (saying `log_in`; a wrong key's refusal says so, after its pause) or
    `not_allowed` (saying `not_allowed`)."""
    return (await caller_principal(request, log, roles, log_in, not_allowed)).name


async def caller_principal(request: web.Request, log: StoredLog, roles: Collection[str],
                           log_in: str, not_allowed: str) -> Principal:
    """As `caller`, the whole principal: for a route that sends a command in its name."""
    if KEY_HEADER not in request.headers:
        logins = request.app[logins_key]
        session = live_session(logins, log, request.cookies.get(logins.policy.cookie))
        if session is None:
            raise Rejected("not_logged_in", log_in)
        if session.role not in roles:
            raise Rejected("not_allowed", not_allowed)
        return Principal(session.role, session.name, user_principal(session.name))
    principal = authenticate(log, {"key": request.headers.get(KEY_HEADER)})
    if principal is None:
        raise Rejected("not_logged_in", f"{await wrong_key(request)} {log_in}")
    if principal.role not in roles:
        raise Rejected("not_allowed", not_allowed)
    return principal

"""Who is asking a route that people's pages and machines share: a person logged in (the
session cookie) or a machine's key in the key header. Wrong keys count against the address as
they do on the sockets. Used by the screens' report and thumbnails and by the signatures."""

from __future__ import annotations

from collections.abc import Collection

from aiohttp import web

from controller.access.attempts import TOO_MANY
from controller.access.keys import authenticate
from controller.access.logins import live_session
from controller.domain.errors import Rejected
from controller.http.logins import logins_key
from controller.http.middleware import KEY_HEADER
from controller.http.shared import attempts_key
from controller.store.sqlite import EventLog

HTTP_DOOR = "http"  # the wrong-key counter's name for HTTP, beside the sockets' namespaces


def caller(request: web.Request, log: EventLog, roles: Collection[str], log_in: str,
           not_allowed: str) -> str:
    """The name of the person or key asking, when its role is one of `roles`; else `Rejected`
    with `not_logged_in` (saying `log_in`), `not_allowed` (saying `not_allowed`) or
    `too_many` (this address sent too many wrong keys)."""
    if KEY_HEADER not in request.headers:
        logins = request.app[logins_key]
        session = live_session(logins, log, request.cookies.get(logins.policy.cookie))
        if session is None:
            raise Rejected("not_logged_in", log_in)
        if session.role not in roles:
            raise Rejected("not_allowed", not_allowed)
        return session.name
    attempts, address = request.app[attempts_key], request.remote or "unknown"
    if attempts.blocked(address, HTTP_DOOR):
        raise Rejected("too_many", TOO_MANY)
    principal = authenticate(log, {"key": request.headers.get(KEY_HEADER)})
    if principal is None:
        attempts.failed(address, HTTP_DOOR, "Unknown or revoked key.")
        raise Rejected("not_logged_in", log_in)
    if principal.role not in roles:
        raise Rejected("not_allowed", not_allowed)
    return principal.name

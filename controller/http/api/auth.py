"""Who may call an API route: a device key whose holder name is the bank (or table) in the
path, or the venue's member-app backend key. Both first need a known key (`known_key`): the key
is checked first, and a wrong one counts and is slowed as everywhere (`wrong_key`,
controller/http/callers.py); a right key never waits."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from controller.access.keys import Principal, authenticate
from controller.access.rates import Rates
from controller.http.api.framework import ApiError
from controller.http.callers import wrong_key
from controller.http.middleware import KEY_HEADER
from controller.http.shared import hub_key

#: the member app's calls a second per app key, and at once (docs/member-api.md)
app_rates_key = web.AppKey("app_rates", Rates)


async def known_key(request: web.Request, missing: str) -> Principal:
    """The principal of the key in the key header: present, plain text, known and unrevoked
    (`missing` says which key to send when there is none)."""
    key = request.headers.get(KEY_HEADER)
    if not key:
        raise ApiError("no_key", missing)
    principal = authenticate(request.app[hub_key].service.log, {"key": key}) \
        if key.isascii() and key.isprintable() else None
    if principal is None:
        raise ApiError("bad_key", await wrong_key(request))
    return principal


def device_for(param: str) -> Callable[[web.Request], Awaitable[Principal]]:
    """The device principal for the path parameter `param` (a bank's name)."""

    async def auth(request: web.Request) -> Principal:
        principal = await known_key(request, f"Send the bank's device key in {KEY_HEADER}.")
        if principal.role != "device":
            raise ApiError("not_allowed", "Only a device key may report for a bank.")
        wanted = request.match_info[param]
        if principal.name != wanted:
            raise ApiError("wrong_bank", f"This key reports for {principal.name}, not "
                                         f"{wanted}.")
        return principal

    return auth


async def member_app(request: web.Request) -> Principal:
    """The venue's member-app backend: an `app` key, within its rate. Never a browser: a
    session cookie is no key, and no route of the member API answers to one."""
    principal = await known_key(request, f"Send the venue's member-app key in {KEY_HEADER}; "
                                         "the member API is for the venue's app backend, not "
                                         "a browser.")
    if principal.role != "app":
        raise ApiError("not_allowed", f"This is a key of the {principal.role} role; only the "
                                      "venue's member-app key may call the member API.")
    request.app[app_rates_key].take(principal.id, principal.name)
    return principal

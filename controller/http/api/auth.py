"""Who may call an API route: a device key in the key header whose holder name is the bank
(or table) in the path. The key is checked first; a wrong one counts and is slowed as
everywhere (`wrong_key`, controller/http/callers.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from controller.access.keys import Principal, authenticate
from controller.http.api.framework import ApiError
from controller.http.callers import wrong_key
from controller.http.middleware import KEY_HEADER
from controller.http.shared import hub_key


def device_for(param: str) -> Callable[[web.Request], Awaitable[Principal]]:
    """The device principal for the path parameter `param` (a bank's name)."""

    async def auth(request: web.Request) -> Principal:
        key = request.headers.get(KEY_HEADER)
        if key is None:
            raise ApiError("no_key", f"Send the bank's device key in {KEY_HEADER}.")
        principal = authenticate(request.app[hub_key].service.log, {"key": key})
        if principal is None:
            raise ApiError("bad_key", await wrong_key(request))
        if principal.role != "device":
            raise ApiError("not_allowed", "Only a device key may report for a bank.")
        wanted = request.match_info[param]
        if principal.name != wanted:
            raise ApiError("wrong_bank", f"This key reports for {principal.name}, not "
                                         f"{wanted}.")
        return principal

    return auth

"""Who may call an API route: a device key in the key header whose holder name is the bank
(or table) in the path. Wrong keys count against the address as they do everywhere
(controller/http/callers.py), and an address that sent too many is refused for a while."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from controller.access.attempts import TOO_MANY
from controller.access.keys import Principal, authenticate
from controller.http.api.framework import ApiError
from controller.http.callers import HTTP_DOOR
from controller.http.middleware import KEY_HEADER
from controller.http.shared import attempts_key, hub_key


def device_for(param: str) -> Callable[[web.Request], Principal]:
    """The device principal for the path parameter `param` (a bank's name)."""

    def auth(request: web.Request) -> Principal:
        attempts, address = request.app[attempts_key], request.remote or "unknown"
        if attempts.blocked(address, HTTP_DOOR):
            raise ApiError("too_many", TOO_MANY)
        key = request.headers.get(KEY_HEADER)
        if key is None:
            raise ApiError("no_key", f"Send the bank's device key in {KEY_HEADER}.")
        principal = authenticate(request.app[hub_key].service.log, {"key": key})
        if principal is None:
            attempts.failed(address, HTTP_DOOR, "Unknown or revoked key.")
            raise ApiError("bad_key", "Unknown or revoked key.")
        if principal.role != "device":
            raise ApiError("not_allowed", "Only a device key may report for a bank.")
        wanted = request.match_info[param]
        if principal.name != wanted:
            raise ApiError("wrong_bank", f"This key reports for {principal.name}, not "
                                         f"{wanted}.")
        return principal

    return auth

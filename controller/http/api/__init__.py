"""`/api/v1/`: the controller's API for machines and apps, one module per area (the slot
tournament system's feed: slots_feed.py; the member app's: members.py), served the same way
(framework.py) and documented by one generated OpenAPI document (`GET /api/v1/openapi.json`,
openapi.py).

A new area adds its module with its `ROUTES` and lists them in `ROUTES` here.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from pydantic import ConfigDict

from controller.access.rates import RateLimit, Rates
from controller.http.api.auth import app_rates_key
from controller.http.api.framework import ApiModel, Call, Route, add_routes
from controller.http.api.members import ROUTES as MEMBERS
from controller.http.api.openapi import openapi_document
from controller.http.api.slots_feed import ROUTES as SLOTS_FEED

VERSION = "1"
#: per app key (docs/member-api.md): a busy draw night's app traffic, not a script's
APP_RATE = RateLimit(per_s=20, burst=40)


class Document(ApiModel):
    """The OpenAPI document itself (any JSON object)."""

    model_config = ConfigDict(extra="allow", strict=True)


async def _openapi(call: Call) -> dict[str, Any]:
    return openapi_document(ROUTES, VERSION)


ROUTES: list[Route] = [
    *SLOTS_FEED,
    *MEMBERS,
    Route("GET", "/openapi.json", "This document", Document, _openapi,
          operation_id="openapi"),
]


def add_api_routes(app: web.Application) -> None:
    app[app_rates_key] = Rates(APP_RATE)
    add_routes(app, ROUTES)

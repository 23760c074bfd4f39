"""How every `/api/v1/` route is served: a table of routes with pydantic models for their
bodies, JSON read with a cap and a deadline and parsed strictly (controller/http/bodies.py,
controller/domain/strict_json.py: no NaN, no key twice, at most 32 levels deep), and one error
shape.

A route names its request and response models; the same models check each call and make the
OpenAPI document (openapi.py). Errors are `{"ok": false, "error": {"code", "message"}}`, the
shape and sentences of a refused command's ack, with an HTTP status by code (`STATUS`).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, ValidationError

from controller.domain import strict_json
from controller.domain.commands import explain
from controller.domain.errors import Rejected, refusal
from controller.http.bodies import SlowBody, read_capped

PREFIX = "/api/v1"
MAX_BODY_BYTES = 64 * 1024

#: a refusal's code -> its HTTP status; any other refusal is a 409 (the show's state says no)
STATUS = {
    "bad_json": 400, "bad_payload": 400, "bad_score": 400, "unknown_machine": 400,
    "seats_mismatch": 400, "key_not_plain": 400,
    "no_key": 401, "bad_key": 401,
    "not_allowed": 403, "forbidden": 403, "wrong_bank": 403,
    "unknown_feed_heat": 404, "not_found": 404, "no_entries": 404,
    "too_slow": 408,
    "too_large": 413,
    "rate_limited": 429,
    "storage_unavailable": 503, "not_leader": 503,
}


class ApiError(Exception):
    """A refusal of an API call: a Rejected with the HTTP status its code stands for."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message

    @classmethod
    def of(cls, exc: Rejected) -> ApiError:
        return cls(exc.code, exc.message)

    def response(self) -> web.Response:
        response = web.json_response(refusal(self.code, self.message),
                                     status=STATUS.get(self.code, 409))
        if self.code == "too_slow":
            response.force_close()  # the rest of the body is never read
        return response


class ApiModel(BaseModel):
    """A request or response body: unknown fields refused, every type strict."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorDetail(ApiModel):
    code: str
    message: str


class ErrorBody(ApiModel):
    ok: Literal[False]
    error: ErrorDetail


@dataclass(frozen=True)
class Call:
    """One API call as its handler sees it: the request, its path parameters (checked by the
    route's `params` model when it has one), its checked body (None for a route without one)
    and who sent it (None for an open route)."""

    request: web.Request
    params: dict[str, str]
    body: Any
    caller: Any


Auth = Callable[[web.Request], Any]  # the caller (or an awaitable of it), or ApiError


@dataclass(frozen=True)
class Route:
    method: str
    path: str  # below PREFIX, with {parameters}
    summary: str
    response: type[BaseModel]
    handler: Callable[[Call], Awaitable[BaseModel | dict[str, Any]]]
    body: type[BaseModel] | None = None
    auth: Auth | None = None  # None: no key needed
    #: the error statuses it may answer, each with what it means on this route (the document)
    errors: Mapping[int, str] = field(default_factory=dict)
    operation_id: str = ""
    params: type[BaseModel] | None = None  # the path parameters' model; None: any text
    body_required: bool = True  # False: an empty body stands for {}
    security: str = "deviceKey"  # the document's security scheme of a route with `auth`


def parse_json(raw: bytes) -> Any:
    """Strict JSON (controller/domain/strict_json.py), or `bad_json` saying what is wrong."""
    try:
        return strict_json.loads(raw)
    except strict_json.JsonRefused as exc:
        raise ApiError("bad_json", f"{exc} Nothing was done.") from None


TOO_LARGE = f"The body is too large; the limit is {MAX_BODY_BYTES} bytes."


async def read_body(request: web.Request) -> bytes:
    """The body, refused as soon as it passes `MAX_BODY_BYTES` (by its declared length
    before a byte of it is read), or when it has not all come within the body timeout."""
    try:
        raw = await read_capped(request, MAX_BODY_BYTES)
    except SlowBody as exc:
        raise ApiError("too_slow", str(exc)) from None
    if raw is None:
        raise ApiError("too_large", TOO_LARGE)
    return raw


def check(model: type[BaseModel], data: Any) -> BaseModel:
    """`data` as `model`, or one sentence saying what is wrong (as a command's payload)."""
    if not isinstance(data, dict):
        raise ApiError("bad_payload", "The body must be a JSON object of named fields.")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ApiError("bad_payload", explain(exc.errors())) from None


def serve(route: Route) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def handler(request: web.Request) -> web.StreamResponse:
        try:
            caller = route.auth(request) if route.auth else None
            if inspect.isawaitable(caller):  # a key check that may pause a wrong key
                caller = await caller
            if route.params is not None:
                check(route.params, dict(request.match_info))
            body = None
            if route.body is not None:
                raw = await read_body(request)
                data = {} if not raw.strip() and not route.body_required else parse_json(raw)
                body = check(route.body, data)
            answer = await route.handler(Call(request, dict(request.match_info), body, caller))
        except Rejected as exc:
            return ApiError.of(exc).response()
        except ApiError as exc:
            return exc.response()
        doc = answer.model_dump(mode="json") if isinstance(answer, BaseModel) else answer
        return web.json_response(doc)

    return handler


def add_routes(app: web.Application, routes: list[Route]) -> None:
    for route in routes:
        app.router.add_route(route.method, PREFIX + route.path, serve(route))

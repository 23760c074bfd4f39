"""Rehearsals from the console: `GET /rehearsal` (the dated moments and what runs),
`POST /rehearsal/start` {promotion, at, speed} and `POST /rehearsal/stop`.

For a logged-in operator (the MC rehearses the night) or technician; a POST takes JSON only,
so another site's form cannot start one. None of it writes
to the live log (controller/rehearsal/runner.py). On a rehearsal controller it answers that this
is a rehearsal already.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from controller.access.logins import Session, live_session
from controller.domain.config import ConfigError
from controller.domain.errors import refusal
from controller.http.bodies import SlowBody, read_json, too_slow_refusal
from controller.http.logins import logins_key
from controller.rehearsal.log import MAX_SPEED
from controller.rehearsal.moments import moments
from controller.rehearsal.runner import RehearsalRunner
from controller.store.log import StoredLog

ROLES = frozenset({"operator", "technician"})
runner_key = web.AppKey("rehearsals", RehearsalRunner)
ALREADY = "This controller is a rehearsal already: start another from the live show's console."


def add_rehearsal_routes(app: web.Application, log_of: Callable[[web.Application], StoredLog],
                         clock: Callable[[web.Application], int]) -> None:
    """`log_of(app)`, `clock(app)`: the running controller's log and show clock."""

    def who(request: web.Request) -> Session:
        logins = request.app[logins_key]
        session = live_session(logins, log_of(request.app),
                               request.cookies.get(logins.policy.cookie))
        if session is None:
            raise web.HTTPUnauthorized(text="Log in as an operator or a technician.")
        if session.role not in ROLES:
            raise web.HTTPForbidden(text="Only an operator or a technician starts a rehearsal.")
        return session

    def runner(request: web.Request) -> RehearsalRunner | None:
        return request.app.get(runner_key)

    async def status(request: web.Request) -> web.Response:
        who(request)
        rehearsals = runner(request)
        if rehearsals is None:
            return web.json_response({"available": False, "message": ALREADY})
        return web.json_response({
            "available": True, "max_speed": MAX_SPEED, **rehearsals.status(),
            "moments": [m.as_json() for m in moments(clock(request.app))]})

    async def start(request: web.Request) -> web.Response:
        person = who(request)
        try:
            body = await _json(request)
        except SlowBody as exc:
            return too_slow_refusal(exc)
        rehearsals = runner(request)
        if rehearsals is None:
            return _refused(ALREADY)
        promotion, at, speed = body.get("promotion"), body.get("at"), body.get("speed", 1)
        if not isinstance(promotion, str) or not isinstance(at, str):
            return _refused('Choose a promotion and a moment like "2024-01-18 17:55".')
        if isinstance(speed, bool) or not isinstance(speed, int):
            return _refused(f"The speed is a whole number from 1 to {MAX_SPEED}.")
        try:
            answer = await rehearsals.start(promotion, at, speed, person.name)
        except ConfigError as exc:
            return _refused(str(exc).replace("--speed", "The speed").replace("--at", "The time"))
        return web.json_response({"ok": True, **answer})

    async def stop(request: web.Request) -> web.Response:
        who(request)
        try:
            await _json(request)
        except SlowBody as exc:
            return too_slow_refusal(exc)
        rehearsals = runner(request)
        if rehearsals is None:
            return _refused(ALREADY)
        return web.json_response({"ok": True, **await rehearsals.stop()})

    app.router.add_get("/rehearsal", status)
    app.router.add_post("/rehearsal/start", start)
    app.router.add_post("/rehearsal/stop", stop)


async def _json(request: web.Request) -> dict[str, Any]:
    if request.content_type != "application/json":  # no other site's form can send JSON
        raise web.HTTPUnsupportedMediaType(text="Send JSON, from the console.")
    body = await read_json(request)
    return body if isinstance(body, dict) else {}


def _refused(message: str) -> web.Response:
    return web.json_response(refusal("rehearsal_refused", message), status=400)

"""The login page, logging in and out over HTTP, and the pages only a logged-in person opens.

`POST /login` takes JSON {"name", "password"} from the login page's script (the CSP allows no
form posts) and answers with the session cookie: HttpOnly, SameSite=Strict, Secure when the
controller is served over https (`serve --secure-cookies`), expiring with the session.

Several controllers on one PostgreSQL log share the sessions, not the cookie (it is each
host's): a logged-in page asks `POST /login/handoff` for a second token of its session and
keeps it; sent to another controller's `POST /login/resume`, it becomes that host's cookie, so
a page that moves to the leader (controller/web/link.js) stays logged in.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp import web

from controller.access.logins import LOCKED, LOGGED_OUT, WRONG, Logins, live_session
from controller.access.people import check_password
from controller.domain.errors import refusal
from controller.http.bodies import SlowBody, read_json, too_slow_refusal

logins_key = web.AppKey("logins", Logins)
HOME = {"operator": "/tablet", "technician": "/screens", "auditor": "/tablet",
        "announcer": "/cue"}
def add_routes(app: web.Application, web_dir: Path, log_of) -> None:
    """`log_of(app)`: the running controller's event log (opened at start-up)."""

    async def login_page(request: web.Request) -> web.FileResponse:
        return web.FileResponse(web_dir / "login.html", headers={"Cache-Control": "no-cache"})

    async def log_in(request: web.Request) -> web.Response:
        logins = request.app[logins_key]
        if request.content_type != "application/json":  # no other site's form can send JSON
            return web.json_response(refusal("bad_request", "Log in from the login page."),
                                     status=415)
        try:
            body = await read_json(request)
        except SlowBody as exc:
            return too_slow_refusal(exc)
        name = body.get("name") if isinstance(body, dict) else None
        password = body.get("password") if isinstance(body, dict) else None
        if not isinstance(name, str) or not isinstance(password, str) or not name:
            return web.json_response(refusal("bad_payload", "Give your name and password."),
                                     status=400)
        if logins.locked(name):
            return web.json_response(refusal("locked_out", LOCKED), status=429)
        found = log_of(request.app).users(name)
        user = found[0] if found else None
        if not await asyncio.to_thread(check_password, user, password):
            logins.failed(name, request.remote or "unknown")
            locked = logins.locked(name)
            return web.json_response(refusal("locked_out" if locked else "wrong_password",
                                             LOCKED if locked else WRONG), status=401)
        assert user is not None
        token = logins.open(user.name, user.role)
        response = web.json_response({"ok": True, "name": user.name, "role": user.role,
                                      "home": HOME[user.role]})
        _set_cookie(response, logins, token)
        return response

    async def log_out(request: web.Request) -> web.Response:
        logins = request.app[logins_key]
        logins.close(request.cookies.get(logins.policy.cookie))
        response = web.json_response({"ok": True})
        response.del_cookie(logins.policy.cookie, path="/")
        return response

    async def whoami(request: web.Request) -> web.Response:
        logins = request.app[logins_key]
        session = live_session(logins, log_of(request.app),
                               request.cookies.get(logins.policy.cookie))
        if session is None:
            raise web.HTTPUnauthorized(text=LOGGED_OUT)
        return web.json_response({"name": session.name, "role": session.role})

    async def hand_off(request: web.Request) -> web.Response:
        """A second token of the caller's session, for the page to resume it elsewhere."""
        logins = request.app[logins_key]
        token = request.cookies.get(logins.policy.cookie)
        if request.content_type != "application/json" or live_session(
                logins, log_of(request.app), token) is None:
            raise web.HTTPUnauthorized(text=LOGGED_OUT)
        assert token is not None
        return web.json_response({"token": logins.handoff(token)})

    async def resume(request: web.Request) -> web.Response:
        """`{"token"}` of a session of this log (opened at another controller): this host's
        cookie for it."""
        logins = request.app[logins_key]
        try:
            body = await read_json(request) if request.content_type == "application/json" \
                else None
        except SlowBody as exc:
            return too_slow_refusal(exc)
        token = body.get("token") if isinstance(body, dict) else None
        session = (live_session(logins, log_of(request.app), token)
                   if isinstance(token, str) else None)
        if session is None:
            return web.json_response(refusal("logged_out", LOGGED_OUT), status=401)
        assert isinstance(token, str)
        response = web.json_response({"ok": True, "name": session.name, "role": session.role,
                                      "home": HOME[session.role]})
        _set_cookie(response, logins, token)
        return response

    app.router.add_get("/login", login_page)
    app.router.add_post("/login/handoff", hand_off)
    app.router.add_post("/login/resume", resume)
    app.router.add_post("/login", log_in)
    app.router.add_post("/logout", log_out)
    app.router.add_get("/whoami", whoami)


def people_page(web_dir: Path, name: str, roles: frozenset[str], log_of):
    """A page for logged-in people of `roles`; anyone else is sent to /login."""

    async def handler(request: web.Request) -> web.FileResponse:
        logins = request.app[logins_key]
        session = live_session(logins, log_of(request.app),
                               request.cookies.get(logins.policy.cookie))
        if session is None:
            raise web.HTTPFound(f"/login?next={request.path}")
        if session.role not in roles:
            raise web.HTTPForbidden(text=f"{session.name} is logged in as {session.role}; "
                                    f"this page is for: {', '.join(sorted(roles))}.")
        return web.FileResponse(web_dir / name, headers={"Cache-Control": "no-cache"})

    return handler


def _set_cookie(response: web.Response, logins: Logins, token: str) -> None:
    response.set_cookie(logins.policy.cookie, token, max_age=int(logins.policy.session_s),
                        path="/", httponly=True, samesite="Strict",
                        secure=logins.policy.secure_cookie)

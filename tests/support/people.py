"""People for tests: add a user to a controller's log, log a browser or an HTTP client in."""

from __future__ import annotations

from typing import Any

import aiohttp

from controller.access.people import add_user
from controller.store.target import LogAt, open_log

PASSWORD = "correct horse battery"


def add_person(db_path: LogAt, name: str, role: str, password: str = PASSWORD) -> None:
    """Add `name` unless the log has them already (a controller may be running on it)."""
    log = open_log(db_path)
    try:
        if not log.users(name):
            add_user(log, name, role, password, 0)
    finally:
        log.close()


async def log_in(session: aiohttp.ClientSession, url: str, name: str,
                 password: str = PASSWORD) -> tuple[int, dict[str, Any]]:
    """POST /login as the login page does; (status, answer). The cookie stays in `session`."""
    async with session.post(f"{url}/login", json={"name": name, "password": password}) as r:
        return r.status, await r.json()


async def open_page_as(page: Any, ctl: Any, path: str, role: str) -> None:
    """Log the browser in as a person of `role` (the page's own context holds the cookie), then
    open `path` (/tablet, /cue)."""
    name = f"test-{role}"
    add_person(ctl.db_path, name, role)
    answer = await page.context.request.post(f"{ctl.url}/login",
                                             data={"name": name, "password": PASSWORD})
    assert answer.ok, await answer.text()
    await page.goto(f"{ctl.url}{path}")

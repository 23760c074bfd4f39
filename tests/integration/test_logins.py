"""People logging in to a real controller over HTTP, and their pages' sockets authenticated by
the session cookie (docs/people.md)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import aiohttp
import socketio

from controller.domain.errors import refusal
from controller.store.target import db_arg
from tests.support.live import LiveController, live_controller
from tests.support.people import PASSWORD, add_person, log_in
from tests.support.stores import by_hand, run_dir

LOCKED = "Too many wrong passwords for this name: wait 15 minutes, or ask a technician."


def http() -> aiohttp.ClientSession:
    """A client that keeps cookies from 127.0.0.1 (aiohttp drops IP-address cookies unless
    told), like a browser does."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


def cookie_header(session: aiohttp.ClientSession) -> str:
    return "; ".join(f"{m.key}={m.value}" for m in session.cookie_jar)


async def socket_as(ctl: LiveController, session: aiohttp.ClientSession,
                    namespace: str = "/control") -> tuple[socketio.AsyncClient, str | None]:
    """A Socket.IO client sending the session's cookie and no key; (client, refusal or None)."""
    sio = socketio.AsyncClient(reconnection=False)
    why: list[str] = []
    sio.on("connect_error", lambda data: why.append(data.get("message", "")), namespace=namespace)
    try:
        await sio.connect(ctl.url, namespaces=[namespace], transports=["websocket"],
                          headers={"Cookie": cookie_header(session)}, wait_timeout=5)
    except socketio.exceptions.ConnectionError:
        await sio.disconnect()
        return sio, why[0] if why else "refused"
    return sio, None


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command, run where a controller on its `--db` runs (`run_dir`)."""
    where = run_dir(db_arg(args[args.index("--db") + 1]))
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], input=stdin,
                          capture_output=True, text=True, cwd=where, timeout=60)


async def test_a_person_logs_in_and_the_cookie_opens_their_pages_only(log_at) -> None:
    async with live_controller(log_at) as ctl, http() as web:
        add_person(ctl.db_path, "alice", "operator")
        add_person(ctl.db_path, "pa", "announcer")
        async with web.get(f"{ctl.url}/tablet", allow_redirects=False) as page:
            assert page.status == 302 and page.headers["Location"] == "/login?next=/tablet"
        form = json.dumps({"name": "alice", "password": PASSWORD})  # a text/plain form's body,
        async with web.post(f"{ctl.url}/login", data=form,  # as another site may post it
                            headers={"Content-Type": "text/plain"}) as response:
            assert response.status == 415 and "Set-Cookie" not in response.headers
        assert await log_in(web, ctl.url, "alice", "wrong password") == (
            401, refusal("wrong_password", "Wrong name or password."))
        status, answer = await log_in(web, ctl.url, "alice")
        assert (status, answer) == (200, {"ok": True, "name": "alice", "role": "operator",
                                          "home": "/tablet"})
        async with web.post(f"{ctl.url}/login",
                            json={"name": "alice", "password": PASSWORD}) as response:
            cookie = response.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert "Max-Age=43200" in cookie and "Secure" not in cookie  # 12 h by default
        async with web.get(f"{ctl.url}/tablet", allow_redirects=False) as page:
            assert page.status == 200 and "MC console" in await page.text()
        async with web.post(f"{ctl.url}/logout") as response:
            assert response.status == 200
        async with web.get(f"{ctl.url}/tablet", allow_redirects=False) as page:
            assert page.status == 302

        async with http() as pa:
            await log_in(pa, ctl.url, "pa")
            async with pa.get(f"{ctl.url}/cue", allow_redirects=False) as page:
                assert page.status == 200
            async with pa.get(f"{ctl.url}/tablet", allow_redirects=False) as page:
                assert page.status == 403 and "pa is logged in as announcer" in await page.text()


async def test_the_cookie_authenticates_the_socket_and_the_log_names_the_person(
        log_at) -> None:
    async with live_controller(log_at) as ctl, http() as web:
        add_person(ctl.db_path, "alice", "operator")
        sio, refused = await socket_as(ctl, web)  # no cookie yet
        assert refused == "Log in again: your session ended."
        await log_in(web, ctl.url, "alice")
        sio, refused = await socket_as(ctl, web)
        assert refused is None
        ack = await sio.call("command", {"type": "register_member", "command_id": "c-1",
                                         "payload": {"card": "1234567", "display_name": "Ann"}},
                             namespace="/control")
        assert ack["ok"], ack
        await sio.disconnect()
        _, refused = await socket_as(ctl, web, "/display")
        assert refused == "alice (operator) cannot connect to /display."
    with by_hand(ctl.db_path) as db:
        actor = db.execute("SELECT actor FROM events WHERE command_id = 'c-1'").fetchone()
        principal = db.execute("SELECT principal FROM acks WHERE command_id = 'c-1'").fetchone()
    assert actor == ("alice",) and principal == ("user:alice",)


async def test_five_wrong_passwords_lock_the_name_even_against_the_right_one(
        log_at) -> None:
    async with live_controller(log_at) as ctl, http() as web:
        add_person(ctl.db_path, "alice", "operator")
        for _ in range(4):
            assert (await log_in(web, ctl.url, "alice", "guess guess"))[0] == 401
        assert await log_in(web, ctl.url, "alice", "guess guess") == (
            401, refusal("locked_out", LOCKED))
        assert await log_in(web, ctl.url, "alice") == (429, refusal("locked_out", LOCKED))
        assert "wrong password for 'alice'" in "".join(ctl.output)
        assert (await log_in(web, ctl.url, "nobody"))[0] == 401  # other names unaffected


async def test_a_disabled_user_is_cut_and_refused(log_at) -> None:
    async with live_controller(log_at) as ctl, http() as web:
        add_person(ctl.db_path, "alice", "operator")
        await log_in(web, ctl.url, "alice")
        sio, refused = await socket_as(ctl, web)
        assert refused is None
        cut = asyncio.Event()
        sio.on("disconnect", cut.set, namespace="/control")
        done = cli("user", "disable", "alice", "--db", str(ctl.db_path), "--reason", "left")
        assert done.returncode == 0, done.stderr
        await asyncio.wait_for(cut.wait(), 5)  # the running controller follows the log
        _, refused = await socket_as(ctl, web)
        assert refused == "Log in again: your session ended."
        assert await log_in(web, ctl.url, "alice") == (
            401, refusal("wrong_password", "Wrong name or password."))


async def test_secure_cookies_when_served_over_https(log_at) -> None:
    async with live_controller(log_at, ("--secure-cookies",
                                                      "--session-hours", "1")) as ctl:
        add_person(ctl.db_path, "alice", "operator")
        async with http() as web, web.post(
                f"{ctl.url}/login", json={"name": "alice", "password": PASSWORD}) as response:
            cookie = response.headers["Set-Cookie"]
        assert "Secure" in cookie and "Max-Age=3600" in cookie


def test_user_commands_read_the_password_from_stdin_never_argv(log_at) -> None:
    db = str(log_at)
    added = cli("user", "add", "Ann Lee", "--role", "announcer", "--db", db,
                stdin="correct horse battery\n")
    assert added.returncode == 0, added.stderr
    assert "added 'Ann Lee' as announcer" in added.stdout
    again = cli("user", "add", "Ann Lee", "--role", "operator", "--db", db, stdin="x" * 9 + "\n")
    assert again.returncode == 1 and "already a user named 'Ann Lee'" in again.stderr
    assert cli("user", "add", "bob", "--role", "operator", "--password", "x", "--db",
               db).returncode == 2  # no such option
    assert cli("user", "disable", "Ann Lee", "--db", db).returncode == 0
    listing = cli("user", "list", "--db", db).stdout
    assert listing.split() == ["Ann", "Lee", "announcer", "disabled"]
    verify = cli("audit", "verify", "--db", db)
    assert verify.returncode == 0, verify.stderr

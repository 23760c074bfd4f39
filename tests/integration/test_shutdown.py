"""SIGTERM with pages connected: the controller closes every connection at once and exits in
under 2 s (it used to wait for each page to go, 6-47 s)."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import socketio

from tests.support.live import live_controller
from tests.support.people import add_person, log_in

LIMIT_S = 2.0


async def test_sigterm_with_pages_connected_exits_in_under_two_seconds(log_at) -> None:
    async with live_controller(log_at) as ctl, aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True)) as web:
        add_person(ctl.db_path, "alice", "operator")
        await log_in(web, ctl.url, "alice")
        cookie = "; ".join(f"{m.key}={m.value}" for m in web.cookie_jar)
        clients, told = [], []
        for namespace, options in (("/control", {"headers": {"Cookie": cookie}}),
                                   ("/control", {"auth": {"key": ctl.keys["operator"]}}),
                                   ("/cue", {"auth": {"key": ctl.keys["announcer"]}}),
                                   ("/display", {"auth": {"key": ctl.keys["display"]}})):
            sio = socketio.AsyncClient(reconnection=False)
            gone = asyncio.Event()
            sio.on("disconnect", gone.set, namespace=namespace)
            await sio.connect(ctl.url, namespaces=[namespace], transports=["websocket"],
                              wait_timeout=5, **options)
            clients.append(sio)
            told.append(gone)
        assert ctl.process is not None
        started = time.monotonic()
        ctl.process.terminate()
        while ctl.process.poll() is None and time.monotonic() - started < 30:
            await asyncio.sleep(0.02)
        took = time.monotonic() - started
        assert took < LIMIT_S, f"the controller took {took:.1f} s to stop"
        assert ctl.process.returncode == 0
        await asyncio.wait_for(asyncio.gather(*(g.wait() for g in told)), 5)
        for sio in clients:
            await sio.disconnect()

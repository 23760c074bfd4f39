"""`serve --trusted-proxy`: behind a TLS proxy the client's forwarded address is what wrong keys
count against, on the sockets and over HTTP; without the option the header is ignored, so a
client cannot pick the address it is counted as (controller/access/addresses.py)."""

from __future__ import annotations

import subprocess
import sys

import aiohttp
import pytest
import socketio

from controller.access.attempts import SLOWED
from tests.support.live import LiveController, live_controller

A, B = "192.0.2.10", "192.0.2.20"
FREE = 5  # wrong keys answered at once per address (KeyLimit.failures)


async def socket_refusal(url: str, forwarded_for: str, key: str) -> str:
    why: list[str] = []
    sio = socketio.AsyncClient(reconnection=False)
    sio.on("connect_error", lambda data: why.append(str(data.get("message", ""))),
           namespace="/control")
    try:
        await sio.connect(url, namespaces=["/control"], auth={"key": key},
                          headers={"X-Forwarded-For": forwarded_for},
                          transports=["websocket"], wait_timeout=5)
    except socketio.exceptions.ConnectionError:
        return why[0] if why else "refused"
    finally:
        await sio.disconnect()
    return ""


async def http_refusal(http: aiohttp.ClientSession, ctl: LiveController, forwarded_for: str,
                       key: str) -> tuple[int, str]:
    async with http.get(ctl.url + "/screens", headers={
            "X-Showrunner-Key": key, "X-Forwarded-For": forwarded_for}) as answer:
        return answer.status, await answer.text()


async def test_behind_a_trusted_proxy_one_clients_wrong_keys_do_not_slow_another(log_at):
    async with live_controller(log_at, ("--trusted-proxy", "127.0.0.1")) as ctl, \
            aiohttp.ClientSession() as http:
        # the client wrote "198.51.100.1" itself; the proxy appended A
        refusals = [await socket_refusal(ctl.url, f"198.51.100.1, {A}", f"guess-{n}")
                    for n in range(FREE + 1)]
        assert [r.endswith(SLOWED) for r in refusals] == [False] * FREE + [True]
        assert not (await socket_refusal(ctl.url, B, "guess-b")).endswith(SLOWED)
        status, text = await http_refusal(http, ctl, A, "guess-http")
        assert status == 403 and SLOWED in text  # A's count is one across doors
        status, text = await http_refusal(http, ctl, B, "guess-http-b")
        assert status == 403 and SLOWED not in text
        assert await socket_refusal(ctl.url, A, ctl.keys["operator"]) == ""  # a right key
    output = "".join(ctl.output)
    assert output.count(f"wrong key from {A} on /control") == FREE + 1
    assert output.count(f"wrong key from {A} on http") == 1
    assert output.count(f"wrong key from {B} on ") == 2
    assert "198.51.100.1" not in output and "wrong key from 127.0.0.1" not in output
    assert output.count(f"slowing wrong keys from {A}") == 1


async def test_without_the_option_the_forwarded_header_is_ignored(log_at):
    async with live_controller(log_at) as ctl, aiohttp.ClientSession() as http:
        for n in range(FREE):
            assert not (await socket_refusal(ctl.url, A, f"guess-{n}")).endswith(SLOWED)
        # "another client" by its header is the same peer: its wrong key is slowed too
        assert (await socket_refusal(ctl.url, B, "guess-b")).endswith(SLOWED)
        status, text = await http_refusal(http, ctl, B, "guess-http")
        assert status == 403 and SLOWED in text
    output = "".join(ctl.output)
    assert output.count("wrong key from 127.0.0.1 on ") == FREE + 2
    assert A not in output and B not in output


@pytest.mark.parametrize("command", ["serve", "fanout"])
# SQLite's file: refused before the file is made
def test_a_trusted_proxy_that_is_not_an_address_is_refused_in_words(tmp_path, command):
    done = subprocess.run([sys.executable, "-m", "controller.cli", command, "--db",
                           str(tmp_path / "show.db"), "--trusted-proxy", "10.0.0.1,proxy.lan"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "'proxy.lan' is not an IP address or a network (e.g. 10.0.0.5 or 10.0.0.0/24)." \
        in done.stderr
    assert not (tmp_path / "show.db").exists()  # refused before anything was opened

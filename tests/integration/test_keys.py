"""Keys through a real controller: revoked sessions cut at once, wrong keys limited and logged
(docs/protocol.md, "Keys")."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest
import socketio

from controller.domain.keys import key_hash
from tests.support.live import live_controller

TOO_MANY = "Too many wrong keys from this address; wait a minute and try again."
WINDOW_S = 2.0


class Raw:
    """A plain Socket.IO client on one namespace that records why it was refused or cut."""

    def __init__(self, url: str, namespace: str, auth: dict) -> None:
        self.url, self.namespace, self.auth = url, namespace, auth
        self.sio = socketio.AsyncClient(reconnection=False)
        self.refused: list[str] = []
        self.gone = asyncio.Event()
        self.sio.on("refused", lambda m: self.refused.append(m["message"]), namespace=namespace)
        self.sio.on("disconnect", self.gone.set, namespace=namespace)

    async def connect(self) -> str | None:
        """None when connected; else the controller's refusal sentence."""
        why: list[str] = []
        self.sio.on("connect_error", lambda data: why.append(data.get("message", "")),
                    namespace=self.namespace)
        try:
            await self.sio.connect(self.url, namespaces=[self.namespace], auth=self.auth,
                                   transports=["websocket"], wait_timeout=5)
        except socketio.exceptions.ConnectionError:
            await self.sio.disconnect()
            return why[0] if why else "refused"
        return None

    async def close(self) -> None:
        await self.sio.disconnect()


async def enrol(tech, screen: str) -> str:
    key = f"secret-of-{screen}"
    ack = await tech.send("screens.enrol", {"screen": screen, "group": "stage",
                                            "key_hash": key_hash(key)})
    assert ack["ok"], ack
    assert (await tech.send("screens.authorise", {"screen": screen}))["ok"]
    return key


async def test_revoking_a_screen_cuts_every_live_session_of_it_at_once(tmp_path):
    async with live_controller(tmp_path / "show.db") as ctl, ctl.client("technician") as tech:
        key, other_key = await enrol(tech, "stage-1"), await enrol(tech, "bar-1")
        first = Raw(ctl.url, "/display", {"key": key, "screen": "stage-1"})
        second = Raw(ctl.url, "/display", {"key": key, "screen": "stage-1"})
        other = Raw(ctl.url, "/display", {"key": other_key, "screen": "bar-1"})
        viewer = Raw(ctl.url, "/display", {"key": ctl.keys["display"]})
        for client in (first, second, other, viewer):
            assert await client.connect() is None
        try:
            ack = await tech.send("screens.revoke", {"screen": "stage-1", "reason": "stolen"})
            assert ack["ok"]
            cut_at = time.monotonic()
            await asyncio.wait_for(asyncio.gather(first.gone.wait(), second.gone.wait()), 2)
            assert time.monotonic() - cut_at < 1.0  # cut with the ack, not at a later poll
            assert first.refused == second.refused == [
                "Screen 'stage-1' was revoked by a technician; enrol it again to bring it back."]
            assert not other.gone.is_set() and not viewer.gone.is_set()
            assert await other.sio.call("clock", {}, namespace="/display", timeout=5)
            again = Raw(ctl.url, "/display", {"key": key, "screen": "stage-1"})
            assert "was revoked" in (await again.connect() or "")
        finally:
            for client in (first, second, other, viewer):
                await client.close()


async def test_wrong_keys_are_limited_per_address_and_namespace_then_recover(tmp_path):
    """After 5 wrong keys in the window the address is refused at that namespace before its
    key is looked at, even a right one; other namespaces still answer; the window ends."""
    args = ("--key-failures", "5", "--key-window", str(WINDOW_S))
    async with live_controller(tmp_path / "show.db", args) as ctl:
        for n in range(5):
            assert await Raw(ctl.url, "/control", {"key": f"guess-{n}"}).connect() == \
                "Unknown or revoked key."
        blocked_at = time.monotonic()
        right = {"key": ctl.keys["operator"]}
        assert await Raw(ctl.url, "/control", right).connect() == TOO_MANY
        cue = Raw(ctl.url, "/cue", {"key": ctl.keys["announcer"]})
        assert await cue.connect() is None  # another namespace, its own count
        await cue.close()
        await asyncio.sleep(max(0.0, blocked_at + WINDOW_S + 0.2 - time.monotonic()))
        recovered = Raw(ctl.url, "/control", right)
        assert await recovered.connect() is None
        await recovered.close()
    output = "".join(ctl.output)
    assert output.count("wrong key from 127.0.0.1 on /control") == 5
    assert output.count("refusing 127.0.0.1 on /control") == 1
    assert "guess-" not in output and ctl.keys["operator"] not in output  # never the key
    assert "Traceback" not in output


async def test_wrong_keys_on_the_screens_report_are_limited_too(tmp_path):
    args = ("--key-failures", "5", "--key-window", str(WINDOW_S))
    async with live_controller(tmp_path / "show.db", args) as ctl, \
            aiohttp.ClientSession() as http:
        async def status(key: str) -> int:
            async with http.get(ctl.url + "/screens",
                                headers={"X-Showrunner-Key": key}) as response:
                return response.status

        assert [await status(f"guess-{n}") for n in range(5)] == [403] * 5
        assert await status(ctl.keys["technician"]) == 429
        await asyncio.sleep(WINDOW_S + 0.2)
        assert await status(ctl.keys["technician"]) == 200
    output = "".join(ctl.output)
    assert output.count("wrong key from 127.0.0.1 on http") == 5
    assert "guess-" not in output


@pytest.mark.parametrize("namespace", ["/control", "/display", "/cue"])
async def test_a_blocked_address_is_refused_without_a_log_line_per_try(tmp_path, namespace):
    args = ("--key-failures", "2", "--key-window", "60")
    async with live_controller(tmp_path / "show.db", args) as ctl:
        for n in range(6):
            assert await Raw(ctl.url, namespace, {"key": f"guess-{n}"}).connect()
    output = "".join(ctl.output)
    assert output.count(f"wrong key from 127.0.0.1 on {namespace}") == 2
    assert output.count(f"refusing 127.0.0.1 on {namespace}") == 1

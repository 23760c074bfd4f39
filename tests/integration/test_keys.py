"""Keys through a real controller: revoked sessions cut at once, wrong keys slowed and logged,
a right key never (docs/protocol.md, "Keys")."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest
import socketio

from controller.access.attempts import SLOWED
from controller.domain.keys import key_hash
from tests.support.live import live_controller

WRONG = "Unknown or revoked key."


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


async def test_revoking_a_screen_cuts_every_live_session_of_it_at_once(log_at):
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
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


async def test_after_five_wrong_keys_a_right_screen_key_connects_while_wrong_ones_wait(
        log_at):
    """The issue's case: five wrong display keys from 127.0.0.1, then a valid screen key from
    127.0.0.1 connects at once, while the wrong keys tried beside it wait for their refusal
    (controller/access/attempts.py)."""
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
        key = await enrol(tech, "stage-1")
        wrong = "Unknown or revoked key for screen 'stage-1'."
        for n in range(5):
            assert await Raw(ctl.url, "/display", {"key": f"guess-{n}", "screen": "stage-1"}
                             ).connect() == wrong
        # the 6th to 9th wrong keys pause 0.5, 1, 2 and 4 s before their refusal
        waiting = [asyncio.create_task(Raw(ctl.url, "/display", {
            "key": f"late-{n}", "screen": "stage-1"}).connect()) for n in range(4)]
        await until_logged(ctl, "wrong key from 127.0.0.1 on /display (9 in 60 s)")
        right = Raw(ctl.url, "/display", {"key": key, "screen": "stage-1"})
        assert await right.connect() is None
        assert not waiting[-1].done()  # connected while the slowest wrong key still waits
        await right.close()
        refusals = await asyncio.gather(*waiting)
        assert refusals == [wrong + SLOWED] * 4
        operator = Raw(ctl.url, "/control", {"key": ctl.keys["operator"]})
        assert await operator.connect() is None  # another door, a right key: in at once
        await operator.close()
    output = "".join(ctl.output)
    assert output.count("wrong key from 127.0.0.1 on /display") == 9
    assert output.count("slowing wrong keys from 127.0.0.1") == 1
    assert "guess-" not in output and "late-" not in output and key not in output
    assert "Traceback" not in output


async def test_a_right_key_connects_after_100_wrong_ones_from_its_address(log_at):
    """100 wrong keys at once from 127.0.0.1: at most 8 of them pause, the rest are refused at
    once, and right keys from the same address connect meanwhile, at two doors."""
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
        key = await enrol(tech, "stage-1")
        wrong = [asyncio.create_task(Raw(ctl.url, "/display", {"key": f"guess-{n}"}).connect())
                 for n in range(100)]
        await until_logged(ctl, "wrong key from 127.0.0.1 on /display", times=100)
        for right in (Raw(ctl.url, "/display", {"key": key, "screen": "stage-1"}),
                      Raw(ctl.url, "/control", {"key": ctl.keys["operator"]})):
            assert await right.connect() is None
            await right.close()
        refusals = await asyncio.gather(*wrong)
        assert all(r and r.startswith("Unknown or revoked key") for r in refusals)
        assert sum(r.endswith(SLOWED) for r in refusals) == 95
    output = "".join(ctl.output)
    assert output.count("wrong key from 127.0.0.1 on /display") == 100
    assert output.count("slowing wrong keys from 127.0.0.1") == 1


async def until_logged(ctl, line: str, times: int = 1, timeout: float = 30) -> None:
    async def seen() -> None:
        while "".join(ctl.output).count(line) < times:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(seen(), timeout)


async def test_wrong_keys_on_the_screens_report_are_slowed_and_a_right_one_is_not(log_at):
    async with live_controller(log_at) as ctl, \
            aiohttp.ClientSession() as http:
        async def answer(key: str) -> tuple[int, str]:
            async with http.get(ctl.url + "/screens",
                                headers={"X-Showrunner-Key": key}) as response:
                return response.status, await response.text()

        for n in range(5):
            status, text = await answer(f"guess-{n}")
            assert status == 403 and text.startswith(WRONG) and SLOWED not in text
        status, text = await answer("guess-5")
        assert status == 403 and text.startswith(WRONG + SLOWED)
        assert (await answer(ctl.keys["technician"]))[0] == 200
    output = "".join(ctl.output)
    assert output.count("wrong key from 127.0.0.1 on http") == 6
    assert output.count("slowing wrong keys from 127.0.0.1") == 1
    assert "guess-" not in output


@pytest.mark.parametrize("namespace", ["/control", "/display", "/cue"])
async def test_each_wrong_key_is_one_log_line_and_a_slowdown_one_more(log_at, namespace):
    args = ("--key-failures", "2", "--key-window", "60")
    async with live_controller(log_at, args) as ctl:
        refusals = [await Raw(ctl.url, namespace, {"key": f"guess-{n}"}).connect() or ""
                    for n in range(4)]
    assert all(r.startswith("Unknown or revoked key") for r in refusals), refusals
    assert [r.endswith(SLOWED) for r in refusals] == [False, False, True, True]
    output = "".join(ctl.output)
    assert output.count(f"wrong key from 127.0.0.1 on {namespace}") == 4
    assert output.count("slowing wrong keys from 127.0.0.1") == 1

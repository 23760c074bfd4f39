"""An MC's console that never gives up on a command: each one is sent again, to the next
controller it knows, until one acknowledges it, as the console does when its controller dies
or answers `not_leader`. What bench/failover.py and the standby tests append with, across
kills; `acked` is what a lost-command count is taken against.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import socketio

from tests.support.live import Client

UNREACHABLE = {"ok": False, "error": {"code": "unreachable"}}


class PersistentMC:
    """Commands one after the other, each sent again elsewhere until acknowledged."""

    def __init__(self, addresses: list[str], key: str) -> None:
        self.addresses, self.key = addresses, key
        self.at = 0
        self.client: Client | None = None
        self.acked: dict[str, int] = {}  # command id: the seq its ack gave

    async def send(self, type_: str, payload: dict[str, Any], command_id: str) -> dict[str, Any]:
        """The command's ack once a controller acknowledged it or refused it for a reason of
        its own (not unreachable, not `not_leader`)."""
        while True:
            try:
                if self.client is None:
                    self.client = Client(self.addresses[self.at], "operator", self.key)
                    await asyncio.wait_for(self.client.connect(), 3)
                ack = await asyncio.wait_for(self.client.send(type_, payload, command_id), 3)
            except (TimeoutError, OSError, socketio.exceptions.SocketIOError):
                ack = UNREACHABLE
            if ack["ok"] or ack["error"]["code"] not in ("unreachable", "not_leader"):
                if ack["ok"]:
                    self.acked[command_id] = ack["seq"]
                return ack
            await self.drop()
            self.at = (self.at + 1) % len(self.addresses)
            await asyncio.sleep(0.1)

    async def drop(self) -> None:
        if self.client is not None:
            client, self.client = self.client, None
            with contextlib.suppress(TimeoutError, OSError, socketio.exceptions.SocketIOError):
                await asyncio.wait_for(client.close(), 1)

    async def acked_more(self, count: int, timeout: float) -> None:
        """Wait until `count` more commands than now have been acknowledged."""
        target = len(self.acked) + count
        deadline = asyncio.get_running_loop().time() + timeout
        while len(self.acked) < target:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"only {len(self.acked)} of {target} commands acknowledged "
                                     f"in {timeout} s")
            await asyncio.sleep(0.05)


async def keep_registering(mc: PersistentMC, rate: float, stop: asyncio.Event,
                           prefix: str = "guest", first_card: int = 8_000_000) -> None:
    """Register a new member `rate` times a second (command ids `prefix-N`) until `stop`."""
    n = 0
    while not stop.is_set():
        n += 1
        await mc.send("register_member", {"card": f"{first_card + n}",
                                          "display_name": f"Guest {n}"}, f"{prefix}-{n}")
        await asyncio.sleep(1 / rate)

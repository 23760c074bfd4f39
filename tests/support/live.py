"""A real controller in a subprocess on an ephemeral port, and real Socket.IO clients.

Integration tests use this and nothing else to reach the controller: no mocked sockets.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import socketio

from controller.access.keys import issue_key
from controller.application.child_process import ControllerProcess
from controller.domain.commands import ROLES
from controller.domain.keys import key_hash
from controller.store.target import LogAt, open_log
from showrunner.contract.delta import patch
from tests.support.stores import run_dir

PROMOTIONS = 5  # slots, wildcard, roulette, poker, super9: one PromotionConfigured each
#: the events a fresh live controller's log starts with: a KeyIssued per role key
#: (`issue_keys`), then a PromotionConfigured per promotion at start-up (docs/config.md)
STARTUP = len(ROLES) + PROMOTIONS

NAMESPACE_OF_ROLE = {"operator": "/control", "technician": "/control", "auditor": "/control",
                     "display": "/display", "announcer": "/cue", "device": "/device"}


class Client:
    """A Socket.IO client holding the views it has been sent, like a tablet or a screen."""

    def __init__(self, url: str, role: str, key: str) -> None:
        self.url = url
        self.namespace = NAMESPACE_OF_ROLE[role]
        self.key = key
        self.sio = socketio.AsyncClient(reconnection=False)
        self.views: dict[str, dict[str, Any]] = {}
        self.revisions: dict[str, int] = {}
        self._changed = asyncio.Event()
        self.sio.on("views", self._on_views, namespace=self.namespace)

    async def connect(self) -> None:
        await self.sio.connect(self.url, namespaces=[self.namespace], auth={"key": self.key},
                               transports=["websocket"], wait_timeout=10)
        reply = await self.sio.call("sync", {"revisions": {}}, namespace=self.namespace)
        await self._on_views(reply)

    async def _on_views(self, message: dict[str, Any]) -> None:
        for view in message["views"]:
            name, held = view["name"], self.revisions.get(view["name"], -1)
            if "delta" in view:  # docs/protocol.md, "Deltas"
                if view["revision"] <= held:
                    continue
                if view["base"] != held:  # a gap: fetch the view whole
                    self.revisions.pop(name, None)
                    self.views.pop(name, None)
                    await self._on_views(await self.call("sync", {"revisions": self.revisions}))
                    continue
                self.views[name] = patch(self.views[name], view["delta"])
                self.revisions[name] = view["revision"]
            elif view["revision"] >= held:
                self.views[name] = view["doc"]
                self.revisions[name] = view["revision"]
        self._changed.set()

    async def send(self, type_: str, payload: dict[str, Any] | None = None,
                   command_id: str | None = None) -> dict[str, Any]:
        """Send one command envelope and return its ack."""
        envelope = {"type": type_, "payload": payload or {},
                    "command_id": command_id or uuid.uuid4().hex}
        return await self.call("command", envelope)

    async def call(self, event: str, data: Any) -> Any:
        return await self.sio.call(event, data, namespace=self.namespace, timeout=10)

    async def wait_view(self, name: str, predicate: Callable[[dict[str, Any]], bool] = bool,
                        timeout: float = 10.0) -> dict[str, Any]:
        """The view once `predicate(doc)` holds; fails the test after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            doc = self.views.get(name)
            if doc is not None and predicate(doc):
                return doc
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"view {name!r} never matched; last: {doc!r}")
            self._changed.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def close(self) -> None:
        await self.sio.disconnect()


class LiveController(ControllerProcess):
    """A controller process with a key for every role; it can be killed and started again."""

    def __init__(self, db_path: LogAt, extra_args: tuple[str, ...] = (),
                 cwd: Path | None = None) -> None:
        super().__init__(db_path, extra_args=extra_args, cwd=cwd or run_dir(db_path))
        self.keys: dict[str, str] = {}

    def issue_keys(self) -> None:
        log = open_log(self.db_path)
        try:
            for role in ROLES:
                self.keys[role] = issue_key(log, role, f"test {role}", 0)
        finally:
            log.close()

    async def start(self, port: int | None = None,  # type: ignore[override]
                    timeout: float = 30.0) -> str:
        """Start (on `port`, or the port it had) without blocking the event loop."""
        if port is not None:
            self.port = port
        return await asyncio.to_thread(super().start, timeout)

    async def restart(self) -> None:
        """Kill and start again on the same log and port."""
        self.kill()
        await self.start()

    @asynccontextmanager
    async def client(self, role: str = "operator") -> AsyncIterator[Client]:
        client = Client(self.url, role, self.keys[role])
        await client.connect()
        try:
            yield client
        finally:
            await client.close()


async def said(process: LiveController, text: str, timeout: float) -> str:
    """The first line of the process's output with `text` in it, waited for; fails at once if
    the process ended without saying it."""
    deadline = time.monotonic() + timeout
    while True:
        found = next((line for line in process.output if text in line), None)
        if found is not None:
            return found
        assert process.process is not None and process.process.poll() is None, \
            f"it ended without saying {text!r}:\n{''.join(process.output)}"
        assert time.monotonic() < deadline, f"never said {text!r}:\n{''.join(process.output)}"
        await asyncio.sleep(0.05)


@asynccontextmanager
async def live_controller(db_path: LogAt,
                          extra_args: tuple[str, ...] = ()) -> AsyncIterator[LiveController]:
    """A controller on `db_path`; `extra_args` go to `serve` (e.g. ("--playlists", DIR))."""
    controller = LiveController(db_path, extra_args)
    controller.issue_keys()
    await controller.start()
    try:
        yield controller
    finally:
        controller.stop()


async def screen_enrolled(ctl: LiveController, screen: str, group: str, key: str) -> None:
    """What a technician does before a night: `screen` enrolled in `group` with `key`, and
    authorised, so the group's takeovers reach it."""
    async with ctl.client("technician") as tech:
        for command, payload in (
                ("screens.enrol", {"screen": screen, "group": group, "key_hash": key_hash(key)}),
                ("screens.authorise", {"screen": screen})):
            assert (await tech.send(command, payload))["ok"]

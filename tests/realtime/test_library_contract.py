"""What controller/realtime/direct.py and server.py take from python-socketio, python-engineio
and aiohttp beyond their public API, pinned, so a release that moves any of it fails here (CI on
the lock, `scripts/test --latest` on the newest releases) rather than on the floor.

direct.py writes frames past the libraries' queues (docs/direct-writes.md says why): it reaches
private attributes, overrides library methods and repeats two of them with one step changed.
Each of those is checked below; the last test runs the path direct.py hands back to the
library, a client with no open WebSocket here, end to end.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import socketio
from aiohttp import web
from engineio import packet as eio_packet
from engineio.async_drivers import aiohttp as aiohttp_driver
from engineio.async_socket import AsyncSocket
from socketio import packet
from socketio.async_pubsub_manager import AsyncPubSubManager

from controller.access.keys import issue_key
from controller.http.app import create_app, hub_key
from controller.realtime.direct import (
    DirectEngine,
    DirectManager,
    DirectRedisManager,
    DirectWebSocket,
)
from controller.realtime.server import WireServer
from controller.store.target import LogAt, open_log
from tests.support.live import Client

# What each private name is used for; a missing one is named in the failure.
PRIVATE: list[tuple[str, str, str]] = [
    ("engine", "_async", "DirectEngine puts DirectWebSocket in its table of transports"),
    ("engine", "max_http_buffer_size", "DirectWebSocket sizes its WebSocketResponse"),
    ("library_websocket", "handler", "DirectWebSocket reads the engine.io socket's sid off it"),
    ("library_websocket", "server", "DirectWebSocket registers its transport with the engine"),
    ("library_websocket", "_sock", "DirectWebSocket's WebSocketResponse, read by close/send/wait"),
    ("engine_socket", "_websocket_handler", "the handler whose __self__.sid DirectWebSocket reads"),
    ("server", "_send_eio_packet", "DirectManager.emit's path for a client with no WebSocket here"),
    ("server", "_send_packet", "WireServer._refuse sends its error ack"),
    ("server", "_binary_packet", "WireServer drops a half-read binary packet it refused"),
    ("server", "_handle_eio_message", "WireServer answers a packet the library cannot decode"),
    ("server", "_handle_event", "WireServer checks an event's shape before the library"),
    ("server", "_handle_event_internal", "WireServer answers a handler's exception"),
    ("server", "_engineio_server_class", "WireServer makes its engine a DirectEngine"),
    ("server", "environ", "WireServer._refuse logs the client's address"),
    ("server", "namespace_handlers", "WireServer refuses an event no namespace answers"),
    ("server", "reserved_events", "WireServer refuses connect/disconnect sent by a client"),
    ("server", "packet_class", "DirectManager.emit encodes with the server's packet class"),
    ("manager", "rooms", "DirectManager.emit returns early for a namespace with no one in it"),
    ("manager", "get_participants", "DirectManager.emit's recipients as (sid, eio_sid)"),
    ("manager", "sid_from_eio_sid", "WireServer._refuse acks only a connected namespace"),
]

# sha256 of inspect.getsource(...) of the upstream code direct.py repeats or bypasses, as
# reviewed for python-socketio 5.18.1 / python-engineio 4.15.1. When one changes, read the new
# upstream source beside direct.py, carry any fix it made into our copy (or drop ours if
# upstream now does the same), then pin the new hash here.
REVIEWED = {
    # DirectWebSocket.__call__ is this with compress=False and the transport registered
    "engineio.async_drivers.aiohttp:WebSocket.__call__":
        "71f9a94476d737c35a2971f606da0937fc1ac8704d717cb5bac44960864c4453",
    # DirectManager.emit is this with one frame written per recipient instead of one task each
    "socketio.async_manager:AsyncManager.emit":
        "01ccd5b82b4f955e4f2e4d07b5fbf09cacef868e9f61bc2abe56d92118a5f3ac",
    # DirectEngine.send_packet skips this for an open WebSocket: anything it gains, we miss
    "engineio.async_server:AsyncServer.send_packet":
        "c54317440865030d979f95bfb1c98e8663057abaa9c004f1aecae4dd22783841",
    # DirectManager.emit skips this for an open WebSocket, calls it otherwise
    "socketio.async_server:AsyncServer._send_eio_packet":
        "64cf72a2ab7d75b1d4cc1469416cde6ad7e949f74693924381dc05560e9ae929",
    # passes the socket's bound _websocket_handler and the server to DirectWebSocket
    "engineio.async_socket:AsyncSocket._upgrade_websocket":
        "820b83efe96adb98ee63eef1096dd403c6690bf80aa00c49f3985afd30a4bf95",
    # DirectRedisManager: a message from the queue reaches DirectManager.emit via super().emit
    "socketio.async_pubsub_manager:AsyncPubSubManager._handle_emit":
        "4284671be955f644db57572ca19e27c79b0444f89efd4583dac5654650f42c78",
}

OURS = [DirectWebSocket, DirectEngine, DirectManager, WireServer]


def instances() -> dict[str, Any]:
    server = WireServer(["/control"])
    engine = server.eio
    return {"server": server, "engine": engine, "manager": server.manager,
            "engine_socket": AsyncSocket(engine, "sid-1"),
            "library_websocket": aiohttp_driver.WebSocket(None, engine)}


@pytest.mark.parametrize(("owner", "name", "why"), PRIVATE, ids=[f"{o}.{n}" for o, n, _ in PRIVATE])
def test_each_private_name_direct_py_and_server_py_use_exists(owner, name, why):
    assert hasattr(instances()[owner], name), f"{owner} has no {name!r}: {why}"


def test_the_engine_and_its_websocket_are_ours():
    server = WireServer(["/control"])
    assert type(server.eio) is DirectEngine
    assert server.eio._async["websocket"] is DirectWebSocket
    handler = AsyncSocket(server.eio, "sid-1")._websocket_handler
    assert handler.__self__.sid == "sid-1"  # what DirectWebSocket reads off its handler


def test_packets_encode_as_direct_py_frames_them():
    server = WireServer(["/control"])
    encoded = server.packet_class(packet.EVENT, namespace="/control",
                                  data=["views", {"n": 1}]).encode()
    assert encoded == '2/control,["views",{"n":1}]'
    assert eio_packet.Packet(eio_packet.MESSAGE, encoded).encode() == "4" + encoded
    ack = server.packet_class(packet.ACK, namespace="/control", id=7, data=[{}]).encode()
    assert ack == "3/control,7[{}]"


def test_aiohttp_gives_what_direct_writes_need():
    params = inspect.signature(web.WebSocketResponse).parameters
    assert {"max_msg_size", "compress"} <= params.keys()
    assert isinstance(inspect.getattr_static(web.BaseRequest, "transport"), property)


def test_a_queued_message_reaches_the_direct_emit():
    mro = DirectRedisManager.__mro__
    assert mro.index(AsyncPubSubManager) < mro.index(DirectManager) \
        < mro.index(socketio.AsyncManager)


def overrides() -> list[tuple[type, str, type]]:
    """Every method our classes define that a library base class defines too."""
    found = []
    for cls in OURS:
        for name, member in vars(cls).items():
            if name == "__init__" or not inspect.isfunction(member):
                continue  # our __init__s take the library's options as **options
            base = next((b for b in cls.__mro__[1:] if name in vars(b)), None)
            if base is not None:
                found.append((cls, name, base))
    return found


def shape(function: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize(("cls", "name", "base"), overrides(),
                         ids=[f"{c.__name__}.{n}" for c, n, _ in overrides()])
def test_each_override_takes_what_the_library_passes(cls, name, base):
    assert shape(getattr(cls, name)) == shape(getattr(base, name)), \
        f"{base.__module__}.{base.__qualname__}.{name} changed its parameters"


def test_the_overrides_found_are_the_ones_reviewed():
    assert {f"{c.__name__}.{n}" for c, n, _ in overrides()} == {
        "DirectWebSocket.__call__", "DirectEngine.send_packet", "DirectManager.emit",
        "WireServer._engineio_server_class", "WireServer._handle_eio_message",
        "WireServer._handle_event", "WireServer._handle_event_internal"}


def upstream(qualified: str) -> Any:
    module, qualname = qualified.split(":")
    target: Any = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


@pytest.mark.parametrize("qualified", REVIEWED)
def test_the_upstream_code_direct_py_repeats_is_the_reviewed_code(qualified):
    source = inspect.getsource(upstream(qualified))
    assert hashlib.sha256(source.encode()).hexdigest() == REVIEWED[qualified], \
        f"{qualified} changed upstream: review it against direct.py (see REVIEWED's comment)"


class PollingClient(Client):
    """An operator's client on HTTP long-polling: never an open WebSocket here."""

    async def connect(self) -> None:
        await self.sio.connect(self.url, namespaces=[self.namespace], auth={"key": self.key},
                               transports=["polling"], wait_timeout=10)
        await self._on_views(await self.call("sync", {"revisions": {}}))


@asynccontextmanager
async def controller_allowing_polling(db_path: LogAt) -> AsyncIterator[tuple[str, str, Any]]:
    """The controller's app on an ephemeral port, in this process, with HTTP long-polling
    allowed: the served controller refuses it (server.py), and a polling client is the one
    that stays on the library's path long enough to test it. Yields (url, key, engine)."""
    log = open_log(db_path)
    try:
        key = issue_key(log, "operator", "contract test", 0)
    finally:
        log.close()
    runner = web.AppRunner(create_app(db_path))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    engine = runner.app[hub_key].sio.eio
    engine.transports = ["polling", "websocket"]
    engine.ping_interval = engine.ping_timeout = 1  # a long poll returns within a second
    try:
        yield f"http://127.0.0.1:{port}", key, engine
    finally:
        await runner.cleanup()


async def test_a_client_with_no_open_websocket_gets_its_acks_and_views(log_at):
    async with controller_allowing_polling(log_at) as (url, key, engine):
        polling, websocket = PollingClient(url, "operator", key), Client(url, "operator", key)
        await polling.connect()
        await websocket.connect()
        try:
            assert websocket.sio.eio.sid in engine.writable  # the direct path, for comparison
            assert polling.sio.eio.sid not in engine.writable  # the library's path
            ack = await polling.send("register_member",
                                     {"card": "1234567", "display_name": "Thandi Mokoena"})
            assert ack["ok"], ack  # DirectEngine.send_packet handed it to engine.io's queue
            entry = (await polling.send("slots.enter", {"card": "1234567"}))["events"][0][
                "data"]["entry"]
            assert (await polling.send("slots.record_score", {"entry": entry, "score": 1200}))["ok"]
            for client in (polling, websocket):  # DirectManager.emit: _send_eio_packet, a frame
                doc = await client.wait_view("leaderboard:slots", lambda d: d["rows"])
                assert doc["rows"][0]["score"] == 1200
            assert polling.views["leaderboard:slots"] == websocket.views["leaderboard:slots"]
        finally:
            await polling.close()
            await websocket.close()


STATIC = "not no_open_websocket and not renamed"  # the fast tests


def test_a_renamed_private_method_fails_the_contract(tmp_path):
    """The contract test against a copy of socketio with `_send_eio_packet` renamed fails, and
    names it."""
    original = Path(socketio.__file__).parent
    copy = tmp_path / "socketio"
    shutil.copytree(original, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for source in copy.rglob("*.py"):
        text = source.read_text()
        source.write_text(text.replace("_send_eio_packet", "_send_engineio_packet"))
    root = Path(__file__).parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(root)])}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-k", STATIC, __file__],
        cwd=root, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr  # 1: tests ran, some failed
    assert "server has no '_send_eio_packet'" in result.stdout, result.stdout
    imported = subprocess.run([sys.executable, "-c", "import socketio; print(socketio.__file__)"],
                              env=env, capture_output=True, text=True, check=True).stdout
    assert Path(imported.strip()).parent == copy

"""The wire against a real controller, spoken raw: malformed packets, the `/` namespace, HTTP
security headers and keys that are not text (docs/protocol.md, "Malformed messages", "Keys")."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest
import socketio

from tests.integration.test_commands import log_rows
from tests.support.live import live_controller

BAD = "bad_packet"


@asynccontextmanager
async def raw_socket(url: str) -> AsyncIterator[aiohttp.ClientWebSocketResponse]:
    """An Engine.IO v4 WebSocket with its open packet read: Socket.IO spoken by hand."""
    async with aiohttp.ClientSession() as http, http.ws_connect(
            url + "/socket.io/?EIO=4&transport=websocket") as ws:
        assert (await ws.receive_str()).startswith("0{")
        yield ws


async def reply(ws: aiohttp.ClientWebSocketResponse, timeout: float = 5.0) -> str:
    """The next Socket.IO packet that answers (Engine.IO pings are answered on the way, and
    views the controller pushes meanwhile, such as `ops:log` once the whole log is checked,
    are passed over)."""
    while True:
        text = await asyncio.wait_for(ws.receive_str(), timeout)
        if text == "2":
            await ws.send_str("3")
            continue
        if text.startswith('42/control,["views"'):
            continue
        return text


def ack_of(packet: str, prefix: str) -> dict:
    assert packet.startswith(prefix), packet
    (ack,) = json.loads(packet.removeprefix(prefix))
    return ack


GARBAGE_WITH_IDS = [
    '42/control,1["command",{"type":',          # truncated JSON
    '42/control,2[]',                            # no event name
    '42/control,3{"type":"register_member"}',    # an object, not [name, data]
    '42/control,4[7,{}]',                        # a number for a name
    '42/control,5["command",{},{},{}]',          # too many arguments
    '42/control,6["no_such_event",{}]',          # an event nobody answers
    '42/control,7["disconnect","x"]',            # the server's own handler, not for clients
    '42/control,8["connect",{}]',
    '42/control,9["command","\\ud800"]',         # a lone surrogate
]


async def test_malformed_packets_get_an_error_ack_and_one_line_each(log_at):
    async with live_controller(log_at) as ctl, raw_socket(ctl.url) as ws:
        await ws.send_str("40/control," + json.dumps({"key": ctl.keys["operator"]}))
        assert (await reply(ws)).startswith("40/control,")
        for packet in GARBAGE_WITH_IDS:
            await ws.send_str(packet)
            id_ = packet.split(",", 1)[1].split("[", 1)[0].split("{", 1)[0]
            answer = ack_of(await reply(ws), f"43/control,{id_}")
            if id_ == "9":  # decodes and has the right shape: the envelope check answers
                assert answer["error"]["code"] == "bad_envelope", packet
            elif id_ == "1":  # not JSON: the sentence says where
                assert answer == {"ok": False, "error": {
                    "code": BAD, "message": "That message could not be read, so nothing was "
                    "done: The message is not valid JSON (Expecting value at line 1, column 20)."
                }}, packet
            else:
                assert answer == {"ok": False, "error": {
                    "code": BAD, "message": "That message could not be read, so nothing was done."
                }}, packet
        await ws.send_str('42/control,["command",{')   # no id: nothing to answer
        await ws.send_str("9nonsense")                # no such packet type
        await ws.send_str('42/control,20["catalogue"]')  # the connection goes on
        assert "commands" in ack_of(await reply(ws), "43/control,20")
    assert log_rows(ctl.db_path) == []
    output = "".join(ctl.output)
    assert "Traceback" not in output
    # each bad packet once (the surrogate one decodes, so is not one; the id-less one is)
    assert output.count("bad packet from 127.0.0.1 on /control") == len(GARBAGE_WITH_IDS)
    assert output.count("Unknown receive error") == 1  # "9…": below Socket.IO, one line too


async def test_a_deep_or_twice_keyed_packet_is_refused_saying_why_and_the_socket_goes_on(
        log_at):
    """The command path reads JSON as every door does (controller/domain/strict_json.py): a
    packet nested past 32 levels is refused before any parser descends into it, at any depth
    (1,100 levels met RecursionError), and a key named twice is refused naming it."""
    async with live_controller(log_at) as ctl, raw_socket(ctl.url) as ws:
        await ws.send_str("40/control," + json.dumps({"key": ctl.keys["operator"]}))
        assert (await reply(ws)).startswith("40/control,")
        for id_, levels in ((1, 1100), (2, 20_000)):
            deep = "[" * levels + "]" * levels
            await ws.send_str(f'42/control,{id_}["command",{{"type":"register_member",'
                              f'"payload":{{"card":{deep}}},"command_id":"c{id_}"}}]')
            assert ack_of(await reply(ws), f"43/control,{id_}") == {"ok": False, "error": {
                "code": BAD, "message": "That message could not be read, so nothing was done: "
                "The message is nested deeper than 32 levels of objects and lists."}}
        await ws.send_str('42/control,3["command",{"type":"register_member","payload":'
                          '{"card":"1000001","display_name":"A","display_name":"B"},'
                          '"command_id":"c3"}]')
        answer = ack_of(await reply(ws), "43/control,3")
        assert answer["error"]["code"] == BAD
        assert 'names the field "display_name" twice' in answer["error"]["message"]
        await ws.send_str('40/display,{"key":' + "[" * 5000 + "]" * 5000 + "}")  # a connect
        refused = await reply(ws)
        assert refused.startswith("44/display,") and json.loads(refused.split(",", 1)[1]) == {
            "message": "That connection could not be read: The message is nested deeper than "
                       "32 levels of objects and lists."}
        await ws.send_str('42/control,4["catalogue"]')  # the connection goes on
        assert "commands" in ack_of(await reply(ws), "43/control,4")
    assert log_rows(ctl.db_path) == []
    output = "".join(ctl.output)
    assert "Traceback" not in output and "RecursionError" not in output
    assert output.count("bad packet from 127.0.0.1") == 4


async def test_the_default_namespace_refuses_everyone(log_at):
    """Only /control, /display and /cue accept clients; `/` refuses even a valid key."""
    async with live_controller(log_at) as ctl:
        for auth in (None, {"key": ctl.keys["operator"]}):
            client = socketio.AsyncClient(reconnection=False)
            with pytest.raises(socketio.exceptions.ConnectionError):
                await client.connect(ctl.url, namespaces=["/"], auth=auth,
                                     transports=["websocket"], wait_timeout=5)
            await client.disconnect()
        async with raw_socket(ctl.url) as ws:
            await ws.send_str("40")
            assert (await reply(ws)).startswith("44")  # CONNECT_ERROR
            await ws.send_str('42["sync",{}]')
            await ws.send_str('421["sync",{}]')  # not connected on /: no answer at all
            await ws.send_str("40/control," + json.dumps({"key": ctl.keys["operator"]}))
            assert (await reply(ws)).startswith("40/control,")


PAGES = ["/tablet", "/cue", "/static/tablet.js", "/static/base.css",
         "/vendor/socket.io.min.js", "/healthz", "/screens", "/no-such-page"]


async def test_every_answer_carries_the_security_headers(log_at):
    async with live_controller(log_at) as ctl, aiohttp.ClientSession() as http:
        host = ctl.url.removeprefix("http://")
        for path in PAGES:
            async with http.get(ctl.url + path, allow_redirects=False) as response:
                headers = response.headers
                csp = headers["Content-Security-Policy"]
                assert "script-src 'self'" in csp, path
                assert "frame-ancestors 'none'" in csp, path
                assert f"connect-src 'self' ws://{host} wss://{host}" in csp, path
                assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
                assert headers["X-Content-Type-Options"] == "nosniff", path
                assert headers["Referrer-Policy"] == "no-referrer", path
                assert headers["X-Frame-Options"] == "DENY", path


def raw_http(port: int, request: bytes) -> bytes:
    """One raw HTTP/1.1 exchange: the bytes a client library would refuse to send."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def get_with_key_header(port: int, key: bytes, path: bytes = b"/screens") -> bytes:
    return raw_http(port, b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"X-Showrunner-Key: " + key + b"\r\nConnection: close\r\n\r\n")


@pytest.mark.parametrize("key", [b"\xff\xfe", b"abc\xed\xa0\x80", b"\xc3"])
async def test_a_key_header_that_is_not_text_is_a_400(log_at, key):
    async with live_controller(log_at) as ctl:
        answer = await asyncio.to_thread(get_with_key_header, ctl.port, key)
        assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
        assert b"A key is plain letters and digits" in answer
        good = ctl.keys["technician"].encode()
        assert (await asyncio.to_thread(get_with_key_header, ctl.port, good)
                ).startswith(b"HTTP/1.1 200")
    output = "".join(ctl.output)
    assert "Traceback" not in output
    assert output.count("bad key encoding from 127.0.0.1 on /screens") == 1


@pytest.mark.parametrize("query", [b"key=%FF", b"key=%ED%A0%80", b"key=%00"])
async def test_a_key_query_that_is_not_text_is_a_400(log_at, query):
    async with live_controller(log_at) as ctl:
        answer = await asyncio.to_thread(raw_http, ctl.port, b"GET /tablet?" + query +
                                         b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                         b"Connection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert "Traceback" not in "".join(ctl.output)


@pytest.mark.parametrize("namespace", ["/control", "/display", "/cue"])
async def test_a_lone_surrogate_in_the_auth_key_is_refused_in_a_sentence(log_at, namespace):
    async with live_controller(log_at) as ctl, raw_socket(ctl.url) as ws:
        await ws.send_str(f'40{namespace},{{"key":"ab\\ud800cd","screen":"s1"}}')
        refusal = await reply(ws)
        assert refusal.startswith(f"44{namespace},")
        assert json.loads(refusal.split(",", 1)[1]) == {
            "message": "A key is plain letters and digits; this one is not."}
        await ws.send_str(f"40{namespace}," + json.dumps({"key": 7}))
        assert (await reply(ws)).startswith(f"44{namespace},")
    output = "".join(ctl.output)
    assert "Traceback" not in output
    assert output.count(f"wrong key from 127.0.0.1 on {namespace}") == 2


async def test_invalid_utf8_in_a_frame_closes_that_socket_cleanly(log_at):
    async with live_controller(log_at) as ctl:
        async with raw_socket(ctl.url) as ws:
            await ws._writer.send_frame(b'40/control,{"key":"\xff\xfe"}',  # no client lib would
                                        aiohttp.WSMsgType.TEXT)
            closed = await asyncio.wait_for(ws.receive(), 5)
            assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 1007  # bad data
        async with ctl.client() as mc:  # the controller goes on
            assert (await mc.call("clock", {}))["server_ms"] > 0
    assert "Traceback" not in "".join(ctl.output)


async def test_only_websocket_is_spoken(log_at):
    """HTTP long-polling is refused (400), so an undecodable POST body never reaches a parser."""
    async with live_controller(log_at) as ctl, aiohttp.ClientSession() as http:
        async with http.get(ctl.url + "/socket.io/?EIO=4&transport=polling") as response:
            assert response.status == 400
        async with http.post(ctl.url + "/socket.io/?EIO=4&transport=polling&sid=x",
                             data=b'40/control,{"key":"\xff"}') as response:
            assert response.status == 400
    assert "Traceback" not in "".join(ctl.output)


async def test_a_client_offering_compression_is_answered_uncompressed_and_in_plain_frames(
        log_at):
    """controller/realtime/direct.py: deflating each message once per client cost more than it
    saved; the frames it writes itself must still be well formed for a strict client (aiohttp's)."""
    async with live_controller(log_at) as ctl, aiohttp.ClientSession() as http, \
            http.ws_connect(ctl.url + "/socket.io/?EIO=4&transport=websocket",
                            compress=15) as ws:
        assert ws.compress == 0  # permessage-deflate offered, declined
        assert (await ws.receive_str()).startswith("0{")
        await ws.send_str("40/display," + json.dumps({"key": ctl.keys["display"]}))
        assert (await reply(ws)).startswith("40/display,{")  # written straight to the socket
        await ws.send_str('42/display,7["sync",{"revisions":{}}]')
        answer = await reply(ws)
        assert answer.startswith("43/display,7[")
        views = json.loads(answer.removeprefix("43/display,7"))[0]["views"]
        assert {v["name"] for v in views} >= {"venue"}

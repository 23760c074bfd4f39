"""controller/realtime/direct.py on real sockets: the frames it builds, and a client that stops
reading."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp.http import WebSocketWriter

from controller.realtime import direct
from controller.realtime.direct import DirectEngine, websocket_frame


class Capture(asyncio.Transport):
    """Just enough of a transport for aiohttp's own frame writer: the bytes it writes."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""

    def write(self, data: bytes) -> None:  # type: ignore[override]
        self.written += bytes(data)

    def is_closing(self) -> bool:
        return False


@pytest.mark.parametrize("payload", ["", "4x", "4" + "é" * 62, "4" + "x" * 125, "4" * 65535,
                                     "4" * 65536, b"\x00\x01binary"])
async def test_a_frame_is_the_one_aiohttps_writer_would_send(payload):
    capture = Capture()
    writer = WebSocketWriter(None, capture)  # type: ignore[arg-type]
    data = payload.encode() if isinstance(payload, str) else payload
    await writer.send_frame(data, 0x1 if isinstance(payload, str) else 0x2)
    assert websocket_frame(payload) == capture.written


async def test_a_client_that_stops_reading_is_cut_once_its_backlog_passes_the_limit(
        monkeypatch):
    monkeypatch.setattr(direct, "MAX_BUFFERED_BYTES", 256 * 1024)
    accepted: asyncio.Future[asyncio.Transport] = asyncio.get_running_loop().create_future()

    class Server(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted.set_result(transport)  # type: ignore[arg-type]

    server = await asyncio.get_running_loop().create_server(Server, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1024)
    writer.transport.pause_reading()  # a frozen screen: connected, reading nothing
    engine = DirectEngine()
    engine.writable["frozen"] = transport = await accepted
    frame = websocket_frame("4" + "x" * 60_000)
    try:
        written = 0
        while not transport.is_closing():
            assert engine.write("frozen", frame)
            written += len(frame)
            assert written < 64 * direct.MAX_BUFFERED_BYTES, "never cut"
        assert transport.get_write_buffer_size() <= direct.MAX_BUFFERED_BYTES + len(frame)
        assert not engine.write("frozen", frame)  # gone: the engine's own path takes over
        writer.transport.resume_reading()
        with pytest.raises((ConnectionResetError, asyncio.IncompleteReadError)):
            await asyncio.wait_for(reader.readexactly(written + 1), 10)
    finally:
        writer.close()
        server.close()

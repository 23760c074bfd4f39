"""HTTP spoken by hand over a real socket: requests a client library would not send (a key
header that is not UTF-8, headers a byte at a time, a chunked body that never ends) and the
answer as it came, or the moment the server closed without one."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def parse(raw: bytes) -> Answer:
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = headers.get("content-length")
    return Answer(int(status_line.split()[1]), headers,
                  body[:int(length)] if length is not None else body)


async def connect(port: int, source: str = "127.0.0.1"
                  ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the controller on loopback from `source` (any 127.x.y.z address is
    this machine's: another client address without another machine)."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def exchange(port: int, request: bytes, source: str = "127.0.0.1",
                   timeout: float = 10.0) -> Answer:
    """Send `request` whole and read the answer until the server closes or it is complete."""
    reader, writer = await connect(port, source)
    try:
        writer.write(request)
        await writer.drain()
        return parse(await asyncio.wait_for(read_answer(reader), timeout))
    finally:
        writer.close()


async def read_answer(reader: asyncio.StreamReader) -> bytes:
    """One answer's bytes (by its Content-Length), or what came before the server closed."""
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = await reader.read(65536)
        if not chunk:
            return raw
        raw += chunk
    length = parse(raw).headers.get("content-length")
    while length is not None and len(raw.partition(b"\r\n\r\n")[2]) < int(length):
        chunk = await reader.read(65536)
        if not chunk:
            break
        raw += chunk
    return raw


def post(path: str, body: bytes, headers: dict[str, str | bytes] | None = None) -> bytes:
    """A POST of `body` with a Content-Length; header values may be raw bytes."""
    lines = [f"POST {path} HTTP/1.1".encode(), b"Host: controller",
             b"Content-Type: application/json", f"Content-Length: {len(body)}".encode()]
    for name, value in (headers or {}).items():
        lines.append(name.encode() + b": " + (value if isinstance(value, bytes)
                                              else value.encode()))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body

"""Slow and broken clients against a real controller process over real sockets
(docs/operations.md, "Slow and broken clients"): 200 half-sent requests from one address,
headers sent a byte at a time, bodies that never end or stop short. The broken clients are
cut (past the cap per address at once, with a 503 in words; the rest at the header or body
timeout, a body with a 408 in words), a well-behaved client from another address is answered
all the while, the controller's file descriptors come back, and nothing reaches the log.

The timeouts are set short (4 s for headers, 1 s for bodies), so no test waits long."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import aiohttp

from controller.access.keys import issue_key
from controller.store.target import open_log
from tests.support.live import LiveController
from tests.support.raw_http import Answer, connect, parse, read_answer

CAP = 20
HALF_SENT = 200
HEADER_S = 4  # long enough for the good client's calls while the broken ones are held
LIMITS = ("--header-timeout", str(HEADER_S), "--body-timeout", "1",
          "--connections-per-address", str(CAP))
CREDITS = "/api/v1/slots/banks/bank-1/heats/F-1/credits"


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def half_sent(port: int, source: str = "127.0.0.1") -> Answer | None:
    """A request whose head never ends: the answer it got, or None when it was cut."""
    reader, writer = await connect(port, source)
    try:
        writer.write(b"POST " + CREDITS.encode() + b" HTTP/1.1\r\nHost: controller\r\n")
        await writer.drain()
        raw = await asyncio.wait_for(read_answer(reader), 20)
        return parse(raw) if raw else None
    finally:
        writer.close()


async def byte_a_time(port: int, source: str) -> int:
    """Headers a byte every 0.1 s, never ending; how many bytes went before it was cut."""
    reader, writer = await connect(port, source)
    sent = 0
    try:
        for byte in b"GET /healthz HTTP/1.1\r\nHost: controller\r\nX-Pad: " + b"p" * 2000:
            if reader.at_eof():
                break
            writer.write(bytes([byte]))
            await writer.drain()
            sent += 1
            await asyncio.sleep(0.1)
    except ConnectionError:
        pass
    finally:
        writer.close()
    assert await asyncio.wait_for(reader.read(), 20) == b""  # cut, no answer
    return sent


async def unfinished_body(port: int, key: str, head: bytes, start: bytes) -> Answer:
    """A request whose body stops arriving after `start`: the answer, then the close."""
    reader, writer = await connect(port, "127.0.0.4")
    try:
        writer.write(head.replace(b"KEY", key.encode()) + start)
        await writer.drain()
        answer = parse(await asyncio.wait_for(read_answer(reader), 20))
        assert await asyncio.wait_for(reader.read(), 20) == b""  # and the connection closed
        return answer
    finally:
        writer.close()


CHUNKED = (b"POST " + CREDITS.encode() + b" HTTP/1.1\r\nHost: controller\r\n"
           b"X-Showrunner-Key: KEY\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n")
SHORT = (b"POST " + CREDITS.encode() + b" HTTP/1.1\r\nHost: controller\r\n"
         b"X-Showrunner-Key: KEY\r\nContent-Type: application/json\r\n"
         b"Content-Length: 500\r\n\r\n")


async def well_behaved(url: str, key: str) -> list[int]:
    """From another address: the floor's calls (a page, the API's document, a bank's POST
    for a heat it has not started); the status of each."""
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    statuses = []
    async with aiohttp.ClientSession(url, connector=connector,
                                     timeout=aiohttp.ClientTimeout(total=5)) as http:
        for path in ("/healthz", "/api/v1/openapi.json"):
            async with http.get(path) as answer:
                statuses.append(answer.status)
        async with http.post(CREDITS, json={"readings": [{"machine": "1", "credits": 5}]},
                             headers={"X-Showrunner-Key": key}) as answer:
            statuses.append(answer.status)
            assert (await answer.json())["error"]["code"] == "unknown_feed_heat"
    return statuses


async def seq(url: str) -> int:
    async with aiohttp.ClientSession(url) as http, http.get("/healthz") as answer:
        return int((await answer.json())["seq"])


async def test_broken_clients_are_cut_and_a_good_one_is_answered_meanwhile(tmp_path: Path):
    db = tmp_path / "show.db"
    log = open_log(db)
    try:
        key = issue_key(log, "device", "bank-1", 0)
    finally:
        log.close()
    ctl = LiveController(db, LIMITS)
    ctl.issue_keys()
    await ctl.start()
    try:
        assert ctl.process is not None
        pid, before = ctl.process.pid, await seq(ctl.url)
        await asyncio.sleep(0.5)  # the start's own files settle (its configs, the snapshot)
        files = open_files(pid)
        half = [asyncio.create_task(half_sent(ctl.port)) for _ in range(HALF_SENT)]
        slow = [asyncio.create_task(byte_a_time(ctl.port, "127.0.0.3")) for _ in range(3)]
        bodies = [asyncio.create_task(unfinished_body(ctl.port, key, CHUNKED,
                                                      b"5\r\n{\"rea\r\n")),
                  asyncio.create_task(unfinished_body(ctl.port, key, SHORT,
                                                      b'{"readings": ['))]
        # past the cap, refused at once in words
        done: set[asyncio.Task[Answer | None]] = set()
        held = set(half)
        while len(done) < HALF_SENT - CAP:
            more, held = await asyncio.wait(held, timeout=15,
                                            return_when=asyncio.FIRST_COMPLETED)
            assert more, f"{len(done)} of the half-sent requests were answered"
            done |= more
        refused = [task.result() for task in done]
        assert all(a is not None and a.status == 503
                   and a.json()["error"]["code"] == "too_many_connections"
                   and "Your address holds 20 connections" in a.json()["error"]["message"]
                   for a in refused)
        # while the others are held open, a good client from another address is answered
        assert await well_behaved(ctl.url, key) == [200, 200, 404]
        assert len(held) == CAP and not any(task.done() for task in held)
        # then each broken one is cut: at the header timeout, a body with a 408 in words
        assert [await task for task in held] == [None] * CAP
        assert all(sent < 100 for sent in await asyncio.gather(*slow))  # of its 2,000 bytes
        for task in bodies:
            answer = await task
            assert (answer.status, answer.json()["error"]["code"]) == (408, "too_slow")
            assert answer.json()["error"]["message"] == (
                "The request's body did not arrive within 1 s of its headers, so nothing was "
                "done; send it again in one go.")
        # the first address is admitted again, the files are given back, the log untouched
        async with aiohttp.ClientSession(ctl.url) as http, http.get("/healthz") as answer:
            assert answer.status == 200
        assert open_files(pid) <= files + 2
        assert await seq(ctl.url) == before
    finally:
        ctl.stop()
    output = "".join(ctl.output)
    assert "Traceback" not in output
    assert output.count("connections from 127.0.0.1 refused") == 1  # once per storm


async def stalled(port: int, head: bytes, start: bytes) -> Answer:
    """`head` with its body's first bytes, then nothing: the answer, then the close."""
    reader, writer = await connect(port)
    try:
        writer.write(head + start)
        await writer.drain()
        answer = parse(await asyncio.wait_for(read_answer(reader), 20))
        assert await asyncio.wait_for(reader.read(), 20) == b""
        return answer
    finally:
        writer.close()


async def test_every_door_that_reads_a_body_refuses_one_that_stops_and_keeps_nothing(
        tmp_path: Path):
    """A login, a signature and a media upload that stall: each is 408 in its door's shape
    and the connection is closed; nothing is kept or logged."""
    ctl = LiveController(tmp_path / "show.db", ("--body-timeout", "1"))
    ctl.issue_keys()
    await ctl.start()
    try:
        before = await seq(ctl.url)
        operator, technician = (ctl.keys[role].encode() for role in ("operator", "technician"))
        login, signature, upload = await asyncio.gather(
            stalled(ctl.port, b"POST /login HTTP/1.1\r\nHost: c\r\nContent-Type: "
                    b"application/json\r\nContent-Length: 80\r\n\r\n", b'{"name": "'),
            stalled(ctl.port, b"POST /signatures HTTP/1.1\r\nHost: c\r\nX-Showrunner-Key: " +
                    operator + b"\r\nContent-Type: image/png\r\nContent-Length: 4000\r\n\r\n",
                    b"\x89PNG\r\n"),
            stalled(ctl.port, b"POST /media HTTP/1.1\r\nHost: c\r\nX-Showrunner-Key: " +
                    technician + b"\r\nContent-Type: multipart/form-data; boundary=x\r\n"
                    b"Content-Length: 900000\r\n\r\n", b'--x\r\nContent-Disposition: '
                    b'form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG' +
                    b"\0" * 300_000))
        for answer in (login, signature):
            assert (answer.status, answer.json()["error"]["code"]) == (408, "too_slow")
            assert "did not arrive within 1 s" in answer.json()["error"]["message"]
        assert upload.status == 408 and upload.json() == {"error": (
            "The upload stopped: nothing arrived for 1 s, so nothing was kept; send the file "
            "again.")}
        media = Path(f"{tmp_path / 'show.db'}.media")
        assert not media.exists() or list(media.iterdir()) == []  # no part-upload left
        assert await seq(ctl.url) == before
    finally:
        ctl.stop()
    assert "Traceback" not in "".join(ctl.output)
